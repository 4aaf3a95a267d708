package code

import (
	"cmp"
	"hash/fnv"
	"iter"
	"maps"
	"math/bits"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
)

// resolveCacheKey keys the resolution outcomes kept in a cache store.
const resolveCacheKey = "code.resolve"

// resolveCache remembers how every reference of the previous (complete)
// ingest of a root was resolved, so an incremental ingest re-resolves only
// the references a change can affect. A reference's outcome depends on the
// candidates carrying its name, the receiver types' ancestry, the module
// layout (which files and directories exist) and the workspace manifests;
// stale tells which of these moved.
type resolveCache struct {
	root  string
	files map[string]*fileResolution
	// ix is the resolver index over the run's results, kept for the next
	// incremental run to update in place (nil when none was built).
	ix *resolve.Index
}

type fileResolution struct {
	hash cache.Hash
	// defs are the file's entities as the resolver sees them, sorted by
	// label: a label whose definitions moved is one whose references may
	// bind differently (see staleness.mark).
	defs defList
	// context is what the resolver reads of the file itself (language,
	// build constraint); when it moves, every label of the file is stale.
	context string
	// refNames are the names the file's references can be stale through
	// (staleness.reuse: a name, its last part, a receiver's callee),
	// sorted and unique, so a file no stale name reaches is passed over
	// without a look at its edges.
	refNames nameList
	// refHash are refNames' hashes, in order (namefilter.go).
	refHash []uint32
	// parents are the "type>base" pairs of its inheritance edges.
	parents []string
	// modules are the modules its references are imported through
	// (RefHint.Module) and those references' names, sorted and unique:
	// when files come or go, a file none of whose module references
	// mentions them is passed over.
	modules nameList
	// star is set when the file has star imports: its plain names then
	// depend on which files answer those modules.
	star bool
	// out holds one outcome per ref:: edge, in edge order.
	out outcomes
}

// outcomes are a file's reference outcomes as the resolve cache keeps them
// between runs: a status and a target per reference, and the rare
// variants (Also) aside. A kept outcome's File and Node are not kept: they
// index the results of the run that found it, and later runs look its
// target up by ID. Outcomes are shared by the runs that keep them, never
// modified.
type outcomes struct {
	status []resolve.Status
	// target[j] indexes targets, the file's distinct targets ("" for
	// none): a file names few targets many times, and an index array holds
	// nothing the collector scans, where a string a reference did (go-std:
	// ≈ 10 MB scanned on every cycle of the server, issue 29).
	target  []uint32
	targets []string
	also    map[int32][]string
}

// outcomeWriter fills one file's outcomes.
type outcomeWriter struct {
	o    outcomes
	seen map[string]uint32 // target → its index in o.targets
}

// newOutcomes writes n outcomes.
func newOutcomes(n int) *outcomeWriter {
	return &outcomeWriter{o: outcomes{status: make([]resolve.Status, n), target: make([]uint32, n)}, seen: map[string]uint32{}}
}

// packOutcomes packs rs in exact-size arrays.
func packOutcomes(rs []resolve.Result) outcomes {
	w := newOutcomes(len(rs))
	for j := range rs {
		w.set(j, rs[j])
	}
	return w.done()
}

// set stores r as the j-th outcome.
func (w *outcomeWriter) set(j int, r resolve.Result) {
	o := &w.o
	k, ok := w.seen[r.Target]
	if !ok {
		k = uint32(len(o.targets))
		w.seen[r.Target] = k
		o.targets = append(o.targets, r.Target)
	}
	o.status[j], o.target[j] = r.Status, k
	if len(r.Also) > 0 {
		if o.also == nil {
			o.also = map[int32][]string{}
		}
		o.also[int32(j)] = r.Also
	}
}

// done returns the outcomes, their targets in an array of their number.
func (w *outcomeWriter) done() outcomes {
	o := w.o
	o.targets = slices.Clone(o.targets)
	return o
}

// len is the number of outcomes.
func (o outcomes) len() int { return len(o.status) }

// unpack returns the outcomes as the resolver gives them (File and Node
// unknown: -1).
func (o outcomes) unpack() []resolve.Result {
	if o.len() == 0 {
		return nil
	}
	rs := make([]resolve.Result, o.len())
	for j := range rs {
		rs[j] = resolve.Result{Status: o.status[j], Target: o.targets[o.target[j]], File: -1, Node: -1, Also: o.also[int32(j)]}
	}
	return rs
}

