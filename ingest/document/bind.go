package document

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Binding scores: how surely a mention names a code node when it has
// exactly one candidate. Ambiguous mentions (2..MaxCandidates candidates)
// are divided among them; more candidates than that bind nothing.
const (
	ScoreExactPath  = 1.0
	ScorePathSuffix = 0.9
	ScoreQualified  = 0.85
	ScoreConfig     = 0.75
	ScoreCodeCall   = 0.7
	ScoreLabel      = 0.6
	// ScorePlainLabel: a lowercase word in a code span ("lookup") names
	// code less surely than an identifier-shaped one ("SessionStore",
	// "hash_password"); it binds only when unique.
	ScorePlainLabel = 0.45
	// ScoreWord: an identifier-shaped word of prose, unique only.
	ScoreWord = 0.4
	// MinScore drops weaker bindings (a label shared by three nodes).
	MinScore = 0.25
	// MaxCandidates is the most nodes an ambiguous mention is split over.
	MaxCandidates = 3
	// MaxBindingsPerSection keeps a section that names everything from
	// binding to everything.
	MaxBindingsPerSection = 16
	// minLabelLen: bare identifiers shorter than this never bind.
	minLabelLen = 4
)

// Index finds code nodes by path, label and qualified name. Build one per
// graph with NewIndex; it is read-only afterwards and safe to share.
type Index struct {
	g      *graph.Graph
	byPath map[string]graph.NodeID   // file or directory path → node
	byBase map[string][]graph.NodeID // last path segment → files and dirs
	label  map[string][]graph.NodeID // entity label → entities
	qual   map[string][]graph.NodeID // "A.B", "pkg.A", "stem.A" → entities
	docs   map[string]graph.NodeID   // document path → document node
	stems  map[string]graph.NodeID   // document path without extension → document node
	// modules: dotted Python module name (and its suffixes) → module files.
	modules map[string][]graph.NodeID

	// Source, when set, reads a code file by graph path: drift then finds
	// attributes a class body assigns and bases from libraries, which the
	// graph does not hold as nodes.
	Source func(path string) ([]byte, bool)
	// Changed, when set, dates a document or code file (Unix seconds; 0:
	// unknown, the graph's time is used): the last commit touching it,
	// where a fresh clone's file times would say "changed today".
	Changed func(id graph.NodeID) float64
}

// stemOf is a path without its extension.
func stemOf(p string) string { return strings.TrimSuffix(p, path.Ext(p)) }

// codeRef splits a code node's external ID: "file::p::A::B" (or
// "ns::file::p::A::B") → kind "file", path p, segments [A B].
func codeRef(ext string) (kind, p string, segs []string, ok bool) {
	rest := ext
	if i := strings.Index(rest, "::"); i > 0 {
		head := rest[:i]
		if head != "file" && head != "dir" {
			rest = rest[i+2:] // a namespace
		}
	}
	switch {
	case strings.HasPrefix(rest, "file::"):
		kind, rest = "file", rest[6:]
	case strings.HasPrefix(rest, "dir::"):
		kind, rest = "dir", rest[5:]
	default:
		return "", "", nil, false
	}
	parts := strings.Split(rest, "::")
	if parts[0] == "" {
		return "", "", nil, false
	}
	return kind, parts[0], parts[1:], true
}

// NewIndex indexes the code nodes and document nodes of g (finalized or
// not).
func NewIndex(g *graph.Graph) *Index {
	x := &Index{g: g, byPath: map[string]graph.NodeID{}, byBase: map[string][]graph.NodeID{},
		label: map[string][]graph.NodeID{}, qual: map[string][]graph.NodeID{}, docs: map[string]graph.NodeID{}, stems: map[string]graph.NodeID{},
		modules: map[string][]graph.NodeID{}}
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		ext := g.ExternalID(id)
		if IsDocID(ext) {
			if g.Type(id) == graph.File {
				if p := g.SourcePath(id); p != "" {
					if _, dup := x.docs[p]; !dup {
						x.docs[p] = id
					}
					if _, dup := x.stems[stemOf(p)]; !dup {
						x.stems[stemOf(p)] = id
					}
				}
			}
			continue
		}
		kind, p, segs, ok := codeRef(ext)
		if !ok || kind == "file" && isDocPath(p) {
			continue // a document seen by the code adapter is no code
		}
		if len(segs) == 0 {
			if _, dup := x.byPath[p]; !dup {
				x.byPath[p] = id
				x.byBase[path.Base(p)] = append(x.byBase[path.Base(p)], id)
			}
			if kind == "file" && !testFile(p) && !fixture(p) {
				for _, m := range pyModules(p) {
					x.modules[m] = append(x.modules[m], id)
				}
			}
			continue
		}
		if dataFile(p) || fixture(p) {
			continue // keys of JSON/YAML data and test fixtures are no code a document describes
		}
		for _, k := range qualKeys(p, segs) {
			x.qual[k] = append(x.qual[k], id)
		}
		if testFile(p) || nestedInFunction(g, ext) {
			continue // a bare name means the API, not a test helper or a local closure
		}
		last := segs[len(segs)-1]
		x.label[last] = append(x.label[last], id)
	}
	return x
}

