package tools

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Resolution is a reference resolved to one node. A free name ("app",
// "Flask", "sessions") may match several nodes: the resolver picks the
// one its writer most likely means and keeps the runners-up, so that an
// answer can say what it took the name for.
type Resolution struct {
	ID graph.NodeID
	// Ref is the reference as given.
	Ref string
	// Named is set when Ref was resolved as a name, not as an exact
	// external id or path.
	Named bool
	// Alternatives are the next candidates, best first (at most
	// maxAlternatives).
	Alternatives []graph.NodeID
}

// ResolvedName is how an answer reports a name it resolved: the node it
// took the name for and the other nodes the name could mean.
type ResolvedName struct {
	Name         string   `json:"name" jsonschema:"The name as written."`
	NodeID       string   `json:"node_id" jsonschema:"The node it was taken for."`
	Alternatives []string `json:"alternatives,omitempty" jsonschema:"Other nodes of that name, best first: pass one's id to mean it."`
}

const maxAlternatives = 3

// ResolvedNames reports the resolutions worth telling: names that had
// other candidates or that matched a node under another label (a file's
// stem, another case). Nil when there is nothing to say.
func ResolvedNames(g *graph.Graph, rs ...Resolution) []ResolvedName {
	var out []ResolvedName
	for _, r := range rs {
		if !r.Named || (len(r.Alternatives) == 0 && spells(g, r.ID, r.Ref)) {
			continue
		}
		n := ResolvedName{Name: r.Ref, NodeID: g.ExternalID(r.ID)}
		for _, a := range r.Alternatives {
			n.Alternatives = append(n.Alternatives, g.ExternalID(a))
		}
		out = append(out, n)
	}
	return out
}

// spells reports whether ref names id literally: its label, the end of
// its path, its stem, or the end of its qualified name ("SessionStore.lookup").
func spells(g *graph.Graph, id graph.NodeID, ref string) bool {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "./")
	l := g.Label(id)
	if l == ref || g.Type(id) == graph.File && strings.TrimSuffix(l, path.Ext(l)) == ref {
		return true // the label, or a module's stem: "sessions" for sessions.py
	}
	x := g.ExternalID(id)
	if strings.HasSuffix(x, "/"+ref) {
		return true
	}
	segs := strings.FieldsFunc(ref, func(r rune) bool { return r == '.' || r == ':' || r == '#' })
	return len(segs) > 1 && strings.HasSuffix(x, "::"+strings.Join(segs, "::"))
}

// nameRank orders the candidates of a free name; lower is better. The
// tiers come first and in this order: production code before tests,
// examples, docs and vendored copies; a directory or a file named so
// before a symbol; a top-level declaration before a member, both before
// a manifest's package, and all before variables and constants; what is
// not deprecated before what is (junit's runners.model.TestClass before
// the deprecated internal.runners one); the shallower path (the package's
// public face: flask/app.py before flask/sansio/app.py). Centrality only
// orders candidates equal on every tier.
type nameRank struct {
	place, kind, declOnly, deprecated, depth int
	pageRank                                 float32
	inDegree                                 int
}

// Kinds of match, best first.
const (
	kindDir = iota
	kindFile
	kindDecl
	kindMember
	kindPackage
	kindOther
)

func rankOf(g *graph.Graph, id graph.NodeID) nameRank {
	p := nodePath(g, id)
	r := nameRank{place: placeOf(p), depth: strings.Count(p, "/"), pageRank: g.PageRank(id), inDegree: g.InDegree(id)}
	r.kind = kindOf(g, id)
	if IsDeprecated(g, id) || inDeprecated(g, id) {
		r.deprecated = 1
	}
	if r.kind == kindDir {
		r.depth++ // as deep as a file inside it
	}
	return r
}

