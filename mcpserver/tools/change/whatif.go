package change

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func registerWhatif(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "counterfactual",
		Title:       "What if removed",
		Description: "What breaks if these nodes were removed: dependents by depth, code left unused.",
		Details:     "Simulate removing nodes (and everything they contain) without touching the graph: the dependents that break (with the share of their dependencies that disappears), the breakage wave by depth, the code left unused (no longer reachable from any entry point — mains, tests, scripts), the providers that lose some users, reachability before and after, and recommendations. Follows dependency relations only (imports, calls, references, inheritance, tests): a directory or a shared package is never a reason to break.",
		Class:       tools.Read,
		WhenToUse:   "Before deleting or rewriting a module, in a dependency audit, or to weigh removing a subsystem: what breaks, what becomes dead code.",
		AvoidWhen:   "You are changing a node, not removing it (impact), or you want to test a belief about one dependency (hypothesize).",
		Next:        []string{"impact", "validate_plan", "hypothesize"},
		Example:     map[string]any{"agent_id": "claude", "node_ids": []any{"file::backend/auth.py"}, "include_cascade": true},
	}, runCounterfactual)
	tools.Add(r, tools.Tool{
		Name:        "hypothesize",
		Title:       "Test a claim",
		Description: "Test a claim (\"A depends on B\", \"A is unused\") against the graph: verdict and evidence.",
		Details:     "Test a plain-English claim about the code against the graph: \"A depends on B\", \"A imports B\", \"A calls B\", \"A never calls B\", \"A does not depend on B\", \"changing A breaks B\", \"A and B are independent\", \"A and B are coupled\", \"A and B depend on each other\", \"A is isolated\", \"A is unused\", \"A is tested by B\", \"A has no tests\". Answers with a verdict (likely_true above 0.8, likely_false below 0.2, inconclusive between), a confidence, and the evidence for and against: the dependency or call chain found and its length, the absence of any chain within max_hops (or at all), a dependency running the other way, test edges, co-change history as weak evidence. Sharing a directory or a package is containment and never counts as a dependency.",
		Class:       tools.Read,
		WhenToUse:   "Architecture checks (\"billing never calls auth directly\"), bug hunts (\"is this module really used by that one?\"), review of invariants, isolation claims.",
		AvoidWhen:   "You want every path between two nodes (why) or everything a node affects (impact).",
		Next:        []string{"why", "validate_plan", "impact", "view"},
		Example:     map[string]any{"agent_id": "claude", "claim": "payments depends on session"},
	}, runHypothesize)
	tools.Add(r, tools.Tool{
		Name:        "differential",
		Title:       "Graph diff",
		Description: "What differs between two graphs (current, a git revision, a snapshot).",
		Details:     "Compare two graphs — \"current\" (the served graph), git:<revision> (the served code root's tree at that commit, ingested once and kept in the runtime directory's snapshots/) or a snapshot saved in the runtime directory (graph.bin: the graph as last saved, with the learned weights saved since; or any .bin/.json snapshot placed there) — by external id: nodes and edges added and removed, edge weights that moved (learned plasticity included), dependency coupling between directories that rose or fell, files that became isolated. focus_nodes (or a node named in question) narrows the diff to their neighbourhood; question narrows the parts (\"what new coupling was introduced?\", \"what became isolated?\", \"what was removed around auth.py?\").",
		Class:       tools.Read,
		WhenToUse:   "Before/after a refactor (persist, change, then compare with current), reviewing a branch's structural effect, watching architecture drift between saved snapshots.",
		AvoidWhen:   "You want drift since a commit or date with anomalies (diverge), or learned-weight drift only (drift).",
		Next:        []string{"impact", "why", "diverge"},
		Example:     map[string]any{"agent_id": "claude", "snapshot_a": "graph.bin", "snapshot_b": "current", "question": "what new coupling was introduced?"},
	}, runDifferential)
	registerDiverge(r)
}

// depGraph is the dependency view of the bundle's graph at one level,
// built once per graph and shared by every call.
func depGraph(b *session.Bundle, fileLevel bool) (*analysis.DepGraph, error) {
	return tools.DepGraph(b, fileLevel)
}

