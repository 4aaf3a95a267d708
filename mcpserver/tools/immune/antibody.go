package immune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type antibodyCreateParams struct {
	Action      string            `json:"action" help:"create a new antibody from pattern; disable, enable or delete the one named by antibody_id." tool:"default=create,enum=create|disable|enable|delete"`
	AntibodyID  string            `json:"antibody_id" jsonschema:"For disable, enable, delete (ab_001)." help:"The antibody to disable, enable or delete (ids as antibody_list shows them, e.g. ab_001)."`
	Pattern     *antibody.Pattern `json:"pattern" jsonschema:"{nodes, edges, negative_edges} (see help)." help:"The bug shape: {\"nodes\": [{\"id\": \"h\", \"label\": \"handle_\", \"type\": \"function\", \"match_mode\": \"exact|substring|regex\"}], \"edges\": [{\"from\": \"h\", \"to\": \"q\", \"relation\": \"calls\"}], \"negative_edges\": [edges that must be absent]}. 1 to 8 nodes; those linked by edges are matched; a node reached only by negative_edges is absent: the match must have no such edge to any node passing its test. A node without label or type matches any node. Nodes without match_mode use substring."`
	Severity    string            `json:"severity" tool:"default=Medium,enum=Critical|High|Medium|Low" help:"How bad a match is: Critical, High, Medium or Low (antibody_scan's min_severity filters on it)."`
	Description string            `json:"description" help:"What the bug is and how it was fixed, for whoever meets a match." tool:"maxlen=2000"`
	Tags        []string          `json:"tags" help:"Free labels to group antibodies (e.g. security, payments)." tool:"maxitems=20"`
}

type antibodyJSON struct {
	ID          string            `json:"id"`
	Severity    string            `json:"severity"`
	Description string            `json:"description,omitempty"`
	Tags        []string          `json:"tags,omitempty"`
	Enabled     bool              `json:"enabled"`
	Specificity float64           `json:"specificity"`
	Source      string            `json:"source" jsonschema:"manual or learn."`
	Created     string            `json:"created"`
	Shape       string            `json:"shape" jsonschema:"Counts: nodes, edges, absent edges."`
	Scans       int               `json:"scans"`
	Matches     int               `json:"matches" jsonschema:"Matches found over all scans."`
	LastMatched string            `json:"last_matched,omitempty"`
	Pattern     *antibody.Pattern `json:"pattern,omitempty" jsonschema:"With detail full (antibody_list) or on create."`
}

func abJSON(a antibody.Antibody, withPattern bool) antibodyJSON {
	j := antibodyJSON{ID: a.ID, Severity: string(a.Severity), Description: a.Description, Tags: a.Tags, Enabled: a.Enabled,
		Specificity: r3(a.Specificity), Source: a.Source, Created: time.Unix(a.Created, 0).UTC().Format(time.RFC3339),
		Shape: fmt.Sprintf("%d nodes, %d edges, %d absent", len(a.Pattern.Nodes), len(a.Pattern.Edges), len(a.Pattern.NegativeEdges)),
		Scans: a.Scans, Matches: a.Matches}
	if a.LastMatched != 0 {
		j.LastMatched = time.Unix(a.LastMatched, 0).UTC().Format(time.RFC3339)
	}
	if withPattern {
		p := a.Pattern
		j.Pattern = &p
	}
	return j
}

// AntibodyCreateOutput is antibody_create's answer.
type AntibodyCreateOutput struct {
	Action   string       `json:"action"`
	Antibody antibodyJSON `json:"antibody"`
	Stored   int          `json:"stored" jsonschema:"Antibodies now stored (at most 500)."`
	Durable  bool         `json:"durable" jsonschema:"Saved to antibodies.json beside the graph."`
	tools.Guidance
}

var createExample = map[string]any{"agent_id": "claude", "severity": "High", "description": "a handler trusts the session without checking the amount",
	"pattern": map[string]any{
		"nodes": []any{map[string]any{"id": "h", "type": "function"}, map[string]any{"id": "s", "label": "require_session", "match_mode": "exact"}},
		"edges": []any{map[string]any{"from": "h", "to": "s", "relation": "calls"}},
	}}

