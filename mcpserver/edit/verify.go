package edit

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// Verdicts of a verified batch (the spec's Verdict).
const (
	Safe   = "SAFE"
	Risky  = "RISKY"
	Broken = "BROKEN"
)

// Finding is one signal of layers A and E: where, what, and how much it
// weighs (severity "broken", "warning" or "info").
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Symbol   string `json:"symbol,omitempty"`
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Detail   string `json:"detail"`
}

// Layer A — trivial content. A function whose body was real logic and is
// now a stub (pass, ..., a constant return, panic("TODO"), todo!(),
// raise NotImplementedError, ...) is a stub replacing logic: the file
// compiles and does nothing. Every function of a file becoming trivial
// while the file had logic is the same, file-wide. A new file made of
// stubs only is reported as a warning (scaffolding is legitimate).

// trivialStmt matches one normalized statement that does nothing real.
var trivialStmt = regexp.MustCompile(`^(?:` + strings.Join([]string{
	`pass`, `\.\.\.`, `return;?`,
	`return\s+(?:None|nil|null|undefined|0|1|-1|0\.0|true|false|True|False|""|''|\[\]|\{\}|\(\)|self|this)\s*;?`,
	`return\s+(?:nil|0|""|false|None|null),\s*(?:nil|None|null)`,
	`return\s+(?:nil|0|""|false)?,?\s*(?:errors\.New|fmt\.Errorf)\("[^"]*"\)`,
	`raise\s+NotImplementedError(?:\(.*\))?`, `raise\s+Exception\(\s*["'](?i:todo|not implemented|unimplemented)[^"']*["']\s*\)`,
	`panic\(\s*"[^"]*"\s*\);?`, `panic!\(.*\);?`,
	`todo!\(.*\);?`, `unimplemented!\(.*\);?`, `unreachable!\(\s*\);?`,
	`throw\s+new\s+(?:Error|NotImplementedException|UnsupportedOperationException|NotImplementedError)\(.*\);?`,
	`Ok\(\(\)\)`, `None`, `0`, `\(\)`, `Default::default\(\)`, `Vec::new\(\)`, `String::new\(\)`, `true`, `false`,
	`return\s+(?:Ok\(\(\)\)|Default::default\(\));?`,
}, "|") + `)$`)

var (
	lineComment  = regexp.MustCompile(`^\s*(?://|#|--)`)
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	docString    = regexp.MustCompile(`(?s)^\s*(?:"""|''').*?(?:"""|''')\s*`)
)

