// Package federation is the federation tool family: federate (several
// repositories in one graph, each under its namespace, with the edges
// between them) and federate_auto (the sibling repositories worth
// federating with the current one). The query tools then cross
// repositories through those edges, and their scope parameters (a
// namespace's path prefix) keep them inside one.
package federation

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Register adds the federation family's tools to r.
func Register(r *tools.Registry) {
	registerFederate(r)
	registerFederateAuto(r)
}

type fedRepo struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Adapter string `json:"adapter"`
}

type federateParams struct {
	Repos                []fedRepo `json:"repos" jsonschema:"[{name, path}]: ids become name::file::path." help:"Repositories to serve together: [{name, path, adapter?: \"code\"}]. Each repository's nodes get its name as namespace (\"api::file::main.go\"); names are letters, digits, '.', '_' or '-', unique." tool:"required,maxitems=32"`
	DetectCrossRepoEdges bool      `json:"detect_cross_repo_edges" jsonschema:"Link imports, HTTP routes and gRPC services across repos." help:"Find the dependencies between the repositories — Go imports of another repository's module, npm and Python imports of another repository's package, requests to another repository's HTTP routes, uses of its gRPC services — and add them as edges, so impact and why cross repositories." tool:"default=true"`
	Incremental          bool      `json:"incremental" jsonschema:"Keep what is federated; re-read changed files." help:"Keep the repositories already in the graph and re-read only the files changed since (the first repository is otherwise ingested in replace mode: the graph is rebuilt from these repositories)." tool:"default=false"`
}

type repoIngested struct {
	Name      string  `json:"name"`
	Namespace string  `json:"namespace"`
	Path      string  `json:"path"`
	NodeCount int     `json:"node_count" jsonschema:"Nodes under this repository's namespace."`
	EdgeCount int     `json:"edge_count" jsonschema:"Edges whose source is under this namespace."`
	FromCache bool    `json:"from_cache" jsonschema:"Nothing changed: the repository's nodes were kept."`
	IngestMs  float64 `json:"ingest_ms"`
}

// FederateOutput is federate's answer.
type FederateOutput struct {
	ReposIngested      []repoIngested  `json:"repos_ingested"`
	TotalNodes         int             `json:"total_nodes"`
	TotalEdges         int             `json:"total_edges"`
	CrossRepoEdges     []CrossEdge     `json:"cross_repo_edges" jsonschema:"The edges between repositories (at most 100; see the count)."`
	CrossRepoEdgeCount int             `json:"cross_repo_edge_count"`
	Incremental        bool            `json:"incremental"`
	SkippedRepos       []string        `json:"skipped_repos"`
	ElapsedMs          float64         `json:"elapsed_ms"`
	Persisted          tools.Persisted `json:"persisted"`
	tools.Guidance
}

// maxListedCrossEdges bounds the cross-repository edges an answer lists.
const maxListedCrossEdges = 100

var validName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

func registerFederate(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "federate",
		Title:       "Serve several repositories as one graph",
		Description: "Several repositories in one graph, namespaced, with the imports and API calls between them as edges.",
		Details:     "Ingests each repository in order (the first replaces the graph unless incremental), each under its name as namespace, then links the repositories: a Go file importing another repository's module gets an imports edge to the files of that package, an npm or Python import of another repository's package an edge to its entry file, and a manifest's dependency on it a depends_on edge between the two package nodes (package_dep). A request (fetch, axios, requests, net/http) to a path another repository routes (net/http, gin, chi, Flask, FastAPI, Express) gets a calls_api edge to the handler, a generated gRPC client one to the .proto and the service's servers, a server an implements edge to the .proto (api_contract; evidence names the route or service). impact, why and activate then cross repositories; a query's scope (\"api/\") keeps it inside one. The edges are made again by the next federate (an ingest of one repository alone drops them).",
		Class:       tools.Exclusive,
		WhenToUse:   "The work spans a service and its client library, a monorepo's neighbours, or repositories that import each other.",
		AvoidWhen:   "One repository: ingest is enough.",
		Next:        []string{"impact", "seek", "health"},
		Example:     map[string]any{"agent_id": "claude", "repos": []any{map[string]any{"name": "api", "path": "/src/api"}, map[string]any{"name": "client", "path": "/src/client"}}},
	}, runFederate)
}