func registerAntibodies(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "antibody_create",
		Title:       "Store a bug shape",
		Description: "Store a fixed bug's shape for antibody_scan to find again; or disable, enable, delete one.",
		Details: "Stores a bug shape as a small graph pattern: nodes with label constraints (exact, substring or regex) and " +
			"types, edges that must exist and edges that must be absent (the missing check). A pattern must be specific " +
			"enough (specificity ≥ 0.15: the mean of what its nodes and edges constrain) and not repeat a stored one " +
			"(similarity ≥ 0.9 is a duplicate); at most 500 are kept, in antibodies.json beside the graph (the previous " +
			"version in antibodies.json.bak). learn extracts one on its own when an agent confirms 2–6 linked nodes for " +
			"a query about a bug.",
		Class:     tools.Write,
		WhenToUse: "After fixing a bug whose shape could recur elsewhere: store it so scans catch it.",
		AvoidWhen: "The bug is a one-off typo with no structural shape.",
		Next:      []string{"antibody_scan", "antibody_list"},
		Example:   createExample,
	}, runAntibodyCreate)
	tools.Add(r, tools.Tool{
		Name:        "antibody_list",
		Title:       "Stored bug shapes",
		Description: "Stored antibodies (bug shapes) with severity and match history.",
		Details:     "Lists the stored antibodies by id: severity, description, tags, enabled, specificity, source (manual or learn), how many scans ran them and the matches they found. detail full adds each pattern.",
		Class:       tools.Read,
		WhenToUse:   "Before a scan or a review: which known bug shapes does this repository remember?",
		AvoidWhen:   "You want the matches themselves (antibody_scan).",
		Next:        []string{"antibody_scan", "antibody_create"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runAntibodyList)
	tools.Add(r, tools.Tool{
		Name:        "antibody_scan",
		Title:       "Scan for bug shapes",
		Description: "Where stored bug shapes (antibodies) match the graph, with confidence.",
		Details: "Matches every enabled antibody against the graph by depth-first subgraph search: label tests (match_mode " +
			"for nodes without their own), types, required edges, and negative edges that must be absent. Each match " +
			"binds every pattern node to a graph node; its confidence is the mean label fit (1 exact, 0.5 + half the " +
			"matched share of the label otherwise). Budgets: 10 ms per antibody and 100 ms per scan (timed_out names " +
			"the antibodies cut short). Matches are ordered by severity, then confidence.",
		Class: tools.Read,
		// It reads the graph under the read lock but records each antibody's
		// scan and match counts (antibody_list shows them): not read-only.
		Hints:     &tools.Hints{},
		WhenToUse: "After an ingest or before a release: does a known bug's shape recur anywhere?",
		AvoidWhen: "No antibodies are stored yet (antibody_create first).",
		Next:      []string{"view", "heuristics_surface", "antibody_create"},
		Example:   map[string]any{"agent_id": "claude", "min_severity": "Medium"},
	}, runAntibodyScan)
}

func runAntibodyCreate(c *tools.Call, in antibodyCreateParams) (AntibodyCreateOutput, error) {
	st := immunity.For(c.Session)
	out := AntibodyCreateOutput{Action: in.Action}
	switch in.Action {
	case "disable", "enable", "delete":
		if in.AntibodyID == "" {
			return out, tools.Errorf("Name the antibody: antibody_list shows the ids.", "%s needs antibody_id", in.Action).
				WithExample(map[string]any{"agent_id": c.AgentID, "action": in.Action, "antibody_id": "ab_001"})
		}
		var a antibody.Antibody
		var ok bool
		if in.Action == "delete" {
			a, ok = st.Antibodies.Delete(in.AntibodyID)
		} else {
			a, ok = st.Antibodies.SetEnabled(in.AntibodyID, in.Action == "enable")
		}
		if !ok {
			return out, tools.Errorf("antibody_list shows the stored ids.", "no antibody %q", in.AntibodyID).WithNext("antibody_list")
		}
		out.Antibody = abJSON(a, false)
	default:
		if in.Pattern == nil {
			return out, tools.Errorf("Give the bug's shape as pattern: nodes (id, label, type, match_mode), edges and negative_edges between them.", "create needs a pattern").
				WithExample(createExample)
		}
		sev, _ := antibody.ParseSeverity(in.Severity)
		a, err := st.Antibodies.Create(antibody.Antibody{Pattern: *in.Pattern, Severity: sev, Description: in.Description, Tags: in.Tags,
			Source: "manual", Created: c.Session.Now().Unix()}, antibody.Substring)
		var dup *antibody.DuplicateError
		switch {
		case errors.As(err, &dup):
			return out, tools.Errorf("The shape is already stored; enable it if it is disabled, or delete it first to replace it.", "%v", err).WithNext("antibody_list")
		case errors.Is(err, antibody.ErrTooBroad):
			return out, tools.Errorf("Narrow it: exact labels, longer substrings, node types, relations on the edges, or more edges.", "%v", err).WithExample(createExample)
		case errors.Is(err, antibody.ErrFull):
			return out, tools.Errorf("Delete antibodies that no longer match anything (antibody_list shows their matches).", "%v", err).WithNext("antibody_list")
		case err != nil:
			return out, tools.Errorf("A pattern is {nodes: [{id, label?, type?, match_mode?}], edges: [{from, to, relation?}], negative_edges: [...]}, 1–8 nodes linked by edges.", "pattern: %v", err).WithExample(createExample)
		}
		out.Antibody = abJSON(a, true)
	}
	out.Stored = st.Antibodies.Len()
	if err := st.SaveAntibodies(); err != nil {
		out.NextStepHint = "antibodies.json not saved (the change holds for this session): " + err.Error()
	}
	out.Durable = st.Persistent() && out.NextStepHint == ""
	if out.NextStepHint == "" {
		out.ProofState = "ready_to_edit"
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "antibody_scan")
		out.NextStepHint = "Run antibody_scan to see where the shape occurs now."
	}
	return out, nil
}

