package edit

import (
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// What a brief answer of apply and apply_batch keeps of its lists (the
// full answer, detail "full", keeps everything).
const (
	briefBlastRadius  = 10
	briefInsights     = 5
	briefRemovedNames = 5
	// briefMessage bounds a layer's first failure message.
	briefMessage = 400
)

// withDetail answers in the detail asked for: the full answer as it was
// built, or its brief form.
func withDetail(o applyOutput, err error) func(detail string) (applyOutput, error) {
	return func(detail string) (applyOutput, error) {
		if err != nil || detail == "full" {
			return o, err
		}
		return brief(o), nil
	}
}

// layerSummary is one verification layer in a brief answer.
type layerSummary struct {
	Layer  string `json:"layer" jsonschema:"A stubs, B build, C blast radius and removed names, D tests, E anti-patterns."`
	Status string `json:"status" jsonschema:"passed, warning (weighs RISKY), failed (weighs BROKEN), skipped (could not run) or none (nothing to check)."`
	Count  int    `json:"count" jsonschema:"Checks run (B, D), findings (A, E) or files within 2 hops (C)."`
	// Failed counts what weighs on the verdict.
	Failed       int    `json:"failed,omitempty" jsonschema:"Checks that failed (B, D), or findings that weigh on the verdict (A, E; C: removed names still used)."`
	PreExisting  int    `json:"pre_existing,omitempty" jsonschema:"Failures that happen without the edit too, not blamed on it (B, D)."`
	FirstFailure string `json:"first_failure,omitempty" jsonschema:"The first failure's message, clipped (detail full has every check's output)."`
}

// brief is the lean form of a write's answer: the outcome (status, the
// verdict and its reasons), each file's path (absolute, and its root), action, new_sha256 and line
// counts, one line per verification layer, and the blast radius, the
// insights and the removed names still used bounded, with totals for the
// rest. The node ids, every layer's checks, the graph diff, the phases and
// the progress events are the full answer's.
func brief(o applyOutput) applyOutput {
	b := o
	b.Results = make([]editResult, len(o.Results))
	for i, r := range o.Results {
		// Where the write landed stays in every answer (which root, which
		// file on disk): a relative path is only as good as the root it
		// resolved under.
		b.Results[i] = editResult{FilePath: r.FilePath, AbsolutePath: r.AbsolutePath, Root: r.Root, Action: r.Action, Restored: r.Restored, Bytes: r.Bytes, NewSHA256: r.NewSHA256,
			LinesAdded: r.LinesAdded, LinesRemoved: r.LinesRemoved}
	}
	b.UpdatedNodeIDs, b.RemovedNodeIDs = nil, nil
	b.Reingest.Roots, b.Reingest.Prepared, b.Reingest.WalkSkipped = nil, 0, false
	b.CompileCheck, b.TestOutput = nil, ""
	if n := len(o.BlastRadius); n > briefBlastRadius {
		b.BlastRadius, b.BlastRadiusTotal = o.BlastRadius[:briefBlastRadius], n
	}
	if o.Verification != nil && o.Verification.LayerC.Total > len(b.BlastRadius) {
		b.BlastRadiusTotal = o.Verification.LayerC.Total
	}
	if n := len(o.ProactiveInsights); n > briefInsights {
		b.ProactiveInsights, b.ProactiveInsightsTotal = o.ProactiveInsights[:briefInsights], n
	}
	b.Phases = nil
	b.ProgressEvents, b.ProgressEventsTotal = nil, len(o.ProgressEvents)
	if v := o.Verification; v != nil {
		b.Verification = briefVerification(v)
	}
	return b
}

func briefVerification(v *verificationReport) *verificationReport {
	pre := map[string]int{}
	for _, p := range v.PreExistingFailures {
		pre[p.Layer]++
	}
	c := layerSummary{Layer: "C", Count: v.LayerC.Total, Status: "passed"}
	if v.LayerC.Unavailable != "" {
		c.Status, c.FirstFailure = "skipped", v.LayerC.Unavailable
	}
	findingsInto(&c, v.RemovedNamesUsed)
	out := &verificationReport{Verdict: v.Verdict, Reasons: v.Reasons, ElapsedMs: v.ElapsedMs,
		Layers: []layerSummary{
			findings("A", v.LayerA),
			checks("B", v.LayerB, pre["B"]),
			c,
			checks("D", v.LayerD, pre["D"]),
			findings("E", v.LayerE),
		}}
	// error repeats the reasons, unless the restore itself went wrong.
	if v.Error != "BROKEN: "+strings.Join(v.Reasons, "; ") {
		out.Error = v.Error
	}
	var used []edit.Finding
	for _, f := range v.RemovedNamesUsed {
		if f.Severity != "info" && len(used) < briefRemovedNames {
			used = append(used, f)
		}
	}
	out.RemovedNamesUsed = used
	return out
}

// findings is a layer of findings (A, E): failed counts those of severity
// broken or warning, the layer's status is the gravest.
func findings(layer string, fs []edit.Finding) layerSummary {
	s := layerSummary{Layer: layer, Count: len(fs), Status: "passed"}
	findingsInto(&s, fs)
	return s
}

func findingsInto(s *layerSummary, fs []edit.Finding) {
	for _, f := range fs {
		if f.Severity != "broken" && f.Severity != "warning" {
			continue
		}
		s.Failed++
		switch {
		case f.Severity == "broken":
			s.Status = "failed"
		case s.Status != "failed":
			s.Status = "warning"
		}
		if s.FirstFailure == "" {
			s.FirstFailure = tools.ClipText(findingText(f), briefMessage)
		}
	}
}

func findingText(f edit.Finding) string {
	at := f.File
	if f.Line > 0 {
		at += ":" + strconv.Itoa(f.Line)
	}
	return at + ": " + f.Detail
}

// checks is a layer of commands (B, D): a blocking failure fails it, any
// other failure, time-out or error is a warning; a layer whose checks were
// all skipped (or found no tests) was skipped (or had nothing to check).
func checks(layer string, cs []edit.Check, pre int) layerSummary {
	s := layerSummary{Layer: layer, Count: len(cs), PreExisting: pre, Status: "none"}
	skipped, empty := 0, 0
	var first *edit.Check
	for i, c := range cs {
		switch c.Status {
		case "failed", "timeout", "error":
			s.Failed++
			if c.Status == "failed" && c.Blocking {
				if s.Status != "failed" {
					first = &cs[i]
				}
				s.Status = "failed"
			} else if s.Status != "failed" {
				if s.Status != "warning" {
					first = &cs[i]
				}
				s.Status = "warning"
			}
		case "skipped":
			skipped++
		case "no_tests":
			empty++
		}
	}
	switch {
	case s.Failed > 0, skipped == 0 && empty == len(cs):
	case skipped+empty == len(cs):
		s.Status = "skipped"
		first = &cs[slices.IndexFunc(cs, func(c edit.Check) bool { return c.Status == "skipped" })]
	default:
		s.Status = "passed"
	}
	if first != nil {
		s.FirstFailure = tools.ClipText(checkText(*first), briefMessage)
	}
	return s
}

// checkText is a check's command, status and its first lines of output
// (else its reason).
func checkText(c edit.Check) string {
	msg := strings.TrimSpace(withoutProgress(c.Output))
	if msg == "" {
		msg = c.Reason
	}
	head := c.Command + " " + c.Status
	if c.Status == "failed" && c.ExitCode != 0 {
		head += " (exit " + strconv.Itoa(c.ExitCode) + ")"
	}
	if msg == "" {
		return head
	}
	return head + ": " + msg
}

// progressLines are toolchains' progress chatter: in a clipped first
// failure they pushed the compiler's message out ("go: downloading …"
// lines filled viper's BROKEN verdict before "not enough arguments").
var progressLines = []string{"go: downloading ", "go: finding module ", "go: extracting ", "Compiling ", "Downloading ", "Downloaded ", "Updating ", "Blocking waiting for file lock"}

// withoutProgress drops progress chatter from a check's output (detail
// full keeps the output whole).
func withoutProgress(out string) string {
	lines := strings.Split(out, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !slices.ContainsFunc(progressLines, func(p string) bool { return strings.HasPrefix(t, p) }) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}
