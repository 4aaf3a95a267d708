package change

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type planAction struct {
	ActionType  string   `json:"action_type"`
	FilePath    string   `json:"file_path"`
	Description string   `json:"description,omitempty"`
	DependsOn   []string `json:"depends_on,omitempty"`
}

type validatePlanParams struct {
	Actions           []planAction `json:"actions" jsonschema:"Ordered {action_type: modify|create|delete|rename|test, file_path, description?}" help:"Ordered planned actions: {action_type: modify|create|delete|rename|test, file_path: relative path, description?, depends_on?: [file_path]}." tool:"required,maxitems=200"`
	IncludeTestImpact bool         `json:"include_test_impact" help:"Analyse test coverage of the modified files." tool:"default=true"`
	IncludeRiskScore  bool         `json:"include_risk_score" help:"Compute the composite risk score." tool:"default=true"`
	Task              string       `json:"task" jsonschema:"What the change is for, in words." help:"The task in hand (the issue or request, in words): files its text matches become likelier gaps." tool:"maxlen=8000"`
}

type gapJSON struct {
	FilePath       string  `json:"file_path"`
	NodeID         string  `json:"node_id"`
	Reason         string  `json:"reason"`
	Severity       string  `json:"severity" jsonschema:"critical (depends on a file the plan deletes), warning (signal_strength ≥ 0.3) or info."`
	SignalStrength float64 `json:"signal_strength" jsonschema:"How likely the file needs a change too: predict's calibrated confidence (co-change history and structure) combined over the planned files."`
	Source         string  `json:"source" jsonschema:"caller (uses a symbol the plan changes, by a call, import or reference edge of the graph), name_match (names that symbol where the graph has no edge: a call through a local variable or an untyped receiver, found in the file's text), dependency (depends directly on a planned file) co_change (likely from history and structure, no direct dependency) or task (only the task's text points at it)."`
}

type unresolvedJSON struct {
	Index    int      `json:"index"`
	FilePath string   `json:"file_path"`
	Problem  string   `json:"problem"`
	Closest  []string `json:"closest,omitempty"`
}

type coverageJSON struct {
	ModifiedFiles int      `json:"modified_files"`
	TestedFiles   int      `json:"tested_files"`
	UntestedFiles []string `json:"untested_files"`
	CoverageRatio float64  `json:"coverage_ratio"`
}

type additionJSON struct {
	ActionType string `json:"action_type"`
	FilePath   string `json:"file_path"`
	Reason     string `json:"reason"`
}

type riskPartsJSON struct {
	Scope    float64 `json:"scope" jsonschema:"How far the change reaches (blast radius), in [0, 1]."`
	Gaps     float64 `json:"gaps" jsonschema:"Files the plan misses, weighted by severity, in [0, 1]."`
	Untested float64 `json:"untested" jsonschema:"Share of modified files without tests."`
	Deletes  float64 `json:"deletes" jsonschema:"Deleted files that others depend on, in [0, 1]."`
	Hubs     float64 `json:"hubs" jsonschema:"Centrality of the most central file changed, in [0, 1]."`
}

type validatePlanOutput struct {
	ActionsAnalyzed    int              `json:"actions_analyzed"`
	ActionsResolved    int              `json:"actions_resolved"`
	ActionsUnresolved  int              `json:"actions_unresolved"`
	Unresolved         []unresolvedJSON `json:"unresolved"`
	Gaps               []gapJSON        `json:"gaps"`
	RiskScore          *float64         `json:"risk_score,omitempty"`
	RiskLevel          string           `json:"risk_level,omitempty" jsonschema:"low (< 0.3), medium (< 0.6), high (< 0.8) or critical."`
	RiskParts          *riskPartsJSON   `json:"risk_parts,omitempty"`
	TestCoverage       *coverageJSON    `json:"test_coverage,omitempty"`
	SuggestedAdditions []additionJSON   `json:"suggested_additions"`
	BlastRadiusTotal   int              `json:"blast_radius_total"`
	ChangedSymbols     []string         `json:"changed_symbols,omitempty" jsonschema:"The symbols the plan changes, as understood from each action's file_path (a node id such as file::tree.go::node::getValue) and the names its description mentions (\"rename node.getValue\"): their callers are gaps (source caller or name_match)."`
	ElapsedMs          float64          `json:"elapsed_ms"`
	tools.Guidance
}