// resolveRemoved resolves counterfactual's node_ids; a pair is read
// together, as the two halves of one change.
func resolveRemoved(b *session.Bundle, refs []string) ([]tools.Resolution, error) {
	if len(refs) == 2 {
		a, o, err := tools.ResolvePair(b, refs[0], "node_ids[0]", refs[1], "node_ids[1]", false)
		return []tools.Resolution{a, o}, err
	}
	var out []tools.Resolution
	for i, ref := range refs {
		r, err := tools.Resolve(b, ref, fmt.Sprintf("node_ids[%d]", i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// resolveClaim resolves a claim's names, a binary claim's two together
// (each read in the light of the other).
func resolveClaim(b *session.Bundle, claim analysis.Claim) (subj, obj tools.Resolution, err error) {
	if !claim.Binary() {
		subj, err = tools.Resolve(b, claim.Subject, "claim subject")
		return subj, tools.Resolution{ID: graph.NoNode}, err
	}
	switch claim.Type {
	case analysis.ClaimAffects, analysis.ClaimTestedBy: // the object depends on the subject
		obj, subj, err = tools.ResolvePair(b, claim.Object, "claim object", claim.Subject, "claim subject", true)
		return subj, obj, err
	case analysis.ClaimIndependent, analysis.ClaimCoupled, analysis.ClaimCircular:
		return tools.ResolvePair(b, claim.Subject, "claim subject", claim.Object, "claim object", false)
	}
	return tools.ResolvePair(b, claim.Subject, "claim subject", claim.Object, "claim object", true)
}

type counterfactualParams struct {
	NodeIDs        []string `json:"node_ids" help:"The nodes to remove: external ids (file::backend/spawner.py), paths, qualified names or labels." tool:"required,maxitems=100"`
	IncludeCascade bool     `json:"include_cascade" help:"Follow the removal past its first ring: dependents of dependents, and code left unused transitively." tool:"default=true"`
}

type cfNodeJSON struct {
	NodeID       string  `json:"node_id"`
	Label        string  `json:"label"`
	Type         string  `json:"type"`
	Depth        int     `json:"depth"`
	Lost         int     `json:"lost" jsonschema:"Broken: its dependencies that are removed. Orphaned, weakened: its dependents that are gone."`
	Total        int     `json:"total" jsonschema:"All its dependencies (broken) or dependents (orphaned, weakened)."`
	LostFraction float64 `json:"lost_fraction" jsonschema:"lost / total, in [0, 1]."`
	Via          string  `json:"via,omitempty" jsonschema:"A dependency linking it to what is gone: \"dependent relation dependency\"."`
}

type cascadeJSON struct {
	Depth    int      `json:"depth"`
	Affected int      `json:"affected"`
	Nodes    []string `json:"nodes" jsonschema:"The most central of them, at most 10."`
}

type counterfactualOutput struct {
	RemovedNodes    []string              `json:"removed_nodes" jsonschema:"The nodes asked about, resolved."`
	RemovedScope    int                   `json:"removed_scope" jsonschema:"Units the removal takes away (the nodes and what they contain) at the answer's level."`
	Level           string                `json:"level" jsonschema:"file (every removed node is a file or directory) or entity."`
	Cascade         []cascadeJSON         `json:"cascade" jsonschema:"The breakage wave: what depends on the removed code, by depth."`
	TotalAffected   int                   `json:"total_affected"`
	Broken          []cfNodeJSON          `json:"broken" jsonschema:"Direct dependents, those left with nothing (lost_fraction 1) first; at most 30."`
	BrokenCount     int                   `json:"broken_count"`
	Orphaned        []cfNodeJSON          `json:"orphaned" jsonschema:"Code nothing would use any more (no entry point reaches it), nearest first; at most 30."`
	OrphanedCount   int                   `json:"orphaned_count"`
	Weakened        []cfNodeJSON          `json:"weakened" jsonschema:"Code that loses some of its users; at most 30."`
	WeakenedCount   int                   `json:"weakened_count"`
	Reachability    analysis.Reachability `json:"reachability" jsonschema:"Units the entry points reach along dependencies, before and after."`
	PctActivation   float64               `json:"pct_activation_lost" jsonschema:"Share of the reachable units that are gone (removed or orphaned), in [0, 1]."`
	Recommendations []string              `json:"recommendations"`
	ResolvedAs      []tools.ResolvedName  `json:"resolved_as,omitempty" jsonschema:"Names read as a node they do not spell exactly, with the other nodes they could mean."`
	ElapsedMs       float64               `json:"elapsed_ms"`
	tools.Guidance
}

const cfListed = 30

func runCounterfactual(c *tools.Call, in counterfactualParams) (counterfactualOutput, error) {
	if len(in.NodeIDs) == 0 {
		return counterfactualOutput{}, tools.Errorf("node_ids lists the nodes to remove, e.g. [\"file::backend/spawner.py\"].", "node_ids is empty").
			WithExample(map[string]any{"agent_id": "claude", "node_ids": []any{"file::backend/spawner.py"}})
	}
	var out counterfactualOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		var ids []graph.NodeID
		named, err := resolveRemoved(b, in.NodeIDs)
		if err != nil {
			return err
		}
		for _, r := range named {
			if !slices.Contains(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
		start := time.Now()
		p := analysis.DefaultCounterfactualParams()
		p.IncludeCascade, p.MaxListed = in.IncludeCascade, cfListed
		d, err := depGraph(b, analysis.CounterfactualLevel(g, ids) == analysis.LevelFile)
		if err != nil {
			return err
		}
		p.Deps = d
		res, err := analysis.Counterfactual(g, ids, p)
		if err != nil {
			return err
		}
		out = counterfactualOut(g, ids, res)
		out.ResolvedAs = tools.ResolvedNames(g, named...)
		out.Recommendations = cfRecommendations(g, ids, res)
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = cfGuidance(c, g, ids, res)
		return nil
	})
	return out, err
}

func counterfactualOut(g *graph.Graph, ids []graph.NodeID, res analysis.CounterfactualResult) counterfactualOutput {
	out := counterfactualOutput{Level: res.Level, RemovedScope: len(res.Removed), TotalAffected: res.TotalAffected,
		BrokenCount: res.BrokenCount, OrphanedCount: res.OrphanedCount, WeakenedCount: res.WeakenedCount,
		Reachability: res.Reachability, PctActivation: tools.R3(res.PctActivationLost), Cascade: []cascadeJSON{}}
	for _, id := range ids {
		out.RemovedNodes = append(out.RemovedNodes, g.ExternalID(id))
	}
	for _, l := range res.Cascade {
		cj := cascadeJSON{Depth: l.Depth, Affected: l.Affected, Nodes: []string{}}
		for _, v := range l.Nodes[:min(len(l.Nodes), 10)] {
			cj.Nodes = append(cj.Nodes, g.ExternalID(v))
		}
		out.Cascade = append(out.Cascade, cj)
	}
	conv := func(l []analysis.CounterfactualNode) []cfNodeJSON {
		o := []cfNodeJSON{}
		for _, x := range l {
			ref := tools.RefOf(g, x.Node)
			j := cfNodeJSON{NodeID: ref.NodeID, Label: ref.Label, Type: ref.Type, Depth: x.Depth, Lost: x.Lost, Total: x.Total, LostFraction: tools.R3(x.LostFraction)}
			if x.Lost > 0 {
				j.Via = tools.ShortID(g, x.Via.Dependent) + " " + x.Via.Relation + " " + tools.ShortID(g, x.Via.Dependency)
			}
			o = append(o, j)
		}
		return o
	}
	out.Broken, out.Orphaned, out.Weakened = conv(res.Broken), conv(res.Orphaned), conv(res.Weakened)
	return out
}

// names lists up to k labels of the nodes.
func names(g *graph.Graph, l []analysis.CounterfactualNode, k int) string {
	var s []string
	for _, x := range l[:min(len(l), k)] {
		s = append(s, g.Label(x.Node))
	}
	if len(l) > k {
		s = append(s, "…")
	}
	return strings.Join(s, ", ")
}

func cfRecommendations(g *graph.Graph, ids []graph.NodeID, res analysis.CounterfactualResult) []string {
	what := g.Label(ids[0])
	if len(ids) > 1 {
		what = fmt.Sprintf("these %d nodes", len(ids))
	}
	var rec []string
	if res.BrokenCount == 0 {
		rec = append(rec, fmt.Sprintf("Nothing depends on %s: removing it breaks no static dependency. Check dynamic uses the graph cannot see (reflection, string dispatch, configuration, entry points named outside the code).", what))
	}
	var alone, tests []analysis.CounterfactualNode
	for _, x := range res.Broken {
		if x.LostFraction >= 1 {
			alone = append(alone, x)
		}
		if isTestNode(g, x.Node) {
			tests = append(tests, x)
		}
	}
	if res.BrokenCount > 0 {
		rec = append(rec, fmt.Sprintf("%d node(s) use %s directly (%s): update their imports and calls first.", res.BrokenCount, what, names(g, res.Broken, 5)))
	}
	if len(alone) > 0 {
		rec = append(rec, fmt.Sprintf("%d of them use nothing else (%s): remove or rewrite them with it.", len(alone), names(g, alone, 5)))
	}
	if len(tests) > 0 {
		rec = append(rec, fmt.Sprintf("Tests break with it (%s): delete or retarget them in the same change.", names(g, tests, 5)))
	}
	if len(res.Cascade) > 1 {
		rec = append(rec, fmt.Sprintf("The breakage reaches %d nodes over %d levels: keep what the direct dependents expose stable and the wave stops at them.", res.TotalAffected, len(res.Cascade)))
	}
	if res.OrphanedCount > 0 {
		rec = append(rec, fmt.Sprintf("%d unit(s) would be left unused (%s): delete them in the same change, or keep them on purpose.", res.OrphanedCount, names(g, res.Orphaned, 5)))
	}
	if res.WeakenedCount > 0 {
		w := res.Weakened[0]
		rec = append(rec, fmt.Sprintf("%d unit(s) lose some users (%s loses %d of %d).", res.WeakenedCount, g.Label(w.Node), w.Lost, w.Total))
	}
	return rec
}

func isTestNode(g *graph.Graph, v graph.NodeID) bool {
	if g.HasTag(v, "test") {
		return true
	}
	base := filepath.Base(strings.TrimPrefix(g.ExternalID(tools.FileOf(g, v)), "file::"))
	return strings.HasPrefix(base, "test_") || strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
}

func cfGuidance(c *tools.Call, g *graph.Graph, ids []graph.NodeID, res analysis.CounterfactualResult) tools.Guidance {
	switch {
	case res.BrokenCount == 0 && res.OrphanedCount == 0:
		return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: g.ExternalID(tools.FileOf(g, ids[0])),
			NextStepHint: "The removal breaks nothing and leaves nothing unused: confirm there is no dynamic use, then remove it."}
	case res.BrokenCount == 0:
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "validate_plan", "view"), NextSuggestedTarget: g.ExternalID(res.Orphaned[0].Node),
			NextStepHint: fmt.Sprintf("Nothing breaks, but %d unit(s) would become dead code: plan their removal with it.", res.OrphanedCount)}
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "validate_plan", "view"), NextSuggestedTarget: g.ExternalID(ids[0]),
		NextStepHint: fmt.Sprintf("%d direct dependent(s) break (%d in the whole wave): read how %s is used before removing it.", res.BrokenCount, res.TotalAffected, g.Label(res.Broken[0].Node))}
}

