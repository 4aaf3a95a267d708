package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type reportParams struct {
	Recent int `json:"recent" help:"How many of the agent's latest calls the report lists." tool:"default=10,min=1,max=50"`
}

// ReportOutput is report's answer: the Markdown and the figures in it.
type ReportOutput struct {
	Markdown       string        `json:"markdown"`
	RecentQueries  []queryJSON   `json:"recent_queries" jsonschema:"The agent's latest calls, newest first."`
	Timing         []timingJSON  `json:"timing" jsonschema:"Per tool: the agent's calls and their durations."`
	Savings        savingsJSON   `json:"savings" jsonschema:"The agent's savings (see savings)."`
	HotspotSummary []hotspotJSON `json:"hotspot_summary" jsonschema:"The 5 riskiest files (see panoramic)."`
	Graph          graphJSON     `json:"graph"`
}

type queryJSON struct {
	Seq         int     `json:"seq"`
	Tool        string  `json:"tool"`
	ElapsedMs   float64 `json:"elapsed_ms"`
	AnswerBytes int     `json:"answer_bytes"`
	Files       int     `json:"files_named"`
	Error       bool    `json:"error,omitempty"`
}

type timingJSON struct {
	Tool   string  `json:"tool"`
	Calls  int     `json:"calls"`
	P50Ms  float64 `json:"p50_ms"`
	P95Ms  float64 `json:"p95_ms"`
	MaxMs  float64 `json:"max_ms"`
	Errors int     `json:"errors"`
}

type hotspotJSON struct {
	NodeID string  `json:"node_id"`
	Risk   float64 `json:"risk"`
	Blast  int     `json:"blast_radius"`
	Churn  float64 `json:"change_frequency"`
}

type graphJSON struct {
	Nodes      int      `json:"nodes"`
	Edges      int      `json:"edges"`
	Files      int      `json:"files"`
	Roots      []string `json:"roots"`
	IngestedAt string   `json:"ingested_at,omitempty"`
	Calls      int      `json:"session_calls" jsonschema:"Every agent's calls since the server started."`
}

const reportHotspots = 5

func registerReport(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "report",
		Title:       "Session report",
		Description: "Your session in Markdown: recent calls, timings, savings, hotspots, graph state.",
		Details: "A report of the calling agent's session, ready to show or log: its latest calls (tool, duration, answer size, files named, errors), " +
			"per-tool timing (calls, p50, p95 and max in ms, errors; the last 1,000 calls of the session are kept), its savings (as savings counts them), " +
			"the five riskiest files (as panoramic ranks them) and the graph's state (nodes, edges, files, roots, when it was ingested). " +
			"The figures are also returned as fields.",
		Class:     tools.Read,
		WhenToUse: "At the end of a task, to summarise what was asked, how long it took and what the graph saved.",
		AvoidWhen: "You only want the savings figures (savings) or the risk ranking (panoramic).",
		Next:      []string{"savings", "panoramic"},
		Example:   map[string]any{"agent_id": "claude"},
	}, runReport)
}

func runReport(c *tools.Call, in reportParams) (ReportOutput, error) {
	recs := tools.Calls(c.Session).Records(c.AgentID)
	agents, _, total, l := sessionTally(c.Session)
	if err := l.write(total); err != nil {
		c.Session.Logf("savings: %v", err)
	}
	out := ReportOutput{RecentQueries: recentOf(recs, in.Recent), Timing: timingOf(recs), HotspotSummary: []hotspotJSON{}}
	if a := agents[c.AgentID]; a != nil {
		out.Savings = savingsOf(*a)
	}
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		out.Graph = graphJSON{Nodes: g.NumNodes(), Edges: g.NumEdges(), Files: len(tools.BundleGraphFiles(b).Files), Roots: []string{}, Calls: tools.Calls(c.Session).Total()}
		for _, r := range b.Roots {
			out.Graph.Roots = append(out.Graph.Roots, r.Path)
			if at := r.IngestedAt; !at.IsZero() {
				out.Graph.IngestedAt = at.UTC().Format(time.RFC3339)
			}
		}
		if g.NumNodes() == 0 {
			return nil
		}
		parts, err := RiskParts(c.Ctx, b)
		if err != nil {
			return err
		}
		for _, r := range coredyn.Rank(parts, "")[:min(len(parts), reportHotspots)] {
			out.HotspotSummary = append(out.HotspotSummary, hotspotJSON{g.ExternalID(r.File), r3(r.Risk), r.Blast, r3(r.Churn)})
		}
		return nil
	})
	if err != nil {
		return ReportOutput{}, err
	}
	out.Markdown = markdown(c.AgentID, c.Session.Now(), out)
	return out, nil
}

