package tools

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// ResolveNode turns a user reference into one node, the same way for
// every tool that takes one: an external ID ("file::auth.py::login"), a
// path relative to a root ("auth.py" → "file::auth.py"; "ns/auth.py" in
// a graph of namespaced roots), an absolute path inside a root, or a free
// name resolved as Resolve does.
func ResolveNode(b *session.Bundle, ref, param string) (graph.NodeID, error) {
	r, err := Resolve(b, ref, param)
	return r.ID, err
}

// Resolve is ResolveNode keeping how a free name was read: a module name
// ("app", "app.py", "sessions"), a symbol ("Flask", "Scaffold.route"),
// in any case when no node has its exact case, with spaces for
// underscores ("session store"). The writer's meaning is taken to be the
// best candidate by nameRank; when the best ones are really comparable
// the error lists them.
func Resolve(b *session.Bundle, ref, param string) (Resolution, error) {
	g, rs := b.Graph, BundleSpace(b)
	ref = strings.TrimSpace(ref)
	given := ref
	for _, r := range b.Roots {
		if rel, ok := UnderRoot(r.Path, ref); ok {
			ref = rs.GraphPath(r.Path, rel)
			break
		}
	}
	if ref != "" && !strings.Contains(ref, "::") {
		if id, ok := g.Lookup(rs.FileID(strings.TrimPrefix(ref, "./"))); ok {
			return Resolution{ID: id, Ref: given}, nil
		}
	}
	res, err := ResolveIn(g, ref, param)
	res.Ref = given
	return res, err
}

// ResolveNodeIn resolves a reference already in graph terms.
func ResolveNodeIn(g *graph.Graph, ref, param string) (graph.NodeID, error) {
	r, err := ResolveIn(g, ref, param)
	return r.ID, err
}

// ResolveIn is Resolve for a reference already in graph terms.
func ResolveIn(g *graph.Graph, ref, param string) (Resolution, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return Resolution{}, Errorf(fmt.Sprintf("%s names a node: an external id such as \"file::src/auth.py\", a file path, or a name such as \"auth\" or \"Session\".", param), "%s is empty", param)
	}
	if g.NumNodes() == 0 {
		return Resolution{}, EmptyGraphErr()
	}
	if id, ok := g.Lookup(ref); ok {
		return Resolution{ID: id, Ref: ref}, nil
	}
	if id, ok := g.Lookup("file::" + strings.TrimPrefix(ref, "./")); ok {
		return Resolution{ID: id, Ref: ref}, nil
	}
	for _, name := range append([]string{ref}, nameVariants(ref)...) {
		cands := nameCandidates(g, name)
		if len(cands) == 0 {
			cands = foldedCandidates(g, name)
		}
		if len(cands) == 0 {
			continue
		}
		if r, ranked, ok := pickName(g, ref, cands); ok {
			return r, nil
		} else {
			return Resolution{}, ambiguous(g, ref, param, ranked)
		}
	}
	return Resolution{}, notFound(g, ref, param)
}

// ambiguous is the error for a name whose best candidates are really
// comparable (same kind, place and depth, similar centrality).
func ambiguous(g *graph.Graph, ref, param string, ranked []graph.NodeID) error {
	var names []string
	for _, id := range ranked[:min(len(ranked), 8)] {
		names = append(names, g.ExternalID(id))
	}
	e := Errorf("The name fits several nodes equally well: pass the exact external id of the one you mean (one of details.candidates, best first).", "%s %q matches %d nodes", param, ref, len(ranked))
	e.SuggestedNextStep = fmt.Sprintf("Retry with %s %q if that is the node you mean.", param, names[0])
	e.Extra = map[string]any{"candidates": names}
	return e
}

