package resolve

import (
	"slices"
	"strings"
)

// classOverConstructors drops the constructors whose class is itself a
// candidate: a class and its constructors share a name (Java, C#, C++,
// Kotlin, Scala), but a type use, an import, an extends and a `new X(…)`
// all name the class. On junit4 they made 917 of 1,204 ambiguous
// resolutions, every one of them bound to the class javac binds. It
// returns cands itself when nothing is dropped.
func (ix *Index) classOverConstructors(cands []int32) []int32 {
	if len(cands) < 2 {
		return cands
	}
	var classes map[string]bool
	for _, c := range cands {
		if isType(ix.cands[c].typ) {
			if classes == nil {
				classes = map[string]bool{}
			}
			classes[ix.cands[c].id] = true
		}
	}
	isCtor := func(c int32) bool {
		cd := &ix.cands[c]
		if isType(cd.typ) || cd.owner != cd.label {
			return false
		}
		parent, _, ok := cutLastSegment(cd.id)
		return ok && classes[parent]
	}
	if classes == nil || !slices.ContainsFunc(cands, isCtor) {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), isCtor)
}

// cutLastSegment splits "file::p::C::m(int)" into "file::p::C" and
// "m(int)".
func cutLastSegment(id string) (parent, last string, ok bool) {
	i := strings.LastIndex(id, "::")
	if i < 0 {
		return "", "", false
	}
	return id[:i], id[i+2:], true
}
