// Package resolve binds the "ref::Name" targets extractors leave behind to
// nodes of the graph under construction.
//
// Candidates are the nodes labelled Name (a multi-value label index). The
// extractor's hints narrow them before proximity decides:
//
//   - an import hint (RefHint.Module) is mapped to the files or directories
//     of the repository that module names — Python dotted and relative
//     modules, JS/TS relative paths and workspace packages, Go import paths
//     against go.mod module paths, Java/Kotlin packages, Rust crate paths,
//     C includes, Ruby requires, PHP namespaces. When the module lies outside
//     the repository the reference stays unresolved: a same-named local
//     symbol is never the one imported.
//   - a receiver type (RefHint.ReceiverType) keeps only the methods of that
//     type or of its ancestors; none means unresolved, never an arbitrary
//     same-named method.
//   - a receiver of unknown type keeps only methods, and only when one is
//     clearly closest.
//
// Proximity then scores what is left: same file 100, same directory 50,
// elsewhere in the project 10. Several candidates at the top score make the
// reference ambiguous; the best guess (deepest shared directory, then the
// smallest ID) is bound and counted.
package resolve

import (
	"go/build/constraint"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// Status is the outcome of one resolution.
type Status uint8

const (
	// Unresolved: no acceptable candidate; no edge is created.
	Unresolved Status = iota
	// Resolved: one best candidate.
	Resolved
	// Ambiguous: several candidates tied at the best proximity; the best
	// guess was bound.
	Ambiguous
)

// String names the status ("resolved", "ambiguous", "unresolved").
func (s Status) String() string {
	switch s {
	case Resolved:
		return "resolved"
	case Ambiguous:
		return "ambiguous"
	}
	return "unresolved"
}

// Proximity scores (docs/design.md#reference-resolution).
const (
	SameFile      = 100
	SameDirectory = 50
	SameProject   = 10
)

// DirPrefix starts the external ID of a directory node: "dir::{relpath}"
// ("dir::." for the root).
const DirPrefix = "dir::"

// DirID returns the external ID of the directory node for a root-relative
// directory ("" is the root).
func DirID(dir string) string {
	if dir == "" {
		return DirPrefix + "."
	}
	return DirPrefix + dir
}

// cand is a node that references may bind to.
type cand struct {
	id    string
	file  int32  // index into Index.files
	node  int32  // index into the file's Result.Nodes
	owner string // label of the enclosing entity ("" when directly in the file)
	label string
	typ   graph.NodeType
}

type fileInfo struct {
	path string
	dir  string
	lang string
	fam  string // family(lang), precomputed: compared for every candidate
	// offBuild marks a file its build constraints leave out on this
	// platform (Go: //go:build, _GOOS/_GOARCH file names); ports are the
	// platforms that build it (buildPorts).
	offBuild bool
	ports    uint64
	// tagged is a Go file's constraint when it names custom tags
	// (binary_log, integration), else nil: see builtTogether.
	tagged constraint.Expr
	// pkg is a JVM file's declared package: one package spans source
	// roots (src/main/java, src/test/java), so directories cannot tell it.
	pkg string
}

// Index holds what resolution needs about every extracted file. Build it
// once per ingest with New; Resolve is safe for concurrent use.
type Index struct {
	files   []fileInfo
	fileIdx map[string]int32 // path → index
	dirs    map[string]bool  // every directory holding a file, at any depth
	cands   []cand
	byLabel map[string][]int32
	byOwner map[[2]string][]int32 // (owner, label) → candidates
	parents map[string][]string   // type label → base type names
	pyMods  map[string][]string   // dotted module suffix → files
	stars   map[int32][]location  // file → locations of its star imports
	byBase  map[string][]string   // file base name → files
	dirBase map[string][]string   // dir base name → dirs
	ws      *workspace.Info

	// rets are the declared result types of function candidates.
	rets map[int32]extract.TypeRef
	// arity is the declared arity of overloads (overloads.go).
	arity map[int32]extract.Arity
	// fields are the member types of Go types ("T.f", "T[]"), for
	// receiver paths (evalPath); fileFields the keys each file added.
	fields map[string][]fieldDecl
	// laterRets are the second, third … declared results (index from 0).
	laterRets  map[[2]int32]extract.TypeRef
	fileFields [][]string
	// rubyBases are the superclass paths Ruby classes name as written
	// ("Rack::Request"): parents keeps only their last name, which two
	// classes of one repository often share (ruby.go).
	rubyBases map[int32][]string
	// rubyFacts are what Ruby methods do with their block parameter
	// (extract.rubyBlockFact: "C:Sinatra::Base", "N:Rack::Builder", "."),
	// and rubyCache what the bare calls' self lookups share (rubyself.go).
	rubyFacts map[int32]string
	// rubyInBlock marks Ruby defs made inside a block (RSpec helpers),
	// which are no top-level defs.
	rubyInBlock map[int32]bool
	rubyCache   *rubyCache
	// rubyForward maps a Ruby module to the methods its body generates
	// to forward to a constant (name → constant path, as written:
	// sinatra's Delegator, extract.rubyDelegate); rubyMain lists, by
	// file, the modules its top level extends main with; rubyLoads, by
	// file, what it requires (rubymain.go).
	rubyForward map[int32]map[string]string
	rubyMain    map[int32][]string
	rubyLoads   map[int32][]string
	// rubyGroupMix lists, by file, the modules its example groups
	// include (`include X` in a describe block), rubyGroupAll, by file,
	// those its RSpec.configure includes in every group (rubygroup.go).
	rubyGroupMix map[int32][]string
	rubyGroupAll map[int32][]string
	rubyGroupFwd map[int32][]string // names the file's groups forward (def_delegators)
	// rubyShared lists, by file, the RSpec shared groups it defines
	// (shared_context "x"), rubySharedUse those its groups include
	// (include_context "x", it_behaves_like "x").
	rubyShared, rubySharedUse map[int32][]string
	// rubyAliases maps a Ruby constant alias's path ("StreamingTest::Stream")
	// to its declarations (ruby.go).
	rubyAliases map[string][]rubyAlias
	// rubyStatic marks Ruby class methods (`def self.x`, defs inside
	// `class << self`), which a call on an untyped value cannot reach.
	rubyStatic map[int32]bool

	// What each file put in, so ReplaceFile can take it out again.
	fileCands   [][]int32            // file → its candidates
	fileParents [][][2]string        // file → its (type, base) pairs
	parentRefs  map[[2]string]int32  // (type, base) → files declaring it
	fileStars   [][]string           // file → modules it star-imports
	fileReexps  [][]extract.Reexport // file → names it re-exports (JS/TS)
	dirFiles    map[string]int32     // directory → files at any depth below it

	// pyPlain: file → modules a Python file imports whole (`import pkg`):
	// its uses are attribute reads of pkg's names, which no ref records.
	pyPlain [][]string
	// jsNamed: file → modules a JS/TS file imports a name from that is
	// also the module's stem (`import { db } from "@/lib/db"`): that ref
	// is the module's export, not the module itself.
	jsNamed [][]string
	// jsAliases: file → (module, local name) of each JS/TS import that
	// names the module as a whole (a default or namespace import, `import
	// x = require`): only such a name may mean the module's default export.
	jsAliases [][][2]string
}

// New indexes the extraction results (one per file; nil entries are
// skipped). ws may be nil.
func New(results []*extract.Result, ws *workspace.Info) *Index {
	ix := &Index{
		fileIdx: make(map[string]int32, len(results)),
		dirs:    map[string]bool{"": true},
		byLabel: map[string][]int32{},
		byOwner: map[[2]string][]int32{},
		parents: map[string][]string{},
		pyMods:  map[string][]string{},
		stars:   map[int32][]location{},
		rets:    map[int32]extract.TypeRef{},
		byBase:  map[string][]string{},
		dirBase: map[string][]string{},
		ws:      ws,
	}
	if ix.ws == nil {
		ix.ws = workspace.Detect("", nil)
	}
	ix.parentRefs = map[[2]string]int32{}
	ix.dirFiles = map[string]int32{}
	ix.reserve(results)
	for _, r := range results {
		if r != nil {
			ix.place(r)
		}
	}
	// Star imports ("from m import *", "use m::*", "import a.b.*") open a
	// module's names to plain references; their locations need the whole
	// index, so they are mapped last.
	for fi := range ix.files {
		ix.mapStars(int32(fi))
	}
	return ix
}

// reserve sizes the per-file and per-candidate arrays for results, which
// append grew by copying (go-std: 41 MB of candidates allocated for 8 kept).
func (ix *Index) reserve(results []*extract.Result) {
	nodes := 0
	for _, r := range results {
		if r != nil {
			nodes += len(r.Nodes)
		}
	}
	ix.cands = make([]cand, 0, nodes)
	ix.files = make([]fileInfo, 0, len(results))
}

// place gives r a new file slot and indexes its path and definitions.
func (ix *Index) place(r *extract.Result) int32 {
	fi := int32(len(ix.files))
	dir, base := split(r.Path)
	info := fileInfo{path: r.Path, dir: dir, lang: r.Language, fam: family(r.Language)}
	if info.fam == "jvm" {
		info.pkg = r.Package
	}
	ix.files = append(ix.files, info)
	ix.fileIdx[r.Path] = fi
	ix.byBase[base] = insertSorted(ix.byBase[base], r.Path)
	for d := dir; ; d, _ = split(d) {
		ix.dirFiles[d]++
		if !ix.dirs[d] {
			ix.dirs[d] = true
			_, b := split(d)
			ix.dirBase[b] = insertSorted(ix.dirBase[b], d)
		}
		if d == "" {
			break
		}
	}
	if strings.HasSuffix(base, ".py") || strings.HasSuffix(base, ".pyi") {
		ix.addPyModule(r.Path)
	}
	ix.fileCands = append(ix.fileCands, nil)
	ix.fileParents = append(ix.fileParents, nil)
	ix.fileStars = append(ix.fileStars, nil)
	ix.pyPlain = append(ix.pyPlain, nil)
	ix.jsNamed = append(ix.jsNamed, nil)
	ix.jsAliases = append(ix.jsAliases, nil)
	ix.fileReexps = append(ix.fileReexps, nil)
	ix.addFile(fi, r)
	return fi
}

// insertSorted adds s to a sorted list, in a new array: lists may be shared
// with slices handed out before. Lists by name stay sorted by path, so an
// index grown by AddFile lists them as New would.
func insertSorted(list []string, s string) []string {
	i, found := slices.BinarySearch(list, s)
	if found {
		return list
	}
	out := make([]string, 0, len(list)+1)
	out = append(out, list[:i]...)
	out = append(out, s)
	return append(out, list[i:]...)
}

// removeString returns list minus s, in a new array.
func removeString(list []string, s string) []string {
	i := slices.Index(list, s)
	if i < 0 {
		return list
	}
	out := make([]string, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}

// addFile indexes the definitions of file fi (already in ix.files).
func (ix *Index) addFile(fi int32, r *extract.Result) {
	for _, im := range r.Imports {
		if (im.Alias == "" && slices.Contains(im.Names, "*")) || (r.Language == "go" && im.Alias == ".") {
			ix.fileStars[fi] = append(ix.fileStars[fi], im.Module)
		}
		if r.Language == "python" && len(im.Names) == 0 {
			ix.pyPlain[fi] = append(ix.pyPlain[fi], im.Module)
		}
		if family(r.Language) == "js" && slices.Contains(im.Names, lastSegment(im.Module)) {
			ix.jsNamed[fi] = append(ix.jsNamed[fi], im.Module)
		}
		if family(r.Language) == "js" && im.Alias != "" {
			ix.jsAliases[fi] = append(ix.jsAliases[fi], [2]string{im.Module, im.Alias})
		}
	}
	ix.fileReexps[fi] = r.Reexports
	if r.Language == "ruby" {
		ix.addRubyAliases(fi, r.Reexports)
	}
	ix.files[fi].offBuild = !builtHere(r)
	ix.files[fi].ports = buildPorts(r)
	ix.files[fi].tagged = taggedExpr(r)
	prefix := extract.FileID(r.Path) + "::"
	var ids map[string]int32 // id → candidate, for Ruby's bases
	if r.Language == "ruby" || ix.files[fi].fam == "ruby" {
		ids = map[string]int32{}
	}
	for ni, n := range r.Nodes {
		if n.Type == graph.File || !strings.HasPrefix(n.ID, prefix) {
			continue
		}
		ci := int32(len(ix.cands))
		owner := ownerSegment(n.ID[len(prefix):])
		ix.cands = append(ix.cands, cand{id: n.ID, file: fi, node: int32(ni), owner: owner, typ: n.Type, label: n.Label})
		ix.fileCands[fi] = append(ix.fileCands[fi], ci)
		ix.byLabel[n.Label] = append(ix.byLabel[n.Label], ci)
		if tr, ok := r.Returns[n.ID]; ok {
			ix.rets[ci] = tr
		}
		ix.addArity(ci, r, n.ID)
		if r.Language == "ruby" && slices.Contains(n.Tags, "static") {
			if ix.rubyStatic == nil {
				ix.rubyStatic = map[int32]bool{}
			}
			ix.rubyStatic[ci] = true
		}
		if len(r.Returns) > 1 {
			ix.addLaterResults(ci, r, n.ID)
		}
		if owner != "" {
			k := [2]string{owner, n.Label}
			ix.byOwner[k] = append(ix.byOwner[k], ci)
		}
		if ids != nil {
			ids[n.ID] = ci
		}
	}
	ix.addFields(fi, r)
	if r.Language == "ruby" {
		ix.addRubyFacts(ids, prefix, r.Reexports)
		ix.addRubyMain(fi, ids, prefix, r)
	}
	var labels map[string]string // id → label, for base-type edges
	for _, e := range r.Edges {
		if e.Relation != extract.RelInherits && e.Relation != extract.RelImplements {
			continue
		}
		if labels == nil {
			labels = definedLabels(r, prefix)
		}
		if name, ok := strings.CutPrefix(e.Target, extract.RefPrefix); ok {
			base := lastName(name)
			if ix.files[fi].fam == "ruby" && e.Relation == extract.RelInherits {
				ix.addRubyBase(ids, e.Source, name)
			}
			if l := labels[e.Source]; l != "" && l != base {
				k := [2]string{l, base}
				ix.fileParents[fi] = append(ix.fileParents[fi], k)
				if ix.parentRefs[k]++; ix.parentRefs[k] == 1 {
					ix.parents[l] = append(ix.parents[l], base)
				}
			}
		}
	}
}

// addLaterResults records the types of candidate ci's second to fourth
// results. Their keys (extract.ResultKey) are built in a buffer the
// lookups read without a string of their own: three concatenations a
// definition were 8 MB of go-std's allocation.
func (ix *Index) addLaterResults(ci int32, r *extract.Result, id string) {
	var buf [96]byte
	key := append(buf[:0], id...)
	key = append(key, '#', '0')
	for i := 1; i < 4; i++ {
		key[len(key)-1] = byte('0' + i)
		if tr, ok := r.Returns[string(key)]; ok {
			if ix.laterRets == nil {
				ix.laterRets = map[[2]int32]extract.TypeRef{}
			}
			ix.laterRets[[2]int32{ci, int32(i)}] = tr
		}
	}
}

// definedLabels maps the IDs of r's definitions (under prefix) to their
// labels. addFile builds it only for a file with base-type edges: most
// files have none (go-std: 10 MB of maps for the few that do).
func definedLabels(r *extract.Result, prefix string) map[string]string {
	labels := make(map[string]string, len(r.Nodes))
	for _, n := range r.Nodes {
		if n.Type != graph.File && strings.HasPrefix(n.ID, prefix) {
			labels[n.ID] = n.Label
		}
	}
	return labels
}

// ownerSegment returns the segment before the last of rest's "::"
// separators ("T::M" → "T"), "" when there is none: what
// strings.Split(rest, "::") would put second to last, without the array.
func ownerSegment(rest string) string {
	owner, found := "", false
	for {
		i := strings.Index(rest, "::")
		if i < 0 {
			break
		}
		owner, rest, found = rest[:i], rest[i+2:], true
	}
	if !found {
		return ""
	}
	return owner
}

// mapStars locates the modules file fi star-imports.
func (ix *Index) mapStars(fi int32) {
	delete(ix.stars, fi)
	for _, im := range ix.fileStars[fi] {
		if locs, known := ix.module(ix.files[fi], im); known {
			ix.stars[fi] = append(ix.stars[fi], locs...)
		}
	}
}

// SetWorkspace hands the index a newer package structure of the same
// repository. Only versions and dependencies may differ from the one it
// was built with (workspace.SameLayout): resolution reads neither, so no
// outcome moves.
func (ix *Index) SetWorkspace(ws *workspace.Info) { ix.ws = ws }

// ReplaceFile swaps the definitions of an indexed file for those of r (a
// new extraction of the same path), as if New had been given r instead.
// The set of files must not change: a file added or removed moves module
// locations and needs New. It reports false, changing nothing, when r's
// path is not indexed.
func (ix *Index) ReplaceFile(r *extract.Result) bool {
	fi, ok := ix.fileIdx[r.Path]
	if !ok {
		return false
	}
	ix.dropDefinitions(fi)
	ix.addFile(fi, r)
	ix.mapStars(fi)
	return true
}

// AddFile indexes a file the index does not hold yet, as if New had been
// given it too: its definitions become candidates and its path moves module
// locations, so every star import is located again. It reports false,
// changing nothing, when r's path is already indexed.
func (ix *Index) AddFile(r *extract.Result) bool {
	if _, ok := ix.fileIdx[r.Path]; ok {
		return false
	}
	ix.place(r)
	ix.remapStars()
	return true
}

// RemoveFile takes an indexed file out, as if New had not been given it:
// its candidates vanish and so does its place in module locations (and
// every directory only it held). Its slot stays, empty, so the positions
// of other files do not move. It reports false when path is not indexed.
func (ix *Index) RemoveFile(path string) bool {
	fi, ok := ix.fileIdx[path]
	if !ok {
		return false
	}
	ix.dropDefinitions(fi)
	delete(ix.fileIdx, path)
	delete(ix.stars, fi)
	dir, base := split(path)
	if ix.byBase[base] = removeString(ix.byBase[base], path); len(ix.byBase[base]) == 0 {
		delete(ix.byBase, base)
	}
	for d := dir; ; d, _ = split(d) {
		if ix.dirFiles[d]--; ix.dirFiles[d] == 0 && d != "" {
			delete(ix.dirFiles, d)
			delete(ix.dirs, d)
			_, b := split(d)
			if ix.dirBase[b] = removeString(ix.dirBase[b], d); len(ix.dirBase[b]) == 0 {
				delete(ix.dirBase, b)
			}
		}
		if d == "" {
			break
		}
	}
	if strings.HasSuffix(base, ".py") || strings.HasSuffix(base, ".pyi") {
		ix.removePyModule(path)
	}
	ix.files[fi] = fileInfo{} // unreachable: no candidate, path or module names it
	ix.remapStars()
	return true
}

// dropDefinitions takes file fi's candidates, inheritance pairs and star
// imports out of the index.
func (ix *Index) dropDefinitions(fi int32) {
	for _, c := range ix.fileCands[fi] {
		cd := &ix.cands[c]
		ix.byLabel[cd.label] = without(ix.byLabel[cd.label], c)
		if len(ix.byLabel[cd.label]) == 0 {
			delete(ix.byLabel, cd.label)
		}
		if cd.owner != "" {
			k := [2]string{cd.owner, cd.label}
			if ix.byOwner[k] = without(ix.byOwner[k], c); len(ix.byOwner[k]) == 0 {
				delete(ix.byOwner, k)
			}
		}
		cd.file = -1 // unreachable from now on
		delete(ix.rets, c)
		delete(ix.arity, c)
		delete(ix.rubyBases, c)
		delete(ix.rubyStatic, c)
		delete(ix.rubyFacts, c)
		delete(ix.rubyInBlock, c)
		delete(ix.rubyForward, c)
		for i := int32(1); i < 4; i++ {
			delete(ix.laterRets, [2]int32{c, i})
		}
	}
	for _, k := range ix.fileParents[fi] {
		if ix.parentRefs[k]--; ix.parentRefs[k] == 0 {
			delete(ix.parentRefs, k)
			ix.parents[k[0]] = slices.DeleteFunc(ix.parents[k[0]], func(b string) bool { return b == k[1] })
			if len(ix.parents[k[0]]) == 0 {
				delete(ix.parents, k[0])
			}
		}
	}
	ix.dropFields(fi)
	ix.fileCands[fi], ix.fileParents[fi], ix.fileStars[fi], ix.pyPlain[fi], ix.jsNamed[fi], ix.jsAliases[fi] = nil, nil, nil, nil, nil, nil
	if ix.files[fi].lang == "ruby" {
		ix.dropRubyAliases(fi)
		delete(ix.rubyMain, fi)
		delete(ix.rubyLoads, fi)
		delete(ix.rubyGroupMix, fi)
		delete(ix.rubyGroupAll, fi)
		delete(ix.rubyGroupFwd, fi)
		delete(ix.rubyShared, fi)
		delete(ix.rubySharedUse, fi)
		ix.rubyCache = &rubyCache{}
	}
	ix.fileReexps[fi] = nil
}

// remapStars locates every star import again: files came or went.
func (ix *Index) remapStars() {
	for fi := range ix.files {
		if len(ix.fileStars[fi]) > 0 {
			ix.mapStars(int32(fi))
		}
	}
}

// without returns list minus c, in a new array: lists may be shared with
// slices handed out before.
func without(list []int32, c int32) []int32 {
	i := slices.Index(list, c)
	if i < 0 {
		return list
	}
	out := make([]int32, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}

// removePyModule undoes addPyModule.
func (ix *Index) removePyModule(p string) {
	for _, k := range pyModuleKeys(p) {
		if ix.pyMods[k] = removeString(ix.pyMods[k], p); len(ix.pyMods[k]) == 0 {
			delete(ix.pyMods, k)
		}
	}
}

// addPyModule indexes every dotted suffix of a Python file's module name:
// "src/pkg/mod.py" answers "mod", "pkg.mod" and "src.pkg.mod";
// "pkg/__init__.py" answers "pkg".
func (ix *Index) addPyModule(p string) {
	for _, k := range pyModuleKeys(p) {
		ix.pyMods[k] = insertSorted(ix.pyMods[k], p)
	}
}

// pyModuleKeys are the dotted module names a Python file answers.
func pyModuleKeys(p string) []string {
	noExt := strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	segs := strings.Split(noExt, "/")
	if segs[len(segs)-1] == "__init__" {
		segs = segs[:len(segs)-1]
	}
	keys := make([]string, len(segs))
	for i := range segs {
		keys[i] = strings.Join(segs[i:], ".")
	}
	return keys
}

// Source is where a reference occurs.
type Source struct {
	// ID of the node the edge starts from.
	ID string
	// File is the root-relative path of the file it was extracted from.
	File string
}

// Result of one resolution.
type Result struct {
	Status Status
	// Target is the external ID bound (a node of the results, a file, or a
	// directory ID for Go packages and the like).
	Target string
	// File and Node locate a bound entity in the results New was given
	// (result index, index in its Nodes), so callers holding per-result
	// node handles need no lookup by ID; -1 when the target is a file or
	// directory of a module.
	File, Node int32
	// Also are the declarations of the same entity for other platforms
	// that the referring file is built with (Go: a portable file calling
	// isTerminal, declared in term_linux.go and term_windows.go, binds the
	// host's in Target and the others here), and the overloads of Target
	// a call's argument count leaves (overloads.go), by external ID, sorted.
	Also []string
}

// FileIndex returns the position of a file among the results New was
// given, for ResolveIn.
func (ix *Index) FileIndex(path string) (int32, bool) {
	fi, ok := ix.fileIdx[path]
	return fi, ok
}

// Resolve binds the reference name (without "ref::") used by src through
// relation rel, with the extractor's hint.
func (ix *Index) Resolve(src Source, name, rel string, hint extract.RefHint) Result {
	fi, ok := ix.fileIdx[src.File]
	if !ok {
		return Result{}
	}
	return ix.ResolveIn(fi, src, name, rel, hint)
}

// ResolveIn is Resolve with the source file given by its FileIndex.
func (ix *Index) ResolveIn(fi int32, src Source, name, rel string, hint extract.RefHint) Result {
	if name == "" || fi < 0 || int(fi) >= len(ix.files) {
		return Result{}
	}
	from := ix.files[fi]
	rubySelf := ""
	if from.lang == "ruby" && strings.HasPrefix(hint.Receiver, "&") {
		// The self of a bare call, not a receiver (extract.rubySelf).
		rubySelf, hint.Receiver = hint.Receiver, ""
	}
	if hint.ReceiverType == "" && strings.HasPrefix(hint.Receiver, "@") {
		// A Go receiver path, x.f[i].m(): typed with every file's
		// declarations, else a receiver of unknown type.
		tr, ok := ix.evalPath(from, hint.Receiver)
		if !ok {
			// Declarations do not type it (an external package's value,
			// an interface it embeds from one): a same-named method of
			// this file would be a guess.
			return Result{}
		}
		hint.ReceiverType, hint.Module, hint.Receiver = tr.Name, tr.Module, "@"
	}
	if v, ok := strings.CutPrefix(hint.Receiver, "super."); ok && hint.ReceiverType == "" && from.lang == "kotlin" {
		// A Kotlin property no scope of the file declares: one the
		// calling class inherits (extract.kotlinTypedCall). Untyped,
		// it is the plain variable it was.
		hint.Receiver = v
		if tr, ok := ix.inheritedField(fi, src.ID, v); ok {
			hint.ReceiverType = tr.Name
		}
	}
	if from.lang == "java" {
		hint.ArgKinds = ix.callKinds(src.ID, hint.ArgKinds)
	}
	if hint.ReceiverType == "" && strings.HasSuffix(hint.Receiver, ")") && from.fam == "jvm" {
		if tr, ok := ix.ownCallResult(src.ID, hint.Receiver); ok {
			hint.ReceiverType = tr.Name
			if hint.Module == "" {
				hint.Module = tr.Module
			}
		}
	}
	if hint.ReceiverType == "" && strings.HasSuffix(hint.Receiver, ")") {
		if tr, ok := ix.callResult(from, hint.Receiver); ok {
			// f().M(), x := f(); x.M(): the receiver's type is what every
			// function named f in reach declares it returns.
			hint.ReceiverType = tr.Name
			if hint.Module == "" {
				hint.Module = tr.Module
			}
		}
	}
	if from.lang == "kotlin" && strings.HasSuffix(hint.Receiver, ")") && ix.typeNamedTwice(hint.ReceiverType, from.fam) {
		// A Kotlin result type is read by its last name: `fun
		// builder(): CodeBlock.Builder` gives Builder, which kotlinpoet
		// declares nine times (FunSpec.Builder, TypeSpec.Builder, …):
		// methodsOf would take any of them. Such a name types nothing.
		hint.ReceiverType = ""
	}
	label := name
	cands, ok := ix.byLabel[label]
	if !ok {
		label = lastName(name)
		cands = ix.byLabel[label]
	}
	cands = ix.sameFamily(cands, from.fam)
	if rel == extract.RelReferences {
		cands = ix.typesOverConstructors(cands)
	}
	if from.lang == "javascript" || from.lang == "jsx" {
		cands = ix.withoutDeclarations(cands)
	}
	if from.lang == "python" {
		cands = ix.stubsOrSources(cands, pyStubFirst(from))
	}
	if from.lang == "ruby" && rel == extract.RelCalls && hint.Receiver == "" && isConstantName(label) {
		cands = ix.rubyConstant(src.ID, name, cands) // X.new, A::B.new
	}
	if rubySelf != "" {
		// A bare Ruby call: the methods self's class and its ancestry
		// declare, when what self is there is known.
		if in, decided := ix.rubySelfCands(src.ID, cands, rubySelf); decided {
			if len(in) == 0 {
				return Result{}
			}
			cands = in
		}
	}

	if hint.Module != "" {
		locs, known := ix.module(from, hint.Module)
		if known {
			if len(locs) == 0 {
				return Result{} // an external module: never a local symbol
			}
			if rel == extract.RelImports && from.lang == "python" && name == hint.Module && ix.ownPackage(from, locs) && !slices.Contains(ix.pyPlain[fi], hint.Module) {
				// "from pkg import x" in pkg/a.py: pkg's __init__.py is
				// already running when a.py runs; the names bind on
				// their own (see the extractor's relative-import twin).
				// "import pkg" keeps its link: pkg.name reads a name
				// of __init__.py (uvicorn/main.py's uvicorn.__version__).
				return Result{}
			}
			stem := label == lastSegment(hint.Module) && !slices.Contains(ix.jsNamed[fi], hint.Module)
			if rel == extract.RelImports && (from.lang == "go" || stem || name == hint.Module) {
				// "import fmt", "import numpy as np", a default import of
				// "./repo", a ref named like its module ("from . import
				// x" also imports "."): the module itself, not a symbol
				// named like it (package fmt has a type fmt).
				return ix.bindLocation(from, src, locs)
			}
			in := ix.inLocations(cands, locs, false)
			if rel == extract.RelImports {
				in = preferTopLevel(ix, in) // what a module exports
			}
			if from.fam == "js" && hint.Receiver == "" {
				// An imported name is a binding of the module's top
				// level: ky's `export default ky` is index.ts's const,
				// not the function createInstance declares inside.
				in = preferTopLevel(ix, in)
			}
			pyName := from.lang == "python" && hint.Receiver == ""
			if pyName {
				// "from pkg import name": a name of the module, never a
				// member of one of its classes (a method `name` of a
				// class in pkg/__init__.py is no import of it).
				in = topLevel(ix, in)
			}
			if len(in) == 0 && isIdent(hint.Receiver) && lastName(hint.Module) != hint.Receiver {
				// "from . import util; util.helper()": the receiver is a
				// module imported from the hinted one.
				if sub, ok := ix.module(from, joinModule(from.lang, hint.Module, hint.Receiver)); ok && len(sub) > 0 {
					in = ix.inLocations(cands, sub, false)
				}
			}
			if len(in) == 0 && rel == extract.RelImports {
				// "import pkg.mod" / "from pkg import submodule" name a
				// module, not a symbol.
				if sub, ok := ix.module(from, joinModule(from.lang, hint.Module, label)); ok && len(sub) > 0 {
					return ix.bindLocation(from, src, sub)
				}
			}
			if len(in) == 0 && len(ix.fileReexps) > 0 {
				if to, ok := ix.reexported(label, locs); ok {
					if to == nil {
						return Result{} // a default export: not named here
					}
					in = to
				}
			}
			if len(in) == 0 && len(ix.stars) > 0 {
				// A barrel of any name (immer's internal.ts): its
				// `export * from` chains reach the definition.
				in = ix.inLocations(cands, ix.starred(locs), false)
			}
			if len(in) == 0 && from.fam == "js" && hint.Receiver == "" && label != extract.ModuleStem(hint.Module) &&
				slices.Contains(ix.jsAliases[fi], [2]string{hint.Module, label}) {
				// `import wait from "./delay.js"`: the default export.
				// (The module's own ref, named by its stem, is the file.)
				// A name imported by name is never the default export:
				// dayjs's types/plugin/*.d.ts import { ConfigType } from
				// 'dayjs', declared in types/index.d.ts, not src/index.js.
				in = ix.jsDefault(locs)
			}
			if len(in) == 0 && hint.ReceiverType != "" && len(ix.fileReexps) > 0 {
				in = ix.typeMethods(cands, lastName(hint.ReceiverType), locs, from.lang == "rust")
			}
			if len(in) == 0 {
				in = ix.inLocations(cands, locs, true) // re-exported from a package
				if pyName {
					in = topLevel(ix, in)
				}
			}
			if len(in) == 0 {
				if rel == extract.RelImports {
					return ix.bindLocation(from, src, locs)
				}
				return Result{}
			}
			cands = in
			if hint.ReceiverType == "" && from.lang == "go" {
				// Go's pkg.Name (a call, a type, a value) is always a
				// package-level declaration, never a method of one of
				// pkg's types (kong.Vars is a type though interfaces in
				// kong have Vars methods).
				if cands = topLevel(ix, cands); len(cands) == 0 {
					return Result{}
				}
			} else if hint.ReceiverType == "" && from.lang == "rust" && rel == extract.RelCalls {
				// Rust's path::f is an item of the module, never a method:
				// those need Type::m (tokio::spawn is no Command::spawn).
				if cands = ix.rustNotMethods(cands); len(cands) == 0 {
					return Result{}
				}
			} else if hint.ReceiverType == "" && isIdent(hint.Receiver) {
				// pkg.Func(): the receiver names the package, so a
				// top-level function beats a same-named method in it.
				cands = preferTopLevel(ix, cands)
			}
		}
	} else if from.lang == "go" && !strings.HasSuffix(hint.Receiver, ")") && (hint.Receiver == "" || hint.ReceiverType != "") {
		// Go: a name without a package qualifier is declared in the
		// importing package (its directory) or a dot-imported one —
		// never in another one.
		var local []int32
		for _, c := range cands {
			if ix.files[ix.cands[c].file].dir == from.dir {
				local = append(local, c)
			}
		}
		if len(local) == 0 && hint.Receiver == "" {
			if locs := ix.stars[fi]; len(locs) > 0 {
				local = ix.inLocations(cands, locs, false)
			}
		}
		if hint.Receiver == "" {
			local = preferTopLevel(ix, local)
			if len(local) > 0 && ix.cands[local[0]].owner != "" {
				local = nil // a bare call never names a method
			}
		}
		if len(local) == 0 {
			return Result{}
		}
		cands = local
	}

	if hint.ReceiverType == "" && strings.HasSuffix(hint.Receiver, ")") {
		// "Service().run()": a constructor call's type is its name when
		// such a type has the method.
		if i := strings.IndexByte(hint.Receiver, '('); i > 0 {
			if t := lastName(hint.Receiver[:i]); ix.isTypeName(t) {
				hint.ReceiverType = t
			}
		}
	}
	if hint.ReceiverType != "" {
		typed := ix.methodsOf(cands, label, lastName(hint.ReceiverType))
		if kotlinVariable(from.lang, hint.Receiver) && ix.noneTakes(typed, hint) {
			// Foo's m takes other argument counts only: the call is an
			// extension of that name (kotlinpoet's reified
			// `Taggable.tag<T>()` beside Taggable's tag(KClass) and
			// tag(Class)), as when Foo has no m at all. Kotlin
			// arities count defaults (extract.kotlinOptional), so
			// `p.copy(nullable = true)` still binds copy(a = …, b = …).
			typed = nil
		}
		if len(typed) == 0 && kotlinVariable(from.lang, hint.Receiver) {
			// x.m() on a Kotlin variable of type Foo where Foo has no m:
			// m may be an extension function (`private fun
			// CodeBlock.asExpressionBody()`), which no class owns; the
			// untyped rule takes the calling file's one method.
			typed = ix.sameFileMethod(cands, fi)
		}
		if cands = typed; len(cands) == 0 {
			return Result{}
		}
		if hint.Module == "" && from.pkg != "" {
			cands = ix.samePackageFirst(from, cands)
		}
	} else if hint.Receiver != "" && hint.Module == "" {
		if from.lang == "ruby" {
			// An untyped receiver (a local, a method's result) is a
			// value, not the class: `options.delete(:host)` is a Hash's
			// delete, never the DSL's class method of that name.
			cands = ix.notRubyClassMethods(cands)
		}
		if cands = ix.sameFileMethod(cands, fi); len(cands) == 0 {
			return Result{}
		}
	} else if hint.Receiver == "" && hint.Module == "" && hint.ReceiverType == "" {
		// A plain name. Languages with explicit imports see other files'
		// names only through an import (which carries a Module hint) or a
		// star import; what is left is local or a builtin.
		if scope, ok := importScoped[from.lang]; ok {
			var in []int32
			for _, c := range cands {
				f := &ix.files[ix.cands[c].file]
				// A JVM package spans source roots (src/main/java and
				// src/test/java): its declared name, when known, is the scope.
				samePkg := f.dir == from.dir || (from.pkg != "" && f.pkg == from.pkg)
				if ix.cands[c].file == fi || (scope == scopePackage && samePkg) {
					in = append(in, c)
				}
			}
			if locs := ix.stars[fi]; len(locs) > 0 {
				for _, c := range ix.inLocations(cands, locs, false) {
					if !slices.Contains(in, c) {
						in = append(in, c)
					}
				}
			}
			if len(in) == 0 {
				return Result{}
			}
			cands = in
		}
	}

	cands = ix.classOverConstructors(cands)
	if from.lang == "rust" {
		cands = ix.outsideOtherCrateRoots(fi, cands)
	}
	cands, offHost := ix.preferBuilt(fi, cands)
	if rel == extract.RelCalls {
		cands = ix.byArgs(cands, hint)
		if from.lang == "kotlin" {
			// Same-arity overloads of a method: literal arguments
			// tell them apart as they do constructors.
			cands = ix.byArgKinds(cands, hint.ArgKinds)
		}
	}
	best, tied, _ := ix.pick(from, src.ID, cands, rel)
	if best < 0 {
		return Result{}
	}
	st := Resolved
	if tied {
		st = Ambiguous
	}
	c := &ix.cands[best]
	r := Result{Status: st, Target: c.id, File: c.file, Node: c.node, Also: ix.variants(fi, best, offHost)}
	switch rel {
	case extract.RelCalls:
		r = ix.withOverloads(r, from, src.ID, best, cands)
		if isType(c.typ) {
			r = ix.constructed(r, best, hint)
		}
	case extract.RelImports:
		r = ix.importedOverloads(r, from, src.ID, best, cands)
	}
	return r
}

// variants lists, of the candidates preferBuilt set aside as not built
// here, the other platforms' declarations of best: same label and owner,
// in the same directory, in files built on none of the platforms best's
// file is built on but on one the referring file fi is built on.
func (ix *Index) variants(fi, best int32, offHost []int32) []string {
	b := &ix.cands[best]
	bf := &ix.files[b.file]
	from := ix.files[fi].ports
	var out []string
	for _, c := range offHost {
		cd := &ix.cands[c]
		f := &ix.files[cd.file]
		if cd.label == b.label && cd.owner == b.owner && f.dir == bf.dir && f.ports&bf.ports == 0 && f.ports&from != 0 {
			out = append(out, cd.id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ownCallResult types a JVM receiver that is a call without a receiver,
// "f(…)": f is a method of the calling class or of a class it extends, so
// only those declarations count. junit4's runners call getTestClass(),
// ParentRunner's, returning a TestClass; Description.getTestClass()
// returns a Class, and the two made callResult give up. Declarations of
// the chain that disagree type nothing.
func (ix *Index) ownCallResult(srcID, recv string) (extract.TypeRef, bool) {
	i := strings.IndexByte(recv, '(')
	if i <= 0 || !isIdent(recv[:i]) {
		return extract.TypeRef{}, false
	}
	segs := strings.Split(srcID, "::")
	if len(segs) < 4 { // file::path::Class::method
		return extract.TypeRef{}, false
	}
	callee, owner := recv[:i], segs[len(segs)-2]
	return ix.agreedResult(ix.methodsOf(ix.byLabel[callee], callee, owner))
}

// callResult types a call receiver, "pkg.F(…)" or "x.M()", from the
// results declared by the candidates named like the callee (in the
// caller's language family). It succeeds only when they agree: a name
// declared with different result types, or returning nothing named, is
// not guessed.
func (ix *Index) callResult(from fileInfo, recv string) (extract.TypeRef, bool) {
	i := strings.IndexByte(recv, '(')
	if i <= 0 {
		return extract.TypeRef{}, false
	}
	callee := lastName(recv[:i])
	if !isIdent(callee) {
		return extract.TypeRef{}, false
	}
	var same []int32
	for _, c := range ix.byLabel[callee] {
		if ix.files[ix.cands[c].file].fam == from.fam {
			same = append(same, c)
		}
	}
	return ix.agreedResult(same)
}

// agreedResult is the type every candidate declares it returns, when they
// all name the same type; a candidate returning nothing named, or another
// type, makes it unknown.
func (ix *Index) agreedResult(cands []int32) (extract.TypeRef, bool) {
	var out extract.TypeRef
	found := false
	for _, c := range cands {
		tr, ok := ix.rets[c]
		switch {
		case !ok || (found && tr.Name != out.Name):
			return extract.TypeRef{}, false
		case !found:
			out, found = tr, true
		case tr.Module != out.Module:
			out.Module = "" // the same type name written through different imports
		}
	}
	if !found || !ix.isTypeName(out.Name) {
		return extract.TypeRef{}, false
	}
	return out, true
}

// preferBuilt keeps, of a name declared once per platform (a Go function
// in f_linux.go and f_windows.go) or per custom tag, the declarations built
// together with the referring file fi: a reference from a Windows file
// means the Windows one, one from a file built only with -tags binary_log
// the binary_log one. Of those, a file built on this platform is preferred to one that
// is not (a portable file sees the host's); those are returned apart.
// Neither rule leaves nothing.
func (ix *Index) preferBuilt(fi int32, cands []int32) (kept, offHost []int32) {
	if len(cands) < 2 {
		return cands, nil
	}
	if t := ix.files[fi].tagged; t != nil {
		apart := func(c int32) bool { return !builtTogether(t, ix.files[ix.cands[c].file].tagged) }
		if slices.ContainsFunc(cands, apart) && !all(cands, apart) {
			cands = slices.DeleteFunc(slices.Clone(cands), apart)
		}
	}
	if fp := ix.files[fi].ports; fp != everywhere {
		apart := func(c int32) bool { return ix.files[ix.cands[c].file].ports&fp == 0 }
		if slices.ContainsFunc(cands, apart) && !all(cands, apart) {
			cands = slices.DeleteFunc(slices.Clone(cands), apart)
		}
	}
	off := func(c int32) bool { return ix.files[ix.cands[c].file].offBuild }
	if !slices.ContainsFunc(cands, off) || !slices.ContainsFunc(cands, func(c int32) bool { return !off(c) }) {
		return cands, nil
	}
	for _, c := range cands {
		if off(c) {
			offHost = append(offHost, c)
		} else {
			kept = append(kept, c)
		}
	}
	return kept, offHost
}

func all(cands []int32, f func(int32) bool) bool {
	for _, c := range cands {
		if !f(c) {
			return false
		}
	}
	return true
}

// families groups languages whose code references each other's names
// directly; a Ruby call never names a Python function.
var families = map[string]string{
	"javascript": "js", "typescript": "js", "tsx": "js", "jsx": "js", "vue": "js", "svelte": "js",
	"c": "c", "cpp": "c", "objc": "c", "cuda": "c",
	"java": "jvm", "kotlin": "jvm", "scala": "jvm", "groovy": "jvm",
	"csharp": "dotnet", "fsharp": "dotnet", "vb": "dotnet",
}

func family(lang string) string {
	if f, ok := families[lang]; ok {
		return f
	}
	return lang
}

// sameFamily drops candidates defined in files of unrelated languages. It
// returns cands itself when nothing is dropped (the common case).
func (ix *Index) sameFamily(cands []int32, fam string) []int32 {
	for i, c := range cands {
		if ix.files[ix.cands[c].file].fam != fam {
			out := append([]int32(nil), cands[:i]...)
			for _, c := range cands[i+1:] {
				if ix.files[ix.cands[c].file].fam == fam {
					out = append(out, c)
				}
			}
			return out
		}
	}
	return cands
}

// withoutDeclarations drops candidates declared in TypeScript declaration
// files (.d.ts): JavaScript code runs against the implementation, never
// against its typings. It returns cands itself when nothing is dropped.
func (ix *Index) withoutDeclarations(cands []int32) []int32 {
	isDecl := func(c int32) bool {
		p := ix.files[ix.cands[c].file].path
		return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
	}
	if !slices.ContainsFunc(cands, isDecl) {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), isDecl)
}

// stubsOrSources keeps Python candidates of the kind the importer reads —
// stubs (.pyi) for a stub, sources for a module — when there are both.
func (ix *Index) stubsOrSources(cands []int32, stub bool) []int32 {
	isStub := func(c int32) bool { return strings.HasSuffix(ix.files[ix.cands[c].file].path, ".pyi") }
	other := func(c int32) bool { return isStub(c) != stub }
	if !slices.ContainsFunc(cands, other) || !slices.ContainsFunc(cands, func(c int32) bool { return !other(c) }) {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), other)
}

// isTypeName reports whether some class, struct or other type is labelled t.
func (ix *Index) isTypeName(t string) bool {
	for _, c := range ix.byLabel[t] {
		if isType(ix.cands[c].typ) {
			return true
		}
	}
	return false
}

// typeNamedTwice reports whether more than one type of family fam is
// named t (nested classes of one name in several classes).
func (ix *Index) typeNamedTwice(t, fam string) bool {
	n := 0
	for _, c := range ix.byLabel[t] {
		if cd := &ix.cands[c]; isType(cd.typ) && ix.files[cd.file].fam == fam {
			if n++; n > 1 {
				return true
			}
		}
	}
	return false
}

// Scopes of plain names by language: a file sees its own names plus those
// of its package directory (Java, Kotlin, Scala), or only its own (Python,
// JavaScript, TypeScript, Rust); star imports add their modules. Languages
// not listed (C, Ruby, PHP, shell, ...) share one global namespace, where
// proximity decides. Go is handled separately (package = directory).
const (
	scopeFile = iota
	scopePackage
)

var importScoped = map[string]int{
	"python": scopeFile, "javascript": scopeFile, "typescript": scopeFile, "tsx": scopeFile, "jsx": scopeFile,
	"rust": scopeFile, "java": scopePackage, "kotlin": scopePackage, "scala": scopePackage,
}

// methodsOf keeps the candidates owned by typ or, failing that, by its
// nearest ancestors (breadth first, four levels).
func (ix *Index) methodsOf(cands []int32, label, typ string) []int32 {
	seen := map[string]bool{typ: true}
	level := []string{typ}
	for depth := 0; depth < 5 && len(level) > 0; depth++ {
		var out []int32
		for _, t := range level {
			for _, c := range ix.byOwner[[2]string{t, label}] {
				if slices.Contains(cands, c) {
					out = append(out, c)
				}
			}
		}
		if len(out) > 0 {
			return out
		}
		var next []string
		for _, t := range level {
			for _, p := range ix.parents[t] {
				if !seen[p] {
					seen[p] = true
					next = append(next, p)
				}
			}
		}
		level = next
	}
	return nil
}

// samePackageFirst keeps, of a JVM receiver type's methods, those declared
// in the caller's package when there are any: a type named without an
// import is the caller package's own (or inherited from it), never a
// same-named class elsewhere. Others are kept when none is (a nested class
// of a supertype, a wildcard import).
func (ix *Index) samePackageFirst(from fileInfo, cands []int32) []int32 {
	var in []int32
	for _, c := range cands {
		if ix.files[ix.cands[c].file].pkg == from.pkg {
			in = append(in, c)
		}
	}
	if len(in) == 0 {
		return cands
	}
	return in
}

// pick returns the best candidate by proximity, whether others tied with
// it, and its score. A node never binds to itself except through a call
// (recursion), and inheritance binds only to types.
func (ix *Index) pick(from fileInfo, srcID string, cands []int32, rel string) (best int32, tied bool, score int) {
	best = -1
	bestDepth := -1
	typesOnly := rel == extract.RelInherits || rel == extract.RelImplements
	for _, c := range cands {
		cd := &ix.cands[c]
		if cd.id == srcID && rel != extract.RelCalls {
			continue
		}
		if typesOnly && !isType(cd.typ) {
			continue
		}
		f := &ix.files[cd.file]
		s := SameProject
		switch {
		case f.path == from.path:
			s = SameFile
		case f.dir == from.dir:
			s = SameDirectory
		}
		d := sharedDepth(f.dir, from.dir)
		switch {
		case s > score:
			best, score, bestDepth, tied = c, s, d, false
		case s == score:
			tied = true
			if d > bestDepth || (d == bestDepth && cd.id < ix.cands[best].id) {
				best, bestDepth = c, d
			}
		}
	}
	return best, tied, score
}

// IsType reports whether nodes of type t are types to the resolver: their
// names type receivers ("T().m()", "x := f(); x.m()" where f returns T).
func IsType(t graph.NodeType) bool { return isType(t) }

func isType(t graph.NodeType) bool {
	switch t {
	case graph.Class, graph.Struct, graph.Enum, graph.Type, graph.Module:
		return true
	}
	return false
}

// sharedDepth counts the leading directory components two paths share.
func sharedDepth(a, b string) int {
	if a == "" || b == "" {
		return 0
	}
	n := 0
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		as, bs := a, b
		if ai >= 0 {
			as = a[:ai]
		}
		if bi >= 0 {
			bs = b[:bi]
		}
		if as != bs {
			return n
		}
		n++
		if ai < 0 || bi < 0 {
			return n
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}

// location is a place a module names: a file, or a directory whose direct
// files make up a package (Go, Java). tree marks a package directory whose
// whole subtree may re-export (Python packages, npm packages).
type location struct {
	file string
	dir  string
	tree bool
}

// holds reports whether a file belongs to the location: the file itself,
// or a direct file of a package directory; with tree, anything below a
// package directory that may re-export it.
func (l location) holds(f *fileInfo, tree bool) bool {
	if tree {
		return l.tree && (l.dir == "" || strings.HasPrefix(f.path, l.dir+"/"))
	}
	if l.file != "" {
		return f.path == l.file
	}
	return !l.tree && f.dir == l.dir
}

func (ix *Index) inLocations(cands []int32, locs []location, tree bool) []int32 {
	var out []int32
	for _, c := range cands {
		f := &ix.files[ix.cands[c].file]
		for _, l := range locs {
			if l.holds(f, tree) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// bindLocation binds a reference to the module itself: the location closest
// to the source (several mean ambiguous).
func (ix *Index) bindLocation(from fileInfo, src Source, locs []location) Result {
	best, bestDepth, bestID := -1, -1, ""
	ids := 0
	for i, l := range locs {
		var id, dir string
		switch {
		case l.file != "":
			if l.file == from.path {
				continue
			}
			id, dir = extract.FileID(l.file), path.Dir(l.file)
		default:
			if l.dir == from.dir && !l.tree {
				continue // a Go file importing its own package: not a thing
			}
			id, dir = DirID(l.dir), l.dir
		}
		ids++
		if dir == "." {
			dir = ""
		}
		d := sharedDepth(dir, from.dir)
		if d > bestDepth || (d == bestDepth && id < bestID) {
			best, bestDepth, bestID = i, d, id
		}
	}
	if best < 0 || bestID == src.ID {
		return Result{}
	}
	st := Resolved
	if ids > 1 {
		st = Ambiguous
	}
	return Result{Status: st, Target: bestID, File: -1, Node: -1}
}

func split(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// lastName strips qualification: "a.b.C", "a::b::C", "a\\C", "*C" → "C".
func lastName(s string) string {
	s = strings.TrimLeft(s, "*&")
	if i := strings.LastIndexAny(s, ".:\\/"); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// joinModule appends a name to a module path in the language's syntax.
func joinModule(lang, module, name string) string {
	switch lang {
	case "python", "java", "kotlin", "scala":
		if strings.HasSuffix(module, ".") {
			return module + name
		}
		return module + "." + name
	case "rust":
		return module + "::" + name
	case "php":
		return module + "\\" + name
	}
	return strings.TrimSuffix(module, "/") + "/" + name
}

// isIdent reports whether s is a plain identifier (a name a module may be
// imported as), not an expression.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 127) {
			return false
		}
	}
	return true
}

// preferTopLevel keeps the candidates declared directly in their file
// (functions, types) when there are any.
func preferTopLevel(ix *Index, cands []int32) []int32 {
	if top := topLevel(ix, cands); len(top) > 0 {
		return top
	}
	return cands
}

// rustNotMethods is the candidates not owned by a type: top-level ones and
// those of nested modules. Rust names types in CamelCase and modules in
// snake_case (the compiler warns otherwise), and a method's owner may be a
// type declared nowhere in the project (impl ToSocketAddrs for SocketAddrV4).
func (ix *Index) rustNotMethods(cands []int32) []int32 {
	var out []int32
	for _, c := range cands {
		if o := ix.cands[c].owner; o == "" || !(o[0] >= 'A' && o[0] <= 'Z') {
			out = append(out, c)
		}
	}
	return out
}

// topLevel is the candidates declared directly in their file.
func topLevel(ix *Index, cands []int32) []int32 {
	var top []int32
	for _, c := range cands {
		if ix.cands[c].owner == "" {
			top = append(top, c)
		}
	}
	return top
}

// lastSegment is the last element of a module path in any language's
// syntax: "os.path" → "path", "./lib/repo" → "repo", "crate::a" → "a".
func lastSegment(mod string) string {
	mod = strings.TrimRight(mod, "/.:")
	if i := strings.LastIndexAny(mod, "/.:\\"); i >= 0 {
		return mod[i+1:]
	}
	return mod
}

// reexported follows a JS/TS barrel's re-exports of name (export { a as b }
// from "m", or an imported a exported as b), also through its star
// exports, to the candidates the name means. ok reports that a re-export
// named it; then nil candidates mean it is unbound here (an unnamed default
// export, an external module).
func (ix *Index) reexported(name string, locs []location) (in []int32, ok bool) {
	for hop := 0; hop < 4; hop++ {
		files := ix.locFiles(locs)
		var next []location
		for _, fi := range files {
			for _, re := range ix.fileReexps[fi] {
				if re.Name != name || re.Module == "" {
					continue // a module's own default export (jsDefault)
				}
				to, known := ix.module(ix.files[fi], re.Module)
				if !known || len(to) == 0 {
					return nil, true
				}
				if re.Target == "default" {
					// Default exports are unnamed: `import X from "m";
					// export { X }` most often names m's X; else unbound,
					// as any other X would be a guess.
					return preferTopLevel(ix, ix.inLocations(ix.byLabel[name], to, false)), true
				}
				name, next = re.Target, to
				break
			}
			if next != nil {
				break
			}
		}
		if next == nil {
			return nil, hop > 0
		}
		locs = next
		in = ix.inLocations(ix.byLabel[name], ix.withStars(locs), false)
		if len(in) > 0 {
			return preferTopLevel(ix, in), true
		}
	}
	return nil, true
}

// jsDefault is what the module files of locs export as default (an
// "export default x" recorded as a Reexport named "default" of the file
// itself): x's top-level declaration there.
func (ix *Index) jsDefault(locs []location) []int32 {
	var out []int32
	for _, fi := range ix.locFiles(locs) {
		for _, re := range ix.fileReexps[fi] {
			if re.Name == "default" && re.Module == "" {
				for _, c := range topLevel(ix, ix.byLabel[re.Target]) {
					if ix.cands[c].file == fi {
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// outsideOtherCrateRoots drops candidates declared in another Rust file
// that is a crate of its own: a file directly under a Cargo package's
// tests/, examples/ or benches/ is compiled alone, so nothing else can name its items (serde's
// test_ignored_any.rs reached test_serde_path.rs's private fake_serde).
func (ix *Index) outsideOtherCrateRoots(fi int32, cands []int32) []int32 {
	var out []int32
	for _, c := range cands {
		f := &ix.files[ix.cands[c].file]
		top, base := split(f.dir)
		if ix.cands[c].file != fi && (base == "tests" || base == "examples" || base == "benches") && ix.isCargoPackage(top) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// isCargoPackage tells whether dir holds a Cargo.toml of the project.
func (ix *Index) isCargoPackage(dir string) bool {
	if ix.ws == nil {
		return false
	}
	for _, p := range ix.ws.Packages {
		if p.Ecosystem == workspace.Cargo && !p.External && p.Dir == dir {
			return true
		}
	}
	return false
}

// typeMethods keeps, for Type::m() or x.m() with x a Type of the hinted
// module (declared there or re-exported: Rust's pub use, a JS barrel),
// Type's methods in the file declaring it, else those under that file's
// directory (for Rust, its crate: an impl block may be in any file). A
// type declared in the module itself is looked up this way only in Rust
// (Go's hash.Hash would reach hash/maphash's Hash).
func (ix *Index) typeMethods(cands []int32, typ string, locs []location, rust bool) []int32 {
	types, ok := ix.reexported(typ, locs)
	if !ok && !rust {
		return nil // elsewhere a type's methods are declared with it
	}
	if !ok {
		types = ix.inLocations(ix.byLabel[typ], locs, false) // declared there
	}
	var inFile, inTree []int32
	for _, c := range cands {
		cd := &ix.cands[c]
		if cd.owner != typ {
			continue
		}
		for _, tc := range types {
			tf := ix.cands[tc].file
			if !isType(ix.cands[tc].typ) {
				continue
			}
			if cd.file == tf {
				inFile = append(inFile, c)
				break
			}
			root := ix.files[tf].dir
			if ix.files[tf].lang == "rust" {
				root = ix.crateSrc(root) // impl blocks anywhere in the crate
			}
			if d := ix.files[cd.file].dir; d == root || root == "" || strings.HasPrefix(d, root+"/") {
				inTree = append(inTree, c)
				break
			}
		}
	}
	if len(inFile) > 0 {
		return inFile
	}
	return inTree
}

// locFiles lists the files a location set names, with the files their star
// exports reach, by index.
func (ix *Index) locFiles(locs []location) []int32 {
	var out []int32
	for _, l := range ix.withStars(locs) {
		if fi, ok := ix.fileIdx[l.file]; ok && l.file != "" && !slices.Contains(out, fi) {
			out = append(out, fi)
		}
	}
	return out
}

// starred adds to file locations what their star exports reach, through
// barrels of barrels (at most 4 deep, loops cut).
func (ix *Index) starred(locs []location) []location {
	out, frontier := slices.Clone(locs), locs
	for hop := 0; hop < 4 && len(frontier) > 0; hop++ {
		var next []location
		for _, l := range frontier {
			fi, ok := ix.fileIdx[l.file]
			if !ok || l.file == "" {
				continue
			}
			for _, s := range ix.stars[fi] {
				if !slices.Contains(out, s) {
					out, next = append(out, s), append(next, s)
				}
			}
		}
		frontier = next
	}
	return out
}

// withStars adds to file locations the locations their star exports name.
func (ix *Index) withStars(locs []location) []location {
	out := slices.Clone(locs)
	for _, l := range locs {
		if fi, ok := ix.fileIdx[l.file]; ok && l.file != "" {
			out = append(out, ix.stars[fi]...)
		}
	}
	return out
}

// sameFileMethod is the rule for x.m() on a receiver of unknown type: x
// is most often a value of a library type (a string, a list, a
// response), so a same-named method elsewhere in the project is a guess,
// not a reference. Only a method of the calling file fi is taken, and
// only when it is the one (none, or several classes of the file: a
// guess).
func (ix *Index) sameFileMethod(cands []int32, fi int32) []int32 {
	var methods []int32
	for _, c := range cands {
		if cd := &ix.cands[c]; cd.owner != "" && cd.file == fi {
			methods = append(methods, c)
		}
	}
	if len(methods) != 1 {
		return nil
	}
	return methods
}

// noneTakes reports whether the call's argument count is known and every
// method in ms declares an arity that refuses it (a method whose arity
// is not recorded, one not overloaded, may take it).
func (ix *Index) noneTakes(ms []int32, hint extract.RefHint) bool {
	n, ok := hint.ArgCount()
	if !ok || len(ms) == 0 {
		return false
	}
	for _, c := range ms {
		if a, ok := ix.arity[c]; !ok || a.Accepts(n) {
			return false
		}
	}
	return true
}

// kotlinVariable reports whether a Kotlin call's receiver is a variable
// (typed by its declaration, extract.kotlinTypedCall): "x", "x?",
// "this.x", or the call form of its initializer ("make()",
// "Foo.create()", "_.build()": a value too) — not `this` itself nor a
// class named for a static call.
func kotlinVariable(lang, recv string) bool {
	return lang == "kotlin" && recv != "this" && recv != "" && (recv[0] >= 'a' && recv[0] <= 'z' || strings.HasSuffix(recv, ")"))
}