// tierLess compares the tiers only.
func (a nameRank) tierLess(b nameRank) bool {
	if a.place != b.place {
		return a.place < b.place
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	if a.declOnly != b.declOnly {
		return a.declOnly < b.declOnly
	}
	if a.deprecated != b.deprecated {
		return a.deprecated < b.deprecated
	}
	return a.depth < b.depth
}

func (a nameRank) sameTier(b nameRank) bool {
	return a.place == b.place && a.kind == b.kind && a.declOnly == b.declOnly && a.deprecated == b.deprecated && a.depth == b.depth
}

// IsDeprecated reports whether a node is marked deprecated, or is the
// file of a deprecated namesake declaration (TestClass.java whose class
// TestClass is): a file named for its class stands for it.
func IsDeprecated(g *graph.Graph, id graph.NodeID) bool {
	if g.HasTag(id, tagDeprecated) {
		return true
	}
	if g.Type(id) != graph.File {
		return false
	}
	l := g.Label(id)
	decl, ok := g.Lookup(g.ExternalID(id) + "::" + strings.TrimSuffix(l, path.Ext(l)))
	return ok && g.HasTag(decl, tagDeprecated)
}

// inDeprecated reports whether a member's enclosing declaration is
// deprecated: TestClass.getAnnotatedMethods of the deprecated class is not
// what a writer means when the other TestClass has one too.
func inDeprecated(g *graph.Graph, id graph.NodeID) bool {
	x := g.ExternalID(id)
	for strings.Count(x, "::") > 2 {
		x = x[:strings.LastIndex(x, "::")]
		if p, ok := g.Lookup(x); ok && g.HasTag(p, tagDeprecated) {
			return true
		}
	}
	return false
}

// tagDeprecated is the tag extraction gives a deprecated declaration.
const tagDeprecated = "deprecated"

// dominates reports whether a, ranked before b, is clearly the better
// reading: a better tier, or a centrality well above b's. Centrality
// never separates two members or two variables: "__init__" of one class
// is no likelier than another's.
func (a nameRank) dominates(b nameRank) bool {
	if !a.sameTier(b) {
		return a.tierLess(b)
	}
	if a.kind >= kindMember && a.kind != kindPackage {
		return false
	}
	return a.pageRank >= 1.5*b.pageRank && a.pageRank > b.pageRank || a.inDegree >= 2*b.inDegree+1
}

// nodePath is the path of the file or directory a node lives in.
func nodePath(g *graph.Graph, id graph.NodeID) string {
	if p := g.SourcePath(id); p != "" {
		return p
	}
	x := g.ExternalID(id)
	if d, ok := strings.CutPrefix(x, "dir::"); ok {
		return d
	}
	file, _, _ := strings.Cut(strings.TrimPrefix(x, "file::"), "::")
	return file
}

// placeOf is 0 for production code, 1 for anything else: tests,
// examples, fixtures, documentation, vendored or generated copies.
func placeOf(p string) int {
	if IsTestPath(p) {
		return 1
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".rst", ".txt", ".adoc", ".html", ".ipynb":
		return 1
	}
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		switch seg {
		case "test", "tests", "testing", "testdata", "__tests__", "spec", "specs", "fixtures", "fixture",
			"example", "examples", "_examples", "sample", "samples", "demo", "demos", "doc", "docs", "docs_src",
			"vendor", "vendored", "third_party", "thirdparty", "node_modules", "site-packages", "benchmarks", "bench":
			return 1
		}
	}
	return 0
}

func kindOf(g *graph.Graph, id graph.NodeID) int {
	switch g.Type(id) {
	case graph.Directory:
		return kindDir
	case graph.File:
		return kindFile
	case graph.Reference:
		return kindOther
	}
	if strings.HasPrefix(g.ExternalID(id), "package::") {
		// A manifest's package: "Flask" in pyproject.toml means the
		// project; in a claim the class is meant, unless nothing else has
		// the name ("Werkzeug").
		return kindPackage
	}
	if g.HasTag(id, "variable") || g.HasTag(id, "constant") || g.HasTag(id, "section") {
		return kindOther
	}
	if g.HasTag(id, "method") || strings.Count(g.ExternalID(id), "::") > 2 && !inNamespace(g, id) {
		return kindMember
	}
	return kindDecl
}

// inNamespace says a nested declaration's parent is a namespace or module
// (C++'s YAML::Emitter, C#'s Acme.Shop.Cart): a top-level declaration of
// its namespace, not a member of a type.
func inNamespace(g *graph.Graph, id graph.NodeID) bool {
	x := g.ExternalID(id)
	p, ok := g.Lookup(x[:strings.LastIndex(x, "::")])
	return ok && g.Type(p) == graph.Module
}

// pickName chooses among the candidates of a free name: the best by
// nameRank when it clearly dominates the next, else ok is false and the
// candidates come back ranked for the error.
func pickName(g *graph.Graph, ref string, cands []graph.NodeID) (Resolution, []graph.NodeID, bool) {
	slices.Sort(cands)
	cands = withoutConstructors(g, slices.Compact(cands))
	ranks := make(map[graph.NodeID]nameRank, len(cands))
	for _, id := range cands {
		ranks[id] = rankOf(g, id)
	}
	markDeclarations(g, cands, ranks)
	slices.SortFunc(cands, func(a, b graph.NodeID) int {
		ra, rb := ranks[a], ranks[b]
		switch {
		case !ra.sameTier(rb):
			if ra.tierLess(rb) {
				return -1
			}
			return 1
		case ra.pageRank != rb.pageRank:
			if ra.pageRank > rb.pageRank {
				return -1
			}
			return 1
		case ra.inDegree != rb.inDegree:
			return rb.inDegree - ra.inDegree
		}
		return int(a) - int(b)
	})
	if len(cands) > 1 && !ranks[cands[0]].dominates(ranks[cands[1]]) {
		return Resolution{}, cands, false
	}
	r := Resolution{ID: cands[0], Ref: ref, Named: true}
	r.Alternatives = slices.Clone(cands[1:min(len(cands), 1+maxAlternatives)])
	return r, cands, true
}