// hypothesizeParams: claim's maxlen is analysis.MaxClaimLen (a test holds
// them together).
type hypothesizeParams struct {
	Claim              string `json:"claim" jsonschema:"Nodes by file, module, qualified name or id." help:"The claim, naming nodes by file (auth.py, backend/auth.py), module stem (worker_pool), qualified name (AuthService.login) or external id." tool:"required,maxlen=1000"`
	MaxHops            int    `json:"max_hops" help:"Longest dependency or call chain searched." tool:"default=5,min=1,max=20"`
	IncludeGhostEdges  bool   `json:"include_ghost_edges" jsonschema:"Count co-change history as weak evidence." help:"Count co-change history (files that change together) as weak evidence of coupling." tool:"default=true"`
	IncludePartialFlow bool   `json:"include_partial_flow" jsonschema:"Without a chain, report how far the search went." help:"When no chain is found, report how far the search went." tool:"default=true"`
	PathBudget         int    `json:"path_budget" help:"Cap on the distinct shortest paths counted per search." tool:"default=1000,min=1,max=1000000"`
}

type evidenceJSON struct {
	Type             string   `json:"type" jsonschema:"path_found, direct_edge, no_path, reverse_dependency, other_dependency, file_dependency, containment, containment_only, co_change, dependency, dependent, no_dependencies, no_dependents, only_tests, test, no_test, test_reaches, not_a_test, type_dependency (a direct import for types only), type_only_chain and type_only_cycle (only through type-only imports), hub_chain (only through a re-exporting package or index the importer takes no name of from the target), test_only_chain (a directory whose tests alone depend on the target)."`
	Description      string   `json:"description"`
	LikelihoodFactor float64  `json:"likelihood_factor" jsonschema:"Multiplies the claim's odds: > 1 supports it, < 1 contradicts it."`
	Nodes            []string `json:"nodes,omitempty"`
	Relations        []string `json:"relations,omitempty"`
	PathWeight       float64  `json:"path_weight,omitempty"`
}

