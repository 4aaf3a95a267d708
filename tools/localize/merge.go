package localize

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ReadSuiteReport reads a suite report written with -json.
func ReadSuiteReport(r io.Reader) (*SuiteReport, error) {
	var s SuiteReport
	if err := json.NewDecoder(r).Decode(&s); err != nil {
		return nil, fmt.Errorf("read suite report: %w (want the -json output of m1nd-localize -repos)", err)
	}
	if len(s.Methods) == 0 {
		return nil, fmt.Errorf("read suite report: no methods (want the -json output of m1nd-localize -repos, not of -repo)")
	}
	return &s, nil
}

// MergeSuites joins suite reports run separately (say the original
// repositories with 25 tasks each and the large ones with 40) into one,
// re-grouped: its methods are those every report ran, in report order,
// and a repository may appear in one report only.
func MergeSuites(reps ...*SuiteReport) (*SuiteReport, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("merge: no reports")
	}
	out := &SuiteReport{Started: reps[0].Started, Machine: reps[0].Machine, Methods: reps[0].Methods}
	seen := map[string]int{}
	for i, r := range reps {
		if r.Started.Before(out.Started) {
			out.Started = r.Started
		}
		out.ElapsedS = round4(out.ElapsedS + r.ElapsedS)
		out.Methods = common(out.Methods, r.Methods)
		for _, rr := range r.Repos {
			if j, dup := seen[rr.Name]; dup {
				return nil, fmt.Errorf("merge: repository %s is in reports %d and %d; merge reports of disjoint repositories (-only)", rr.Name, j+1, i+1)
			}
			seen[rr.Name] = i
			out.Repos = append(out.Repos, rr)
		}
	}
	out.Summarize()
	return out, nil
}

// common keeps the methods of a that b also has, in a's order.
func common(a, b []string) []string {
	in := map[string]bool{}
	for _, m := range b {
		in[m] = true
	}
	var out []string
	for _, m := range a {
		if in[m] {
			out = append(out, m)
		}
	}
	return out
}

// repoLatencyMarkdown is one row per repository: median tree size and
// each step's p50 (client wall clock), so a large repository's cost
// shows apart from the median of the suite.
func (s *SuiteReport) repoLatencyMarkdown() string {
	var b strings.Builder
	steps := append([]string{"ingest"}, s.Methods...)
	fmt.Fprintf(&b, "\np50 per repository, ms:\n\n| repository | tasks | source files | nodes | %s |\n| --- | ---: | ---: | ---: |%s\n",
		strings.Join(steps, " | "), strings.Repeat(" ---: |", len(steps)))
	for _, r := range s.Repos {
		if r.Report == nil || len(r.Report.Results) == 0 {
			continue
		}
		lat := map[string][]float64{}
		var files, nodes []float64
		for _, t := range r.Report.Results {
			files, nodes = append(files, float64(t.Files)), append(nodes, float64(t.Nodes))
			lat["ingest"] = append(lat["ingest"], t.IngestMs)
			for m, v := range t.LatencyMs {
				lat[m] = append(lat[m], v)
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %.0f | %.0f |", r.Name, len(r.Report.Results), quantile(files, 0.5), quantile(nodes, 0.5))
		for _, m := range steps {
			fmt.Fprintf(&b, " %.1f |", quantile(lat[m], 0.5))
		}
		b.WriteString("\n")
	}
	return b.String()
}