var planActionTypes = []string{"modify", "create", "delete", "rename", "test"}

// maxPlanGaps bounds the gaps listed.
const maxPlanGaps = 30

func runValidatePlan(c *tools.Call, in validatePlanParams) (validatePlanOutput, error) {
	if err := checkActions(c, in.Actions); err != nil {
		return validatePlanOutput{}, err
	}
	var out validatePlanOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		start := time.Now()
		pl := newPlan(b, in.Actions)
		if err := pl.taskFiles(c, in.Task); err != nil {
			return err
		}
		out = pl.validate(c, in)
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

func checkActions(c *tools.Call, actions []planAction) error {
	example := map[string]any{"agent_id": c.AgentID, "actions": []any{map[string]any{"action_type": "modify", "file_path": "src/app.py"}}}
	if len(actions) == 0 {
		return tools.Errorf("actions lists the planned file actions.", "actions is empty").WithExample(example)
	}
	for i, a := range actions {
		if !slices.Contains(planActionTypes, a.ActionType) {
			return tools.Errorf("action_type is one of modify, create, delete, rename, test.", "actions[%d].action_type is %q", i, a.ActionType).WithExample(example)
		}
		if strings.TrimSpace(a.FilePath) == "" {
			return tools.Errorf("Each action names the file it touches, relative to the repository.", "actions[%d].file_path is empty", i).WithExample(example)
		}
	}
	return nil
}

// plan is a plan resolved against the graph.
type plan struct {
	b        *session.Bundle
	g        *graph.Graph
	actions  []planAction
	files    []graph.NodeID // resolved file per action (NoNode: unresolved or created)
	inPlan   map[graph.NodeID]bool
	planned  map[string]bool // graph paths named by the plan
	tests    map[graph.NodeID]bool
	out      validatePlanOutput
	changed  []graph.NodeID // modified, deleted, renamed
	deleted  []graph.NodeID
	blastAll map[graph.NodeID]bool
	symbol   map[int]graph.NodeID // action → the symbol its file_path names
	task     []graph.NodeID       // the files the task's text matches, best first
}

func newPlan(b *session.Bundle, actions []planAction) *plan {
	return &plan{b: b, g: b.Graph, actions: actions, inPlan: map[graph.NodeID]bool{}, planned: map[string]bool{}, tests: map[graph.NodeID]bool{}, blastAll: map[graph.NodeID]bool{}, symbol: map[int]graph.NodeID{}}
}

func (pl *plan) validate(c *tools.Call, in validatePlanParams) validatePlanOutput {
	pl.out = validatePlanOutput{ActionsAnalyzed: len(pl.actions), Unresolved: []unresolvedJSON{}, Gaps: []gapJSON{}, SuggestedAdditions: []additionJSON{}}
	pl.resolve()
	gaps := pl.gaps()
	pl.out.BlastRadiusTotal = len(pl.blastAll)
	var cov *coverageJSON
	if in.IncludeTestImpact {
		cov = pl.Coverage()
		pl.out.TestCoverage = cov
	}
	if in.IncludeRiskScore {
		pl.risk(gaps, cov)
	}
	pl.suggest(cov)
	pl.out.Guidance = planGuidance(c, pl.out)
	return pl.out
}

// resolve maps each action's file to a node; modify/delete/rename/test of
// a file the graph does not hold is reported with the closest paths.
func (pl *plan) resolve() {
	for i, a := range pl.actions {
		p := cleanPlanPath(a.FilePath)
		pl.planned[p] = true
		id, err := tools.ResolveNode(pl.b, a.FilePath, fmt.Sprintf("actions[%d].file_path", i))
		if err == nil {
			if t := pl.g.Type(id); t != graph.File && t != graph.Directory {
				pl.symbol[i] = id
			}
			id = history.FileOf(pl.g, id)
			if pl.g.Type(id) != graph.File {
				err = fmt.Errorf("%s is a %s, not a file", pl.g.ExternalID(id), tools.TypeName(pl.g.Type(id)))
			}
		}
		switch {
		case a.ActionType == "create" && err == nil:
			pl.unresolved(i, a, "the file already exists: plan a modify, or pick a new path", nil)
			pl.files = append(pl.files, id)
			pl.inPlan[id] = true
			continue
		case a.ActionType == "create":
			pl.files = append(pl.files, graph.NoNode)
			pl.out.ActionsResolved++
			continue
		case err != nil:
			pl.unresolved(i, a, "no such file in the graph", closestFiles(pl.b, a.FilePath))
			pl.files = append(pl.files, graph.NoNode)
			continue
		}
		pl.out.ActionsResolved++
		pl.files = append(pl.files, id)
		pl.inPlan[id] = true
		pl.planned[tools.ShortID(pl.g, id)] = true
		switch a.ActionType {
		case "test":
			pl.tests[id] = true
		case "delete":
			pl.deleted = append(pl.deleted, id)
			pl.changed = append(pl.changed, id)
		default:
			pl.changed = append(pl.changed, id)
		}
	}
}

func (pl *plan) unresolved(i int, a planAction, problem string, closest []string) {
	pl.out.ActionsUnresolved++
	pl.out.Unresolved = append(pl.out.Unresolved, unresolvedJSON{Index: i, FilePath: a.FilePath, Problem: problem, Closest: closest})
}

// closestFiles lists up to three file paths nearest to p: base names
// within a few edits (typos), the same directory first.
func closestFiles(b *session.Bundle, p string) []string {
	base := path.Base(p)
	type near struct {
		path string
		d    int
	}
	var cands []near
	for _, f := range tools.BundleGraphFiles(b).Files {
		d := tools.EditDistance(path.Base(f.Path), base)
		if d <= 3 {
			if path.Dir(f.Path) == path.Dir(p) {
				d-- // the same directory breaks ties toward the intended file
			}
			cands = append(cands, near{f.Path, d})
		}
	}
	slices.SortFunc(cands, func(a, b near) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.path, b.path)
	})
	var out []string
	for _, c := range cands[:min(3, len(cands))] {
		out = append(out, c.path)
	}
	return out
}

