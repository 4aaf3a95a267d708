package seek

import (
	"bytes"
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Files the query names (issue 27). An agent that writes a module's name
// ("validators", "config", "ConfigLoader") means that module. Without
// this rule a file's name was one short field of its document while its
// entities' labels lifted other files through aggregation: `seek
// validators` on attrs ranked _make.py (lifted by its function
// `validate`) and typing examples full of "Validated" classes above
// src/attr/validators.py.
//
// The rule: a file is named by the query when every term of its stem
// (its base name without the extension, tokenised as labels are: parts
// split at '_' and camelCase, stemmed, so "validators" meets
// "validator") is one of the query's own terms, or its compact whole
// ("configloader" for config_loader.py) is. Its share r is the weight of
// those terms over the weight of all the query's own terms (1 when the
// query is just the name). After fusion the file gains r × T in match
// units, where T is the best total of any candidate the query does not
// name (after the kind prior). So a query that is a module's name puts
// that module first — above every entity it would otherwise have lost
// to — and files with the same name keep the order of their own
// evidence; a name among other words (a bug report that mentions
// "validators") is a nudge in proportion to its share of the query.

// nameIndex is what names.go looks names up in: per term, the files
// whose stem carries it and the directories whose base name does; per
// directory, its own source files (not those of its subdirectories).
type nameIndex struct {
	files map[uint32][]int32 // places in stems
	dirs  map[uint32][]string
	dir   map[string][]graph.NodeID
	// stopFiles and stopDirs hold the names made only of stopwords
	// (none.py, all.go, this.ts), which yield no term to be found under:
	// keyed by their words joined with a space ("none").
	stopFiles map[string][]int32 // places in stems
	stopDirs  map[string][]string
	// stems are the files' stems as nameShare and stopName read them, in
	// NodeID order, found once when the index is built: namedFiles asked
	// them of every file a query's terms name (half of seek's CPU on
	// go-std for a question not asked before).
	stems []nameIDs
}

// nameIDs are a name's term IDs as Index.nameIDs finds them, and (for a
// file's stem) its stopName key and the file.
type nameIDs struct {
	parts, compact    []uint32
	repeated, dropped bool
	stop              string
	file              graph.NodeID
}

// stemOf is file f's stem (f must be a file of the index).
func (x *Index) stemOf(f graph.NodeID) *nameIDs {
	i, _ := slices.BinarySearchFunc(x.names.stems, f, func(n nameIDs, f graph.NodeID) int { return cmp.Compare(n.file, f) })
	return &x.names.stems[i]
}

// indexNames maps each term of a file stem to the files carrying it, and
// each term of a directory's base name to the directories, in NodeID
// and path order. Directories come from the files' paths, so a graph
// without directory nodes has them too.
func (x *Index) indexNames() {
	x.names = nameIndex{files: map[uint32][]int32{}, dirs: map[uint32][]string{}, dir: map[string][]graph.NodeID{},
		stopFiles: map[string][]int32{}, stopDirs: map[string][]string{}}
	var slab []uint32 // the stems' IDs, one allocation per doubling
	var tok tokenizer
	each := func(name string, f func(id uint32)) {
		tok.terms([]byte(name), func(t []byte) {
			if id, ok := x.vocab.lookupBytes(t); ok {
				f(id)
			}
		})
	}
	for i := 0; i < x.n; i++ {
		f := graph.NodeID(i)
		if x.fileOf[f] != f {
			continue
		}
		name, place := stem(x.g.Label(f)), int32(len(x.names.stems))
		each(name, func(id uint32) {
			if fs := x.names.files[id]; len(fs) > 0 && fs[len(fs)-1] == place {
				return // a repeated part ("data_data")
			}
			x.names.files[id] = append(x.names.files[id], place)
		})
		ids := x.nameIDsOf(name)
		ids.stop, ids.file = stopName(name), f
		if ids.stop != "" {
			x.names.stopFiles[ids.stop] = append(x.names.stopFiles[ids.stop], place)
		}
		at := len(slab)
		slab = append(append(slab, ids.parts...), ids.compact...)
		ids.parts, ids.compact = slab[at:at+len(ids.parts):at+len(ids.parts)], slab[at+len(ids.parts):len(slab):len(slab)]
		x.names.stems = append(x.names.stems, ids)
	}
	for _, p := range x.filePaths { // sorted: each directory's files in path order
		if d := path.Dir(p); d != "." && d != "/" {
			x.names.dir[d] = append(x.names.dir[d], x.files[p])
		}
	}
	for _, d := range slices.Sorted(maps.Keys(x.names.dir)) {
		each(path.Base(d), func(id uint32) {
			if ds := x.names.dirs[id]; len(ds) == 0 || ds[len(ds)-1] != d {
				x.names.dirs[id] = append(x.names.dirs[id], d)
			}
		})
		if k := stopName(path.Base(d)); k != "" {
			x.names.stopDirs[k] = append(x.names.stopDirs[k], d)
		}
	}
}

// stopName is the key of a name made only of stopwords of two letters or
// more ("none", "is", "this" for none.py, is.js, this.ts), "" for any
// other name.
func stopName(name string) string {
	ws := nameWords(name)
	for _, w := range ws {
		if len(w) < minPartLen || !isStopword([]byte(w)) {
			return ""
		}
	}
	return strings.Join(ws, " ")
}

// stopShare is the share of the query that a name made only of stopwords
// has: 1 when the query says its words in order and its other words are
// stopwords, kind words or "file" only ("none file", "the none module"),
// else 0. Among other words a stopword is the word ("return none when
// empty"). The words, not the terms: a word the index lacks is no term.
func stopShare(key string, o ownTerms) float32 {
	if !containsRun(o.words, strings.Split(key, " ")) {
		return 0
	}
	for _, w := range o.words {
		if _, kind := kindStems[w]; !kind && w != "fil" && (len(w) >= minPartLen && !isStopword([]byte(w))) {
			return 0
		}
	}
	return 1
}

// ownTerms are the query's own terms (not expansions) and its words.
type ownTerms struct {
	w   map[uint32]float32
	sum float32
	// words are the query's words part by part, normalised as nameWords
	// makes them (stopwords kept).
	words []string
	// kind holds the own terms that say what kind of thing the query
	// means ("package", "folder", "module"): they name nothing, so a
	// name's share is of the query without them. dir is set when one of
	// them means a directory.
	kind []uint32
	dir  bool
}

// kindWords say what kind of thing the query means, not which: "the
// zapcore package", "the middleware folder", "the validators module";
// true for the words that mean a directory ("module" is a file in
// Python and JS, a directory tree in Go: it names no directory).
var kindWords = map[string]bool{"package": true, "packages": true, "pkg": true, "folder": true, "folders": true,
	"directory": true, "directories": true, "dir": true, "dirs": true, "subpackage": true, "subpackages": true,
	"subdirectory": true, "subfolder": true, "module": false, "modules": false}

// kindStems are kindWords as nameWords spells them (stemmed).
var kindStems = func() map[string]bool {
	m := map[string]bool{}
	for w, d := range kindWords {
		m[string(stemInto(nil, []byte(w)))] = d
	}
	return m
}()

func (x *Index) ownTerms(q Query, terms []usedTerm) ownTerms {
	o := ownTerms{w: map[uint32]float32{}, words: nameWords(withoutExts(q.Text))}
	for _, t := range terms {
		if t.from == "" {
			o.w[t.id] = t.w
			o.sum += t.w
		}
	}
	for _, w := range o.words {
		isDir, ok := kindStems[w]
		if !ok {
			continue
		}
		o.dir = o.dir || isDir // ("folder" may be no term of the index)
		if id, ok := x.vocab.lookup(w); ok && o.w[id] > 0 && !slices.Contains(o.kind, id) {
			o.kind = append(o.kind, id)
		}
	}
	return o
}

// nameShare is the share of the query's own terms that a name (a file's
// stem, a directory's base name) names: the weight of the name's terms
// when all its parts, or its compact whole, are among them; 0 otherwise.
// The share is of the query without its kind words ("package"), unless
// the name has them itself.
func (x *Index) nameShare(name string, o ownTerms) float32 {
	ids := x.nameIDsOf(name)
	return nameShareOf(&ids, func() string { return name }, o)
}

// nameShareOf is nameShare of a name whose IDs are ids. The name itself
// is asked of name only when a dropped part must be checked against the
// query's words: namedFiles weighs every file carrying a query term, and
// reading each one's label cost a third of activate's seek seeds on
// go-std.
func nameShareOf(ids *nameIDs, name func() string, o ownTerms) float32 {
	parts, compact, repeated, dropped := ids.parts, ids.compact, ids.repeated, ids.dropped
	var w float32
	// A stem that repeats a part ("test_test") is named by its compact
	// whole only: "test" means test.py, not werkzeug's test_test.py.
	all := len(parts) > 0 && !repeated
	for _, id := range parts {
		v, ok := o.w[id]
		all = all && ok
		w += v
	}
	// A part that is no term (a stopword, a digit) counts when the query
	// says the name's words, in order: "null file" names _null_file.py
	// (null is a stopword), but "test" does not name zod's
	// function.test.ts, nor "promises" got's as-promise.ts.
	if dropped && all {
		all = containsRun(o.words, nameWords(name()))
	}
	if !all {
		w = 0
	}
	named := all
	for _, id := range compact {
		if v, ok := o.w[id]; ok {
			w, named = w+v, true
		}
	}
	sum := o.sum
	for _, id := range o.kind {
		if !slices.Contains(parts, id) {
			sum -= o.w[id]
		}
	}
	if !named || !(sum > 0) {
		return 0
	}
	return min(1, w/sum)
}

// nameIDs are the term IDs of a name's parts and compact wholes (see
// stemTerms); a part no node carries gets an ID no query term has.
func (x *Index) nameIDs(name string) (parts, compact []uint32, repeated, dropped bool) {
	// Looked up from the tokenizer's bytes, without making a string:
	// names are looked up for every candidate.
	id := func(t []byte) uint32 {
		if id, ok := x.vocab.lookupBytes(t); ok {
			return id
		}
		return ^uint32(0)
	}
	ps, compact, dropped := stemTermsAs(name, id)
	parts = ps[:0] // deduplicated in place
	for _, i := range ps {
		if !slices.Contains(parts, i) {
			parts = append(parts, i)
		} else {
			repeated = true
		}
	}
	return parts, compact, repeated, dropped
}

// nameIDsOf is nameIDs as one value (its stop key left empty).
func (x *Index) nameIDsOf(name string) nameIDs {
	var n nameIDs
	n.parts, n.compact, n.repeated, n.dropped = x.nameIDs(name)
	return n
}

// nameWords are text's words part by part ("NullFile", "null_file" and
// "null file" alike), lower-cased and stemmed as terms are, but with the
// stopwords, digits and one letters the terms drop kept.
func nameWords(text string) []string {
	var out []string
	var bounds []int
	forEachIdent([]byte(text), func(id []byte) {
		if len(id) > maxIdentLen {
			return
		}
		bounds = splitBounds(id, bounds[:0])
		for k := 0; k+1 < len(bounds); k += 2 {
			p := appendLower(nil, id[bounds[k]:bounds[k+1]])
			if len(p) >= minPartLen && !allDigits(p) && !isStopword(p) {
				p = stemInto(nil, p)
			}
			out = append(out, string(p))
		}
	})
	return out
}

// containsRun reports whether run occurs in words as consecutive words.
func containsRun(words, run []string) bool {
	for i := 0; len(run) > 0 && i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// namedFiles returns the files the query's own terms name, with their
// shares, in NodeID order.
func (x *Index) namedFiles(terms []usedTerm, o ownTerms) []graph.Scored {
	var fs []int32 // places in stems: sorted, they are in NodeID order
	for _, t := range terms {
		if t.from == "" {
			fs = append(fs, x.names.files[t.id]...)
		}
	}
	for k, sf := range x.names.stopFiles {
		if stopShare(k, o) > 0 {
			fs = append(fs, sf...)
		}
	}
	slices.Sort(fs)
	fs = slices.Compact(fs)
	var out []graph.Scored
	for _, i := range fs {
		ids := &x.names.stems[i]
		r := nameShareOf(ids, func() string { return stem(x.g.Label(ids.file)) }, o)
		if ids.stop != "" {
			r = stopShare(ids.stop, o)
		}
		if r > 0 {
			out = append(out, graph.Scored{Node: ids.file, Score: r})
		}
	}
	return out
}

// nameEvidence gives the files the query names their share of the best
// total of the candidates it does not name (see the top of this file),
// and the files of the directories it names theirs (namedDirs).
// A query with stack frames or file paths has said which files it means,
// to the line: the words of those paths ("auth" of backend/auth.py) name
// no file a second time, or a frame's file would outrank the function at
// its line. A bare file name in prose ("on.py") is a name (mentionsOnly).
func (x *Index) nameEvidence(s *scratch, q Query, terms []usedTerm, prior func(graph.NodeID) float32, fused bool) {
	if !(x.opts.NameMatch > 0) || !mentionsOnly(q.Frames) {
		return
	}
	o := x.ownTerms(q, terms)
	gains := x.namedFiles(terms, o)
	// The files named as such and the directories' entry files: the
	// candidates whose totals are not the yardstick.
	dirs := x.namedDirs(terms, o)
	if o.dir && len(dirs) > 0 {
		// "sessions package": the directory, not backend/session.py.
		gains = nil
	}
	// bare are the named files whose name yields no term (none.py, the
	// entry of all/): they have no evidence of the name of their own, so
	// they also take the share of the yardstick that evidence would be.
	var named, bare []graph.NodeID
	for _, g := range gains {
		named = append(named, g.Node)
		if x.stemOf(g.Node).stop != "" {
			bare = append(bare, g.Node)
		}
	}
	for _, d := range dirs {
		files, entry := x.dirFiles(d.dir)
		// The name alone ("licenses") may mean the package or a file of
		// that name (packaging's licenses/ and tasks/licenses.py): the
		// entry is then named as a file is, and their own evidence
		// decides. A directory word means the directory, all of it.
		if o.dir {
			for _, f := range files {
				gains = append(gains, graph.Scored{Node: f, Score: d.r})
			}
		}
		if entry != graph.NoNode {
			gains = append(gains, graph.Scored{Node: entry, Score: d.r})
			named = append(named, entry)
			if stopName(path.Base(d.dir)) != "" {
				bare = append(bare, entry)
			}
		}
	}
	if len(gains) == 0 {
		return
	}
	slices.Sort(named)
	var best float32
	for _, n := range s.touched {
		// (The lookup only for a new best: it runs once per candidate.)
		if t := x.total(s, n, fused) * prior(n); t > best {
			if _, ok := slices.BinarySearch(named, n); !ok {
				best = t
			}
		}
	}
	if !(best > 0) {
		if len(bare) == 0 {
			return
		}
		best = 1 // nothing else matched ("none"): one full match
	}
	// In NodeID order, so each file's gains add up in one order.
	slices.SortStableFunc(gains, func(a, b graph.Scored) int { return cmp.Compare(a.Node, b.Node) })
	for _, g := range gains {
		s.touch(g.Node)
		gain := x.opts.NameMatch * g.Score * best
		if slices.Contains(bare, g.Node) {
			gain += g.Score * best
		}
		s.at[g.Node].lex += fin(gain)
	}
}

// namedDir is a directory the query names and its share of the query.
type namedDir struct {
	dir string
	r   float32
}

// namedDirs returns the directories the query names, in path order: "the
// zapcore package", "sessions package", "the middleware folder". A
// directory is named as a file is (nameShare of its base name), and only
// when the query says a directory word or is the name alone: a commit message
// that mentions "middleware" among other words is about some code in
// it, not about the folder. With a directory word its code files each
// gain its share (so they come before the code that only mentions the
// name) and its entry file — __init__.py, doc.go, index.ts, mod.rs — as
// much again, so the package's own description comes first and its other
// files follow in the order of their own evidence; the name alone gives
// the entry file the share a file of that name gets.
func (x *Index) namedDirs(terms []usedTerm, o ownTerms) []namedDir {
	var ds []string
	for _, t := range terms {
		if t.from == "" {
			ds = append(ds, x.names.dirs[t.id]...)
		}
	}
	for k, sd := range x.names.stopDirs {
		if stopShare(k, o) > 0 {
			ds = append(ds, sd...)
		}
	}
	slices.Sort(ds)
	ds = slices.Compact(ds)
	var out []namedDir
	for _, d := range ds {
		r := x.nameShare(path.Base(d), o)
		if k := stopName(path.Base(d)); k != "" {
			r = stopShare(k, o)
		}
		if r > 0 && (o.dir || r > 0.999) {
			out = append(out, namedDir{d, r})
		}
	}
	return out
}

// dirFiles returns a directory's own code files (not tests, fixtures or
// documents; not its subdirectories'), in path order, and its entry file
// (graph.NoNode when it has none).
func (x *Index) dirFiles(d string) (files []graph.NodeID, entry graph.NodeID) {
	entry = graph.NoNode
	rank := len(entryNames)
	base := path.Base(d)
	for _, f := range x.names.dir[d] {
		// (py.typed, a tagged marker file, is no code: codeExts too.)
		if x.kind[f]&(kindTest|kindNotCode|kindFixture) != 0 || !codeExts[strings.ToLower(path.Ext(x.g.SourcePath(f)))] {
			continue
		}
		files = append(files, f)
		if i := entryRank(path.Base(x.g.SourcePath(f)), base); i < rank {
			entry, rank = f, i
		}
	}
	if entry == graph.NoNode {
		entry = x.goPackageDoc(files)
	}
	return files, entry
}

// maxDocReads bounds the files goPackageDoc reads for one directory.
const maxDocReads = 64

// goPackageDoc returns the Go file among files (in path order) that
// carries the package's doc comment ("// Package cmp determines ..."):
// a Go package without doc.go says what it is for in one of its files
// (go-cmp's compare.go), whose name does not tell.
func (x *Index) goPackageDoc(files []graph.NodeID) graph.NodeID {
	if x.opts.ReadFile == nil {
		return graph.NoNode
	}
	reads := 0
	for _, f := range files {
		p := x.g.SourcePath(f)
		if !strings.HasSuffix(p, ".go") || reads >= maxDocReads {
			continue
		}
		reads++
		if data, err := x.opts.ReadFile(p); err == nil && hasPackageDoc(data) {
			return f
		}
	}
	return graph.NoNode
}

// hasPackageDoc reports whether Go source opens a package doc comment: a
// line "// Package name ..." or "Package name ..." in a /* */ block,
// before the package clause.
func hasPackageDoc(src []byte) bool {
	for len(src) > 0 {
		line, rest, _ := bytes.Cut(src, []byte("\n"))
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte("package ")) {
			return false
		}
		t = bytes.TrimLeft(bytes.TrimPrefix(t, []byte("//")), " \t")
		if bytes.HasPrefix(t, []byte("Package ")) {
			return true
		}
		src = rest
	}
	return false
}

// entryNames are the files that open a package, best first: Python's
// __init__, Go's package comment (doc.go, else the file named as the
// package), a JS/TS folder's index, a Rust module's mod.rs, Java's
// package-info. ("*" stands for the directory's name.)
var entryNames = []string{"__init__.py", "doc.go", "*.go", "index.ts", "index.tsx", "index.js", "index.mjs", "index.jsx", "mod.rs", "lib.rs", "package-info.java"}

// entryRank is base's place in entryNames in directory dir
// (len(entryNames) when it is none).
func entryRank(base, dir string) int {
	for i, e := range entryNames {
		if e == base || strings.HasPrefix(e, "*") && base == dir+e[1:] {
			return i
		}
	}
	return len(entryNames)
}

// stemTerms are the terms of a file stem as the tokenizer makes them,
// its parts apart from the compact wholes of its multi-part identifiers;
// dropped is set when a part yields no term (a stopword, a digit, one
// letter: "as" of as-promise, "function" of function.test).
func stemTerms(name string) (parts, compacts []string, dropped bool) {
	return stemTermsAs(name, func(t []byte) string { return string(t) })
}

// stemTokenizers keep stemTermsAs's buffers from call to call.
var stemTokenizers = sync.Pool{New: func() any { return new(tokenizer) }}

// stemTermsAs is stemTerms with each term made by as from the
// tokenizer's bytes (valid only during the call).
func stemTermsAs[T any](name string, as func([]byte) T) (parts, compacts []T, dropped bool) {
	tok := stemTokenizers.Get().(*tokenizer)
	defer stemTokenizers.Put(tok)
	var gotBuf [16]T
	got := gotBuf[:0]
	forEachIdent([]byte(name), func(ident []byte) {
		got = got[:0]
		tok.ident(ident, func(t []byte) { got = append(got, as(t)) })
		if len(got) == 0 {
			dropped = true // (and tok.bounds may be another identifier's)
			return
		}
		segs := len(tok.bounds) / 2
		// ident emits the compact whole last, under these conditions.
		if segs >= 2 && len(tok.compact) <= maxCompactLen && !allDigits(tok.compact) {
			compacts = append(compacts, got[len(got)-1])
			got = got[:len(got)-1]
		}
		dropped = dropped || len(got) < segs
		parts = append(parts, got...)
	})
	return parts, compacts, dropped
}