// dataFile: formats whose "entities" are keys of data, not code.
func dataFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".json", ".yaml", ".yml", ".toml", ".xml", ".lock", ".ini", ".cfg", ".conf", ".csv", ".tsv", ".plist", ".properties":
		return true
	}
	return false
}

// fixture: files under a testdata or fixtures directory, or a directory
// the Go tool ignores ("_builtin", ".hidden").
func fixture(p string) bool {
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		if d == "testdata" || d == "fixtures" || len(d) > 1 && (d[0] == '_' || d[0] == '.') {
			return true
		}
	}
	return false
}

// testFile: test sources by the usual conventions.
func testFile(p string) bool {
	b := path.Base(p)
	stem := strings.TrimSuffix(b, path.Ext(b))
	if strings.HasSuffix(stem, "_test") || strings.HasPrefix(b, "test_") || strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") ||
		strings.HasSuffix(stem, "Test") {
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "tests" || strings.HasPrefix(d, "test") || strings.HasSuffix(d, "test") { // test, testenv, checktest
			return true
		}
	}
	return false
}

// nestedInFunction: an entity declared inside a function (a closure, a
// local type), whose name means nothing outside it.
func nestedInFunction(g *graph.Graph, ext string) bool {
	i := strings.LastIndex(ext, "::")
	if i <= 0 {
		return false
	}
	parent, ok := g.Lookup(ext[:i])
	return ok && g.Type(parent) == graph.Function
}

// qualKeys are the qualified names an entity answers to: its segments
// joined ("Class.method", and the last two of deeper nestings), and
// prefixed by its module ("blueprints.Blueprint.register",
// "http.HandleFunc").
func qualKeys(p string, segs []string) []string {
	var keys []string
	if len(segs) >= 2 {
		keys = append(keys, strings.Join(segs, "."))
		if len(segs) > 2 {
			keys = append(keys, strings.Join(segs[len(segs)-2:], "."))
		}
	}
	stem := path.Base(p)
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	joined := strings.Join(segs, ".")
	keys = append(keys, stem+"."+joined)
	if d := path.Base(path.Dir(p)); d != "." && d != "/" && d != stem {
		keys = append(keys, d+"."+joined)
	}
	return keys
}

// Candidate is one code node a mention may name.
type Candidate struct {
	Node   graph.NodeID
	Score  float32
	Reason string
	// Of is how many candidates the mention had.
	Of int
}

// Resolve returns the code nodes a mention names, best first (empty when
// it names none or too many).
func (x *Index) Resolve(m Mention) []Candidate { return x.ResolveNear(m, "") }

// ResolveNear is Resolve for a mention in a document of directory near:
// among several candidates, those in or under that directory (or in a
// directory ending with its path) win — the types2 README's
// "Checker.unary" is types2's, not go/types' copy.
func (x *Index) ResolveNear(m Mention, near string) []Candidate {
	label := func() []graph.NodeID {
		ids := x.preferSource(x.public(x.label[m.Text]))
		if one, ok := x.reopened(ids); ok {
			return []graph.NodeID{one}
		}
		return x.topLevel(x.local(ids, near))
	}
	if (m.Kind == MentionIdent || m.Kind == MentionWord) && dunder(m.Text) {
		return nil // many classes define it: only Class.__hash__ names one
	}
	switch m.Kind {
	case MentionPath:
		return x.resolvePath(m.Text, near)
	case MentionQualified:
		return spread(x.qualMatches(m.Text, near), ScoreQualified, "qualified name")
	case MentionCode:
		return spread(x.qualMatches(m.Text, near), ScoreCodeCall, "call in a code block")
	case MentionConfig:
		return spread(label(), ScoreConfig, "configuration key")
	case MentionIdent:
		if len(m.Text) < minLabelLen {
			return nil
		}
		if !distinctive(m.Text) {
			if len(x.modules[m.Text]) > 0 {
				return nil // "attrs" in attrs' docs is the package, not its function attrs
			}
			return unique(label(), ScorePlainLabel, plainReason)
		}
		return spread(label(), ScoreLabel, "label")
	case MentionWord:
		return unique(label(), ScoreWord, "unique label named in prose, in a directory the section names otherwise")
	}
	return nil
}