// gaps: files the plan does not touch that probably need a change too.
// Each changed file's predict (co-change history and structure, its
// confidence calibrated on real history) gives every candidate a
// probability; across the plan they combine as a noisy-or, so a file tied
// to several planned files rises. Direct dependents (impact) are gaps
// whatever their probability, critical when the plan deletes what they
// depend on. Returns the weighted gap mass for the risk score.
func (pl *plan) gaps() float64 {
	acc := map[graph.NodeID]*gapAcc{}
	get := func(id graph.NodeID) *gapAcc {
		if acc[id] == nil {
			acc[id] = &gapAcc{miss: 1}
		}
		return acc[id]
	}
	deleted := map[graph.NodeID]bool{}
	for _, d := range pl.deleted {
		deleted[d] = true
	}
	for _, f := range pl.changed {
		pl.dependents(f, deleted[f], get)
		pl.likely(f, get)
	}
	pl.callers(get)
	pl.taskGaps(get)
	return pl.rankGaps(acc, pl.knownOrder())
}

// knownOrder is predict's ranking (1-based) of the files the plan leaves
// out, given every changed file and the task at once: co-change rules
// over the whole set, the task's files, dependencies and activity, fused
// by rank (history.PredictKnown). On the same plans it finds the missing
// file more often than ordering by the noisy-or of each file's
// probability (benchmarks/results/names-plan.md).
func (pl *plan) knownOrder() map[graph.NodeID]int {
	changed := pl.changed[:min(len(pl.changed), history.MaxKnownChanged)]
	if len(changed) == 0 && len(pl.task) == 0 {
		return nil
	}
	pp := history.DefaultPredictParams()
	pp.TopK = 100
	res, err := history.PredictKnown(pl.b.History(), history.Known{Changed: changed, Task: pl.task}, pp, history.DefaultFusion)
	if err != nil {
		return nil
	}
	order := map[graph.NodeID]int{}
	for _, pr := range res.Predictions {
		if !pl.skip(pr.Node) {
			order[pr.Node] = len(order) + 1
		}
	}
	return order
}

// planToken is a name in a description: getValue, node.getValue.
var planToken = regexp.MustCompile(`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`)

// breaking: the description says the symbol goes away or changes shape.
var breaking = regexp.MustCompile(`(?i)\b(?:rename|renames|renaming|remove|removes|removing|delete|deletes|deleting|drop|signature|move|moves)\b`)

// callerReads bounds the files validate_plan reads for names.
const callerReads = 300

