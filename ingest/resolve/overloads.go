package resolve

import (
	"slices"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// Overloads (docs/design.md#node-identity) are nodes of one file with the
// same owner and label. A call's argument count keeps the overloads that
// accept it; where several are left (or the count fits none, or is not
// known), the call binds all of them: the first (the smallest ID, the
// plain one when left) as its target, the others in Result.Also. An edge
// to each is what impact needs — a change to any of them may reach the
// caller — and no overload gets a caller it cannot have when the count
// tells them apart.

// overloadKey names a group of overloads.
type overloadKey struct {
	file         int32
	owner, label string
}

func (ix *Index) overloadOf(c int32) overloadKey {
	cd := &ix.cands[c]
	return overloadKey{cd.file, cd.owner, cd.label}
}

// addArity records the declared arity of overloads (extract.Result.Arity;
// Go's is about interface satisfaction, and Go has no overloads).
func (ix *Index) addArity(ci int32, r *extract.Result, id string) {
	if r.Language == "go" || len(r.Arity) == 0 {
		return
	}
	if a, ok := r.Arity[id]; ok {
		if ix.arity == nil {
			ix.arity = map[int32]extract.Arity{}
		}
		ix.arity[ci] = a
	}
}

// byArgs drops, of each group of overloads with members that accept the
// call's argument count, the members that do not.
func (ix *Index) byArgs(cands []int32, hint extract.RefHint) []int32 {
	n, ok := hint.ArgCount()
	if !ok || len(ix.arity) == 0 || len(cands) < 2 {
		return cands
	}
	fits := map[overloadKey]bool{}
	for _, c := range cands {
		if a, ok := ix.arity[c]; ok && a.Accepts(n) {
			fits[ix.overloadOf(c)] = true
		}
	}
	if len(fits) == 0 {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool {
		a, ok := ix.arity[c]
		return ok && !a.Accepts(n) && fits[ix.overloadOf(c)]
	})
}

// siblings are the candidates other than best in best's overload group.
func (ix *Index) siblings(best int32, cands []int32) []int32 {
	var out []int32
	k := ix.overloadOf(best)
	for _, c := range cands {
		if c != best && ix.overloadOf(c) == k {
			out = append(out, c)
		}
	}
	return out
}

// withOverloads adds best's remaining overloads to a result: to Also, and
// a tie among them alone is no ambiguity (they are one name of one type).
func (ix *Index) withOverloads(r Result, from fileInfo, srcID string, best int32, cands []int32) Result {
	sib := ix.siblings(best, cands)
	if len(sib) == 0 {
		return r
	}
	if r.Status == Ambiguous && ix.tiedOnlyWith(from, srcID, cands, sib, extract.RelCalls) {
		r.Status = Resolved
	}
	for _, c := range sib {
		r.Also = append(r.Also, ix.cands[c].id)
	}
	slices.Sort(r.Also)
	r.Also = slices.Compact(r.Also)
	return r
}

// tiedOnlyWith reports whether the best of cands ties with sib alone.
func (ix *Index) tiedOnlyWith(from fileInfo, srcID string, cands, sib []int32, rel string) bool {
	rest := slices.DeleteFunc(slices.Clone(cands), func(c int32) bool { return slices.Contains(sib, c) })
	_, tied, _ := ix.pick(from, srcID, rest, rel)
	return !tied
}

// importedOverloads: an import names every overload of a method at once
// (import static org.junit.Assert.assertEquals), so a tie among them alone
// is no ambiguity; the edge goes to the first, as a call's target does
// (junit4: 267 of 1,204 ambiguous resolutions).
func (ix *Index) importedOverloads(r Result, from fileInfo, srcID string, best int32, cands []int32) Result {
	if sib := ix.siblings(best, cands); r.Status == Ambiguous && len(sib) > 0 && ix.tiedOnlyWith(from, srcID, cands, sib, extract.RelImports) {
		r.Status = Resolved
	}
	return r
}
