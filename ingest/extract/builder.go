package extract

import (
	"bytes"
	"hash/maphash"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Relation names emitted by the extractors. ingest maps them to causal
// strengths (contains 0.8, implements 0.7, imports 0.6, calls 0.5,
// references 0.3, anything else 0.4).
const (
	RelContains = "contains"
	RelImports  = "imports"
	// RelTypeImports is an import only the type checker reads (Python
	// under `if TYPE_CHECKING:`, TypeScript `import type`): a dependency
	// for impact and rename, none at run time (no import cycle, no layer
	// violation). The qualifier keeps it an "imports" edge for every
	// reader that classifies relations by their first segment.
	RelTypeImports = "imports::type"
	RelCalls       = "calls"
	RelReferences  = "references"
	RelInherits    = "inherits"
	RelImplements  = "implements"
	RelDecoratedBy = "decorated_by"
	RelMemberOf    = "member_of"
)

// BindAs is the relation a reference resolves as: a type-only import
// binds what the same import would bind at run time.
func BindAs(rel string) string {
	if rel == RelTypeImports {
		return RelImports
	}
	return rel
}

// Kind tags. Every entity node carries its language, one kind tag, and where
// the language has the notion a visibility tag.
const (
	KindFunction  = "function"
	KindMethod    = "method"
	KindClass     = "class"
	KindStruct    = "struct"
	KindInterface = "interface"
	KindTrait     = "trait"
	KindEnum      = "enum"
	KindTypeAlias = "type_alias"
	KindModule    = "module"
	KindConstant  = "constant"
	KindVariable  = "variable"
	KindTest      = "test"
	KindImpl      = "impl"
	KindSection   = "section"
	KindDecorator = "decorator"
	// KindDeclaration marks a prototype whose definition may follow.
	KindDeclaration = "declaration"

	VisExported = "exported"
	VisPublic   = "public"
	VisPrivate  = "private"
	VisProtect  = "protected"
	VisInternal = "internal"
	VisPackage  = "package"
)

// RefPrefix starts every unresolved target.
const RefPrefix = "ref::"

// FileID returns the node ID of a file: "file::{relpath}".
func FileID(relPath string) string { return "file::" + relPath }

// ChildID nests name under parent: "file::a.py" + "C" → "file::a.py::C".
func ChildID(parent, name string) string { return parent + "::" + name }

// Ref returns the unresolved reference "ref::{name}".
func Ref(name string) string { return RefPrefix + name }

// newTreeBuilder is newBuilder with its arrays and sets sized from the
// parsed tree: on go-std a file yields about one edge per 24 named syntax
// nodes, one referenced name per 64 and one entity per 110, so most files
// fill them without regrowing (append and map growth were a third of
// builder.edge's time).
func newTreeBuilder(relPath, lang string, t *tree) *builder {
	b := newBuilder(relPath, lang)
	n := len(t.n)
	if wideRuns.Load() > 0 && n/24+8 <= slabEdges/4 {
		b.slab = takeSlab(n/24 + 8)
		b.res.Edges = b.slab.tail
	} else {
		b.scratch = edgeScratch.Get().(*[]Edge)
		if cap(*b.scratch) < n/24+8 {
			*b.scratch = make([]Edge, 0, n/24+8)
		}
		b.res.Edges = (*b.scratch)[:0]
	}
	b.nodeScratch = nodeScratch.Get().(*[]Node)
	if cap(*b.nodeScratch) < n/110+4 {
		*b.nodeScratch = make([]Node, 0, n/110+4)
	}
	b.res.Nodes = (*b.nodeScratch)[:0]
	if n/24+8 > maxPooledSet {
		// Sets made this large would not go back to the pool.
		b.edges = make(map[uint64]struct{}, n/24+8)
		b.refs = make(map[string]string, n/64+4)
		b.nodes = make(map[string]int, n/110+4)
		return b
	}
	if m := builderMaps.Get(); m != nil {
		b.sets = m.(*builderSets)
	} else {
		b.sets = &builderSets{
			edges: make(map[uint64]struct{}, n/24+8),
			refs:  make(map[string]string, n/64+4),
			nodes: make(map[string]int, n/110+4),
		}
	}
	b.edges, b.refs, b.nodes = b.sets.edges, b.sets.refs, b.sets.nodes
	return b
}

// builderSets are a tree builder's three sets, kept between files in
// builderMaps: made for every file they were 35 MB of go-std's
// allocation, and as much again growing.
type builderSets struct {
	edges map[uint64]struct{}
	refs  map[string]string
	nodes map[string]int
}

var builderMaps sync.Pool

// maxPooledSet bounds the sets builderMaps keeps: a cleared map keeps its
// room, and clear takes time in proportion to it, so the sets of a large
// file are left to the collector rather than cleared for every small one.
const maxPooledSet = 1 << 12

// putSets clears the builder's sets and gives them back to builderMaps;
// the builder keeps none of them.
func (b *builder) putSets() {
	s := b.sets
	b.sets, b.edges, b.refs, b.nodes = nil, nil, nil, nil
	if s == nil || len(s.edges) > maxPooledSet || len(s.refs) > maxPooledSet || len(s.nodes) > maxPooledSet {
		return
	}
	clear(s.edges)
	clear(s.refs)
	clear(s.nodes)
	builderMaps.Put(s)
}

// cleanPath normalises a relative path to forward slashes without "./".
func cleanPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// edgeSeed keys the edge de-duplication hash. A 64-bit hash instead of the
// six strings themselves keeps the set small and cheap; a collision (odds
// ~n²/2⁶⁴ for n edges of one file) would merely drop one duplicate-looking
// edge.
var edgeSeed = maphash.MakeSeed()

func edgeHash(src, dst, rel string, h RefHint) uint64 {
	var mh maphash.Hash
	mh.SetSeed(edgeSeed)
	for _, s := range [...]string{src, dst, rel, h.Module, h.Receiver, h.ReceiverType} {
		mh.WriteString(s)
		mh.WriteByte(0)
	}
	if h.Args > 0 {
		// Calls of one name with other argument counts may reach other
		// overloads: separate edges.
		mh.WriteByte(h.Args)
	}
	if h.ArgKinds != "" {
		mh.WriteString(h.ArgKinds) // so may other argument kinds (Kotlin)
	}
	return mh.Sum64()
}

// builder accumulates one file's Result. Node IDs are unique: a second
// definition with the same ID (a redefinition, Go's several init
// functions) merges into the first, so its edges attach to that node;
// overloads get IDs of their own (overloadID).
// Edges are unique by (source, target, relation, hint); the first line wins.
type builder struct {
	res    *Result
	fileID string
	lang   string
	nodes  map[string]int
	edges  map[uint64]struct{}
	// refs maps a referenced name to its one "ref::{name}" string, which
	// every edge to it shares (go-std: 9 MB of repeated targets).
	refs map[string]string
	// sigs are the parameter types of the definitions overloadID named.
	sigs map[string]string
	// bodyless are the overload signatures joinSignatures waits to join.
	bodyless map[string]bool
	// arity holds every overloadable function's arity until it has an
	// overload (overloadArity).
	arity map[string]Arity
	// scratch is the edgeScratch array res.Edges is built in, nil for a
	// builder that did not take one.
	scratch *[]Edge
	// sets holds edges, refs and nodes for builderMaps, nil for a builder
	// that did not take them.
	sets *builderSets
	// nodeScratch is the nodeScratch array res.Nodes is built in, as
	// scratch is for the edges.
	nodeScratch *[]Node
	// slab holds the free tail res.Edges is built in instead of scratch
	// while a wide extraction runs (takeSlab), nil otherwise.
	slab *edgeSlab
}

// edgeScratch keeps edge arrays between files. Built in a fresh array
// sized by a guess, a file's edges were copied once more when the guess
// was short (append's regrowth) and once when it was long (finish's exact
// copy to give back the spare room): on go-std the two copies were 0.36 s
// of 22 s of ingest CPU, twice the edge hashing and set inserts. In a kept
// array, finish's one exact copy is all.
var edgeScratch = sync.Pool{New: func() any { return new([]Edge) }}

// nodeScratch keeps node arrays between files, as edgeScratch does edges:
// sized by a guess, go-std's node arrays were allocated three times over
// (the guess, append's regrowth, finish's exact copy: 34 MB for 11 kept).
var nodeScratch = sync.Pool{New: func() any { return new([]Node) }}

// maxScratchNodes bounds what nodeScratch keeps.
const maxScratchNodes = 1 << 12

// maxScratchEdges bounds what edgeScratch keeps: the array of a rare huge
// file (a generated table, 100,000 edges and 13 MB) is not held for the
// next, ordinary, ones.
const maxScratchEdges = 1 << 14

func newBuilder(relPath, lang string) *builder {
	relPath = cleanPath(relPath)
	return &builder{
		res:    &Result{Path: relPath, Language: lang},
		fileID: FileID(relPath),
		lang:   lang,
		nodes:  make(map[string]int),
		edges:  make(map[uint64]struct{}),
		refs:   make(map[string]string),
	}
}

// file adds the file node. Its label is the base name.
func (b *builder) file(lines uint32, excerpt string, tags ...string) {
	b.res.Nodes = append(b.res.Nodes, Node{
		ID:      b.fileID,
		Label:   path.Base(b.res.Path),
		Type:    graph.File,
		Tags:    tags,
		Line:    1,
		EndLine: max(lines, 1),
		Excerpt: excerpt,
	})
	b.nodes[b.fileID] = 0
}

// entity adds a node under parent and the parent→node contains edge; it
// returns the new ID and whether it was new.
func (b *builder) entity(parent, name string, typ graph.NodeType, line, end uint32, excerpt string, tags ...string) (string, bool) {
	return b.entityAt(ChildID(parent, name), parent, name, typ, line, end, excerpt, tags...)
}

// entityAt adds a node with an explicit ID contained by parent. Go methods
// and Rust impl methods use it: their ID nests under the receiver type
// (file::p::T::M) even when T is declared in another file, in which case the
// file contains the method.
func (b *builder) entityAt(id, parent, name string, typ graph.NodeType, line, end uint32, excerpt string, tags ...string) (string, bool) {
	if name == "" {
		// A zero-width (MISSING) name in broken code: no entity; what
		// follows belongs to the parent.
		return parent, false
	}
	if i, dup := b.nodes[id]; dup {
		// A prototype (C `int f(void);`, a C++ in-class declaration)
		// gives way to the definition: its lines and signature are what
		// a reader wants.
		n := &b.res.Nodes[i]
		if slices.Contains(n.Tags, KindDeclaration) && !slices.Contains(tags, KindDeclaration) {
			n.Line, n.EndLine, n.Excerpt, n.Tags = line, max(end, line), excerpt, tags
		}
		return id, false
	}
	b.nodes[id] = len(b.res.Nodes)
	b.res.Nodes = append(b.res.Nodes, Node{
		ID: id, Label: name, Type: typ, Tags: tags,
		Line: line, EndLine: max(end, line), Excerpt: excerpt,
	})
	b.edge(parent, id, RelContains, line, RefHint{})
	return id, true
}

// has reports whether a node ID was emitted.
func (b *builder) has(id string) bool {
	_, ok := b.nodes[id]
	return ok
}

// tag appends tags to an emitted node.
func (b *builder) tag(id string, tags ...string) {
	if i, ok := b.nodes[id]; ok {
		for _, t := range tags {
			if !slices.Contains(b.res.Nodes[i].Tags, t) {
				b.res.Nodes[i].Tags = append(b.res.Nodes[i].Tags, t)
			}
		}
	}
}

func (b *builder) edge(src, dst, rel string, line uint32, h RefHint) {
	if src == "" || dst == "" || dst == src {
		return
	}
	k := edgeHash(src, dst, rel, h)
	if _, dup := b.edges[k]; dup {
		return
	}
	b.edges[k] = struct{}{}
	if name, ok := strings.CutPrefix(dst, RefPrefix); ok {
		if r, ok := b.refs[name]; ok {
			dst = r
		} else {
			b.refs[name] = dst
		}
	}
	b.res.Edges = append(b.res.Edges, Edge{Source: src, Target: dst, Relation: rel, Line: line, Hint: h})
}

// ref adds an edge from src to the unresolved reference name.
func (b *builder) ref(src, name, rel string, line uint32, h RefHint) {
	if name == "" {
		return
	}
	dst, ok := b.refs[name]
	if !ok {
		dst = Ref(name)
	}
	b.edge(src, dst, rel, line, h)
}

func (b *builder) imp(im Import) { b.res.Imports = append(b.res.Imports, im) }

func (b *builder) finish(errors int) *Result {
	b.res.ParseErrors = errors
	b.tagDecorators()
	// Results of every file are held until the graph is built: give back
	// what append over-allocated (a quarter of the edges' 95 MB on go-std).
	if b.nodeScratch != nil {
		b.res.Nodes = b.keepNodes()
	} else {
		b.res.Nodes = exact(b.res.Nodes)
	}
	if b.slab != nil {
		b.res.Edges = b.slab.keep(b.res.Edges)
		b.slab = nil
	} else if b.scratch != nil {
		b.res.Edges = b.keepEdges()
	} else {
		b.res.Edges = exact(b.res.Edges)
	}
	if len(b.refs) > 0 {
		b.res.UnresolvedRefs = make([]string, 0, len(b.refs))
		for _, r := range b.refs {
			b.res.UnresolvedRefs = append(b.res.UnresolvedRefs, r)
		}
		slices.Sort(b.res.UnresolvedRefs)
	}
	if b.sets != nil {
		b.putSets()
	}
	return b.res
}

// keepEdges copies the edges out of the scratch array into one of their
// length, and gives the scratch back, cleared so it holds no strings alive.
func (b *builder) keepEdges() []Edge {
	s := b.res.Edges
	var out []Edge
	if len(s) > 0 {
		out = append(make([]Edge, 0, len(s)), s...)
	}
	if cap(s) <= maxScratchEdges {
		clear(s)
		*b.scratch = s[:0]
		edgeScratch.Put(b.scratch)
	}
	b.scratch = nil
	return out
}

// keepNodes is keepEdges for the nodes.
func (b *builder) keepNodes() []Node {
	s := b.res.Nodes
	var out []Node
	if len(s) > 0 {
		out = append(make([]Node, 0, len(s)), s...)
	}
	if cap(s) <= maxScratchNodes {
		clear(s)
		*b.nodeScratch = s[:0]
		nodeScratch.Put(b.nodeScratch)
	}
	b.nodeScratch = nil
	return out
}

// exact returns s in an array of its length when append left spare room.
// An empty s is nil, as append-built arrays were before newTreeBuilder
// reserved room.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	if cap(s)-len(s) <= len(s)/16 {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}

// tagDecorators tags the functions of this file that are used as
// decorators in it (def retry(…) … @retry) with "decorator".
func (b *builder) tagDecorators() {
	var used map[string]bool
	for _, e := range b.res.Edges {
		if e.Relation == RelDecoratedBy {
			if used == nil {
				used = map[string]bool{}
			}
			used[strings.TrimPrefix(e.Target, RefPrefix)] = true
		}
	}
	if used == nil {
		return
	}
	for i := range b.res.Nodes {
		n := &b.res.Nodes[i]
		if n.Type == graph.Function && used[n.Label] && !slices.Contains(n.Tags, KindDecorator) {
			n.Tags = append(n.Tags, KindDecorator)
		}
	}
}

// maxExcerpt is the excerpt length limit in bytes.
const maxExcerpt = 160

// excerpt returns the first line of s, trimmed and cut to maxExcerpt bytes
// on a rune boundary.
func excerpt(s []byte) string {
	if i := indexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	str := strings.TrimSpace(string(trimTo(s, maxExcerpt+8)))
	if len(str) > maxExcerpt {
		cut := maxExcerpt
		for cut > 0 && !utf8.RuneStart(str[cut]) {
			cut--
		}
		str = strings.TrimSpace(str[:cut])
	}
	if !utf8.ValidString(str) {
		str = strings.ToValidUTF8(str, "")
	}
	return str
}

func trimTo(s []byte, n int) []byte {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func indexByte(s []byte, c byte) int {
	for i, x := range s {
		if x == c {
			return i
		}
	}
	return -1
}

// sigExcerpt is excerpt for declarations that may open with annotations or
// decorators (Java @Override, TypeScript @Injectable()): it starts at the
// first line that is not one.
func sigExcerpt(s []byte) string {
	all := s
	for len(s) > 0 {
		i := indexByte(s, '\n')
		ln := s
		if i >= 0 {
			ln = s[:i]
		}
		if e := excerpt(ln); e != "" && !isAnnotationLine(e) {
			return e
		}
		if i < 0 {
			break
		}
		s = s[i+1:]
	}
	return excerpt(all)
}

// isAnnotationLine reports lines that only annotate the declaration below:
// @Override, @app.route("/x"), [HttpGet], #[Route("/")].
func isAnnotationLine(e string) bool {
	switch {
	case e[0] == '@':
		return !strings.ContainsAny(e, "{;=") || strings.HasSuffix(e, ")")
	case e[0] == '[' && strings.HasSuffix(e, "]"):
		return true
	case strings.HasPrefix(e, "#[") && strings.HasSuffix(e, "]"):
		return true
	}
	return false
}

// markGenerated appends the "generated" tag when the head of the file
// carries a generator marker ("Code generated … DO NOT EDIT.", "@generated",
// "Generated by the protocol buffer compiler").
func markGenerated(src []byte, tags []string) []string {
	head := src[:min(len(src), 2048)]
	for _, m := range []string{"DO NOT EDIT", "@generated", "Generated by the protocol buffer compiler", "auto-generated", "autogenerated"} {
		if bytes.Contains(head, []byte(m)) {
			return append(tags, "generated")
		}
	}
	return tags
}

// countLines returns the number of lines of src (a final line without a
// newline counts).
func countLines(src []byte) uint32 {
	n := uint32(0)
	for _, c := range src {
		if c == '\n' {
			n++
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// docLine returns the first non-empty line of a comment or docstring with
// its delimiters removed.
func docLine(s string) string {
	for _, ln := range strings.Split(s, "\n") {
		ln = strings.TrimSpace(ln)
		for _, p := range []string{`"""`, `'''`, "/**", "/*!", "/*", "///", "//!", "//", "#!", "##", "#", "--", "*/", "*", `"`, `'`, "r\"\"\"", "b\"\"\""} {
			ln = strings.TrimPrefix(ln, p)
		}
		for _, s := range []string{`"""`, `'''`, "*/", `"`, `'`} {
			ln = strings.TrimSuffix(ln, s)
		}
		ln = strings.TrimSpace(ln)
		if ln != "" {
			return excerpt([]byte(ln))
		}
	}
	return ""
}

// isUpperStart reports whether s starts with an upper-case letter.
func isUpperStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// lastSegment returns the part of s after the last of the separators.
func lastSegment(s string, seps ...string) string {
	for _, sep := range seps {
		if i := strings.LastIndex(s, sep); i >= 0 {
			s = s[i+len(sep):]
		}
	}
	return s
}

// cleanName collapses the whitespace of a name and removes characters that
// would make IDs ambiguous ("::" inside a name).
func cleanName(s string) string {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "\n\t\r") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return strings.ReplaceAll(s, "::", ":")
}

// isTypeParamName reports names that are almost always generic type
// parameters (T, K, V, …): references to them would never resolve.
func isTypeParamName(s string) bool {
	return len(s) == 1 && s[0] >= 'A' && s[0] <= 'Z'
}
