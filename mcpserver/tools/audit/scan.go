package audit

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/ingest/scan"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// scanDefaultSeverity is severity_min's default (the warning threshold),
// as the tags of scanParams and scanAllParams write it.
const scanDefaultSeverity = 0.3

// scanPatternList renders the built-in patterns with what each finds.
func scanPatternList() string {
	var b strings.Builder
	for i, p := range scan.Patterns() {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%q: %s", p, scan.Describe(p))
	}
	return b.String()
}

// scanParams and scanAllParams share scope, severity_min and
// graph_validate, spelled out in each rather than embedded: toolset's
// TestBindAgreesWithAccessors looks a parameter up among a struct's own
// fields. The built-in pattern names written in the tags are
// scan.Patterns(), in its order; TestScanTagsNameEveryPattern holds them
// together.
type scanParams struct {
	Pattern       string  `json:"pattern" jsonschema:"A built-in pattern (scan_all's patterns) or a tree-sitter query." help:"A built-in pattern (error_handling, resource_cleanup, api_surface, state_mutation, concurrency, auth_boundary, test_coverage, dependency_injection) or a custom tree-sitter query such as (call_expression function: (identifier) @f (#eq? @f \"panic\")) @match." tool:"required,maxlen=4096"`
	Scope         string  `json:"scope" jsonschema:"Path prefix, glob or node id." help:"Limit the scan: a file path prefix (\"backend/\"), a glob (\"src/**/*.py\") or a node (\"file::src/auth.py\", a function id) whose lines are scanned."`
	SeverityMin   float64 `json:"severity_min" jsonschema:"warning 0.3, error 0.6, critical 0.8." help:"Minimum severity, 0 to 1 (info < 0.3 ≤ warning < 0.6 ≤ error < 0.8 ≤ critical). Lower it to see the informational findings." tool:"default=0.3,min=0,max=1"`
	GraphValidate bool    `json:"graph_validate" jsonschema:"false: raw matches." help:"Validate each finding against the graph: the enclosing function or type, its callers, dependents and tests (a test that calls the function refutes a test_coverage finding). false: raw pattern matches only." tool:"default=true"`
	Limit         int     `json:"limit" help:"Maximum findings returned, the most severe first (the totals count all)." tool:"default=50,min=1,max=1000"`
}

type scanAllParams struct {
	Scope           string   `json:"scope" jsonschema:"Path prefix, glob or node id." help:"Limit the scan: a file path prefix (\"backend/\"), a glob (\"src/**/*.py\") or a node (\"file::src/auth.py\", a function id) whose lines are scanned."`
	SeverityMin     float64  `json:"severity_min" jsonschema:"warning 0.3, error 0.6, critical 0.8." help:"Minimum severity, 0 to 1 (info < 0.3 ≤ warning < 0.6 ≤ error < 0.8 ≤ critical). Lower it to see the informational findings." tool:"default=0.3,min=0,max=1"`
	GraphValidate   bool     `json:"graph_validate" jsonschema:"false: raw matches." help:"Validate each finding against the graph: the enclosing function or type, its callers, dependents and tests (a test that calls the function refutes a test_coverage finding). false: raw pattern matches only." tool:"default=true"`
	Patterns        []string `json:"patterns" help:"Subset of scan patterns to run (default: all)." tool:"enum=error_handling|resource_cleanup|api_surface|state_mutation|concurrency|auth_boundary|test_coverage|dependency_injection"`
	LimitPerPattern int      `json:"limit_per_pattern" help:"Maximum findings per pattern, the most severe first." tool:"default=50,min=1,max=1000"`
}