type partialFlowJSON struct {
	From         string `json:"from"`
	To           string `json:"to"`
	Reached      int    `json:"reached" jsonschema:"Nodes the search reached."`
	HopsExplored int    `json:"hops_explored"`
	Exhausted    bool   `json:"exhausted" jsonschema:"Everything reachable was searched: no longer chain exists either."`
}

type hypothesizeOutput struct {
	Claim                 string               `json:"claim"`
	ClaimType             string               `json:"claim_type"`
	SubjectNodes          []string             `json:"subject_nodes"`
	ObjectNodes           []string             `json:"object_nodes"`
	Level                 string               `json:"level" jsonschema:"file (both sides are files or directories) or entity."`
	Verdict               string               `json:"verdict" jsonschema:"likely_true (confidence > 0.8), likely_false (< 0.2) or inconclusive."`
	Confidence            float64              `json:"confidence"`
	SupportingEvidence    []evidenceJSON       `json:"supporting_evidence"`
	ContradictingEvidence []evidenceJSON       `json:"contradicting_evidence"`
	PartialFlow           []partialFlowJSON    `json:"partial_flow,omitempty"`
	PathsExplored         int                  `json:"paths_explored" jsonschema:"Nodes expanded by the searches."`
	ResolvedAs            []tools.ResolvedName `json:"resolved_as,omitempty" jsonschema:"Names of the claim read as a node they do not spell exactly, with the other nodes they could mean."`
	ElapsedMs             float64              `json:"elapsed_ms"`
	tools.Guidance
}

