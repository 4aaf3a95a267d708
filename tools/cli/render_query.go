package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

func renderSeek(w io.Writer, st style, raw []byte) error {
	var r struct {
		guidance
		Results []struct {
			NodeID    string  `json:"node_id"`
			Label     string  `json:"label"`
			Type      string  `json:"type"`
			Score     float64 `json:"score"`
			File      string  `json:"file_path"`
			LineStart int     `json:"line_start"`
			LineEnd   int     `json:"line_end"`
			Summary   string  `json:"intent_summary"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	if len(r.Results) == 0 {
		fmt.Fprintln(w, "no results")
		r.guidance.print(w, st)
		return nil
	}
	rows := make([][]string, 0, len(r.Results))
	for _, x := range r.Results {
		rows = append(rows, []string{num(x.Score), x.Type, x.Label, location(x.File, x.LineStart, x.LineEnd), clip(x.Summary, 60)})
	}
	table(w, st, []string{"SCORE", "TYPE", "NAME", "LOCATION", "SUMMARY"}, rows)
	r.guidance.print(w, st)
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
	var r struct {
		guidance
		Source    string `json:"source"`
		Label     string `json:"source_label"`
		Direction string `json:"direction"`
		Total     int    `json:"total_affected"`
		NotListed int    `json:"not_listed"`
		Blast     []struct {
			NodeID   string   `json:"node_id"`
			Type     string   `json:"type"`
			Signal   float64  `json:"signal_strength"`
			Hop      int      `json:"hop_distance"`
			Entities int      `json:"entities_affected"`
			Via      []string `json:"via"`
		} `json:"blast_radius"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s of %s (%s): %s\n", st.bold("impact"), shortID(r.Source), r.Direction, plural(r.Total, "node affected", "nodes affected"))
	if len(r.Blast) > 0 {
		rows := make([][]string, 0, len(r.Blast))
		for _, b := range r.Blast {
			via := ""
			if len(b.Via) > 0 {
				via = clip(b.Via[0], 70)
			}
			rows = append(rows, []string{strconv.Itoa(b.Hop), num(b.Signal), b.Type, shortID(b.NodeID), via})
		}
		table(w, st, []string{"HOP", "SIGNAL", "TYPE", "NODE", "VIA"}, rows)
	}
	if r.NotListed > 0 {
		fmt.Fprintf(w, "… and %d more (--top_k)\n", r.NotListed)
	}
	r.guidance.print(w, st)
	return nil
}

func renderWhy(w io.Writer, st style, raw []byte) error {
	var r struct {
		guidance
		Source string `json:"source"`
		Target string `json:"target"`
		Total  int    `json:"total_paths_found"`
		Paths  []struct {
			Path      []string `json:"path"`
			Relations []string `json:"relations"`
			Strength  float64  `json:"cumulative_strength"`
			Hops      int      `json:"hops"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %s → %s: %s\n", st.bold("why"), shortID(r.Source), shortID(r.Target), plural(r.Total, "path", "paths"))
	rows := make([][]string, 0, len(r.Paths))
	for i, p := range r.Paths {
		rows = append(rows, []string{strconv.Itoa(i + 1), strconv.Itoa(p.Hops), num(p.Strength), chain(p.Path, p.Relations)})
	}
	if len(rows) > 0 {
		table(w, st, []string{"#", "HOPS", "STRENGTH", "PATH"}, rows)
	}
	r.guidance.print(w, st)
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
	var r struct {
		guidance
		Total     int  `json:"total_matches"`
		Exact     bool `json:"total_matches_exact"`
		Files     int  `json:"files_matched"`
		Scanned   int  `json:"files_scanned"`
		Truncated bool `json:"truncated"`
		Results   []struct {
			File   string `json:"file_path"`
			Line   int    `json:"line_number"`
			Text   string `json:"matched_line"`
			Label  string `json:"label"`
			NodeID string `json:"node_id"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	rows := make([][]string, 0, len(r.Results))
	for _, x := range r.Results {
		rows = append(rows, []string{location(x.File, x.Line, 0), x.Label, clip(x.Text, 100)})
	}
	if len(rows) > 0 {
		table(w, st, []string{"LOCATION", "IN", "LINE"}, rows)
	}
	total := strconv.Itoa(r.Total)
	if !r.Exact {
		total = "at least " + total
	}
	fmt.Fprintf(w, "%s matches in %s (%d scanned)\n", total, plural(r.Files, "file", "files"), r.Scanned)
	r.guidance.print(w, st)
	return nil
}