func recentOf(recs []tools.CallRecord, n int) []queryJSON {
	out := []queryJSON{}
	for i := len(recs) - 1; i >= 0 && len(out) < n; i-- {
		r := recs[i]
		out = append(out, queryJSON{Seq: r.Seq, Tool: r.Tool, ElapsedMs: tools.Ms(r.Elapsed), AnswerBytes: r.AnswerBytes, Files: len(r.Files), Error: r.IsError})
	}
	return out
}

// timingOf: per tool, most called first (ties by name); percentiles by
// nearest rank.
func timingOf(recs []tools.CallRecord) []timingJSON {
	by := map[string][]time.Duration{}
	errs := map[string]int{}
	for _, r := range recs {
		by[r.Tool] = append(by[r.Tool], r.Elapsed)
		if r.IsError {
			errs[r.Tool]++
		}
	}
	out := []timingJSON{}
	for tool, ds := range by {
		slices.Sort(ds)
		out = append(out, timingJSON{Tool: tool, Calls: len(ds), P50Ms: tools.Ms(rank(ds, 0.5)), P95Ms: tools.Ms(rank(ds, 0.95)), MaxMs: tools.Ms(ds[len(ds)-1]), Errors: errs[tool]})
	}
	slices.SortFunc(out, func(a, b timingJSON) int {
		if c := cmp.Compare(b.Calls, a.Calls); c != 0 {
			return c
		}
		return cmp.Compare(a.Tool, b.Tool)
	})
	return out
}

// rank is the nearest-rank percentile p of sorted ds.
func rank(ds []time.Duration, p float64) time.Duration {
	i := int(float64(len(ds))*p+0.999999) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

func markdown(agent string, now time.Time, r ReportOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# m1nd session report: %s\n\n_%s_\n\n", agent, now.UTC().Format(time.RFC3339))
	b.WriteString("## Recent queries\n\n")
	if len(r.RecentQueries) == 0 {
		b.WriteString("No calls yet.\n\n")
	} else {
		b.WriteString("| # | tool | ms | answer bytes | files named |\n| ---: | --- | ---: | ---: | ---: |\n")
		for _, q := range r.RecentQueries {
			tool := q.Tool
			if q.Error {
				tool += " (error)"
			}
			fmt.Fprintf(&b, "| %d | %s | %.2f | %d | %d |\n", q.Seq, tool, q.ElapsedMs, q.AnswerBytes, q.Files)
		}
		b.WriteString("\n## Timing\n\n| tool | calls | p50 ms | p95 ms | max ms | errors |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, t := range r.Timing {
			fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f | %.2f | %d |\n", t.Tool, t.Calls, t.P50Ms, t.P95Ms, t.MaxMs, t.Errors)
		}
		b.WriteString("\n")
	}
	s := r.Savings
	fmt.Fprintf(&b, "## Savings\n\n- tokens used: %d; baseline (search + read): %d; saved: %d (%.1f %%)\n- calls: %d; baseline: %d; saved: %d\n- files answers named instead of being read: %d\n\n",
		s.UsedTokens, s.BaselineTokens, s.SavedTokens, 100*s.Reduction, s.Calls, s.BaselineCalls, s.CallsSaved, s.FilesAvoided)
	b.WriteString("## Hotspots\n\n")
	if len(r.HotspotSummary) == 0 {
		b.WriteString("No files ranked.\n\n")
	} else {
		b.WriteString("| file | risk | blast radius | change frequency |\n| --- | ---: | ---: | ---: |\n")
		for _, h := range r.HotspotSummary {
			fmt.Fprintf(&b, "| %s | %.3f | %d | %.2f |\n", strings.TrimPrefix(h.NodeID, "file::"), h.Risk, h.Blast, h.Churn)
		}
		b.WriteString("\n")
	}
	g := r.Graph
	fmt.Fprintf(&b, "## Graph\n\n- %d nodes, %d edges, %d files\n- roots: %s\n", g.Nodes, g.Edges, g.Files, strings.Join(g.Roots, ", "))
	if g.IngestedAt != "" {
		fmt.Fprintf(&b, "- ingested: %s\n", g.IngestedAt)
	}
	fmt.Fprintf(&b, "- calls this session (all agents): %d\n", g.Calls)
	return b.String()
}