// manifests change the package structure the resolver maps modules with.
var manifests = map[string]bool{
	"go.mod": true, "go.work": true, "Cargo.toml": true, "package.json": true,
	"pnpm-workspace.yaml": true, "pyproject.toml": true, "__init__.py": true,
	"tsconfig.json": true, "jsconfig.json": true,
}

// labelDef is one entity of a file under its label: sig hashes what the
// resolver keeps of it as a candidate (ID, and so its owner; type; the
// result type it declares).
type labelDef struct {
	label string
	sig   uint64
	// typ marks a type (resolve.IsType): its name also types receivers.
	typ bool
}

// defList is a file's labelDefs, sorted, packed: their labels in one
// string, a sig and a typ each; every file's are kept between runs, and a
// labelDef a definition was a string the collector scanned (go-std:
// ≈ 5 MB on every cycle of the server, issue 29).
type defList struct {
	labels nameList // sorted, a label once a definition
	sig    []uint64
	typ    []bool
}

// packDefs packs defs, sorted by compareDefs.
func packDefs(defs []labelDef) defList {
	if len(defs) == 0 {
		return defList{}
	}
	l := defList{sig: make([]uint64, len(defs)), typ: make([]bool, len(defs))}
	labels := make([]string, len(defs))
	for i, d := range defs {
		labels[i], l.sig[i], l.typ[i] = d.label, d.sig, d.typ
	}
	l.labels = packNames(labels)
	return l
}

func (l defList) len() int { return len(l.sig) }

// sameDefs reports whether a[i:i+n] and b[j:j+n] hold the same
// definitions, their labels aside.
func sameDefs(a defList, i int, b defList, j, n int) bool {
	return slices.Equal(a.sig[i:i+n], b.sig[j:j+n]) && slices.Equal(a.typ[i:i+n], b.typ[j:j+n])
}

func compareDefs(a, b labelDef) int {
	if c := strings.Compare(a.label, b.label); c != 0 {
		return c
	}
	return cmp.Compare(a.sig, b.sig)
}

// newResolution is the resolution record of a freshly extracted file
// (outcomes still to fill).
func newResolution(r *extract.Result, h cache.Hash) *fileResolution {
	defs, parents := fileDefs(r)
	names, modules := refNames(r)
	return &fileResolution{hash: h, defs: defs, parents: parents, star: hasStar(r),
		context: r.Language + "\x00" + r.BuildConstraint, refNames: names, refHash: nameHashes(names), modules: modules}
}

// refNames lists the names and the modules staleness.reuse looks up for r's
// references.
func refNames(r *extract.Result) (nameList, nameList) {
	var names, modules []string
	for k := range r.Edges {
		e := &r.Edges[k]
		name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
		if !ok {
			continue
		}
		names = append(names, name, lastName(name))
		if callee, ok := calleeOf(e.Hint.Receiver); ok {
			names = append(names, callee)
		}
		names = append(names, extract.PathNames(e.Hint.Receiver)...)
		if e.Hint.Module != "" {
			modules = append(modules, e.Hint.Module, name)
		}
	}
	return sortedSet(names), sortedSet(modules)
}

// sortedSet sorts s and returns its distinct elements packed: every
// file's lists are kept between runs (go-std's held 33 MB before
// duplicates and append's spare room were given back).
func sortedSet(s []string) nameList {
	slices.Sort(s)
	return packNames(slices.Compact(s))
}

// nameList is a sorted list of strings held as one string and where each
// ends: one pointer for the collector to scan, where a []string
// has one a name (go-std: ≈ 6 MB scanned on every cycle of the server,
// issue 29).
type nameList struct {
	s   string
	end []uint32 // name i is s[end[i-1]:end[i]] (from 0 for i = 0)
}

// packNames packs ss, sorted.
func packNames(ss []string) nameList {
	if len(ss) == 0 {
		return nameList{}
	}
	var b strings.Builder
	n := 0
	for _, x := range ss {
		n += len(x)
	}
	b.Grow(n)
	end := make([]uint32, len(ss))
	for i, x := range ss {
		b.WriteString(x)
		end[i] = uint32(b.Len())
	}
	return nameList{s: b.String(), end: end}
}

func (l nameList) len() int { return len(l.end) }

// at is the i-th name.
func (l nameList) at(i int) string {
	lo := uint32(0)
	if i > 0 {
		lo = l.end[i-1]
	}
	return l.s[lo:l.end[i]]
}

