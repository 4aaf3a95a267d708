package seek

import (
	"cmp"
	"slices"

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

// indexNames maps each term of a file stem to the files carrying it, in
// NodeID order.
func (x *Index) indexNames() {
	x.names = map[uint32][]graph.NodeID{}
	var tok tokenizer
	for i := 0; i < x.n; i++ {
		f := graph.NodeID(i)
		if x.fileOf[f] != f {
			continue
		}
		tok.terms([]byte(stem(x.g.Label(f))), func(t []byte) {
			id, ok := x.vocab[string(t)]
			if !ok {
				return
			}
			if fs := x.names[id]; len(fs) > 0 && fs[len(fs)-1] == f {
				return // a repeated part ("data_data")
			}
			x.names[id] = append(x.names[id], f)
		})
	}
}

// nameShare is the share of the query's own terms (own: term ID →
// weight, of total weight sum) that file f's stem names: the weight of
// the stem's terms when all its parts, or its compact whole, are among
// them; 0 otherwise.
func (x *Index) nameShare(f graph.NodeID, own map[uint32]float32, sum float32) float32 {
	var parts, compact []uint32
	id := func(t string) uint32 {
		if id, ok := x.vocab[t]; ok {
			return id
		}
		return ^uint32(0) // a part no node carries: no query term either
	}
	ps, cs, dropped := stemTerms(stem(x.g.Label(f)))
	repeated := false
	for _, t := range ps {
		if i := id(t); !slices.Contains(parts, i) {
			parts = append(parts, i)
		} else {
			repeated = true
		}
	}
	for _, t := range cs {
		compact = append(compact, id(t))
	}
	var w float32
	// A stem that repeats a part ("test_test") or has a part that is no
	// term is named by its compact whole only: "test" means test.py, not
	// werkzeug's tests/test_test.py nor zod's function.test.ts, and
	// "promises" does not mean got's as-promise.ts.
	all := len(parts) > 0 && !repeated && !dropped
	for _, id := range parts {
		v, ok := own[id]
		all = all && ok
		w += v
	}
	if !all {
		w = 0
	}
	named := all
	for _, id := range compact {
		if v, ok := own[id]; ok {
			w, named = w+v, true
		}
	}
	if !named || !(sum > 0) {
		return 0
	}
	return min(1, w/sum)
}

// namedFiles returns the files the query's own terms name, with their
// shares, in NodeID order.
func (x *Index) namedFiles(terms []usedTerm) []graph.Scored {
	own := map[uint32]float32{}
	var sum float32
	for _, t := range terms {
		if t.from == "" {
			own[t.id] = t.w
			sum += t.w
		}
	}
	var fs []graph.NodeID
	for _, t := range terms {
		if t.from == "" {
			fs = append(fs, x.names[t.id]...)
		}
	}
	slices.Sort(fs)
	fs = slices.Compact(fs)
	var out []graph.Scored
	for _, f := range fs {
		if r := x.nameShare(f, own, sum); r > 0 {
			out = append(out, graph.Scored{Node: f, Score: r})
		}
	}
	return out
}

// nameEvidence gives the files the query names their share of the best
// total of the candidates it does not name (see the top of this file).
// A query with stack frames or file paths has said which files it means,
// to the line: the words of those paths ("auth" of backend/auth.py) name
// no file a second time, or a frame's file would outrank the function at
// its line.
func (x *Index) nameEvidence(s *scratch, q Query, terms []usedTerm, prior func(graph.NodeID) float32, fused bool) {
	if !(x.opts.NameMatch > 0) || len(q.Frames) > 0 {
		return
	}
	named := x.namedFiles(terms)
	if len(named) == 0 {
		return
	}
	isNamed := func(n graph.NodeID) bool {
		_, ok := slices.BinarySearchFunc(named, n, func(a graph.Scored, n graph.NodeID) int { return cmp.Compare(a.Node, n) })
		return ok
	}
	var best float32
	for _, n := range s.touched {
		// (The lookup only for a new best: it runs once per candidate.)
		if t := x.total(s, n, fused) * prior(n); t > best && !isNamed(n) {
			best = t
		}
	}
	if !(best > 0) {
		return
	}
	for _, f := range named {
		s.touch(f.Node)
		s.lex[f.Node] += fin(x.opts.NameMatch * f.Score * best)
	}
}

// stemTerms are the terms of a file stem as the tokenizer makes them,
// its parts apart from the compact wholes of its multi-part identifiers;
// dropped is set when a part yields no term (a stopword, a digit, one
// letter: "as" of as-promise, "function" of function.test).
func stemTerms(name string) (parts, compacts []string, dropped bool) {
	var tok tokenizer
	forEachIdent([]byte(name), func(ident []byte) {
		var got []string
		tok.ident(ident, func(t []byte) { got = append(got, string(t)) })
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