func claimError(claim string, err error) *tools.Error {
	var forms []string
	for _, f := range analysis.ClaimForms() {
		forms = append(forms, fmt.Sprintf("%s — e.g. \"%s\"", f.Form, f.Example))
	}
	e := tools.Errorf("Write the claim in one of these forms (node names may be files, module stems, qualified names or external ids): "+strings.Join(forms, "; ")+".", "%v", err)
	e.Extra = map[string]any{"claim_forms": analysis.ClaimForms()}
	return e.WithExample(map[string]any{"agent_id": "claude", "claim": "payments depends on session"}).
		WithNext("Rephrase the claim in one of the forms and call hypothesize again.")
}

func runHypothesize(c *tools.Call, in hypothesizeParams) (hypothesizeOutput, error) {
	claim, err := analysis.ParseClaim(in.Claim)
	if err != nil {
		return hypothesizeOutput{}, claimError(in.Claim, err)
	}
	var out hypothesizeOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		subj, obj, err := resolveClaim(b, claim)
		if err != nil {
			return err
		}
		start := time.Now()
		p := analysis.DefaultHypothesisParams()
		p.MaxHops, p.IncludeGhostEdges, p.IncludePartialFlow, p.PathBudget = in.MaxHops, in.IncludeGhostEdges, in.IncludePartialFlow, in.PathBudget
		p.Deps = func(fileLevel bool) (*analysis.DepGraph, error) { return depGraph(b, fileLevel) }
		if x := b.History(); x.Len() > 0 {
			p.CoChange = func(a, o graph.NodeID) float32 { return coChange(b, a, o) }
		}
		res, err := analysis.Hypothesize(g, claim, subj.ID, obj.ID, p)
		if err != nil {
			return err
		}
		out = hypothesizeOut(g, res)
		out.ResolvedAs = tools.ResolvedNames(g, subj)
		if claim.Binary() {
			out.ResolvedAs = append(out.ResolvedAs, tools.ResolvedNames(g, obj)...)
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = hypoGuidance(c, g, res)
		return nil
	})
	return out, err
}

// coChange is the Jaccard coupling of two files in the history: commits
// changing both over commits changing either (sweeping commits of more
// than 50 files left out).
func coChange(b *session.Bundle, a, o graph.NodeID) float32 {
	x := b.History()
	ca, co := len(x.FileCommits(a)), len(x.FileCommits(o))
	if ca == 0 || co == 0 {
		return 0
	}
	for _, p := range x.Partners(a, 0, 50, 0) {
		if p.Node == o {
			return graph.Finite(float32(p.Times) / float32(ca+co-p.Times))
		}
	}
	return 0
}

func hypothesizeOut(g *graph.Graph, res analysis.HypothesisResult) hypothesizeOutput {
	out := hypothesizeOutput{Claim: res.Claim.Text, ClaimType: string(res.Claim.Type), Level: res.Level, Verdict: res.Verdict,
		Confidence: tools.R3(res.Confidence), PathsExplored: res.PathsExplored, SubjectNodes: []string{g.ExternalID(res.Subject)}, ObjectNodes: []string{}}
	if res.Object != graph.NoNode {
		out.ObjectNodes = append(out.ObjectNodes, g.ExternalID(res.Object))
	}
	conv := func(l []analysis.Evidence) []evidenceJSON {
		o := []evidenceJSON{}
		for _, e := range l {
			j := evidenceJSON{Type: e.Type, Description: e.Description, LikelihoodFactor: tools.R3(e.LikelihoodFactor), Relations: e.Relations, PathWeight: tools.R3(e.PathWeight)}
			for _, v := range e.Nodes {
				j.Nodes = append(j.Nodes, g.ExternalID(v))
			}
			o = append(o, j)
		}
		return o
	}
	out.SupportingEvidence, out.ContradictingEvidence = conv(res.SupportingEvidence), conv(res.ContradictingEvidence)
	for _, f := range res.PartialFlow {
		out.PartialFlow = append(out.PartialFlow, partialFlowJSON{From: g.ExternalID(f.From), To: g.ExternalID(f.To), Reached: f.Reached, HopsExplored: f.HopsExplored, Exhausted: f.Exhausted})
	}
	return out
}

