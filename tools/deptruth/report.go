package deptruth

import (
	"fmt"
	"sort"
	"strings"
)

// Markdown renders the summary: per repository, per language, per split,
// with the machine and the server it ran against.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## deptruth — impact against each language's own dependency truth\n\n")
	fmt.Fprintf(&b, "Run %s, %.0f s; server `%s` (%s); impact `top_k` %v, no `direction` (the default).\n\n",
		r.Started.Format("2006-01-02 15:04 MST"), r.ElapsedS, r.Server, r.M1nd, r.Options["top_k"])
	b.WriteString("| machine | |\n| --- | --- |\n")
	for _, k := range sortedKeys(r.Machine) {
		fmt.Fprintf(&b, "| %s | %s |\n", k, r.Machine[k])
	}
	fmt.Fprintf(&b, "\nTargets: direct precision ≥ %.1f, blast precision ≥ %.1f, direct recall ≥ %.1f (✓ marks a score at or above its target). "+
		"Scores are means over the files with at least one true direct dependent; an error, a missing node or an empty answer scores 0. "+
		"Edge R/P compare the files impact names at hop 1 with the true edges, ignoring order. "+
		"False alarms: mean number of files named for files without true dependents.\n\n",
		TargetDirectPrecision, TargetBlastPrecision, TargetDirectRecall)

	b.WriteString("| split | repo | lang | files | with deps | true edges | direct P | blast P | direct R | edge R | edge P | false alarms (files) | empty | lacked | errors | direction | truth s | ingest ms | impact s |\n")
	b.WriteString("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n")
	repos := append([]RepoReport(nil), r.Repos...)
	sort.SliceStable(repos, func(i, j int) bool {
		if repos[i].Split != repos[j].Split {
			return repos[i].Split > repos[j].Split // tune first
		}
		return repos[i].Lang < repos[j].Lang
	})
	for _, rr := range repos {
		if rr.Error != "" {
			fmt.Fprintf(&b, "| %s | %s | %s | error: %s |||||||||||||||\n", rr.Split, rr.Name, rr.Lang, strings.ReplaceAll(clip(rr.Error, 200), "|", "/"))
			continue
		}
		s := rr.Scores
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %s | %s | %s | %.3f | %.3f | %.2f (%d/%d) | %d | %d | %d | %s | %.1f | %.0f | %.1f |\n",
			rr.Split, rr.Name, rr.Lang, s.Files, s.WithDependents, s.TrueEdges,
			mark(s.DirectPrecision, TargetDirectPrecision), mark(s.BlastPrecision, TargetBlastPrecision), mark(s.DirectRecall, TargetDirectRecall),
			s.EdgeRecall, s.EdgePrecision, s.FalseAlarms, s.FalseAlarmFiles, s.NoDependents, s.Empty, s.Lacked, s.Errored,
			directions(s.Directions), rr.TruthS, rr.IngestMs, rr.ImpactS)
	}

	group := func(title string, m map[string]Scores) {
		fmt.Fprintf(&b, "\n%s (mean of the repositories' scores; counts summed):\n\n", title)
		b.WriteString("| group | files | with deps | direct P | blast P | direct R | edge R | edge P | false alarms | lacked | errors |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, k := range sortedKeys(m) {
			s := m[k]
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s | %.3f | %.3f | %.2f | %d | %d |\n", k, s.Files, s.WithDependents,
				mark(s.DirectPrecision, TargetDirectPrecision), mark(s.BlastPrecision, TargetBlastPrecision), mark(s.DirectRecall, TargetDirectRecall),
				s.EdgeRecall, s.EdgePrecision, s.FalseAlarms, s.Lacked, s.Errored)
		}
	}
	group("By language", r.ByLang)
	group("By split", r.BySplit)
	group("All", map[string]Scores{"all": r.All})

	b.WriteString("\nGround truth notes:\n\n")
	for _, rr := range repos {
		if rr.Error != "" {
			continue
		}
		var parts []string
		if len(rr.Skipped) > 0 {
			parts = append(parts, fmt.Sprintf("%d tracked %s files not analysed (e.g. `%s`: %s)", len(rr.Skipped), rr.Lang, firstKey(rr.Skipped), clip(rr.Skipped[firstKey(rr.Skipped)], 120)))
		}
		if len(rr.TruthStats) > 0 {
			var st []string
			for _, k := range sortedKeys(rr.TruthStats) {
				st = append(st, fmt.Sprintf("%s %v", k, rr.TruthStats[k]))
			}
			parts = append(parts, strings.Join(st, ", "))
		}
		for _, n := range rr.Notes[:min(len(rr.Notes), 3)] {
			parts = append(parts, clip(n, 240))
		}
		fmt.Fprintf(&b, "- **%s** (`%s` at `%s`): %s\n", rr.Name, rr.Slug, short(rr.Head), strings.ReplaceAll(strings.Join(parts, "; "), "\n", " "))
	}
	return b.String()
}

func mark(v, target float64) string {
	if v >= target {
		return fmt.Sprintf("%.3f ✓", v)
	}
	return fmt.Sprintf("%.3f", v)
}

func directions(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, ", ")
}

func firstKey(m map[string]string) string {
	keys := sortedKeys(m)
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}