// underRoot turns an absolute path inside root into a root-relative one.
func UnderRoot(root, ref string) (string, bool) {
	if root == "" || !filepath.IsAbs(ref) {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(ref))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// qualifiedMatches finds the nodes whose external ID ends with a
// qualified name: "Engine.handleHTTPRequest" or "Engine::handleHTTPRequest"
// matches "file::gin.go::Engine::handleHTTPRequest"; "pkg.Func" also
// matches a function of file pkg.py or of directory pkg/.
func qualifiedMatches(g *graph.Graph, ref string) []graph.NodeID {
	segs := strings.FieldsFunc(ref, func(r rune) bool { return r == '.' || r == ':' || r == '#' })
	if len(segs) < 2 {
		return nil
	}
	last := segs[len(segs)-1]
	var out []graph.NodeID
	for n := len(segs); n >= 2 && len(out) == 0; n-- {
		suffix := "::" + strings.Join(segs[len(segs)-n:], "::")
		for _, id := range g.NodesByLabel(last) {
			if strings.HasSuffix(g.ExternalID(id), suffix) {
				out = append(out, id)
			}
		}
		if len(out) > 0 || n > 2 {
			continue
		}
		// "module.func": the file's base name without extension.
		mod := segs[len(segs)-2]
		for _, id := range g.NodesByLabel(last) {
			x := g.ExternalID(id)
			file, _, _ := strings.Cut(strings.TrimPrefix(x, "file::"), "::")
			base := PathBase(file)
			if i := strings.LastIndexByte(base, '.'); i > 0 {
				base = base[:i]
			}
			if base == mod || PathBase(path.Dir(file)) == mod {
				out = append(out, id)
			}
		}
	}
	return out
}

func PathBase(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

func notFound(g *graph.Graph, ref, param string) error {
	near := sameBaseFiles(g, ref)
	low := strings.ToLower(ref)
	for i := 0; i < g.NumNodes() && len(near) == 0; i++ {
		id := graph.NodeID(i)
		if strings.Contains(strings.ToLower(g.Label(id)), low) {
			near = append(near, g.ExternalID(id))
			if len(near) == 5 {
				break
			}
		}
	}
	e := Errorf("Node ids look like \"file::path/to/file.py\" or \"file::path/to/file.py::Class::method\"; seek or search find them by description or text.", "%s %q is not a node of the graph", param, ref)
	e.SuggestedNextStep = fmt.Sprintf("Call seek with query %q to find the node, then retry with its node_id.", ref)
	if len(near) > 0 {
		e.Extra = map[string]any{"similar_nodes": near}
		if strings.Contains(ref, "/") && strings.HasPrefix(near[0], "file::") {
			e.SuggestedNextStep = fmt.Sprintf("Retry with %s %q (the file of that name at another path), or one of details.similar_nodes.", param, near[0])
		}
	}
	return e
}

// sameBaseFiles are the files named like a path that is not in the graph
// (a directory guessed wrong: src/commonMain/… for src/jvmMain/…), those
// sharing the most trailing directories first, at most 5.
func sameBaseFiles(g *graph.Graph, ref string) []string {
	p := strings.TrimPrefix(ref, "file::")
	if !strings.Contains(p, "/") || strings.Contains(p, "::") {
		return nil
	}
	want := strings.Split(p, "/")
	shared := func(x string) int {
		have := strings.Split(strings.TrimPrefix(x, "file::"), "/")
		n := 0
		for n < len(want) && n < len(have) && want[len(want)-1-n] == have[len(have)-1-n] {
			n++
		}
		return n
	}
	var out []string
	for _, id := range g.NodesByLabel(PathBase(p)) {
		if x := g.ExternalID(id); g.Type(id) == graph.File && strings.HasPrefix(x, "file::") {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := shared(b) - shared(a); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out[:min(len(out), 5)]
}

// ReadGraph runs fn under the session's graph read lock, refusing an
// empty graph first (EmptyGraphErr), as most read tools begin.
func ReadGraph(c *Call, fn func(b *session.Bundle) error) error {
	return c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		if b.Graph.NumNodes() == 0 {
			return EmptyGraphErr()
		}
		return fn(b)
	})
}

func EmptyGraphErr() *Error {
	return &Error{
		Message:           "the graph is empty",
		Hint:              "Nothing has been ingested in this session (or the snapshot was not loaded).",
		SuggestedNextStep: "Call ingest with the repository path, e.g. {\"path\": \"/path/to/repo\"}.",
		Example:           map[string]any{"name": "ingest", "arguments": map[string]any{"agent_id": "claude", "path": "/path/to/repo"}},
	}
}

// nodeRef is the compact form of a node in responses.
type nodeRef struct {
	NodeID string `json:"node_id"`
	Label  string `json:"label"`
	Type   string `json:"type"`
}

func RefOf(g *graph.Graph, id graph.NodeID) nodeRef {
	return nodeRef{NodeID: g.ExternalID(id), Label: g.Label(id), Type: TypeName(g.Type(id))}
}

// typeName is the lower-case type name responses use ("file", "function").
func TypeName(t graph.NodeType) string {
	if n, ok := t.IsCustom(); ok {
		return fmt.Sprintf("custom_%d", n)
	}
	return strings.ToLower(t.String())
}

type ProvJSON struct {
	SourcePath string `json:"source_path,omitempty"`
	LineStart  uint32 `json:"line_start,omitempty"`
	LineEnd    uint32 `json:"line_end,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Canonical  bool   `json:"canonical"`
}

func ProvOf(g *graph.Graph, id graph.NodeID) *ProvJSON {
	p := g.Provenance(id)
	if p.SourcePath == "" && p.LineStart == 0 {
		return nil
	}
	return &ProvJSON{SourcePath: p.SourcePath, LineStart: p.LineStart, LineEnd: p.LineEnd, Namespace: p.Namespace, Canonical: p.Canonical}
}

// r3 rounds a score for display (responses stay readable and stable).
func R3(f float32) float64 {
	v := float64(graph.Finite(f))
	return float64(int64(v*1000+sign(v)*0.5)) / 1000
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func Ms(d interface{ Seconds() float64 }) float64 {
	return float64(int64(d.Seconds()*1e5+0.5)) / 100
}

// guidance is the handoff block of the main flows.
type Guidance struct {
	ProofState          string `json:"proof_state" jsonschema:"triaging, proving or ready_to_edit: how far the evidence goes."`
	NextSuggestedTool   string `json:"next_suggested_tool,omitempty" jsonschema:"The tool to call next."`
	NextSuggestedTarget string `json:"next_suggested_target,omitempty" jsonschema:"The node or file to call it on."`
	NextStepHint        string `json:"next_step_hint,omitempty" jsonschema:"What to do next, in a sentence."`
}

// firstTool returns the first of names that the registry serves, so
// guidance never points at a tool this build does not have.
func FirstTool(r *Registry, names ...string) string {
	for _, n := range names {
		if _, ok := r.Lookup(n); ok {
			return n
		}
	}
	return ""
}

// fileOf returns the file node that contains id (id itself for a file),
// or id when there is none.
func FileOf(g *graph.Graph, id graph.NodeID) graph.NodeID { return history.FileOf(g, id) }

// HoldsCode reports whether a node is a file that contains functions,
// types or classes (analysis.HoldsCode).
func HoldsCode(g *graph.Graph, id graph.NodeID) bool { return analysis.HoldsCode(g, id) }

// into adds the guidance fields to a response object.
func (gd Guidance) Into(m map[string]any) {
	m["proof_state"] = gd.ProofState
	if gd.NextSuggestedTool != "" {
		m["next_suggested_tool"] = gd.NextSuggestedTool
	}
	if gd.NextSuggestedTarget != "" {
		m["next_suggested_target"] = gd.NextSuggestedTarget
	}
	if gd.NextStepHint != "" {
		m["next_step_hint"] = gd.NextStepHint
	}
}
