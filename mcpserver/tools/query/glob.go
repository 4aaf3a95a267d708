package query

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type globParams struct {
	Pattern string `json:"pattern" jsonschema:"Glob over root-relative paths (\"src/**/*.go\")." help:"Glob pattern over root-relative paths, e.g. \"src/**/*.go\", \"*_test.py\", \"{cmd,internal}/**\"." tool:"required"`
	Scope   string `json:"scope" jsonschema:"Path prefix or glob to also match." help:"Path prefix (or glob) the files must also match, e.g. \"backend/\"."`
	Sort    string `json:"sort" jsonschema:"path, or activation (central, recently lit first)." help:"\"path\" (alphabetical) or \"activation\" (most central and most recently activated first)." tool:"default=path,enum=path|activation"`
	TopK    int    `json:"top_k" help:"Maximum files returned (total_matches counts them all)." tool:"default=200,min=1,max=10000"`
	Limit   *int   `json:"limit" jsonschema:"Alias of top_k." tool:"min=1,max=10000"`
}

func registerGlob(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "glob",
		Title:       "Find files",
		Description: "Indexed files whose paths match a glob (**, {a,b}): files by name.",
		Details: "Graph-aware file globbing over the files already in the graph (no disk walk): " +
			"*, ?, [abc], [!a-z], {a,b} and ** across directories. A pattern without '/' matches the file name at any depth (\"*.py\"); " +
			"a pattern naming a directory lists the files below it. Sort by path or by activation " +
			"(how central the file is — its PageRank — and how recently queries lit it up).",
		Class:     tools.Read,
		WhenToUse: "When you need files by path pattern, not content; before view on a file family.",
		AvoidWhen: "You are looking for text inside files (search) or code by intent (seek).",
		Next:      []string{"view", "batch_view", "search"},
		Example:   map[string]any{"agent_id": "claude", "pattern": "**/*_test.go", "sort": "activation"},
	}, runGlob)
}

// globFile is one glob result.
type globFile struct {
	FilePath  string `json:"file_path"`
	NodeID    string `json:"node_id,omitempty"`
	Extension string `json:"extension"`
	// LineCount comes from the graph (the file node's or its entities'
	// last line); 0 when unknown.
	LineCount int     `json:"line_count"`
	Entities  int     `json:"entities"`
	PageRank  float64 `json:"pagerank"`
	// Activation is set when sorting by activation.
	Activation *float64 `json:"activation,omitempty"`
	// Connections counts the file node's edges other than containment
	// (imports, tests, references…).
	Connections    int  `json:"connections"`
	HasConnections bool `json:"has_connections"`
}

type globResponse struct {
	Pattern         string     `json:"pattern"`
	Scope           *string    `json:"scope"`
	Sort            string     `json:"sort"`
	Files           []globFile `json:"files"`
	TotalMatches    int        `json:"total_matches"`
	Returned        int        `json:"returned"`
	Truncated       bool       `json:"truncated"`
	FilesIndexed    int        `json:"files_indexed"`
	ActivationBasis string     `json:"activation_basis,omitempty"`
	ElapsedMs       float64    `json:"elapsed_ms"`
	tools.Guidance
}

// activationHalfLife is how fast the "recently activated" part of a
// file's activation fades.
const activationHalfLife = time.Hour