func runFederate(c *tools.Call, in federateParams) (FederateOutput, error) {
	start := time.Now()
	runs, err := plan(c, in)
	if err != nil {
		return FederateOutput{}, err
	}
	out := FederateOutput{Incremental: in.Incremental, SkippedRepos: []string{}, CrossRepoEdges: []CrossEdge{}}
	var nb *session.Bundle
	for i, r := range runs {
		t0 := time.Now()
		c.Progress(float64(i), float64(len(runs)+1), "ingesting "+in.Repos[i].Name)
		b, err := c.Session.BuildBundle("federate", r.Build)
		if err != nil {
			var te *tools.Error
			if errors.As(err, &te) {
				return FederateOutput{}, te.WithNext(fmt.Sprintf("%d of %d repositories are in the graph (health lists them); fix %s and call federate again.", i, len(runs), in.Repos[i].Name))
			}
			return FederateOutput{}, tools.Errorf("Check the path; the repositories before it are in the graph (health lists them).", "federate: ingesting %s failed: %v", in.Repos[i].Name, err)
		}
		nb = b
		out.ReposIngested = append(out.ReposIngested, repoIngested{Name: in.Repos[i].Name, Path: r.RootPath(), FromCache: r.Kept, IngestMs: tools.Ms(time.Since(t0))})
	}
	if in.DetectCrossRepoEdges && len(runs) > 1 {
		c.Progress(float64(len(runs)), float64(len(runs)+1), "linking the repositories")
		var edges []CrossEdge
		b, err := c.Session.BuildBundle("federate_edges", func(old *session.Bundle) (*session.Bundle, error) {
			g, found, err := linkRepos(c, old)
			if err != nil || found == nil {
				return old, err
			}
			edges = found
			return &session.Bundle{Graph: g, Roots: old.Roots, Files: old.Files, Commits: old.Commits}, nil
		})
		if err != nil {
			return FederateOutput{}, tools.Errorf("The repositories are in the graph without the edges between them; impact stays inside each.", "federate: linking the repositories failed: %v", err)
		}
		nb = b
		out.CrossRepoEdgeCount = len(edges)
		out.CrossRepoEdges = edges[:min(len(edges), maxListedCrossEdges)]
	}
	fillCounts(nb, &out)
	tools.BuildIndexesSoon(c, nb)
	out.Persisted = tools.PersistAfterIngest(c.Session, nb)
	c.Progress(1, 1, "done")
	out.TotalNodes, out.TotalEdges = nb.Graph.NumNodes(), nb.Graph.NumEdges()
	out.ElapsedMs = tools.Ms(time.Since(start))
	out.Guidance = tools.Guidance{
		ProofState:        "triaging",
		NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "seek"),
		NextStepHint:      fmt.Sprintf("%d repositories under their names, %d edges between them: impact on a shared file now names its users in the other repositories; scope a query with \"name/\" to stay in one.", len(out.ReposIngested), out.CrossRepoEdgeCount),
	}
	return out, nil
}

// plan checks every repository before anything changes: names valid and
// unique, paths that exist under an allowed root, the code adapter.
func plan(c *tools.Call, in federateParams) ([]*tools.IngestRun, error) {
	if len(in.Repos) == 0 {
		return nil, tools.Errorf(`repos lists the repositories: [{"name": "api", "path": "/src/api"}, {"name": "client", "path": "/src/client"}].`, "repos is empty")
	}
	var runs []*tools.IngestRun
	var names []string
	for i, repo := range in.Repos {
		if !validName.MatchString(repo.Name) || slices.Contains(names, repo.Name) {
			return nil, tools.Errorf(`Each repository needs its own name of letters, digits, '.', '_' or '-' (it prefixes its node ids: "api::file::main.go").`, "repos[%d].name %q is missing, invalid or used twice", i, repo.Name)
		}
		names = append(names, repo.Name)
		if repo.Adapter != "" && repo.Adapter != "code" {
			return nil, tools.Errorf(`federate joins source repositories (adapter "code"); ingest documents with the ingest tool in merge mode.`, "repos[%d].adapter %q is not code", i, repo.Adapter)
		}
		mode := "merge"
		if i == 0 && !in.Incremental {
			mode = "replace"
		}
		r := &tools.IngestRun{C: c, Path: repo.Path, Adapter: "code", Mode: mode, Namespace: repo.Name, Incremental: in.Incremental}
		if err := r.Target(); err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// fillCounts sets each repository's namespace and its node and edge
// counts from the graph served.
func fillCounts(b *session.Bundle, out *FederateOutput) {
	for i := range out.ReposIngested {
		ri := &out.ReposIngested[i]
		for _, root := range b.Roots {
			if root.Path == ri.Path {
				ri.Namespace = root.Namespace
			}
		}
	}
	g := b.Graph
	index := map[string]int{}
	for i, ri := range out.ReposIngested {
		index[ri.Namespace] = i
	}
	for n := range g.NumNodes() {
		i, ok := index[namespaceOf(g.ExternalID(nodeID(n)))]
		if !ok {
			continue
		}
		out.ReposIngested[i].NodeCount++
		out.ReposIngested[i].EdgeCount += g.OutDegree(nodeID(n))
	}
}