func registerScan(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "scan",
		Title:       "Pattern scan",
		Description: "Code matching a structural pattern (swallowed errors, leaks, races…) or a query.",
		Details: "Pattern-aware structural code analysis with graph-validated findings. Runs one pattern over the ingested Go, Python, JavaScript/TypeScript, Java and Rust files with tree-sitter queries (each match checked against the code around it), then validates each finding against the graph: status confirmed, mitigated (the graph shows it handled or low-impact) or unvalidated; false positives the graph refutes are dropped and counted. " +
			"Returns the most severe `limit` findings at or above severity_min, sorted by file, line and pattern, each with file, line and column range, severity and level, message, snippet, the enclosing node and its graph context. Built-in patterns — " + scanPatternList() +
			". A pattern starting with \"(\" is a custom tree-sitter query: every match (the node captured @match, else the first capture) is a finding.",
		Class:     tools.Read,
		WhenToUse: "A quality or security audit of one concern: swallowed errors, leaked resources, racy state, routes without auth, untested exports, hard-wired dependencies — before a deploy, a refactor or a review.",
		AvoidWhen: "You have one error to explain (trace) or one claim to test (hypothesize); or you want every pattern at once (scan_all).",
		Next:      []string{"view", "impact", "scan_all"},
		Example:   map[string]any{"agent_id": "claude", "pattern": "error_handling", "scope": "backend/", "severity_min": 0.5},
	}, runScan)
	tools.Add(r, tools.Tool{
		Name:        "scan_all",
		Title:       "Scan all patterns",
		Description: "Every scan pattern (or some) in one pass, grouped by pattern: a quality and security sweep.",
		Details:     "Run every structural scan pattern (or the subset in patterns) in one pass over the files and return the findings grouped by pattern, each group like scan's answer: the most severe limit_per_pattern findings at or above severity_min, graph-validated, sorted by file, line and pattern, with raw and validated totals.",
		Class:       tools.Read,
		WhenToUse:   "A broad first-pass quality and security sweep before prioritising fixes or hardening.",
		AvoidWhen:   "A tiny one-file question (view), or one concern (scan with that pattern).",
		Next:        []string{"batch_view", "view", "scan"},
		Example:     map[string]any{"agent_id": "claude", "scope": "backend/", "limit_per_pattern": 20},
	}, runScanAll)
}

// scanContextRef is a neighbour of a finding's node in the graph.
type scanContextRef struct {
	NodeID   string `json:"node_id"`
	Label    string `json:"label"`
	Relation string `json:"relation" jsonschema:"How it relates to the finding's node: calls, imports, tests, references … (it depends on the node), or the node's own relation for what the node reaches."`
}

// scanFinding is one finding in an answer.
type scanFinding struct {
	Pattern      string           `json:"pattern"`
	Rule         string           `json:"rule" jsonschema:"The check within the pattern, e.g. go/discarded-error."`
	Status       string           `json:"status" jsonschema:"confirmed (the graph backs it), mitigated (the graph shows it handled or low-impact) or unvalidated (graph_validate is false or no node to check against)."`
	Severity     float64          `json:"severity" jsonschema:"0 to 1, after graph validation."`
	Level        string           `json:"level" jsonschema:"info, warning, error or critical."`
	NodeID       string           `json:"node_id,omitempty" jsonschema:"The innermost graph node around the finding (a function, method, class or the file)."`
	Label        string           `json:"label,omitempty"`
	FilePath     string           `json:"file_path"`
	Line         int              `json:"line"`
	Column       int              `json:"column"`
	EndLine      int              `json:"end_line"`
	EndColumn    int              `json:"end_column"`
	Message      string           `json:"message"`
	Snippet      string           `json:"snippet" jsonschema:"The first source line of the finding, trimmed, at most 160 bytes."`
	Subject      string           `json:"subject,omitempty" jsonschema:"What the finding is about when not the code at line: the function, global or route."`
	Handler      string           `json:"handler,omitempty" jsonschema:"auth_boundary: the function the route hands requests to."`
	InTest       bool             `json:"in_test,omitempty" jsonschema:"In a test file (severity halved)."`
	Validation   string           `json:"validation,omitempty" jsonschema:"What the graph showed."`
	GraphContext []scanContextRef `json:"graph_context"`
}

// scanCounts are the totals of one pattern (or of a custom query).
type scanCounts struct {
	TotalMatchesRaw       int  `json:"total_matches_raw" jsonschema:"Every match in scope, before validation and severity_min."`
	TotalMatchesValidated int  `json:"total_matches_validated" jsonschema:"Matches the graph confirmed or showed mitigated."`
	FalsePositives        int  `json:"false_positives" jsonschema:"Matches the graph refuted (dropped)."`
	Unvalidated           int  `json:"unvalidated"`
	BelowSeverityMin      int  `json:"below_severity_min"`
	Truncated             bool `json:"truncated" jsonschema:"More findings passed the filters than the limit returns."`
}

// scanOutput is scan's answer.
type scanOutput struct {
	Pattern       string         `json:"pattern"`
	Scope         string         `json:"scope,omitempty"`
	SeverityMin   float64        `json:"severity_min"`
	GraphValidate bool           `json:"graph_validate"`
	Findings      []scanFinding  `json:"findings"`
	FilesScanned  int            `json:"files_scanned"`
	FilesSkipped  map[string]int `json:"files_skipped,omitempty" jsonschema:"Files in scope not scanned, by reason: changed_since_ingest, missing_or_refused, unreadable, too_large."`
	scanCounts
	ByLevel   map[string]int `json:"by_level" jsonschema:"Findings that passed the filters, by level (before the limit)."`
	ElapsedMs float64        `json:"elapsed_ms"`
	tools.Guidance
}