func (pl *plan) callers(get func(graph.NodeID) *gapAcc) {
	g, gf, rs, guard := pl.g, tools.BundleGraphFiles(pl.b), tools.BundleSpace(pl.b), tools.BundleGuard(pl.b)
	reads := 0
	read := func(p string) []byte {
		if reads >= callerReads {
			return nil
		}
		reads++
		res, err := guard.Resolve(rs.DiskPath(p))
		if err != nil || !res.Exists {
			return nil
		}
		src, err := tools.ReadBounded(res.Real, 4<<20)
		if err != nil {
			return nil
		}
		return src
	}
	for i, a := range pl.actions {
		f := pl.files[i]
		if f == graph.NoNode || a.ActionType == "create" || a.ActionType == "test" {
			continue
		}
		p := g.SourcePath(f)
		src := read(p)
		if src == nil {
			continue
		}
		decl, pkg, ok := edit.Declared(p, src)
		if !ok {
			continue
		}
		prefix := rs.FileID(p)
		gid := func(extractID string) string { return prefix + strings.TrimPrefix(extractID, extract.FileID(p)) }
		named := map[string]edit.Symbol{} // graph id → symbol
		if sym, ok := pl.symbol[i]; ok {
			for id, s := range decl {
				if gid(id) == g.ExternalID(sym) {
					named[gid(id)] = s
				}
			}
		}
		for _, tok := range planToken.FindAllString(a.Description, -1) {
			parts := strings.Split(tok, ".")
			for id, s := range decl {
				switch {
				case len(parts) > 1 && s.Qualified == strings.Join(parts[len(parts)-2:], "."),
					len(parts) > 1 && !s.Member && s.Name == parts[len(parts)-1] && parts[0] != s.Name,
					len(parts) == 1 && len(tok) >= 3 && s.Name == tok:
					named[gid(id)] = s
				}
			}
		}
		if len(named) == 0 {
			continue
		}
		critical := a.ActionType == "rename" || a.ActionType == "delete" || breaking.MatchString(a.Description)
		// The files that could use it: the graph's users of the file
		// (for Go, its package), and the files beside it.
		users := tools.UsersOf(pl.b, p)
		for _, gfile := range gf.Files {
			if q := gfile.Path; q != p && path.Dir(q) == path.Dir(p) && path.Ext(q) == path.Ext(p) && !slices.Contains(users, q) {
				users = append(users, q)
			}
		}
		for _, id := range slices.Sorted(tools.MapsKeys(named)) {
			s := named[id]
			pl.out.ChangedSymbols = append(pl.out.ChangedSymbols, s.Qualified+" ("+tools.ShortID(g, f)+")")
			viaEdge := map[graph.NodeID]bool{}
			if n, ok := g.Lookup(id); ok {
				ilo, ihi := g.InRange(n)
				for k := ilo; k < ihi; k++ {
					rel := g.RelationName(g.InEdge(k))
					if !slices.Contains(tools.UserRelations, rel) || rel == "tests" {
						continue
					}
					src := g.InSource(k)
					uf := history.FileOf(g, src)
					if uf == f || pl.skip(uf) {
						continue
					}
					viaEdge[uf] = true
					why := fmt.Sprintf("%s %s (%s)", relVerb(rel), s.Qualified, g.Label(src))
					if l := g.Provenance(src).LineStart; l > 0 {
						why = fmt.Sprintf("%s %s (%s, %s:%d)", relVerb(rel), s.Qualified, g.Label(src), tools.ShortID(g, uf), l)
					}
					pl.caller(get(uf), why, 0.8, critical, false)
				}
			}
			for _, u := range users {
				if reads >= callerReads {
					break
				}
				uid := graph.NoNode
				if j, ok := gf.ByPath[u]; ok {
					uid = gf.Files[j].Node
				}
				if uid == graph.NoNode || uid == f || viaEdge[uid] || pl.skip(uid) {
					continue
				}
				text := read(u)
				if text == nil {
					continue
				}
				line, sure, _ := edit.NameUse(u, text, p, pkg, s)
				if line == 0 {
					continue
				}
				samePkg := strings.HasSuffix(p, ".go") && path.Dir(u) == path.Dir(p)
				why := fmt.Sprintf("uses %s at %s:%d", s.Name, u, line)
				if fn, ok := tools.Enclosing(g, &gf.Files[gf.ByPath[u]], line); ok {
					why = fmt.Sprintf("uses %s at %s:%d (in %s)", s.Name, u, line, g.Label(fn))
				}
				why += ", found by name: the graph has no edge for this use (a call through a local variable or an untyped receiver is not resolved)"
				sig := 0.5
				if sure || samePkg {
					sig = 0.7
				}
				pl.caller(get(uid), why, sig, critical && (sure || samePkg), true)
			}
		}
	}
}

