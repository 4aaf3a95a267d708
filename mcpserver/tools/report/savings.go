package report

import (
	"fmt"
	"os"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type savingsParams struct{}

// SavingsOutput is savings' answer.
type SavingsOutput struct {
	Agent    savingsJSON       `json:"agent" jsonschema:"The calling agent's calls this session."`
	Session  savingsJSON       `json:"session" jsonschema:"Every agent's calls this session."`
	Global   globalJSON        `json:"global" jsonschema:"Every session recorded beside the graph, this one included."`
	TopTools []toolSavingsJSON `json:"top_tools" jsonschema:"This session's tools by tokens saved (at most 10)."`
	CO2      co2JSON           `json:"co2"`
	Model    string            `json:"model" jsonschema:"How the baseline is counted."`
}

type savingsJSON struct {
	Tally
	SavedTokens int64   `json:"saved_tokens" jsonschema:"baseline_tokens − used_tokens (negative: reading was cheaper)."`
	CallsSaved  int     `json:"calls_saved" jsonschema:"baseline_calls − calls."`
	Reduction   float64 `json:"reduction" jsonschema:"saved_tokens / baseline_tokens (0 without a baseline)."`
}

type globalJSON struct {
	savingsJSON
	Sessions  int  `json:"sessions"`
	Persisted bool `json:"persisted" jsonschema:"Kept in savings.json beside the graph (false: memory-only server)."`
}

type toolSavingsJSON struct {
	Tool        string `json:"tool"`
	Calls       int    `json:"calls"`
	SavedTokens int64  `json:"saved_tokens"`
}

type co2JSON struct {
	SessionGramsSaved float64 `json:"session_grams_saved"`
	GlobalGramsSaved  float64 `json:"global_grams_saved"`
	Assumption        string  `json:"assumption"`
}

const savingsModel = "Tokens are bytes/4. Used: each call's arguments and answer. Baseline: for every answer that named files, one search plus a full read of each named file this agent had not been shown before (files the graph knows, sized on disk)."

func registerSavings(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "savings",
		Title:       "Savings",
		Description: "Tokens and calls m1nd saved this session against searching and reading files.",
		Details: savingsModel + " Totals for the calling agent, the session (every agent) and globally (earlier sessions kept in savings.json beside the graph, written atomically at each savings or report call and at shutdown; a memory-only server keeps none). " +
			"CO2 is an assumption, not a measurement: 1 Wh per 1,000 tokens at 400 g CO2e per kWh (0.4 g per 1,000 tokens).",
		Class:     tools.Read,
		WhenToUse: "To see whether the graph is paying off in this session, or to report it.",
		AvoidWhen: "You want the session's queries and timings too (report).",
		Next:      []string{"report"},
		Example:   map[string]any{"agent_id": "claude"},
	}, runSavings)
}

func runSavings(c *tools.Call, _ savingsParams) (SavingsOutput, error) {
	agents, byTool, session, l := sessionTally(c.Session)
	g := l.global(session)
	if err := l.write(session); err != nil {
		c.Session.Logf("savings: %v", err)
	}
	out := SavingsOutput{
		Session:  savingsOf(session),
		Global:   globalJSON{savingsOf(g.Tally), g.Sessions, l.path != ""},
		TopTools: topTools(byTool, 10),
		CO2: co2JSON{SessionGramsSaved: r3(co2Grams(max(session.Saved(), 0))), GlobalGramsSaved: r3(co2Grams(max(g.Saved(), 0))),
			Assumption: fmt.Sprintf("%.0f Wh per 1,000 tokens, %.0f g CO2e per kWh", whPerKToken, gramsPerKWh)},
		Model: savingsModel,
	}
	if a := agents[c.AgentID]; a != nil {
		out.Agent = savingsOf(*a)
	}
	if out.TopTools == nil {
		out.TopTools = []toolSavingsJSON{}
	}
	return out, nil
}

func savingsOf(t Tally) savingsJSON {
	s := savingsJSON{Tally: t, SavedTokens: t.Saved(), CallsSaved: t.BaselineCalls - t.Calls}
	if t.BaselineTokens > 0 {
		s.Reduction = r3(float64(s.SavedTokens) / float64(t.BaselineTokens))
	}
	return s
}

// sessionTally accounts the session's logged calls against the current
// graph's files, and makes the ledger able to do so again at shutdown.
func sessionTally(s *session.State) (agents, byTool map[string]*Tally, total Tally, l *ledger) {
	l = ledgerOf(s)
	compute := func() (map[string]*Tally, map[string]*Tally, Tally) {
		agents, byTool := account(tools.Calls(s).Records(""), l.sizer(s.Current()))
		var total Tally
		for _, t := range agents {
			total.add(*t)
		}
		return agents, byTool, total
	}
	l.mu.Lock()
	l.compute = func() Tally { _, _, t := compute(); return t }
	l.mu.Unlock()
	agents, byTool, total = compute()
	return agents, byTool, total, l
}

// sizer gives the size on disk of a file of b's graph by its graph path.
func (l *ledger) sizer(b *session.Bundle) func(string) (int64, bool) {
	if b == nil {
		return func(string) (int64, bool) { return 0, false }
	}
	gf, df := tools.BundleGraphFiles(b), tools.BundleDiskFiles(b)
	return func(p string) (int64, bool) {
		i, ok := gf.ByPath[p]
		if !ok || df.Abs[i] == "" {
			return 0, false
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.sizes == nil {
			l.sizes = map[string]int64{}
		}
		n, ok := l.sizes[df.Abs[i]]
		if !ok {
			st, err := os.Stat(df.Abs[i])
			if err != nil || !st.Mode().IsRegular() {
				return 0, false
			}
			n = st.Size()
			l.sizes[df.Abs[i]] = n
		}
		return n, true
	}
}