// scanPatternResult is one pattern's group in scan_all's answer.
type scanPatternResult struct {
	Pattern  string        `json:"pattern"`
	Findings []scanFinding `json:"findings"`
	scanCounts
}

// scanAllOutput is scan_all's answer.
type scanAllOutput struct {
	Scope         string              `json:"scope,omitempty"`
	SeverityMin   float64             `json:"severity_min"`
	GraphValidate bool                `json:"graph_validate"`
	Patterns      []scanPatternResult `json:"patterns" jsonschema:"One group per pattern run, in the order the patterns are listed."`
	FilesScanned  int                 `json:"files_scanned"`
	FilesSkipped  map[string]int      `json:"files_skipped,omitempty"`
	// Totals over all patterns.
	TotalFindings         int            `json:"total_findings" jsonschema:"Findings returned over all patterns."`
	TotalMatchesRaw       int            `json:"total_matches_raw"`
	TotalMatchesValidated int            `json:"total_matches_validated"`
	ByLevel               map[string]int `json:"by_level"`
	ElapsedMs             float64        `json:"elapsed_ms"`
	tools.Guidance
}

// scanRequest is a resolved scan call.
type scanRequest struct {
	patterns []string
	query    *scan.Query
	scope    string
	sevMin   float64
	validate bool
}

func runScan(c *tools.Call, in scanParams) (scanOutput, error) {
	start := time.Now()
	req := scanRequest{scope: in.Scope, sevMin: in.SeverityMin, validate: in.GraphValidate}
	name := strings.TrimSpace(in.Pattern)
	switch {
	case scan.Known(name):
		req.patterns = []string{name}
	case strings.HasPrefix(name, "("):
		q, err := scan.Compile(name)
		if err != nil {
			return scanOutput{}, tools.Errorf("A custom pattern is a tree-sitter query over the syntax tree with at least one capture, e.g. (call_expression function: (identifier) @f (#eq? @f \"panic\")) @match; node names follow each language's grammar.", "pattern is not a valid custom query: %v", err).
				WithExample(map[string]any{"agent_id": "claude", "pattern": `(call_expression function: (identifier) @f (#eq? @f "panic")) @match`})
		}
		req.patterns, req.query, name = []string{}, q, scan.Custom
	default:
		return scanOutput{}, scanPatternError(in.Pattern)
	}
	var out scanOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		run, err := scanBundle(c, b, req)
		if err != nil {
			return err
		}
		group := run.group(name, in.Limit)
		out = scanOutput{Pattern: name, Scope: run.scope, SeverityMin: in.SeverityMin, GraphValidate: in.GraphValidate,
			Findings: group.Findings, FilesScanned: run.scanned, FilesSkipped: run.skipped, scanCounts: group.scanCounts, ByLevel: run.byLevel(name)}
		out.Guidance = scanGuidance(c, [][]scanFinding{group.Findings}, req.validate, "scan")
		return nil
	})
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, err
}

func runScanAll(c *tools.Call, in scanAllParams) (scanAllOutput, error) {
	start := time.Now()
	req := scanRequest{patterns: scan.Patterns(), scope: in.Scope, sevMin: in.SeverityMin, validate: in.GraphValidate}
	if len(in.Patterns) > 0 {
		req.patterns = nil
		for _, p := range scan.Patterns() {
			if slices.Contains(in.Patterns, p) {
				req.patterns = append(req.patterns, p)
			}
		}
	}
	var out scanAllOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		run, err := scanBundle(c, b, req)
		if err != nil {
			return err
		}
		out = scanAllOutput{Scope: run.scope, SeverityMin: in.SeverityMin, GraphValidate: in.GraphValidate,
			FilesScanned: run.scanned, FilesSkipped: run.skipped, Patterns: []scanPatternResult{}, ByLevel: map[string]int{}}
		var groups [][]scanFinding
		for _, p := range req.patterns {
			g := run.group(p, in.LimitPerPattern)
			out.Patterns = append(out.Patterns, g)
			out.TotalFindings += len(g.Findings)
			out.TotalMatchesRaw += g.TotalMatchesRaw
			out.TotalMatchesValidated += g.TotalMatchesValidated
			for k, v := range run.byLevel(p) {
				out.ByLevel[k] += v
			}
			groups = append(groups, g.Findings)
		}
		out.Guidance = scanGuidance(c, groups, req.validate, "scan_all")
		return nil
	})
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, err
}