// caller records that a gap uses a changed symbol.
func (pl *plan) caller(a *gapAcc, why string, sig float64, critical, byName bool) {
	if sig > a.callerSig || a.caller == "" {
		a.caller, a.callerSig, a.byName = why, sig, byName
	}
	a.callerCritical = a.callerCritical || critical
	a.miss *= 1 - sig
}

func relVerb(rel string) string {
	switch rel {
	case "calls":
		return "calls"
	case "imports":
		return "imports"
	case "inherits":
		return "inherits from"
	case "implements":
		return "implements"
	}
	return "uses"
}

// gapAcc gathers one candidate's evidence across the planned files.
type gapAcc struct {
	miss     float64 // Π (1 − p) over the planned files
	critical bool
	dep      string // the strongest dependency reason
	depSig   float64
	cochange string
	coTimes  int
	likely   bool   // among predict's candidates for a planned file
	task     string // the task's text matches it
	// caller: the file uses a symbol the plan changes (byName: found in
	// its text, the graph has no edge for it).
	caller         string
	callerSig      float64
	callerCritical bool
	byName         bool
}

// dependents adds f's direct dependents (and fills the blast radius).
func (pl *plan) dependents(f graph.NodeID, deleted bool, get func(graph.NodeID) *gapAcc) {
	ip := analysis.DefaultImpactParams()
	ip.Level, ip.MaxHops, ip.IncludeCausalChains, ip.TopK, ip.MaxVia = analysis.LevelFile, 3, false, 0, 1
	res, err := analysis.Impact(pl.g, f, ip)
	if err != nil {
		return
	}
	for _, n := range res.BlastRadius {
		file := history.FileOf(pl.g, n.Node)
		pl.blastAll[file] = true
		if n.HopDistance != 1 || file == f || pl.skip(file) {
			continue
		}
		a := get(file)
		if float64(n.SignalStrength) <= a.depSig {
			continue
		}
		why := "depends on " + tools.ShortID(pl.g, f)
		if deleted {
			why += ", which the plan deletes"
			a.critical = true
		}
		if len(n.Via) > 0 {
			u := n.Via[0]
			why += fmt.Sprintf(" (%s %s %s)", pl.g.Label(u.Dependent), u.Relation, pl.g.Label(u.Dependency))
		}
		a.dep, a.depSig = why, float64(n.SignalStrength)
	}
}

// likely folds f's predictions into the candidates' probabilities.
func (pl *plan) likely(f graph.NodeID, get func(graph.NodeID) *gapAcc) {
	pp := history.DefaultPredictParams()
	pp.TopK = 100
	res, err := history.Predict(pl.b.History(), f, pp)
	if err != nil {
		return
	}
	for _, pr := range res.Predictions {
		if pl.skip(pr.Node) {
			continue
		}
		a := get(pr.Node)
		a.miss *= 1 - pr.Confidence
		a.likely = true
		if pr.CoChanges > a.coTimes {
			a.coTimes = pr.CoChanges
			a.cochange = fmt.Sprintf("changed together with %s in %d of %d commits", tools.ShortID(pl.g, f), pr.CoChanges, res.Commits)
		}
	}
}

func (pl *plan) skip(id graph.NodeID) bool {
	return pl.inPlan[id] || pl.planned[tools.ShortID(pl.g, id)]
}

// minGapProbability keeps out candidates that are neither dependents nor
// at all likely: below it, about as likely as any file (calibrated: of
// the tune candidates under 0.1, 1.6 % changed). Above it the list is
// long on purpose — ranked, with each gap's probability — since a plan's
// missing file is often only moderately likely (benchmarks/cochange: on
// the tune half, plans missing one file of a later commit found it in the
// first ten gaps 67 % of the time with a cut at 0.1, 77 % at 0.02).
const minGapProbability = 0.02