func runGlob(c *tools.Call, in globParams) (globResponse, error) {
	start := time.Now()
	pattern := strings.TrimSpace(in.Pattern)
	if pattern == "" {
		return globResponse{}, tools.Errorf("pattern is a glob over root-relative paths such as \"**/*.py\" or \"src/{api,db}/*.go\"; use \"**\" for every file.", "pattern is empty").
			WithExample(map[string]any{"agent_id": "claude", "pattern": "**/*.py"})
	}
	gm, err := tools.CompileGlob(pattern)
	if err != nil {
		return globResponse{}, tools.Errorf("Supported: * (within a directory), ** (any depth), ?, [abc], [a-z], [!abc], {a,b}. Escape a literal metacharacter with a backslash.", "invalid glob pattern %q: %v", pattern, err).
			WithExample(map[string]any{"agent_id": "claude", "pattern": "src/**/*.go"}).
			WithNext("Fix the pattern; to search file contents instead, call search.")
	}
	limit := in.TopK
	if in.Limit != nil {
		limit = *in.Limit
	}
	sortBy := in.Sort
	var out globResponse
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		gf := tools.BundleGraphFiles(b)
		now := float64(time.Now().UnixNano()) / 1e9
		type hit struct {
			f   *tools.GraphFile
			act float64
		}
		var hits []hit
		for i := range gf.Files {
			f := &gf.Files[i]
			if gm.Match(f.Path) && scope.Match(f.Path) {
				hits = append(hits, hit{f: f})
			}
		}
		if sortBy == "activation" {
			// Plasticity writes the firing records under its own lock.
			c.Session.Plasticity.Locked(func() {
				for i := range hits {
					hits[i].act = fileActivation(g, hits[i].f, now)
				}
			})
			slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.act, a.act) })
		}
		out = globResponse{Pattern: pattern, Sort: sortBy, TotalMatches: len(hits), FilesIndexed: len(gf.Files), Files: []globFile{}}
		if scope != nil {
			s := scope.String()
			out.Scope = &s
		}
		if sortBy == "activation" {
			out.ActivationBasis = "0.5 × the file node's PageRank (0–1) + 0.5 × recency of its last activation (1 = a query lit the file or one of its entities just now, halving every hour; 0 = never)"
		}
		for i, h := range hits {
			if i == limit {
				out.Truncated = true
				break
			}
			gfOut := describeFile(g, h.f)
			if sortBy == "activation" {
				a := tools.Round3(h.act)
				gfOut.Activation = &a
			}
			out.Files = append(out.Files, gfOut)
		}
		out.Returned = len(out.Files)
		return nil
	})
	if err != nil {
		return globResponse{}, err
	}
	if len(out.Files) > 0 {
		top := out.Files[0].FilePath
		out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: "view", NextSuggestedTarget: top,
			NextStepHint: fmt.Sprintf("Open %s with view; search narrows the family by content.", top)}
	} else {
		out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: "search",
			NextStepHint: "No indexed file matches the pattern. Check it against glob \"**\", or search file contents if you are looking for text rather than names."}
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// fileActivation blends centrality with how recently plasticity saw the
// file (or one of its entities) fire. Call it under Plasticity.Locked.
func fileActivation(g *graph.Graph, f *tools.GraphFile, now float64) float64 {
	pl := g.Nodes().Plasticity
	var last float64
	pr := 0.0
	if f.Node != graph.NoNode {
		pr = float64(g.PageRank(f.Node))
		last = float64(pl[f.Node].LastFired)
	}
	for _, id := range f.Nodes {
		last = max(last, float64(pl[id].LastFired))
	}
	rec := 0.0
	if last > 0 {
		age := max(0, now-last)
		rec = math.Exp2(-age / activationHalfLife.Seconds())
	}
	return graph.Finite64(0.5*pr + 0.5*rec)
}

// describeFile is the response form of an indexed file.
func describeFile(g *graph.Graph, f *tools.GraphFile) globFile {
	out := globFile{FilePath: f.Path, Extension: strings.TrimPrefix(path.Ext(f.Path), "."), Entities: len(f.Nodes)}
	lines := 0
	for _, id := range f.Nodes {
		lines = max(lines, int(g.Provenance(id).LineEnd))
	}
	if f.Node != graph.NoNode {
		out.NodeID = g.ExternalID(f.Node)
		out.PageRank = tools.Round3(float64(g.PageRank(f.Node)))
		lines = max(lines, int(g.Provenance(f.Node).LineEnd))
		for _, nb := range g.Neighbors(f.Node) {
			if nb.Relation != "contains" {
				out.Connections++
			}
		}
	}
	out.LineCount = lines
	out.HasConnections = out.Connections > 0
	return out
}