func hypoGuidance(c *tools.Call, g *graph.Graph, res analysis.HypothesisResult) tools.Guidance {
	subj := g.ExternalID(res.Subject)
	// The strongest evidence the way the verdict went.
	best := ""
	lists := [][]analysis.Evidence{res.SupportingEvidence, res.ContradictingEvidence}
	if res.Verdict == analysis.VerdictLikelyFalse {
		lists[0], lists[1] = lists[1], lists[0]
	}
	for _, l := range lists {
		if len(l) > 0 && best == "" {
			best = l[0].Description
		}
	}
	switch res.Verdict {
	case analysis.VerdictLikelyTrue:
		tool := tools.FirstTool(c.Registry, "view")
		if res.Object != graph.NoNode {
			tool = tools.FirstTool(c.Registry, "why", "view")
		}
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tool, NextSuggestedTarget: subj,
			NextStepHint: fmt.Sprintf("The graph supports the claim (%s). Read the code on the path before relying on it.", best)}
	case analysis.VerdictLikelyFalse:
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "view"), NextSuggestedTarget: subj,
			NextStepHint: fmt.Sprintf("The graph contradicts the claim (%s). Dynamic uses — reflection, string dispatch, configuration — are invisible to it: check the code if the claim matters.", best)}
	}
	return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "why", "impact"), NextSuggestedTarget: subj,
		NextStepHint: fmt.Sprintf("The evidence is mixed (%s): look at the paths between the two nodes, or raise max_hops.", best)}
}

type differentialParams struct {
	SnapshotA  string   `json:"snapshot_a" jsonschema:"\"current\", git:<revision>, or a snapshot file." help:"The earlier graph: \"current\", git:<revision> (git:HEAD~3, git:v1.2.0, git:main), or a snapshot file name (or path) inside the runtime directory, e.g. \"graph.bin\" or \"before.json\"." tool:"required,maxlen=4096"`
	SnapshotB  string   `json:"snapshot_b" jsonschema:"The later graph, same forms." tool:"required,maxlen=4096"`
	Question   string   `json:"question" jsonschema:"Focus, e.g. \"what new coupling was introduced?\"" help:"Focus question narrowing the output: which parts (coupling, isolation, weights, nodes, edges), which direction (new, removed), and a node to centre on (\"around auth.py\")." tool:"maxlen=1000"`
	FocusNodes []string `json:"focus_nodes" jsonschema:"Only these nodes' neighbourhood." help:"Limit the diff to the neighbourhood of these nodes (the nodes, what they contain, their direct neighbours)." tool:"default=,maxitems=100"`
}

type diffEdgeJSON struct {
	Source   string  `json:"source"`
	Target   string  `json:"target"`
	Relation string  `json:"relation"`
	Weight   float64 `json:"weight"`
}

type weightChangeJSON struct {
	Source    string  `json:"source"`
	Target    string  `json:"target"`
	Relation  string  `json:"relation"`
	OldWeight float64 `json:"old_weight"`
	NewWeight float64 `json:"new_weight"`
	Delta     float64 `json:"delta"`
}

type couplingDeltaJSON struct {
	CommunityA  string  `json:"community_a" jsonschema:"A directory."`
	CommunityB  string  `json:"community_b"`
	OldCoupling float64 `json:"old_coupling" jsonschema:"File-level dependency links between the two over the links touching either, in [0, 1]."`
	NewCoupling float64 `json:"new_coupling"`
	Delta       float64 `json:"delta"`
	OldLinks    int     `json:"old_links"`
	NewLinks    int     `json:"new_links"`
}

type differentialOutput struct {
	SnapshotA       string              `json:"snapshot_a"`
	SnapshotB       string              `json:"snapshot_b"`
	Question        string              `json:"question,omitempty"`
	FocusNodes      []string            `json:"focus_nodes" jsonschema:"The nodes the diff is narrowed to (focus_nodes and a node the question names), resolved."`
	Parts           []string            `json:"parts" jsonschema:"What the diff reports: nodes, edges, weights, coupling, isolation; added, removed."`
	NewEdges        []diffEdgeJSON      `json:"new_edges"`
	RemovedEdges    []diffEdgeJSON      `json:"removed_edges"`
	WeightChanges   []weightChangeJSON  `json:"weight_changes" jsonschema:"Edges in both graphs whose weight moved by 0.01 or more, largest first."`
	NewNodes        []string            `json:"new_nodes"`
	RemovedNodes    []string            `json:"removed_nodes"`
	CouplingDeltas  []couplingDeltaJSON `json:"coupling_deltas"`
	BecameIsolated  []string            `json:"became_isolated" jsonschema:"Files with dependency links in A and none in B."`
	BecameConnected []string            `json:"became_connected"`
	Counts          analysis.DiffCounts `json:"counts" jsonschema:"Sizes of the lists before the cut at 100."`
	Graphs          struct {
		NodesA int `json:"nodes_a"`
		EdgesA int `json:"edges_a"`
		NodesB int `json:"nodes_b"`
		EdgesB int `json:"edges_b"`
	} `json:"graphs"`
	Summary   string  `json:"summary"`
	ElapsedMs float64 `json:"elapsed_ms"`
	tools.Guidance
}