// rankGaps orders the gaps — by severity, then the callers of what the
// plan changes, then in predict's order (order), then by probability —
// and returns their mass.
func (pl *plan) rankGaps(acc map[graph.NodeID]*gapAcc, order map[graph.NodeID]int) float64 {
	gaps := make([]gapJSON, 0, len(acc))
	rank := map[string]int{}
	mass := 0.0
	x := pl.b.History()
	for id, a := range acc {
		p := 1 - a.miss
		if a.dep == "" && a.caller == "" && p < minGapProbability {
			continue
		}
		if x.IsFragment(id) {
			continue // an old release note or migration is never changed again: newFragments proposes a new one
		}
		gp := gapJSON{FilePath: tools.ShortID(pl.g, id), NodeID: pl.g.ExternalID(id), SignalStrength: tools.Round3(p), Severity: "info", Source: "co_change"}
		rank[gp.NodeID] = gapRank(a, order[id])
		switch {
		case a.caller != "" && a.byName:
			gp.Source = "name_match"
		case a.caller != "":
			gp.Source = "caller"
		case a.dep != "":
			gp.Source = "dependency"
		}
		if a.task != "" && !a.likely && gp.Source == "co_change" {
			gp.Source = "task"
		}
		gp.Reason = strings.Join(slices.DeleteFunc([]string{a.caller, a.dep, a.cochange, a.task}, func(s string) bool { return s == "" }), "; ")
		switch {
		case a.critical || a.callerCritical:
			gp.Severity = "critical"
		case p >= 0.3 || a.caller != "":
			gp.Severity = "warning"
		}
		mass += map[string]float64{"critical": 1, "warning": 0.5, "info": 0.15}[gp.Severity] * max(p, 0.2)
		gaps = append(gaps, gp)
	}
	sortGaps(gaps, rank)
	if len(gaps) > maxPlanGaps {
		gaps = gaps[:maxPlanGaps]
	}
	pl.out.Gaps = gaps
	return mass
}

// gapRank is where a gap goes among those of its severity: the callers
// of what the plan changes first (predict knows no symbols), then
// predict's order (r, 0 when predict does not rank it), then the rest.
func gapRank(a *gapAcc, r int) int {
	switch {
	case a.caller != "":
		return 0
	case r > 0:
		return r
	}
	return math.MaxInt32
}

// severityOrder puts the most severe gaps first (suggest and the
// guidance read them in that order).
var severityOrder = map[string]int{"critical": 0, "warning": 1, "info": 2}

// sortGaps orders gaps by severity, then by rank, then by probability,
// then by node ID.
func sortGaps(gaps []gapJSON, rank map[string]int) {
	slices.SortFunc(gaps, func(a, b gapJSON) int {
		if sa, sb := severityOrder[a.Severity], severityOrder[b.Severity]; sa != sb {
			return cmp.Compare(sa, sb)
		}
		if ra, rb := rank[a.NodeID], rank[b.NodeID]; ra != rb {
			return cmp.Compare(ra, rb)
		}
		if a.SignalStrength != b.SignalStrength {
			if a.SignalStrength > b.SignalStrength {
				return -1
			}
			return 1
		}
		return strings.Compare(a.NodeID, b.NodeID)
	})
}

// ownTestsOf lists the tests of file named after it (its stem once the
// test affixes are gone), by path.
func (pl *plan) ownTestsOf(file graph.NodeID) []graph.NodeID {
	stem := testStem(tools.ShortID(pl.g, file))
	var out []graph.NodeID
	for _, t := range pl.testsOf(file) {
		if testStem(tools.ShortID(pl.g, t)) == stem {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b graph.NodeID) int { return strings.Compare(tools.ShortID(pl.g, a), tools.ShortID(pl.g, b)) })
	return out
}

// testStem is a file's base name without extension and test affixes,
// lower-cased: test_config.py, config_test.go, Config.test.ts,
// ConfigTest.java and config.py all give "config".
func testStem(p string) string {
	base := path.Base(p)
	stem := strings.ToLower(strings.TrimSuffix(base, path.Ext(base)))
	stem = strings.TrimPrefix(stem, "test_")
	for _, suf := range []string{"_test", ".test", ".spec", "tests", "test"} {
		if s, ok := strings.CutSuffix(stem, suf); ok && s != "" {
			return strings.TrimRight(s, "_.")
		}
	}
	return stem
}