type antibodyListParams struct {
	IncludeDisabled bool   `json:"include_disabled" help:"List disabled antibodies too." tool:"default=true"`
	Detail          string `json:"detail" help:"brief: each antibody's metadata; full: its pattern too." tool:"default=brief,enum=brief|full"`
}

// AntibodyListOutput is antibody_list's answer.
type AntibodyListOutput struct {
	Antibodies []antibodyJSON `json:"antibodies"`
	Total      int            `json:"total"`
	Enabled    int            `json:"enabled"`
	Capacity   int            `json:"capacity"`
	Warnings   []string       `json:"warnings,omitempty"`
	tools.Guidance
}

func runAntibodyList(c *tools.Call, in antibodyListParams) (AntibodyListOutput, error) {
	st := immunity.For(c.Session)
	out := AntibodyListOutput{Antibodies: []antibodyJSON{}, Capacity: antibody.MaxAntibodies, Warnings: st.Warnings}
	for _, a := range st.Antibodies.List() {
		out.Total++
		if a.Enabled {
			out.Enabled++
		} else if !in.IncludeDisabled {
			continue
		}
		out.Antibodies = append(out.Antibodies, abJSON(a, in.Detail == "full"))
	}
	out.ProofState = "triaging"
	if out.Total == 0 {
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "antibody_create")
		out.NextStepHint = "No antibodies yet: store a fixed bug's shape with antibody_create (or confirm linked nodes for a bug query with learn)."
	} else {
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "antibody_scan")
		out.NextStepHint = "Scan the graph for these shapes with antibody_scan."
	}
	return out, nil
}

type antibodyScanParams struct {
	MatchMode   string   `json:"match_mode" jsonschema:"Label test of nodes without their own." help:"How pattern labels are compared with node labels, for pattern nodes without their own match_mode: exact, substring (case-sensitive) or regex." tool:"default=substring,enum=exact|substring|regex"`
	MinSeverity string   `json:"min_severity" help:"Scan only antibodies of this severity or worse." tool:"default=Low,enum=Critical|High|Medium|Low"`
	AntibodyIDs []string `json:"antibody_ids" help:"Scan only these antibodies (enabled or not); default every enabled one." tool:"maxitems=500"`
	MaxMatches  int      `json:"max_matches" help:"Stop each antibody's search after this many matches." tool:"default=10,min=1,max=100"`
	TopK        int      `json:"top_k" help:"How many matches to list (worst first); not_listed counts the rest." tool:"default=20,min=1,max=1000"`
}

type scanMatch struct {
	AntibodyID  string            `json:"antibody_id"`
	Severity    string            `json:"severity"`
	Description string            `json:"description,omitempty"`
	Confidence  float64           `json:"confidence"`
	Bindings    map[string]string `json:"bindings" jsonschema:"Pattern node id → graph node id (absent nodes have none)."`
	Files       []string          `json:"files" jsonschema:"The files of the bound nodes."`
	first       string            // the first pattern node's binding
}

// AntibodyScanOutput is antibody_scan's answer.
type AntibodyScanOutput struct {
	Matches   []scanMatch `json:"matches"`
	NotListed int         `json:"not_listed"`
	Scanned   int         `json:"antibodies_scanned"`
	Matched   int         `json:"antibodies_matched"`
	TimedOut  []string    `json:"timed_out,omitempty" jsonschema:"Antibodies whose search hit the 10 ms budget or the scan's 100 ms."`
	Truncated []string    `json:"truncated,omitempty" jsonschema:"Antibodies that reached max_matches."`
	Skipped   int         `json:"skipped_by_budget,omitempty" jsonschema:"Antibodies not run: the scan's 100 ms were spent."`
	ElapsedMs float64     `json:"elapsed_ms"`
	tools.Guidance
}