// local keeps, among several candidates, those whose directory is near
// or under it or ends with its path; all of them when none is.
func (x *Index) local(ids []graph.NodeID, near string) []graph.NodeID {
	if near == "" || near == "." || len(ids) < 2 {
		return ids
	}
	out := slices.DeleteFunc(slices.Clone(ids), func(id graph.NodeID) bool {
		d := x.dirOf(x.FileOf(id))
		return !(d == near || strings.HasPrefix(d, near+"/") || strings.HasSuffix(d, "/"+near) || strings.Contains(d, "/"+near+"/"))
	})
	if len(out) == 0 {
		return ids
	}
	return out
}

// weak reports a binding that needs corroboration: a prose word, or a
// lower-case plain word of a code span.
func weak(b Binding) bool {
	return b.Mention.Kind == MentionWord || b.Reason == plainReason && !unicode.IsUpper(rune(b.Mention.Text[0]))
}

// dirOf is the directory of a code file or directory node.
func (x *Index) dirOf(id graph.NodeID) string {
	kind, p, _, _ := codeRef(x.g.ExternalID(id))
	if kind == "dir" {
		return p
	}
	return path.Dir(p)
}

// plainReason marks bindings of lower-case plain words, which need
// corroboration (see SectionBindings).
const plainReason = "unique label (plain word) in a file the section names otherwise"