// testsOf lists the test files that exercise file (tests edges into it or
// its entities).
func (pl *plan) testsOf(file graph.NodeID) []graph.NodeID {
	ip := analysis.DefaultImpactParams()
	ip.Level, ip.MaxHops, ip.IncludeCausalChains, ip.TopK, ip.MaxVia = analysis.LevelFile, 1, false, 0, 3
	res, err := analysis.Impact(pl.g, file, ip)
	if err != nil {
		return nil
	}
	var out []graph.NodeID
	for _, n := range res.BlastRadius {
		f := history.FileOf(pl.g, n.Node)
		if tools.IsTestPath(tools.ShortID(pl.g, f)) || slices.ContainsFunc(n.Via, func(u analysis.Usage) bool { return u.Relation == "tests" }) {
			out = append(out, f)
		}
	}
	return out
}

func (pl *plan) Coverage() *coverageJSON {
	cov := &coverageJSON{UntestedFiles: []string{}}
	for i, a := range pl.actions {
		f := pl.files[i]
		if a.ActionType != "modify" && a.ActionType != "rename" || f == graph.NoNode || tools.IsTestPath(tools.ShortID(pl.g, f)) {
			continue
		}
		cov.ModifiedFiles++
		tested := false
		for _, t := range pl.testsOf(f) {
			if pl.tests[t] || pl.inPlan[t] {
				tested = true
			}
		}
		if tested {
			cov.TestedFiles++
		} else {
			cov.UntestedFiles = append(cov.UntestedFiles, tools.ShortID(pl.g, f))
		}
	}
	if cov.ModifiedFiles > 0 {
		cov.CoverageRatio = tools.Round3(float64(cov.TestedFiles) / float64(cov.ModifiedFiles))
	} else {
		cov.CoverageRatio = 1
	}
	return cov
}

func (pl *plan) risk(gapMass float64, cov *coverageJSON) {
	parts := riskPartsJSON{Scope: tools.Round3(1 - math.Exp(-float64(len(pl.blastAll))/40)), Gaps: tools.Round3(1 - math.Exp(-gapMass/2))}
	if cov != nil && cov.ModifiedFiles > 0 {
		parts.Untested = tools.Round3(float64(len(cov.UntestedFiles)) / float64(cov.ModifiedFiles))
	}
	for _, d := range pl.deleted {
		if pl.g.InDegree(d) > 0 {
			parts.Deletes = 1
		}
	}
	maxPR := float32(0)
	for _, f := range pl.changed {
		maxPR = max(maxPR, pl.g.PageRank(f))
	}
	parts.Hubs = tools.Round3(float64(maxPR))
	score := tools.Round3(min(1, 0.3*parts.Scope+0.3*parts.Gaps+0.2*parts.Untested+0.15*parts.Deletes+0.05*parts.Hubs))
	pl.out.RiskScore, pl.out.RiskParts = &score, &parts
	switch {
	case score < 0.3:
		pl.out.RiskLevel = "low"
	case score < 0.6:
		pl.out.RiskLevel = "medium"
	case score < 0.8:
		pl.out.RiskLevel = "high"
	default:
		pl.out.RiskLevel = "critical"
	}
}

// suggest proposes the strongest gaps as actions and tests for untested
// modified files (an existing test file when there is one).
func (pl *plan) suggest(cov *coverageJSON) {
	suggested := map[string]bool{}
	add := func(a additionJSON) {
		if !suggested[a.FilePath] {
			suggested[a.FilePath] = true
			pl.out.SuggestedAdditions = append(pl.out.SuggestedAdditions, a)
		}
	}
	if cov != nil {
		for _, u := range cov.UntestedFiles {
			tp, why := testPathFor(u), "modified file has no test action in the plan"
			if id, ok := pl.g.Lookup(tools.BundleSpace(pl.b).FileID(u)); ok {
				if ts := append(pl.ownTestsOf(id), pl.testsOf(id)...); len(ts) > 0 {
					tp, why = tools.ShortID(pl.g, ts[0]), "modified file's existing test is not in the plan"
				}
			}
			add(additionJSON{ActionType: "test", FilePath: tp, Reason: why})
		}
	}
	pl.newFragments(add)
	for _, gp := range pl.out.Gaps {
		if gp.Severity == "info" || len(pl.out.SuggestedAdditions) >= 8 {
			break
		}
		kind := "modify"
		if tools.IsTestPath(gp.FilePath) {
			kind = "test"
		}
		add(additionJSON{ActionType: kind, FilePath: gp.FilePath, Reason: gp.Reason})
	}
}