// bodyOf returns the statements of a function's source (its lines as the
// extractor gave them), comments and docstrings removed, or ok false when
// the body cannot be told apart from the signature.
func bodyOf(src, lang string) (stmts []string, ok bool) {
	var body string
	switch lang {
	case "python":
		// The body starts after the line that ends the signature (":").
		ls := strings.Split(src, "\n")
		start := -1
		for i, l := range ls {
			if strings.HasSuffix(strings.TrimSpace(stripHash(l)), ":") {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, false
		}
		body = docString.ReplaceAllString(strings.Join(ls[start:], "\n"), "")
	case "ruby":
		ls := strings.Split(strings.TrimSpace(src), "\n")
		if len(ls) < 2 {
			return nil, false
		}
		body = strings.Join(ls[1:len(ls)-1], "\n")
	default:
		i, j := strings.IndexByte(src, '{'), strings.LastIndexByte(src, '}')
		if i < 0 || j <= i {
			return nil, false
		}
		body = src[i+1 : j]
	}
	body = blockComment.ReplaceAllString(body, "")
	for _, l := range strings.Split(body, "\n") {
		if lineComment.MatchString(l) {
			continue
		}
		for _, s := range strings.Split(l, ";") {
			if s = strings.TrimSpace(s); s != "" {
				stmts = append(stmts, s)
			}
		}
	}
	return stmts, true
}

func stripHash(l string) string {
	if i := strings.Index(l, "#"); i >= 0 {
		return l[:i]
	}
	return l
}

// trivial reports whether statements do nothing real.
func trivial(stmts []string) bool {
	switch len(stmts) {
	case 0:
		return true
	case 1:
		return trivialStmt.MatchString(stmts[0])
	}
	return false
}

type fn struct {
	id, label string
	line      int
	trivial   bool
	abstract  bool
}

// functions extracts the functions of a file with whether each is
// trivial; ok false for a file no extractor understands.
func functions(rel string, src []byte) ([]fn, bool) {
	r, err := extract.ExtractFile(rel, src)
	if r == nil || err != nil && len(r.Nodes) == 0 {
		return nil, false
	}
	lang := r.Language
	lines := strings.Split(string(src), "\n")
	var out []fn
	for _, n := range r.Nodes {
		if n.Type != graph.Function || n.Line == 0 || int(n.EndLine) > len(lines) || n.EndLine < n.Line {
			continue
		}
		text := strings.Join(lines[n.Line-1:n.EndLine], "\n")
		stmts, ok := bodyOf(text, lang)
		if !ok {
			continue
		}
		f := fn{id: n.ID, label: n.Label, line: int(n.Line), trivial: trivial(stmts)}
		if n.Line >= 2 {
			prev := strings.TrimSpace(lines[n.Line-2])
			f.abstract = strings.HasPrefix(prev, "@abstractmethod") || strings.HasPrefix(prev, "@abc.abstractmethod") || strings.HasPrefix(prev, "@overload") || strings.HasPrefix(prev, "@typing.overload")
		}
		out = append(out, f)
	}
	return out, true
}

// Stubs is layer A for one file (rel is its root-relative path; old is
// nil for a new file).
func Stubs(rel string, old, next []byte, existed bool) []Finding {
	nf, ok := functions(rel, next)
	if !ok || len(nf) == 0 {
		return nil
	}
	var of []fn
	if existed {
		of, _ = functions(rel, old)
	}
	real := map[string]bool{}
	oldLogic := false
	for _, f := range of {
		if !f.trivial {
			real[f.id], oldLogic = true, true
		}
	}
	var out []Finding
	allTrivial := true
	for _, f := range nf {
		if !f.trivial || f.abstract {
			allTrivial = allTrivial && f.abstract
			continue
		}
		if real[f.id] {
			out = append(out, Finding{File: rel, Line: f.line, Symbol: f.label, Kind: "stub_replaced_logic", Severity: "broken",
				Detail: f.label + " had real logic and is now a stub (its body does nothing but pass, return a constant, or raise/panic \"not implemented\")"})
		}
	}
	switch {
	case !allTrivial:
	case existed && oldLogic && len(out) == 0:
		out = append(out, Finding{File: rel, Kind: "trivial_only", Severity: "broken",
			Detail: "every function of the file is now trivial while it had real logic before"})
	case !existed:
		out = append(out, Finding{File: rel, Kind: "stub_file", Severity: "warning",
			Detail: "the new file's functions are all stubs"})
	}
	return out
}

// Layer E — anti-patterns the diff introduces: each pattern counts in
// the added lines only (so what was there before is not blamed on the
// edit), some only where the old file had none.

type antiPattern struct {
	kind, severity, detail string
	langs                  []string // extensions; nil for every file
	re                     *regexp.Regexp
	// newToFile: only when the old contents had no match at all.
	newToFile bool
	// nonTest: only outside test files.
	nonTest bool
	// testOnly: only in test files.
	testOnly bool
}

var antiPatterns = []antiPattern{
	{kind: "todo_macro", severity: "warning", detail: "todo!()/unimplemented!() inserted: a stub replacing logic", langs: []string{".rs"}, re: regexp.MustCompile(`\b(?:todo|unimplemented)!\(`)},
	{kind: "unwrap_added", severity: "warning", detail: ".unwrap() added where the file had none: error handling removed", langs: []string{".rs"}, re: regexp.MustCompile(`\.unwrap\(\)`), newToFile: true},
	{kind: "panic_added", severity: "warning", detail: "panic!/unreachable! in non-test code: a crash path", langs: []string{".rs"}, re: regexp.MustCompile(`\b(?:panic|unreachable)!\(`), nonTest: true},
	{kind: "panic_added", severity: "warning", detail: "panic(...) in non-test code: a crash path", langs: []string{".go"}, re: regexp.MustCompile(`(?:^|[^\w.])panic\(`), nonTest: true},
	{kind: "error_discarded", severity: "warning", detail: "an error assigned to _ : silently ignored", langs: []string{".go"}, re: regexp.MustCompile(`^\s*_\s*=\s*err\b|,\s*_\s*(?::=|=)\s*\w+\.\w+\(.*\)\s*$`)},
	{kind: "empty_error_branch", severity: "warning", detail: "if err != nil {} with an empty body: the error is swallowed", langs: []string{".go"}, re: regexp.MustCompile(`if\s+err\s*!=\s*nil\s*\{\s*\}`)},
	{kind: "bare_except", severity: "warning", detail: "bare except: catches everything, SystemExit and KeyboardInterrupt included", langs: []string{".py"}, re: regexp.MustCompile(`^\s*except\s*:`)},
	{kind: "empty_except", severity: "warning", detail: "except block that only passes: silent error swallowing", langs: []string{".py"}, re: regexp.MustCompile(`(?m)^\s*except\b[^:\n]*:\s*(?:pass|\.\.\.)?\s*\n\s*(?:pass|\.\.\.)\s*$|^\s*except\b[^:\n]*:\s*(?:pass|\.\.\.)\s*$`)},
	{kind: "not_implemented", severity: "warning", detail: "raise NotImplementedError inserted: a stub", langs: []string{".py"}, re: regexp.MustCompile(`raise\s+NotImplementedError`)},
	{kind: "empty_catch", severity: "warning", detail: "empty catch block: silent error swallowing", langs: []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".java", ".kt", ".cs", ".php", ".scala", ".swift", ".dart"}, re: regexp.MustCompile(`catch\s*(?:\([^)]*\))?\s*\{\s*\}`)},
	{kind: "test_disabled", severity: "warning", detail: "a test is skipped or focused", langs: []string{".py"}, re: regexp.MustCompile(`@pytest\.mark\.skip|pytest\.skip\(|@unittest\.skip|self\.skipTest\(`)},
	{kind: "test_disabled", severity: "warning", detail: "a test is skipped", langs: []string{".go"}, re: regexp.MustCompile(`\bt\.Skip(?:f|Now)?\(`), testOnly: true},
	{kind: "test_disabled", severity: "warning", detail: "a test is skipped or focused", langs: []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"}, re: regexp.MustCompile(`\b(?:it|describe|test)\.(?:skip|only)\(|\bx(?:it|describe)\(`)},
	{kind: "test_disabled", severity: "warning", detail: "a test is ignored", langs: []string{".java", ".kt", ".rs"}, re: regexp.MustCompile(`@Ignore\b|@Disabled\b|#\[ignore\]`)},
	{kind: "checker_silenced", severity: "info", detail: "a type checker or linter is silenced", re: regexp.MustCompile(`#\s*type:\s*ignore|@ts-ignore|@ts-nocheck|eslint-disable|//\s*nolint|#\s*noqa|#\[allow\(`)},
	{kind: "todo_marker", severity: "info", detail: "TODO/FIXME left in the code", re: regexp.MustCompile(`\b(?:TODO|FIXME|XXX|HACK)\b`)},
}

// errorHandling counts a language's error-handling constructs, to tell
// when an edit removed them (replaced a handler with a no-op).
var errorHandling = map[string]*regexp.Regexp{
	".go": regexp.MustCompile(`\berr\s*!=\s*nil`),
	".py": regexp.MustCompile(`(?m)^\s*except\b`),
	".js": regexp.MustCompile(`\bcatch\b`), ".ts": regexp.MustCompile(`\bcatch\b`), ".tsx": regexp.MustCompile(`\bcatch\b`), ".jsx": regexp.MustCompile(`\bcatch\b`),
	".java": regexp.MustCompile(`\bcatch\b`), ".kt": regexp.MustCompile(`\bcatch\b`), ".cs": regexp.MustCompile(`\bcatch\b`),
	".rs": regexp.MustCompile(`\?\s*;|\bmatch\b|\bif let Err\b|\.map_err\(`),
}

// IsTestFile reports whether a path names a test by the usual conventions.
func IsTestFile(rel string) bool {
	base := path.Base(rel)
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"), strings.HasSuffix(base, "_test.py"),
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."), strings.HasSuffix(base, "_spec.rb"):
		return true
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if d == "tests" || d == "__tests__" || d == "test" {
			return true
		}
	}
	return false
}