// snapshotSidecars are runtime files that are not graph snapshots.
var snapshotSidecars = map[string]bool{
	session.DefaultPlasticityFile: true, session.FeedbackFile: true, session.RootsFile: true, session.DriftBaselineFile: true,
}

// availableSnapshots lists the graph snapshots in the runtime directory.
func availableSnapshots(dir string) []string {
	out := []string{"current"}
	if dir == "" {
		return out
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && !snapshotSidecars[n] && (strings.HasSuffix(n, ".bin") || strings.HasSuffix(n, ".json")) {
			out = append(out, n)
		}
	}
	return out
}

// loadSnapshot reads a named snapshot: nil for "current" (the served
// graph), else a file inside the runtime directory (or the server's own
// graph file), never a path that leaves it.
func loadSnapshot(c *tools.Call, name, param string) (*graph.Graph, error) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, "current") {
		return nil, nil
	}
	if rev, ok := gitRevision(name); ok {
		return gitSnapshot(c, rev, param)
	}
	cfg := c.Session.Config()
	avail := availableSnapshots(cfg.RuntimeDir)
	fail := func(format string, args ...any) error {
		e := tools.Errorf(fmt.Sprintf("%s is \"current\" or a snapshot in the runtime directory: one of %s. Call persist to save the served graph as graph.bin.", param, strings.Join(avail, ", ")), format, args...)
		e.Extra = map[string]any{"available_snapshots": avail}
		if param != "snapshot_a" && param != "snapshot_b" {
			return e // the tool's own example (diverge's baseline) fits
		}
		return e.WithCall("differential", map[string]any{"agent_id": "claude", "snapshot_a": "graph.bin", "snapshot_b": "current"})
	}
	if cfg.RuntimeDir == "" {
		return nil, fail("%s %q: this session keeps its graph in memory only, so only \"current\" exists (start the server with --runtime-dir to save snapshots)", param, name)
	}
	if name == "" {
		return nil, fail("%s is empty", param)
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(cfg.RuntimeDir, path)
	}
	path = filepath.Clean(path)
	if !insideDir(cfg.RuntimeDir, path) && path != filepath.Clean(cfg.GraphSource) {
		return nil, fail("%s %q is outside the runtime directory %s", param, name, cfg.RuntimeDir)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		rdir, _ := filepath.EvalSymlinks(cfg.RuntimeDir)
		if rdir == "" {
			rdir = cfg.RuntimeDir
		}
		if !insideDir(rdir, real) && path != filepath.Clean(cfg.GraphSource) {
			return nil, fail("%s %q leads outside the runtime directory through a symbolic link", param, name)
		}
		path = real
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil, fail("%s %q is not a snapshot file in %s", param, name, cfg.RuntimeDir)
	}
	var g *graph.Graph
	if saved, serr := os.Stat(cfg.GraphSource); serr == nil && os.SameFile(st, saved) {
		g, err = c.Session.LoadSaved() // with the learned weights saved beside it
	} else {
		g, err = snapshot.Load(path)
	}
	if err != nil {
		return nil, fail("%s %q could not be read as a graph snapshot: %v", param, name, err)
	}
	return g, nil
}

func insideDir(dir, p string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func runDifferential(c *tools.Call, in differentialParams) (differentialOutput, error) {
	ga, err := loadSnapshot(c, in.SnapshotA, "snapshot_a")
	if err != nil {
		return differentialOutput{}, err
	}
	gb, err := loadSnapshot(c, in.SnapshotB, "snapshot_b")
	if err != nil {
		return differentialOutput{}, err
	}
	q := analysis.ParseDiffQuestion(in.Question)
	var out differentialOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		a, bb := ga, gb
		if a == nil {
			a = b.Graph
		}
		if bb == nil {
			bb = b.Graph
		}
		focus, err := diffFocus(b, []*graph.Graph{a, bb}, in.FocusNodes, q.Subject)
		if err != nil {
			return err
		}
		start := time.Now()
		p := analysis.DefaultDiffParams()
		p.Sections, p.Focus = q.Sections, focus
		res, err := analysis.Diff(a, bb, p)
		if err != nil {
			return err
		}
		out = differentialOut(in, q, focus, res)
		out.Graphs.NodesA, out.Graphs.EdgesA, out.Graphs.NodesB, out.Graphs.EdgesB = a.NumNodes(), a.NumEdges(), bb.NumNodes(), bb.NumEdges()
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = diffGuidance(c, out)
		return nil
	})
	return out, err
}