// markDeclarations ranks a declaration below the definition it declares
// when both are candidates: a stub file's (.pyi, .d.ts) node, or a C/C++
// header's function whose namesake function lives in a C/C++ source file
// (the prototype: its callers bind to the definition, so impact of the
// prototype would say nothing depends on it).
func markDeclarations(g *graph.Graph, cands []graph.NodeID, ranks map[graph.NodeID]nameRank) {
	defined := map[string]bool{}
	for _, id := range cands {
		if g.Type(id) == graph.Function && cSource(nodePath(g, id)) {
			defined[g.Label(id)] = true
		}
	}
	for _, id := range cands {
		p := nodePath(g, id)
		if IsDeclarationPath(p) || cHeader(p) && g.Type(id) == graph.Function && defined[g.Label(id)] {
			r := ranks[id]
			r.declOnly = 1
			ranks[id] = r
		}
	}
}

// cHeader and cSource tell C and C++ headers from their translation units.
func cHeader(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++":
		return true
	}
	return false
}

func cSource(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++":
		return true
	}
	return false
}

// withoutConstructors drops the constructors whose class is a candidate
// too (jsoup's OutputSettings and OutputSettings::OutputSettings): a
// constructor never means more than its class.
func withoutConstructors(g *graph.Graph, cands []graph.NodeID) []graph.NodeID {
	classes := map[string]bool{}
	for _, id := range cands {
		if t := g.Type(id); t == graph.Class || t == graph.Struct {
			classes[g.Label(id)] = true
		}
	}
	isCtor := func(id graph.NodeID) bool {
		x := g.ExternalID(id)
		i := strings.LastIndex(x, "::")
		if i < 0 || g.Type(id) != graph.Function {
			return false
		}
		if p, ok := g.Lookup(x[:i]); ok && g.Label(p) == g.Label(id) && slices.Contains(cands, p) {
			return true
		}
		// An out-of-line C++ constructor (emitter.cpp's Emitter::Emitter)
		// lives apart from its class (emitter.h's Emitter).
		owner := x[strings.LastIndex(x[:i], "::")+2 : i]
		return classes[g.Label(id)] && owner == g.Label(id)
	}
	if !slices.ContainsFunc(cands, isCtor) {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), isCtor)
}

// codeExts are the extensions a module stem is tried with ("sessions" →
// sessions.py), most common languages first.
var codeExts = []string{".py", ".go", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".rs", ".java", ".kt", ".rb", ".php",
	".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".scala", ".lua", ".ex", ".sh", ".vue", ".svelte", ".md", ".rst"}

// nameCandidates gathers the nodes a free name may mean, with its exact
// case: nodes labelled so, files whose stem it is, files whose path ends
// with it, and qualified names it ends ("Engine.ServeHTTP").
func nameCandidates(g *graph.Graph, ref string) []graph.NodeID {
	cands := slices.Clone(g.NodesByLabel(ref))
	for _, ext := range codeExts {
		for _, id := range g.NodesByLabel(ref + ext) {
			if g.Type(id) == graph.File {
				cands = append(cands, id)
			}
		}
	}
	if strings.Contains(ref, "/") {
		// A path suffix: "flask/app.py" for "file::src/flask/app.py".
		suffix := "/" + strings.TrimPrefix(ref, "./")
		for _, id := range g.NodesByLabel(PathBase(ref)) {
			if t := g.Type(id); (t == graph.File || t == graph.Directory) && strings.HasSuffix("/"+nodePath(g, id), suffix) {
				cands = append(cands, id)
			}
		}
	}
	if len(cands) == 0 {
		cands = qualifiedMatches(g, ref)
	}
	return cands
}

// foldedCandidates is nameCandidates in any case ("flask" for the class
// Flask, "Readme" for README.md): one pass over the labels.
func foldedCandidates(g *graph.Graph, ref string) []graph.NodeID {
	low := strings.ToLower(ref)
	var out []graph.NodeID
	for i := range g.NumNodes() {
		id := graph.NodeID(i)
		l := strings.ToLower(g.Label(id))
		if l == low {
			out = append(out, id)
			continue
		}
		if g.Type(id) == graph.File {
			if dot := strings.LastIndexByte(l, '.'); dot > 0 && l[:dot] == low {
				out = append(out, id)
			}
		}
	}
	return out
}

// nameVariants are other spellings of a phrase: "session store" →
// "session_store", "session-store".
func nameVariants(ref string) []string {
	if !strings.Contains(ref, " ") {
		return nil
	}
	return []string{strings.ReplaceAll(ref, " ", "_"), strings.ReplaceAll(ref, " ", "-"), strings.ReplaceAll(ref, " ", "")}
}