func runAntibodyScan(c *tools.Call, in antibodyScanParams) (AntibodyScanOutput, error) {
	mode, _ := antibody.ParseMode(in.MatchMode)
	minSev, _ := antibody.ParseSeverity(in.MinSeverity)
	st := immunity.For(c.Session)
	var todo []antibody.Antibody
	all := st.Antibodies.List()
	for _, id := range in.AntibodyIDs {
		if !slices.ContainsFunc(all, func(a antibody.Antibody) bool { return a.ID == id }) {
			return AntibodyScanOutput{}, tools.Errorf("antibody_list shows the stored ids.", "no antibody %q", id).WithNext("antibody_list")
		}
	}
	for _, a := range all {
		chosen := a.Enabled
		if len(in.AntibodyIDs) > 0 {
			chosen = slices.Contains(in.AntibodyIDs, a.ID)
		}
		if chosen && a.Severity.Rank() >= minSev.Rank() {
			todo = append(todo, a)
		}
	}
	out := AntibodyScanOutput{Matches: []scanMatch{}}
	counts := map[string]int{}
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		end := start.Add(immunity.ScanBudget)
		for i, a := range todo {
			now := time.Now()
			if now.After(end) {
				out.Skipped = len(todo) - i
				break
			}
			deadline := now.Add(immunity.PatternBudget)
			if deadline.After(end) {
				deadline = end
			}
			res := antibody.Find(g, a.Pattern, antibody.Options{Mode: mode, MaxMatches: in.MaxMatches, Deadline: deadline})
			out.Scanned++
			counts[a.ID] = len(res.Matches)
			if len(res.Matches) > 0 {
				out.Matched++
			}
			if res.TimedOut {
				out.TimedOut = append(out.TimedOut, a.ID)
			}
			if res.Truncated {
				out.Truncated = append(out.Truncated, a.ID)
			}
			for _, m := range res.Matches {
				out.Matches = append(out.Matches, matchJSON(g, a, m))
			}
		}
		slices.SortStableFunc(out.Matches, func(x, y scanMatch) int {
			return cmp.Or(cmp.Compare(sevRank(y.Severity), sevRank(x.Severity)), cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(x.AntibodyID, y.AntibodyID))
		})
		out.NotListed = max(len(out.Matches)-in.TopK, 0)
		out.Matches = out.Matches[:min(len(out.Matches), in.TopK)]
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	if err != nil {
		return out, err
	}
	at := c.Session.Now().Unix()
	for id, n := range counts {
		st.Antibodies.RecordScan(id, n, at)
	}
	if len(counts) > 0 {
		// Match history only, saved after the answer: the scan's budget is
		// the search's, not a disk's fsync (Close waits for the save).
		c.Session.Go("save antibody match history", func(context.Context) error { return st.SaveAntibodies() })
	}
	out.Guidance = scanGuidance(c, out, len(all))
	return out, nil
}

func sevRank(s string) int { return antibody.Severity(s).Rank() }

func matchJSON(g *graph.Graph, a antibody.Antibody, m antibody.Match) scanMatch {
	sm := scanMatch{AntibodyID: a.ID, Severity: string(a.Severity), Description: a.Description, Confidence: r3(m.Confidence), Bindings: map[string]string{}, Files: []string{}}
	for i, id := range m.Nodes {
		if id == graph.NoNode {
			continue // an absent node: nothing is bound to it
		}
		sm.Bindings[a.Pattern.Nodes[i].ID] = g.ExternalID(id)
		if i == 0 {
			sm.first = g.ExternalID(id)
		}
		if p := g.SourcePath(id); p != "" && !slices.Contains(sm.Files, p) {
			sm.Files = append(sm.Files, p)
		}
	}
	slices.Sort(sm.Files)
	return sm
}

func scanGuidance(c *tools.Call, out AntibodyScanOutput, stored int) tools.Guidance {
	switch {
	case stored == 0:
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "antibody_create"),
			NextStepHint: "No antibodies are stored: after fixing a bug, store its shape with antibody_create."}
	case len(out.Matches) == 0:
		return tools.Guidance{ProofState: "triaging", NextStepHint: fmt.Sprintf("None of the %d antibodies scanned matches the graph.", out.Scanned)}
	}
	m := out.Matches[0]
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view", "heuristics_surface"), NextSuggestedTarget: m.first,
		NextStepHint: fmt.Sprintf("%d matches; the first (%s, %s, confidence %.2f) is where the known bug's shape recurs: read it and check whether the fix applies.", len(out.Matches)+out.NotListed, m.AntibodyID, m.Severity, m.Confidence)}
}
