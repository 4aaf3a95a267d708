package resolve

import (
	"slices"
	"strings"

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
// call's argument count, the members that do not; then, of each group
// with members whose parameters accept what the arguments evidently are
// (byArgKindsInGroups), the members whose parameters cannot.
func (ix *Index) byArgs(cands []int32, hint extract.RefHint) []int32 {
	cands = ix.byArgKindsInGroups(ix.byArgCount(cands, hint), hint.ArgKinds)
	return ix.fixedArityFirst(cands, hint.ArgKinds)
}

// byArgCount keeps, of each group with members that accept the call's
// argument count, those members.
func (ix *Index) byArgCount(cands []int32, hint extract.RefHint) []int32 {
	n, ok := hint.ArgCount()
	if !ok || len(ix.arity) == 0 {
		return cands
	}
	fits := map[overloadKey]bool{}
	for _, c := range cands {
		if a, ok := ix.arity[c]; ok && a.Accepts(n) {
			fits[ix.overloadOf(c)] = true
		}
	}
	if len(fits) == 0 {
		return ix.withoutMiscounted(cands, n, hint.ArgKinds)
	}
	if len(cands) < 2 {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool {
		a, ok := ix.arity[c]
		return ok && !a.Accepts(n) && fits[ix.overloadOf(c)]
	})
}

// withoutMiscounted drops the Java methods that cannot take n arguments
// (every Java method's arity is known): a call no declaration of its name
// accepts is a library's method, not one of these (commons-cli's
// matchingOpts.get(0), a List's, is no Builder.get()). A Kotlin call with
// a trailing lambda or named arguments is counted otherwise: kept.
func (ix *Index) withoutMiscounted(cands []int32, n int, args string) []int32 {
	if strings.ContainsAny(args, "$=") {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool {
		a, ok := ix.arity[c]
		return ok && !a.Accepts(n) && ix.files[ix.cands[c].file].lang == "java"
	})
}

// byArgKindsInGroups keeps, of each group of overloads with members whose
// parameter kinds (extract.Arity.Kinds) accept the argument kinds
// (extract.RefHint.ArgKinds, Java and Kotlin), those members: javapoet's
// codeWriter.emit("@$T", type) is no emit(CodeBlock, boolean), though it
// has two parameters. A group none of whose members fits keeps them all
// (the kinds missed something), and a member without kinds stays.
func (ix *Index) byArgKindsInGroups(cands []int32, args string) []int32 {
	if args == "" || len(ix.arity) == 0 || len(cands) < 2 {
		return cands
	}
	fit := func(c int32) bool {
		a, ok := ix.arity[c]
		return !ok || a.Kinds == "" || ix.argsFit(a.Kinds, args)
	}
	fits := map[overloadKey]bool{}
	for _, c := range cands {
		if a, ok := ix.arity[c]; ok && a.Kinds != "" && ix.argsFit(a.Kinds, args) {
			fits[ix.overloadOf(c)] = true
		}
	}
	if len(fits) == 0 {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool {
		return fits[ix.overloadOf(c)] && !fit(c)
	})
}

// fixedArityFirst drops, of each group with a member without varargs
// that surely takes the arguments (surelyFits), its varargs members: Java
// picks among those only when no fixed-arity overload applies (JLS
// 15.12.2), so emit("x") is emit(String), not emit(String, Object...).
// Java only for now: Kotlin prefers a non-vararg overload too, but its
// tests (kotlincallinit_test.go) still expect both bound.
func (ix *Index) fixedArityFirst(cands []int32, args string) []int32 {
	if args == "" || len(ix.arity) == 0 || len(cands) < 2 {
		return cands
	}
	sure := map[overloadKey]bool{}
	for _, c := range cands {
		if a, ok := ix.arity[c]; ok && !a.Variadic && ix.files[ix.cands[c].file].lang == "java" && surelyFits(a.Kinds, args) {
			sure[ix.overloadOf(c)] = true
		}
	}
	if len(sure) == 0 {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool {
		a, ok := ix.arity[c]
		return ok && a.Variadic && sure[ix.overloadOf(c)]
	})
}

// surelyFits reports whether parameters (extract.Arity.Kinds) take the
// arguments (extract.RefHint.ArgKinds) for certain: as many, each a
// string, integer, boolean or char of a parameter of that very kind, or
// a value of the very class a parameter names ("oOption" for "oOption").
// Another class, a class without its name or an unknown kind may not
// fit.
func surelyFits(params, args string) bool {
	if params == "" {
		return false
	}
	ps, as := strings.Split(params, ","), strings.Split(args, ",")
	if len(ps) != len(as) {
		return false
	}
	for i, p := range ps {
		_, k, _ := strings.Cut(p, ":")
		switch a := as[i]; {
		case a != k, a != "s" && a != "i" && a != "b" && a != "c" && len(a) < 2:
			return false
		}
	}
	return true
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