// AntiPatterns is layer E for one file: what the lines the edit added
// introduce, and error handling it removed.
func AntiPatterns(rel string, old, next []byte) []Finding {
	ext := strings.ToLower(path.Ext(rel))
	added, _ := Added(old, next)
	if len(added) == 0 {
		return nil
	}
	isTest := IsTestFile(rel)
	var text strings.Builder
	for _, l := range added {
		text.WriteString(l.Text + "\n")
	}
	var out []Finding
	for _, p := range antiPatterns {
		if (p.langs != nil && !slices.Contains(p.langs, ext)) || (p.nonTest && isTest) || (p.testOnly && !isTest) {
			continue
		}
		if p.newToFile && p.re.Match(old) {
			continue
		}
		if line := firstMatch(p.re, added, text.String()); line > 0 {
			out = append(out, Finding{File: rel, Line: line, Kind: p.kind, Severity: p.severity, Detail: p.detail})
		}
	}
	if re := errorHandling[ext]; re != nil {
		if o, n := len(re.FindAllIndex(old, -1)), len(re.FindAllIndex(next, -1)); n < o {
			out = append(out, Finding{File: rel, Kind: "error_handling_removed", Severity: "warning",
				Detail: "error handling removed: " + strconv.Itoa(o) + " handlers before, " + strconv.Itoa(n) + " after"})
		}
	}
	return out
}