// diffFocus resolves the focus nodes (and a node the question names) to
// external IDs, in the served graph or else in a compared one; an
// unresolvable question subject is ignored (it may be a plain word).
func diffFocus(b *session.Bundle, gs []*graph.Graph, refs []string, subject string) ([]string, error) {
	var out []string
	resolve := func(ref, param string) (string, error) {
		id, err := tools.ResolveNode(b, ref, param)
		if err == nil {
			return b.Graph.ExternalID(id), nil
		}
		for _, g := range gs {
			if id, err2 := tools.ResolveNodeIn(g, ref, param); err2 == nil {
				return g.ExternalID(id), nil
			}
		}
		return "", err
	}
	for i, ref := range refs {
		x, err := resolve(ref, fmt.Sprintf("focus_nodes[%d]", i))
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	if subject != "" {
		if x, err := resolve(subject, "question"); err == nil {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func differentialOut(in differentialParams, q analysis.DiffQuestion, focus []string, res analysis.DiffResult) differentialOutput {
	out := differentialOutput{SnapshotA: in.SnapshotA, SnapshotB: in.SnapshotB, Question: in.Question, FocusNodes: focus,
		NewNodes: res.NewNodes, RemovedNodes: res.RemovedNodes, BecameIsolated: res.BecameIsolated, BecameConnected: res.BecameConnected,
		Counts: res.Counts, NewEdges: []diffEdgeJSON{}, RemovedEdges: []diffEdgeJSON{}, WeightChanges: []weightChangeJSON{}, CouplingDeltas: []couplingDeltaJSON{}}
	if out.FocusNodes == nil {
		out.FocusNodes = []string{}
	}
	for i, name := range []string{"nodes", "edges", "weights", "coupling", "isolation", "added", "removed"} {
		if q.Sections&(1<<i) != 0 {
			out.Parts = append(out.Parts, name)
		}
	}
	for _, e := range res.NewEdges {
		out.NewEdges = append(out.NewEdges, diffEdgeJSON{e.Source, e.Target, e.Relation, tools.R3(e.Weight)})
	}
	for _, e := range res.RemovedEdges {
		out.RemovedEdges = append(out.RemovedEdges, diffEdgeJSON{e.Source, e.Target, e.Relation, tools.R3(e.Weight)})
	}
	for _, w := range res.WeightChanges {
		out.WeightChanges = append(out.WeightChanges, weightChangeJSON{w.Source, w.Target, w.Relation, tools.R3(w.OldWeight), tools.R3(w.NewWeight), tools.R3(w.Delta)})
	}
	for _, d := range res.CouplingDeltas {
		out.CouplingDeltas = append(out.CouplingDeltas, couplingDeltaJSON{d.CommunityA, d.CommunityB, tools.R3(d.OldCoupling), tools.R3(d.NewCoupling), tools.R3(d.Delta), d.OldLinks, d.NewLinks})
	}
	out.Summary = diffSummary(res)
	return out
}

func diffSummary(res analysis.DiffResult) string {
	n := res.Counts
	var parts []string
	add := func(k int, one, many string) {
		switch {
		case k == 1:
			parts = append(parts, "1 "+one)
		case k > 1:
			parts = append(parts, fmt.Sprintf("%d %s", k, many))
		}
	}
	add(n.NewEdges, "new edge", "new edges")
	add(n.RemovedEdges, "removed edge", "removed edges")
	add(n.NewNodes, "new node", "new nodes")
	add(n.RemovedNodes, "removed node", "removed nodes")
	add(n.WeightChanges, "weight change", "weight changes")
	up, down := 0, 0
	for _, d := range res.CouplingDeltas {
		if d.Delta > 0 || d.NewLinks > d.OldLinks {
			up++
		} else {
			down++
		}
	}
	add(up, "coupling increase", "coupling increases")
	add(down, "coupling decrease", "coupling decreases")
	add(n.BecameIsolated, "file became isolated", "files became isolated")
	add(n.BecameConnected, "file became connected", "files became connected")
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, ", ")
}

func diffGuidance(c *tools.Call, out differentialOutput) tools.Guidance {
	target := ""
	switch {
	case len(out.NewEdges) > 0:
		target = out.NewEdges[0].Target
	case len(out.RemovedNodes) > 0:
		target = out.RemovedNodes[0]
	case len(out.NewNodes) > 0:
		target = out.NewNodes[0]
	case len(out.RemovedEdges) > 0:
		target = out.RemovedEdges[0].Target
	}
	if target == "" {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "diverge", "drift"),
			NextStepHint: "No structural change between the two graphs (in the parts asked about); for drift since a commit or date, use diverge."}
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "why"), NextSuggestedTarget: target,
		NextStepHint: fmt.Sprintf("%s. Check what the changed nodes now affect, starting with %s.", out.Summary, strings.TrimPrefix(target, "file::"))}
}