// has reports whether x is in the list.
func (l nameList) has(x string) bool {
	i := sort.Search(l.len(), func(i int) bool { return l.at(i) >= x })
	return i < l.len() && l.at(i) == x
}

// fileDefs lists a file's entities by label and its "type>base" pairs.
func fileDefs(r *extract.Result) (defList, []string) {
	var defs []labelDef
	var parents []string
	fid := extract.FileID(r.Path)
	byID := map[string]string{}
	members, ctors := memberSigs(r), ctorSigs(r)
	for _, n := range r.Nodes {
		if n.ID != fid {
			defs = append(defs, labelDef{label: n.Label, sig: defSig(r, &n) ^ members[n.Label] ^ ctors[n.ID], typ: resolve.IsType(n.Type)})
			byID[n.ID] = n.Label
		}
	}
	for _, e := range r.Edges {
		if e.Relation == extract.RelInherits || e.Relation == extract.RelImplements {
			parents = append(parents, byID[e.Source]+">"+e.Target)
		}
	}
	if r.Language == "ruby" {
		defs = append(defs, rubyAliasDefs(r.Reexports)...)
	}
	slices.SortFunc(defs, compareDefs)
	slices.Sort(parents)
	return packDefs(slices.Compact(defs)), slices.Compact(parents)
}

// rubyAliasDefs are a Ruby file's constant aliases as definitions of
// their name (`Short = Base` defines Short, a type): a reference named
// Short elsewhere may bind differently when the alias comes, goes or
// names another class.
func rubyAliasDefs(reexps []extract.Reexport) []labelDef {
	var out []labelDef
	for _, re := range reexps {
		h := fnv.New64a()
		h.Write([]byte(re.Name + "\x00" + re.Target))
		out = append(out, labelDef{label: lastName(re.Name), sig: h.Sum64(), typ: true})
	}
	return out
}