// scanPatternError teaches the valid patterns.
func scanPatternError(p string) error {
	best, bestD := scan.ErrorHandling, 1<<30
	for _, v := range scan.Patterns() {
		if d := tools.EditDistance(strings.ToLower(strings.TrimSpace(p)), v); d < bestD {
			best, bestD = v, d
		}
	}
	hint := "Built-in patterns: " + scanPatternList() + ". A custom pattern is a tree-sitter query starting with \"(\"."
	if bestD <= max(3, len(best)/3) {
		hint = fmt.Sprintf("Did you mean %q? ", best) + hint
	}
	e := tools.Errorf(hint, "unknown pattern %q (valid: %s)", p, strings.Join(scan.Patterns(), ", "))
	e.Extra = map[string]any{"valid_patterns": scan.Patterns()}
	if bestD <= max(3, len(best)/3) {
		e.Extra["did_you_mean"] = best
	}
	return e.WithExample(map[string]any{"agent_id": "claude", "pattern": best}).
		WithNext("Call scan with one of the valid patterns, or scan_all to run them all.")
}

// group selects one pattern's findings: those validated (or unvalidated)
// at or above severity_min, the most severe limit of them, in file, line
// and pattern order.
func (r *scanRun) group(pattern string, limit int) scanPatternResult {
	out := scanPatternResult{Pattern: pattern, Findings: []scanFinding{}}
	var kept []scanFinding
	for _, f := range r.findings {
		if f.Pattern != pattern {
			continue
		}
		out.TotalMatchesRaw++
		switch f.Status {
		case scanFalsePositive:
			out.FalsePositives++
			continue
		case scanUnvalidated:
			out.Unvalidated++
		default:
			out.TotalMatchesValidated++
		}
		if f.Severity < r.sevMin {
			out.BelowSeverityMin++
			continue
		}
		kept = append(kept, f)
	}
	slices.SortStableFunc(kept, func(a, b scanFinding) int { return cmp.Compare(b.Severity, a.Severity) })
	if len(kept) > limit {
		kept, out.Truncated = kept[:limit], true
	}
	slices.SortStableFunc(kept, scanOrder)
	out.Findings = append(out.Findings, kept...)
	return out
}

// byLevel counts a pattern's findings that pass the filters, by level.
func (r *scanRun) byLevel(pattern string) map[string]int {
	out := map[string]int{}
	for _, f := range r.findings {
		if f.Pattern == pattern && f.Status != scanFalsePositive && f.Severity >= r.sevMin {
			out[f.Level]++
		}
	}
	return out
}

// scanOrder sorts findings by file, line, pattern, then column and rule.
func scanOrder(a, b scanFinding) int {
	return cmp.Or(strings.Compare(a.FilePath, b.FilePath), cmp.Compare(a.Line, b.Line), strings.Compare(a.Pattern, b.Pattern),
		cmp.Compare(a.Column, b.Column), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Subject, b.Subject))
}

// scanGuidance points at the most severe finding of the answer.
func scanGuidance(c *tools.Call, groups [][]scanFinding, validated bool, tool string) tools.Guidance {
	var top *scanFinding
	files := map[string]bool{}
	for _, g := range groups {
		for i := range g {
			files[g[i].FilePath] = true
			if top == nil || g[i].Severity > top.Severity || g[i].Severity == top.Severity && scanOrder(g[i], *top) < 0 {
				top = &g[i]
			}
		}
	}
	if top == nil {
		next := tools.FirstTool(c.Registry, "scan_all", "search")
		if tool == "scan_all" {
			next = tools.FirstTool(c.Registry, "search", "activate")
		}
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: next,
			NextStepHint: "No finding at this severity in scope: lower severity_min to see informational ones, widen the scope, or try another pattern."}
	}
	g := tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: tools.FmtLines(top.FilePath, top.Line)}
	if !validated {
		g.ProofState = "triaging"
	}
	g.NextStepHint = fmt.Sprintf("Read %s around line %d to confirm the %s finding (%s, %s)", top.FilePath, top.Line, top.Pattern, top.Rule, top.Level)
	if len(top.GraphContext) > 0 && top.NodeID != "" {
		if t := tools.FirstTool(c.Registry, "impact"); t != "" {
			g.NextStepHint += fmt.Sprintf("; %d node(s) depend on %s — call %s on it before changing it", len(top.GraphContext), top.Label, t)
		}
	}
	if tool == "scan_all" && len(files) > 1 {
		if t := tools.FirstTool(c.Registry, "batch_view"); t != "" {
			g.NextSuggestedTool, g.NextSuggestedTarget = t, top.FilePath
			g.NextStepHint += fmt.Sprintf("; the findings span %d files — batch_view reads the worst of them in one call", len(files))
		}
	}
	g.NextStepHint += "."
	return g
}

// scanError turns a file's scan error into a skip reason.
func scanError(err error) string {
	switch {
	case errors.Is(err, scan.ErrTooLarge):
		return "too_large"
	case errors.Is(err, scan.ErrUnsupported):
		return "unsupported"
	}
	return "parse_error"
}