// firstMatch returns the line of the first added line a pattern matches
// (patterns spanning lines are matched on the added text as a whole).
func firstMatch(re *regexp.Regexp, added []Line, joined string) int {
	for _, l := range added {
		if re.MatchString(l.Text) {
			return l.N
		}
	}
	if loc := re.FindStringIndex(joined); loc != nil {
		return added[strings.Count(joined[:loc[0]], "\n")].N
	}
	return 0
}

// Decide is the verdict of a verified batch:
//
//   - BROKEN: a blocking check failed (build, compile, type check) or
//     layer A found a stub replacing logic — the batch is restored;
//   - RISKY: accepted with warnings — tests failed or timed out, go vet
//     complained, anti-patterns appeared, a check could not finish, or
//     the graph lost symbols of the files written;
//   - SAFE otherwise.
//
// Reasons say why, one sentence each, in layer order.
func Decide(stubs []Finding, compile []Check, tests []Check, anti []Finding, graphShrank string) (verdict string, reasons []string) {
	broken, risky := false, false
	for _, f := range stubs {
		reasons = append(reasons, "A: "+f.File+": "+f.Detail)
		broken = broken || f.Severity == "broken"
		risky = risky || f.Severity == "warning"
	}
	for _, c := range compile {
		switch {
		case c.Status == "failed" && c.Blocking:
			broken = true
			reasons = append(reasons, "B: "+c.Command+" failed (exit "+strconv.Itoa(c.ExitCode)+")")
		case c.Status == "failed", c.Status == "timeout", c.Status == "error":
			risky = true
			reasons = append(reasons, "B: "+c.Command+" "+c.Status)
		}
	}
	for _, c := range tests {
		switch c.Status {
		case "failed":
			risky = true
			reasons = append(reasons, "D: "+strconv.Itoa(c.TestsFailed)+" of "+strconv.Itoa(c.TestsRun)+" tests failed ("+c.Command+")")
		case "timeout", "error":
			risky = true
			reasons = append(reasons, "D: "+c.Command+" "+c.Status)
		}
	}
	for _, f := range anti {
		if f.Severity == "warning" {
			risky = true
			reasons = append(reasons, "E: "+f.File+":"+strconv.Itoa(f.Line)+": "+f.Detail)
		}
	}
	if graphShrank != "" {
		risky = true
		reasons = append(reasons, "graph: "+graphShrank)
	}
	switch {
	case broken:
		return Broken, reasons
	case risky:
		return Risky, reasons
	}
	return Safe, reasons
}