// Fragment suggestions: a directory of written-once files (see
// history.FragmentDir) where at least minFragmentAdds of a planned file's
// commits, and at least one in fragmentAddShare of them, added a file.
const (
	minFragmentAdds  = 3
	fragmentAddShare = 5
)

// newFragments proposes the new file a change of the planned files
// usually adds (a release note, a migration), unless the plan creates one
// there already: the co-change with old fragments means that, not that
// an old one needs a change.
func (pl *plan) newFragments(add func(additionJSON)) {
	x := pl.b.History()
	type best struct {
		adds, commits int
		file          graph.NodeID
	}
	byDir := map[string]best{}
	for _, f := range pl.changed {
		n := len(x.FileCommits(f))
		for dir, k := range x.FragmentAdds(f) {
			b, ok := byDir[dir]
			if k >= minFragmentAdds && fragmentAddShare*k >= n && (!ok || k*b.commits > b.adds*n) {
				byDir[dir] = best{k, n, f}
			}
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		if pl.createsIn(dir) {
			continue
		}
		b := byDir[dir]
		add(additionJSON{ActionType: "create", FilePath: dir + "/", Reason: fmt.Sprintf(
			"%d of the %d commits that changed %s added a file here, and its files are each written once (%s): add a new one, do not edit an old one",
			b.adds, b.commits, tools.ShortID(pl.g, b.file), pl.newestFragment(dir))})
	}
}

// createsIn reports whether the plan creates a file directly in dir.
func (pl *plan) createsIn(dir string) bool {
	for _, a := range pl.actions {
		if a.ActionType == "create" && path.Dir(cleanPlanPath(a.FilePath)) == dir {
			return true
		}
	}
	return false
}

// cleanPlanPath is an action's file_path as the graph spells paths.
func cleanPlanPath(p string) string {
	return strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, "\\", "/")), "./")
}

// newestFragment names the latest file written in dir, as an example of
// the form a new one takes.
func (pl *plan) newestFragment(dir string) string {
	x, newest, at := pl.b.History(), "", int32(math.MaxInt32)
	for _, f := range x.DirFiles(dir) {
		if cs := x.FileCommits(f); len(cs) == 1 && x.IsFragment(f) && cs[0] < at {
			newest, at = tools.ShortID(pl.g, f), cs[0]
		}
	}
	return "the newest: " + newest
}

// testPathFor is the conventional test file of p.
func testPathFor(p string) string {
	dir, base := path.Split(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch ext {
	case ".go":
		return dir + stem + "_test.go"
	case ".py":
		return dir + "test_" + base
	case ".js", ".ts", ".jsx", ".tsx", ".mjs":
		return dir + stem + ".test" + ext
	case ".java":
		return dir + stem + "Test.java"
	}
	return dir + stem + "_test" + ext
}

func planGuidance(c *tools.Call, out validatePlanOutput) tools.Guidance {
	switch {
	case out.ActionsUnresolved > 0:
		u := out.Unresolved[0]
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "glob", "seek"), NextSuggestedTarget: u.FilePath,
			NextStepHint: fmt.Sprintf("Action %d names %s: %s. Fix the path, then validate again.", u.Index, u.FilePath, u.Problem)}
	case len(out.Gaps) > 0 && out.Gaps[0].Severity != "info":
		gp := out.Gaps[0]
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view", "impact"), NextSuggestedTarget: gp.NodeID,
			NextStepHint: fmt.Sprintf("The plan misses %s (%s): read it and add it to the plan, or say why it is safe.", gp.FilePath, gp.Reason)}
	}
	return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextStepHint: "The plan covers its dependents and usual co-changes: implement it, then run the tests it names."}
}

// taskFiles reads the files the task's text matches (seek's index).
func (pl *plan) taskFiles(c *tools.Call, task string) error {
	if task = strings.TrimSpace(task); task == "" {
		return nil
	}
	sx, err := tools.SeekIndex(c.Session, pl.b)
	if err != nil {
		return err
	}
	pl.task = history.TaskFiles(sx, task, history.TaskDepth)
	return nil
}

// taskGaps folds the task's files into the candidates' probabilities.
func (pl *plan) taskGaps(get func(graph.NodeID) *gapAcc) {
	r := 0
	for _, f := range pl.task {
		if pl.skip(f) {
			continue
		}
		r++
		a := get(f)
		a.miss *= 1 - history.TaskPrior(r)
		a.task = fmt.Sprintf("the task's text matches it (#%d)", r)
	}
}