// defSig hashes what the resolver indexes of node n (resolve.Index.addFile):
// its arity too, which picks among overloads and constructors.
func defSig(r *extract.Result, n *extract.Node) uint64 {
	h := fnv.New64a()
	ret := r.Returns[n.ID]
	var more []string // later results (Returns[id#i])
	if a, ok := r.Arity[n.ID]; ok {
		more = append(more, "arity", strconv.Itoa(int(a.Params)), strconv.Itoa(int(a.Optional)), strconv.FormatBool(a.Variadic), a.Kinds)
	}
	for i := 1; i < 4 && len(r.Returns) > 1; i++ {
		if tr, ok := r.Returns[extract.ResultKey(n.ID, i)]; ok {
			more = append(more, strconv.Itoa(i), tr.Name, tr.Module)
		}
	}
	for _, s := range append([]string{n.ID, n.Label, strconv.Itoa(int(n.Type)), ret.Name, ret.Module}, more...) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// ctorSigs hashes, per class node ID, the constructors the file declares
// in it (`__init__`, `constructor`, `__construct`): a construction X(…)
// names X and binds X's constructor, so a constructor added, removed or
// re-shaped moves X itself, and the files that construct X are resolved
// again. (A Java or C# constructor carries X's label: it moves X already.)
func ctorSigs(r *extract.Result) map[string]uint64 {
	var out map[string]uint64
	for i := range r.Nodes {
		n := &r.Nodes[i]
		if !resolve.IsConstructorLabel(n.Label) {
			continue
		}
		if class, ok := strings.CutSuffix(n.ID, "::"+n.Label); ok {
			if out == nil {
				out = map[string]uint64{}
			}
			out[class] += defSig(r, n) // order-free
		}
	}
	return out
}

// memberSigs hashes, per type name, the member types the file declares
// for it (Result.Fields "T.f", "T[]"): a field retyped moves its type.
func memberSigs(r *extract.Result) map[string]uint64 {
	if len(r.Fields) == 0 {
		return nil
	}
	out := map[string]uint64{}
	for k, tr := range r.Fields {
		typ := k
		if i := strings.IndexAny(k, ".["); i > 0 {
			typ = k[:i]
		}
		h := fnv.New64a()
		for _, s := range []string{k, tr.Name, tr.Module, strconv.FormatBool(tr.Coll)} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		out[typ] += h.Sum64() // order-free
	}
	return out
}

// unresolved is f without its outcomes: what the same content starts a
// new run with.
func (f *fileResolution) unresolved() *fileResolution {
	return &fileResolution{hash: f.hash, defs: f.defs, parents: f.parents, star: f.star, context: f.context,
		refNames: f.refNames, refHash: f.refHash, modules: f.modules}
}

// staleness says what changed since the cached run.
type staleness struct {
	all    bool            // no usable cache, or manifests changed
	labels map[string]bool // names whose candidates may differ
	// typeNames: a type was among them, so the result type of any call
	// may now name a type or stop naming one (receivers "f()" retyped).
	typeNames bool
	// modules: the module layout moved for every module (a directory came
	// or went, or a file modules reach by convention, see cameOrWent).
	modules bool
	// stems are the names of files that came or went (modules not set):
	// only a module reference mentioning one may bind differently.
	stems []string
	types bool // inheritance changed: receiver-type lookups moved
	// ruby: a Ruby file changed, came or went. A bare Ruby call binds in
	// the class self is where it runs, which a method of any file may
	// decide (one that hands its block to class_eval, as sinatra's
	// mock_app does) or a mixin anywhere: such calls are all redone.
	ruby bool
	// sorted lists labels in order once they are complete (sortLabels),
	// for passesOver to walk beside a file's sorted names.
	sorted  []string
	filter  labelFilter     // of sorted (sortLabels)
	changed map[string]bool // files whose own references must be redone
}

// diff compares the included files with the cached run.
func (c *resolveCache) diff(root string, inc []included) (*staleness, map[string]*fileResolution) {
	s := &staleness{labels: map[string]bool{}, changed: map[string]bool{}}
	now := make(map[string]*fileResolution, len(inc))
	usable := c != nil && c.root == root
	for i := range inc {
		r := inc[i].fr.res
		h := inc[i].fr.entry.Hash
		if usable {
			if old := c.files[r.Path]; old != nil && old.hash == h && h != (cache.Hash{}) {
				// Same content, same definitions: no need to list them again.
				now[r.Path] = old.unresolved()
				continue
			}
		}
		if pre := inc[i].fr.resolution; pre != nil && pre.hash == h {
			now[r.Path] = pre // made in the parse worker
			continue
		}
		now[r.Path] = newResolution(r, h)
	}
	if !usable {
		s.all = true
		return s, now
	}
	moved := false
	for p, cur := range now {
		old := c.files[p]
		switch {
		case old == nil:
			moved = true
			s.cameOrWent(p)
			s.mark(nil, cur, p)
		case old.hash != cur.hash || cur.hash == (cache.Hash{}):
			s.mark(old, cur, p)
		}
	}
	for p, old := range c.files {
		if now[p] == nil {
			moved = true
			s.cameOrWent(p)
			s.mark(old, nil, p)
		}
	}
	s.markSubclasses(now)
	if moved && !sameDirs(maps.Keys(c.files), maps.Keys(now)) {
		s.modules = true
	}
	if moved {
		// Files appearing or vanishing can change which file answers a
		// star-imported module.
		for p, cur := range now {
			if cur.star {
				s.changed[p] = true
			}
		}
	}
	return s, now
}

// mark records that file p went from old to cur (either may be nil): its
// own references are redone, names whose definitions moved may bind
// differently, a changed manifest or inheritance moves more. When the file
// itself stays (same language and build constraint), only the labels whose
// definitions differ are stale: an edit inside a function body or a new
// function leaves the file's other names binding as before.
func (s *staleness) mark(old, cur *fileResolution, p string) {
	s.changed[p] = true
	for _, f := range []*fileResolution{old, cur} {
		s.ruby = s.ruby || f != nil && strings.HasPrefix(f.context, "ruby\x00")
	}
	if manifests[path.Base(p)] {
		s.all = true
	}
	var op, cp []string
	if old != nil && cur != nil && old.context == cur.context {
		s.markMoved(old.defs, cur.defs)
	} else {
		for _, f := range []*fileResolution{old, cur} {
			if f != nil {
				s.markAll(f.defs)
			}
		}
	}
	if old != nil {
		op = old.parents
	}
	if cur != nil {
		cp = cur.parents
	}
	if !slices.Equal(op, cp) {
		s.types = true
		s.markParents(op, cp)
	}
}

// markParents marks the classes whose bases changed ("X>Base" in one
// sorted list and not the other): a class without a constructor of its
// own may be constructed through its base's, so X(…) binds differently.
func (s *staleness) markParents(a, b []string) {
	for _, pair := range [2][2][]string{{a, b}, {b, a}} {
		for _, p := range pair[0] {
			if _, found := slices.BinarySearch(pair[1], p); !found {
				if class, _, ok := strings.Cut(p, ">"); ok && class != "" {
					s.labels[class] = true
				}
			}
		}
	}
}

// markSubclasses marks, after every change is marked, the subclasses of
// stale labels, and theirs, in the languages whose classes inherit a
// constructor (resolve.InheritsConstructor): Admin without __init__ is
// constructed by Base.__init__, so a constructor added to Base (or a base
// of Base retargeted) moves Admin(…) in files that changed neither. It
// closes over all levels, so the outcome does not hang on map order.
func (s *staleness) markSubclasses(files map[string]*fileResolution) {
	if len(s.labels) == 0 {
		return
	}
	subs := map[string][]string{} // base label → subclass labels
	for _, f := range files {
		// Parents first: most files have none, and reading the language
		// of every file cost 2–3.5 ms a daemon tick on go-std (5,600
		// records' context strings, a cache miss each).
		if len(f.parents) == 0 {
			continue
		}
		lang, _, _ := strings.Cut(f.context, "\x00")
		if !resolve.InheritsConstructor(lang) {
			continue
		}
		for _, p := range f.parents {
			if class, base, ok := strings.Cut(p, ">"); ok && class != "" {
				b := lastName(strings.TrimPrefix(base, extract.RefPrefix))
				subs[b] = append(subs[b], class)
			}
		}
	}
	if len(subs) == 0 {
		return
	}
	queue := slices.Collect(maps.Keys(s.labels))
	for len(queue) > 0 {
		l := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, c := range subs[l] {
			if !s.labels[c] {
				s.labels[c] = true
				queue = append(queue, c)
			}
		}
	}
}

func (s *staleness) markAll(defs defList) {
	s.markRange(defs, 0, defs.len())
}

// markRange marks the labels of defs[i:j].
func (s *staleness) markRange(defs defList, i, j int) {
	for k := i; k < j; k++ {
		s.labels[defs.labels.at(k)] = true
		s.typeNames = s.typeNames || defs.typ[k]
	}
}

// markMoved marks the labels whose definitions differ between two sorted
// lists.
func (s *staleness) markMoved(a, b defList) {
	i, j := 0, 0
	for i < a.len() || j < b.len() {
		l := labelOf(a, i, b, j)
		ni, nj := runOf(a, i, l), runOf(b, j, l)
		if ni != nj || !sameDefs(a, i, b, j, ni) {
			s.markRange(a, i, i+ni)
			s.markRange(b, j, j+nj)
		}
		i, j = i+ni, j+nj
	}
}

// labelOf is the smaller label heading a[i:] or b[j:] (not both empty).
func labelOf(a defList, i int, b defList, j int) string {
	switch {
	case i == a.len():
		return b.labels.at(j)
	case j == b.len() || a.labels.at(i) < b.labels.at(j):
		return a.labels.at(i)
	}
	return b.labels.at(j)
}

// runOf is the length of the run of label l heading defs[i:].
func runOf(defs defList, i int, l string) int {
	n := 0
	for i+n < defs.len() && defs.labels.at(i+n) == l {
		n++
	}
	return n
}

// conventional are the file stems module resolution reaches without a
// module naming them (a directory's index or init file, a crate root).
var conventional = map[string]bool{"index": true, "mod": true, "lib": true, "main": true, "__init__": true, "__main__": true}

// cameOrWent records that file p appeared or vanished: a module reference
// can bind differently only if it mentions the file's stem (a module
// names its file: "pkg.util", "./util", "util.h", "com.x.Util"), unless the
// stem is one resolution reaches by convention.
func (s *staleness) cameOrWent(p string) {
	stem := path.Base(p)
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	if conventional[stem] || stem == "" {
		s.modules = true
		return
	}
	s.stems = append(s.stems, stem)
}

// mentions reports whether a module reference (its module and name) may
// reach a file that came or went.
func (s *staleness) mentions(module, name string) bool {
	for _, st := range s.stems {
		if strings.Contains(module, st) || strings.Contains(name, st) {
			return true
		}
	}
	return false
}

// sameDirs reports whether two sets of files lie in the same directories:
// otherwise directories came or went, and with them module locations.
func sameDirs(a, b iter.Seq[string]) bool {
	dirs := func(files iter.Seq[string]) map[string]bool {
		m := map[string]bool{}
		for f := range files {
			for d := parentDir(f); d != "" && !m[d]; d = parentDir(d) {
				m[d] = true
			}
		}
		return m
	}
	da, db := dirs(a), dirs(b)
	if len(da) != len(db) {
		return false
	}
	for d := range da {
		if !db[d] {
			return false
		}
	}
	return true
}

func hasStar(r *extract.Result) bool {
	for _, im := range r.Imports {
		if im.Alias == "" && slices.Contains(im.Names, "*") {
			return true
		}
	}
	return false
}

// passesOver reports (after sortLabels) whether no reference of file f
// can be stale: only stale labels moved, none of them is among its names,
// and none of its modules mentions a file that came or went. (Otherwise
// reuse decides reference by reference.)
func (s *staleness) passesOver(f *fileResolution) bool {
	if s.all || s.modules || s.types || s.typeNames || s.ruby && strings.HasPrefix(f.context, "ruby\x00") {
		return false
	}
	if s.filter.mayShare(f.refHash, f.refNames.len()) && shareAny(s.sorted, f.refNames) {
		return false
	}
	if len(s.stems) > 0 {
		for i := range f.modules.len() {
			if s.mentions(f.modules.at(i), "") {
				return false
			}
		}
	}
	return true
}

// sortLabels fixes the stale labels in order for passesOver: call it once
// they are all marked, before files are checked in parallel.
func (s *staleness) sortLabels() {
	s.sorted = slices.Sorted(maps.Keys(s.labels))
	s.filter = newLabelFilter(s.sorted)
}

// shareAny reports whether two sorted lists have a string in common: by
// binary search of the shorter in the longer when that is cheaper, else by
// walking both (64 stale labels against a file's hundred names: a walk).
func shareAny(a []string, b nameList) bool {
	na, nb := len(a), b.len()
	switch {
	case na == 0 || nb == 0:
		return false
	case na <= nb && na*bits.Len(uint(nb)) < na+nb:
		return slices.ContainsFunc(a, b.has)
	case nb < na && nb*bits.Len(uint(na)) < na+nb:
		for i := range nb {
			if _, found := slices.BinarySearch(a, b.at(i)); found {
				return true
			}
		}
		return false
	}
	for i, j := 0, 0; i < na && j < nb; {
		switch c := strings.Compare(a[i], b.at(j)); {
		case c == 0:
			return true
		case c < 0:
			i++
		default:
			j++
		}
	}
	return false
}

// reuse reports whether the cached outcome of a reference still holds.
func (s *staleness) reuse(e *extract.Edge, name string) bool {
	if s.all {
		return false
	}
	if s.labels[name] || s.labels[lastName(name)] {
		return false
	}
	if s.ruby && strings.HasPrefix(e.Hint.Receiver, "&") {
		return false // a bare Ruby call: see staleness.ruby
	}
	if callee, ok := calleeOf(e.Hint.Receiver); ok && (s.typeNames || s.labels[callee]) {
		return false // "f().m()": typed by what f returns (resolve.callResult)
	}
	if e.Hint.Module != "" && (s.modules || s.mentions(e.Hint.Module, name)) {
		return false
	}
	if s.types && (e.Hint.ReceiverType != "" || strings.HasSuffix(e.Hint.Receiver, ")")) {
		return false
	}
	if strings.HasPrefix(e.Hint.Receiver, "super.") && (s.typeNames || s.types) {
		return false // Kotlin "x.m()", x a base's property (resolve.inheritedField)
	}
	if ns := extract.PathNames(e.Hint.Receiver); ns != nil {
		// "x.f[i].m()": typed by field and result types along the way.
		if s.typeNames || s.types || slices.ContainsFunc(ns, func(n string) bool { return s.labels[n] }) {
			return false
		}
	}
	return true
}

// calleeOf is the function a call receiver "pkg.f(…)" calls, as the
// resolver reads it.
func calleeOf(recv string) (string, bool) {
	if !strings.HasSuffix(recv, ")") {
		return "", false
	}
	i := strings.IndexByte(recv, '(')
	if i <= 0 {
		return "", false
	}
	return lastName(recv[:i]), true
}

// lastName mirrors the resolver's fallback from a qualified name to its
// last part.
func lastName(s string) string {
	s = strings.TrimLeft(s, "*&")
	if i := strings.LastIndexAny(s, ".:\\/"); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}
