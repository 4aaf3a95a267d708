package structure

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type refactorPlanParams struct {
	Scope            string `json:"scope" help:"Plan only the files whose path starts with this prefix."`
	MaxCommunities   int    `json:"max_communities" help:"Communities listed, largest first (the count covers all)." tool:"default=10,min=1,max=100"`
	MinCommunitySize int    `json:"min_community_size" help:"Smallest community (in files) listed and used for proposals." tool:"default=3,min=2,max=1000"`
	ExcludeTests     bool   `json:"exclude_tests" help:"Leave test files out (they couple to what they test)." tool:"default=true"`
	TopK             int    `json:"top_k" help:"Proposals listed, best modularity gain first." tool:"default=10,min=1,max=100"`
}

func registerRefactorPlan(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "refactor_plan",
		Title:       "Refactor plan",
		Description: "File communities with move, split and merge proposals and their coupling gain.",
		Details: "Groups files into communities by modularity (Louvain over the file dependency graph, links undirected, weighted by dependency count) " +
			"and compares them with the directories as they are. Proposes moving a file into the directory its community lives in (when it has more links there), " +
			"splitting a directory whose files form two or more communities, and merging two linked directories one community spans. " +
			"Each proposal carries its computed effect: the link weight between directories (cut) and the modularity of the directory layout, before and after; " +
			"only changes that raise modularity are proposed. Communities list cohesion (share of links inside) and boundary files (most links out).",
		Class:     tools.Read,
		WhenToUse: "Before modularising or extracting a package: which files belong together, which sit in the wrong place.",
		AvoidWhen: "You need the layering (layers) or one file's dependents (impact).",
		Next:      []string{"layers", "impact", "diagram"},
		Example:   map[string]any{"agent_id": "claude", "max_communities": 5},
	}, runRefactorPlan)
}

// RefactorPlanOutput is refactor_plan's answer.
type RefactorPlanOutput struct {
	Files            int             `json:"files"`
	Links            int             `json:"links"`
	Communities      []communityJSON `json:"communities"`
	CommunitiesTotal int             `json:"communities_total" jsonschema:"Of at least min_community_size files."`
	Modularity       float64         `json:"modularity" jsonschema:"Of the communities."`
	DirModularity    float64         `json:"directory_modularity" jsonschema:"Of the directories as they are."`
	Cut              int             `json:"cut" jsonschema:"Link weight between directories now."`
	Proposals        []proposalJSON  `json:"proposals"`
	ProposalsTotal   int             `json:"proposals_total"`
	ElapsedMs        float64         `json:"elapsed_ms"`
}

type communityJSON struct {
	ID        int      `json:"id"`
	Size      int      `json:"size"`
	Directory string   `json:"directory" jsonschema:"Where most of its files are."`
	Share     float64  `json:"directory_share"`
	Cohesion  float64  `json:"cohesion"`
	Internal  int      `json:"internal_links"`
	External  int      `json:"external_links"`
	Files     []string `json:"files" jsonschema:"First 8, by name."`
	Boundary  []string `json:"boundary_files"`
}

type proposalJSON struct {
	Kind      string   `json:"kind"`
	Files     []string `json:"files" jsonschema:"Moved files, or the first 8."`
	FileCount int      `json:"file_count"`
	From      string   `json:"from"`
	To        string   `json:"to,omitempty"`
	Parts     int      `json:"parts,omitempty"`
	Community int      `json:"community"`
	CutBefore int      `json:"cut_before"`
	CutAfter  int      `json:"cut_after"`
	QBefore   float64  `json:"modularity_before"`
	QAfter    float64  `json:"modularity_after"`
	Gain      float64  `json:"modularity_gain"`
	Reason    string   `json:"reason"`
}

func runRefactorPlan(c *tools.Call, in refactorPlanParams) (RefactorPlanOutput, error) {
	var out RefactorPlanOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		start := time.Now()
		u, err := units(b, unitKey{gran: core.FileUnit, scope: strings.TrimPrefix(in.Scope, "./"), excludeTests: in.ExcludeTests})
		if err != nil {
			return err
		}
		if u.Len() == 0 {
			return tools.Errorf("scope is a path prefix of ingested files, e.g. \"src/\".", "no file under %q", in.Scope).
				WithExample(map[string]any{"agent_id": "claude"})
		}
		cmds := commandDirs(b.Graph, u)
		p := core.RefactorPlan(u, core.PlanOptions{MinCommunitySize: in.MinCommunitySize, Pinned: func(d string) bool { return cmds[d] }})
		out = RefactorPlanOutput{Files: u.Len(), Links: p.Links, CommunitiesTotal: len(p.Communities), Modularity: round3(p.Modularity),
			DirModularity: round3(p.DirModularity), Cut: p.Cut, ProposalsTotal: len(p.Proposals), Communities: []communityJSON{}, Proposals: []proposalJSON{}}
		for _, cm := range p.Communities[:min(in.MaxCommunities, len(p.Communities))] {
			out.Communities = append(out.Communities, communityJSON{ID: cm.ID, Size: len(cm.Units), Directory: cm.Directory, Share: round3(cm.Share),
				Cohesion: round3(cm.Cohesion()), Internal: cm.Internal, External: cm.External, Files: names(u, cm.Units, 8), Boundary: names(u, cm.Boundary, 3)})
		}
		for _, pr := range p.Proposals[:min(in.TopK, len(p.Proposals))] {
			out.Proposals = append(out.Proposals, proposalOut(u, pr))
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

// commandDirs are the directories of Go commands (a file declaring func
// main): package main, which no other package can import, so a file can
// neither leave it for a library nor join it from one.
func commandDirs(g *graph.Graph, u *core.Units) map[string]bool {
	dirs := map[string]bool{}
	for i, name := range u.Names {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		for _, f := range u.Members[i] {
			if m, ok := g.Lookup(g.ExternalID(f) + "::main"); ok && g.Type(m) == graph.Function {
				dirs[path.Dir(name)] = true
			}
		}
	}
	return dirs
}

func names(u *core.Units, vs []int, n int) []string {
	out := []string{}
	for _, v := range vs[:min(n, len(vs))] {
		out = append(out, u.Names[v])
	}
	return out
}

func proposalOut(u *core.Units, pr core.Proposal) proposalJSON {
	out := proposalJSON{Kind: pr.Kind.String(), Files: names(u, pr.Units, 8), FileCount: len(pr.Units), From: pr.From, To: pr.To, Parts: pr.Parts,
		Community: pr.Community, CutBefore: pr.CutBefore, CutAfter: pr.CutAfter, QBefore: round3(pr.QBefore), QAfter: round3(pr.QAfter), Gain: round3(pr.Gain())}
	switch pr.Kind {
	case core.Move:
		out.Reason = fmt.Sprintf("%s has more links to %s than to its own directory; cut %d → %d.", u.Names[pr.Units[0]], pr.To, pr.CutBefore, pr.CutAfter)
	case core.Split:
		out.Reason = fmt.Sprintf("%s holds %d communities of files that barely link to each other.", pr.From, pr.Parts)
	case core.Merge:
		out.Reason = fmt.Sprintf("One community spans most of %s and %s; cut %d → %d.", pr.From, pr.To, pr.CutBefore, pr.CutAfter)
	}
	return out
}
