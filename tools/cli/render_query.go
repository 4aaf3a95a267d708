package cli

import (
	"encoding/json"
	"fmt"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"io"
	"strconv"
	"strings"
)

func renderSeek(w io.Writer, st style, raw []byte) error {
	var r query.SeekOutput
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	if len(r.Results) == 0 {
		fmt.Fprintln(w, "no results")
		next(w, st, raw, r.Guidance)
		return nil
	}
	rows := make([][]string, 0, len(r.Results))
	for _, x := range r.Results {
		rows = append(rows, []string{num(x.Score), x.Type, x.Label, location(x.FilePath, int(x.LineStart), int(x.LineEnd)), clip(x.IntentSummary, 60)})
	}
	table(w, st, []string{"SCORE", "TYPE", "NAME", "LOCATION", "SUMMARY"}, rows)
	next(w, st, raw, r.Guidance)
	return nil
}

// location is file:start-end (or file:line, or file).
func location(file string, start, end int) string {
	switch {
	case file == "":
		return ""
	case start <= 0:
		return file
	case end > start:
		return fmt.Sprintf("%s:%d-%d", file, start, end)
	}
	return fmt.Sprintf("%s:%d", file, start)
}

func renderImpact(w io.Writer, st style, raw []byte) error {
	var r change.ImpactOutput
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s of %s (%s): %s\n", st.bold("impact"), shortID(r.Source), r.Direction, plural(r.TotalAffected, "node affected", "nodes affected"))
	if len(r.BlastRadius) > 0 {
		rows := make([][]string, 0, len(r.BlastRadius))
		for _, b := range r.BlastRadius {
			via := ""
			if len(b.Via) > 0 {
				via = clip(b.Via[0], 70)
			}
			rows = append(rows, []string{strconv.Itoa(b.HopDistance), num(b.SignalStrength), b.Type, shortID(b.NodeID), via})
		}
		table(w, st, []string{"HOP", "SIGNAL", "TYPE", "NODE", "VIA"}, rows)
	}
	if r.NotListed > 0 {
		fmt.Fprintf(w, "… and %d more (--top_k)\n", r.NotListed)
	}
	next(w, st, raw, r.Guidance)
	return nil
}

func renderWhy(w io.Writer, st style, raw []byte) error {
	var r change.WhyOutput
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %s → %s: %s\n", st.bold("why"), shortID(r.Source), shortID(r.Target), plural(r.TotalPathsFound, "path", "paths"))
	rows := make([][]string, 0, len(r.Paths))
	for i, p := range r.Paths {
		rows = append(rows, []string{strconv.Itoa(i + 1), strconv.Itoa(p.Hops), num(p.CumulativeStrength), chain(p.Path, p.Relations)})
	}
	if len(rows) > 0 {
		table(w, st, []string{"#", "HOPS", "STRENGTH", "PATH"}, rows)
	}
	next(w, st, raw, tools.Guidance{NextStepHint: r.NextStepHint})
	return nil
}

// chain is "a -calls-> b -contains-> c".
func chain(nodes, rels []string) string {
	var b strings.Builder
	for i, n := range nodes {
		if i > 0 {
			rel := "?"
			if i-1 < len(rels) {
				rel = rels[i-1]
			}
			fmt.Fprintf(&b, " -%s-> ", rel)
		}
		b.WriteString(shortID(n))
	}
	return b.String()
}

func renderSearch(w io.Writer, st style, raw []byte) error {
	var r query.SearchOutput
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	rows := make([][]string, 0, len(r.Results))
	for _, x := range r.Results {
		rows = append(rows, []string{location(x.FilePath, x.LineNumber, 0), x.Label, clip(x.MatchedLine, 100)})
	}
	if len(rows) > 0 {
		table(w, st, []string{"LOCATION", "IN", "LINE"}, rows)
	}
	total := strconv.Itoa(r.TotalMatches)
	if !r.TotalMatchesExact {
		total = "at least " + total
	}
	fmt.Fprintf(w, "%s matches in %s (%d scanned)\n", total, plural(r.FilesMatched, "file", "files"), r.FilesScanned)
	next(w, st, raw, r.Guidance)
	return nil
}
