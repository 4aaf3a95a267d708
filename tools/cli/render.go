package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// renderers draw a tool's JSON answer for people; a tool without one is
// printed as indented JSON. They decode only the fields they show, so a
// field the tool adds later changes nothing here.
var renderers = map[string]func(w io.Writer, st style, raw []byte) error{
	"ingest": renderIngest,
	"seek":   renderSeek,
	"impact": renderImpact,
	"why":    renderWhy,
	"search": renderSearch,
}

// render prints a successful answer: the tool's renderer, else (or when
// the answer does not decode) indented JSON.
func render(w io.Writer, st style, tool string, raw []byte) {
	if f, ok := renderers[tool]; ok {
		var buf bytes.Buffer
		if f(&buf, st, raw) == nil {
			w.Write(buf.Bytes())
			return
		}
	}
	printJSON(w, raw)
}

func printJSON(w io.Writer, raw []byte) {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		w.Write(raw)
	} else {
		w.Write(buf.Bytes())
	}
	fmt.Fprintln(w)
}

// table writes aligned columns under a bold header row (nil: none). Colour is applied
// after alignment: escape bytes would count as width in tabwriter.
func table(w io.Writer, st style, header []string, rows [][]string) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	if header != nil {
		fmt.Fprintln(tw, strings.Join(header, "\t"))
	}
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		if i == 0 && header != nil {
			l = st.bold(l)
		}
		fmt.Fprintln(w, l)
	}
}

// next prints what an answer says about what to do next: the files it
// names that changed on disk (the dispatcher's stale_files, beside the
// tool's own answer) and its next step.
func next(w io.Writer, st style, raw []byte, g tools.Guidance) {
	var env struct {
		Stale *tools.StaleFiles `json:"stale_files"`
	}
	if json.Unmarshal(raw, &env) == nil && env.Stale != nil && len(env.Stale.Files) > 0 {
		fmt.Fprintln(w, st.yellow(fmt.Sprintf("stale: %s changed on disk since the graph was built (m1nd ingest --incremental)", strings.Join(shortIDs(env.Stale.Files), ", "))))
	}
	if g.NextStepHint != "" {
		fmt.Fprintln(w, st.dim("next: "+g.NextStepHint))
	}
}

// shortID drops the "file::" prefix people do not type.
func shortID(id string) string { return strings.TrimPrefix(id, "file::") }

func shortIDs(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = shortID(id)
	}
	return out
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

func clip(s string, n int) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\t", " "))
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func renderIngest(w io.Writer, st style, raw []byte) error {
	var r system.IngestOutput
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %s\n", st.green("ingested"), r.Path)
	// The graph's counts include derived edges (co-change, tests), which
	// nodes_created/edges_created do not: show what the graph holds.
	nodes, edges := r.Graph.NodeCount, r.Graph.EdgeCount
	if nodes == 0 {
		nodes, edges = r.NodesCreated, r.EdgesCreated
	}
	fmt.Fprintf(w, "  %s → %s, %s in %s\n", plural(r.FilesProcessed, "file", "files"), plural(nodes, "node", "nodes"), plural(edges, "edge", "edges"), millis(r.ElapsedMs))
	if len(r.Languages) > 0 {
		fmt.Fprintf(w, "  languages: %s\n", languageList(r.Languages))
	}
	if r.Persisted.Durable {
		fmt.Fprintln(w, st.dim("  saved to the runtime directory"))
	}
	return nil
}

// languageList is "go 120, python 14, …", most files first.
func languageList(m map[string]int) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, m[n])
	}
	return strings.Join(parts, ", ")
}

func millis(ms float64) string {
	if ms >= 1000 {
		return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
}