// distinctive reports an identifier shape few words of prose have: an
// upper-case letter after the first, an underscore or a digit.
func distinctive(s string) bool {
	for i, r := range s {
		if r == '_' || r >= '0' && r <= '9' || i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// unique binds only a name with exactly one candidate.
func unique(ids []graph.NodeID, score float32, reason string) []Candidate {
	if len(ids) != 1 {
		return nil
	}
	return []Candidate{{Node: ids[0], Score: score, Reason: reason, Of: 1}}
}

// Ambiguity is how many code nodes a mention could name when that is too
// many to bind (0 otherwise).
func (x *Index) Ambiguity(m Mention) int {
	var n int
	switch m.Kind {
	case MentionIdent, MentionWord, MentionConfig:
		n = len(x.label[m.Text])
		if _, ok := x.reopened(x.label[m.Text]); ok {
			n = 1
		}
	case MentionQualified, MentionCode:
		n = len(x.qualMatches(m.Text, ""))
	case MentionPath:
		n = len(x.suffixMatches(m.Text))
	}
	if n > MaxCandidates {
		return n
	}
	return 0
}

func (x *Index) resolvePath(p, near string) []Candidate {
	if isDocPath(p) {
		return nil
	}
	if near != "" && near != "." {
		// "npm/package.json" in benchmarks/deptruth/README.md is the file
		// next to the document before any other.
		if id, ok := x.byPath[path.Join(near, p)]; ok {
			return []Candidate{{Node: id, Score: ScoreExactPath, Reason: "path relative to the document", Of: 1}}
		}
	}
	if id, ok := x.byPath[p]; ok {
		return []Candidate{{Node: id, Score: ScoreExactPath, Reason: "exact path", Of: 1}}
	}
	if !strings.Contains(p, "/") {
		// A bare "package.json" names none of several, even the nearest:
		// prose says "zod's package.json" too.
		return unique(x.suffixMatches(p), ScorePathSuffix, "unique file name")
	}
	return spread(x.local(x.suffixMatches(p), near), ScorePathSuffix, "path suffix")
}

func (x *Index) suffixMatches(p string) []graph.NodeID {
	var out []graph.NodeID
	for _, id := range x.byBase[path.Base(p)] {
		_, fp, _, _ := codeRef(x.g.ExternalID(id))
		if strings.HasSuffix(fp, "/"+p) {
			out = append(out, id)
		}
	}
	return out
}

func (x *Index) qualMatches(q, near string) []graph.NodeID {
	if ids := x.moduleExport(q); len(ids) > 0 {
		return ids
	}
	ids := x.qual[q]
	segs := strings.Split(q, ".")
	if len(ids) == 0 && len(segs) > 2 { // "a.b.Class.method": its last two
		ids = x.qual[strings.Join(segs[len(segs)-2:], ".")]
	}
	ids = x.preferSource(ids)
	if one, ok := x.reopened(ids); ok {
		return []graph.NodeID{one}
	}
	if ids = x.local(ids, near); len(ids) < 2 {
		return ids
	}
	// "sync.Mutex": the package at sync/ before internal/sync/; otherwise
	// code outside internal/ trees before code inside them.
	pkg := strings.Join(segs[:len(segs)-1], "/")
	exact := slices.DeleteFunc(slices.Clone(ids), func(id graph.NodeID) bool {
		_, p, _, _ := codeRef(x.g.ExternalID(id))
		return path.Dir(p) != pkg
	})
	if len(exact) > 0 {
		return exact
	}
	public := slices.DeleteFunc(slices.Clone(ids), func(id graph.NodeID) bool {
		_, p, _, _ := codeRef(x.g.ExternalID(id))
		return strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/")
	})
	if len(public) > 0 {
		return public
	}
	return ids
}

// reopened picks one candidate when every candidate is the same class
// or module reopened in several files, as only Ruby (Rack::Protection,
// opened again in each of its 20 files) and C# (partial classes) allow:
// the one in the file its name's path names (rack/protection.rb), else
// the longest. Same-named declarations elsewhere are different ones.
func (x *Index) reopened(ids []graph.NodeID) (graph.NodeID, bool) {
	if len(ids) < 2 {
		return graph.NoNode, false
	}
	_, _, first, _ := codeRef(x.g.ExternalID(ids[0]))
	want := snakePath(first)
	best, bestSpan, named := graph.NoNode, -1, false
	for _, id := range ids {
		_, p, segs, _ := codeRef(x.g.ExternalID(id))
		ext := path.Ext(p)
		if !slices.Equal(segs, first) || x.g.Type(id) != x.g.Type(ids[0]) || ext != ".rb" && ext != ".cs" ||
			x.g.Type(id) != graph.Class && x.g.Type(id) != graph.Module {
			return graph.NoNode, false
		}
		pr := x.g.Provenance(id)
		span := int(pr.LineEnd) - int(pr.LineStart)
		isNamed := strings.HasSuffix(stemOf(p), "/"+want) || stemOf(p) == want
		if isNamed && !named || isNamed == named && span > bestSpan {
			best, bestSpan, named = id, span, isNamed
		}
	}
	return best, true
}

// snakePath is a qualified name as the path Ruby and others file it
// under: [Rack Protection HostAuthorization] → rack/protection/host_authorization.
func snakePath(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('/')
		}
		for j, r := range s {
			if unicode.IsUpper(r) {
				if j > 0 {
					b.WriteByte('_')
				}
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// topLevel keeps the top-level declarations among candidates when there
// are both: a bare name means a package's "float64", not a method of
// that name.
func (x *Index) topLevel(ids []graph.NodeID) []graph.NodeID {
	if len(ids) < 2 {
		return ids
	}
	top := slices.DeleteFunc(slices.Clone(ids), func(id graph.NodeID) bool {
		_, _, segs, _ := codeRef(x.g.ExternalID(id))
		return len(segs) != 1
	})
	if len(top) > 0 {
		return top
	}
	return ids
}

// spread turns candidates into scored bindings: one gets the full score,
// two or three share it, more bind nothing.
func spread(ids []graph.NodeID, score float32, reason string) []Candidate {
	n := len(ids)
	if n == 0 || n > MaxCandidates {
		return nil
	}
	s := score / float32(n)
	if s < MinScore {
		return nil
	}
	if n > 1 {
		reason = "ambiguous " + reason + " (" + itoa(n) + " candidates)"
	}
	out := make([]Candidate, 0, n)
	for _, id := range ids {
		out = append(out, Candidate{Node: id, Score: s, Reason: reason, Of: n})
	}
	return out
}

// Binding is a section bound to a code node.
type Binding struct {
	Section graph.NodeID
	Target  graph.NodeID
	Score   float32
	Reason  string
	Mention Mention
}

// Mentions returns the mentions stored on a node.
func Mentions(g *graph.Graph, id graph.NodeID) []Mention {
	var out []Mention
	for _, t := range g.Tags(id) {
		if m, ok := ParseMentionTag(t); ok {
			out = append(out, m)
		}
	}
	return out
}

// SectionBindings resolves the mentions of one section (or document
// node): the best binding per code node, best first, at most
// MaxBindingsPerSection.
func (x *Index) SectionBindings(sec graph.NodeID) []Binding {
	best := map[graph.NodeID]Binding{}
	dir := path.Dir(x.g.SourcePath(sec))
	for _, m := range Mentions(x.g, sec) {
		for _, c := range x.ResolveNear(m, dir) {
			if old, ok := best[c.Node]; !ok || c.Score > old.Score {
				best[c.Node] = Binding{Section: sec, Target: c.Node, Score: c.Score, Reason: c.Reason, Mention: m}
			}
		}
	}
	// Weak mentions need corroboration by the section's other bindings: a
	// lower-case plain word ("lookup", but also "search", "query": tool and
	// parameter names) binds only into a file they reach, an identifier-
	// shaped word of prose ("ServeMux", but also "PageRank" the concept)
	// only into a directory they reach.
	files, dirs := map[graph.NodeID]bool{}, map[string]bool{}
	for _, b := range best {
		if !weak(b) {
			f := x.FileOf(b.Target)
			files[f] = true
			dirs[x.dirOf(f)] = true
		}
	}
	out := make([]Binding, 0, len(best))
	for _, b := range best {
		switch {
		case !weak(b):
		case b.Mention.Kind == MentionWord && !dirs[x.dirOf(x.FileOf(b.Target))]:
			continue
		case b.Mention.Kind == MentionIdent && !files[x.FileOf(b.Target)]:
			continue
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b Binding) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(x.g.ExternalID(a.Target), x.g.ExternalID(b.Target))
	})
	if len(out) > MaxBindingsPerSection {
		out = out[:MaxBindingsPerSection]
	}
	return out
}

// LinkTargets returns the document nodes a section links to.
func (x *Index) LinkTargets(sec graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	for _, t := range x.g.Tags(sec) {
		p, ok := strings.CutPrefix(t, TagLinkPrefix)
		if !ok {
			continue
		}
		if id, ok := x.docs[p]; ok && id != sec {
			out = append(out, id)
		} else if id, ok := x.stems[stemOf(p)]; ok && id != sec {
			out = append(out, id) // ":doc:`guide`" names guide.md as well as guide.rst
		}
	}
	return out
}

// Document returns the document node of a path, if ingested.
func (x *Index) Document(p string) (graph.NodeID, bool) {
	id, ok := x.docs[p]
	return id, ok
}

// Bind adds to g (finalized or not; call Finalize afterwards) a documents
// edge from every document section to each code node it names and a
// links_to edge from every section to each ingested document it links
// to, and bridges the entities of different namespaces (Bridge). Edges
// that exist already collapse at Finalize. It returns the number of edges
// staged.
func Bind(g *graph.Graph) int {
	var secs []graph.NodeID
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		if t := g.Type(id); (t == graph.File || t == graph.Concept) && IsDocID(g.ExternalID(id)) {
			secs = append(secs, id)
		}
	}
	if len(secs) == 0 {
		return 0
	}
	bs := Bridge(g)
	n := bs.IdentityMatches + bs.ORCIDBridges + bs.AuthorBridges + bs.KeywordBridges
	x := NewIndex(g)
	for _, s := range secs {
		for _, b := range x.SectionBindings(s) {
			if g.AddEdge(graph.Edge{Source: s, Target: b.Target, Relation: RelDocuments, Weight: graph.Finite(b.Score), Direction: graph.Bidirectional, CausalStrength: 0.1}) == nil {
				n++
			}
		}
		for _, d := range x.LinkTargets(s) {
			if g.AddEdge(graph.Edge{Source: s, Target: d, Relation: RelLinksTo, Weight: 0.8, CausalStrength: 0.2}) == nil {
				n++
			}
		}
	}
	return n
}
