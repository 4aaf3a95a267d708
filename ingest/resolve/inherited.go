package resolve

import (
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// inheritedField types property v of the class a Kotlin call sits in
// (srcID "file::path::Class::method", or the class itself), when that
// class inherits it: the nearest base declaring v (extract.Result.Fields
// "Base.v"), breadth first, four levels. The calling class's own bases
// are read from its file (fi), not by label: kotlinpoet declares nine
// classes named Builder. Further up, a base whose name two classes of
// the family bear, or declarations of v that disagree, type nothing.
func (ix *Index) inheritedField(fi int32, srcID, v string) (extract.TypeRef, bool) {
	segs := strings.Split(srcID, "::")
	for i := len(segs) - 1; i >= 2; i-- {
		class, _, _ := strings.Cut(segs[i], "(")
		level := ix.ownBases(fi, class)
		if len(level) == 0 {
			continue // a method, or a class without bases
		}
		return ix.fieldInBases(level, v)
	}
	return extract.TypeRef{}, false
}

// ownBases are the bases file fi declares for class label.
func (ix *Index) ownBases(fi int32, label string) []string {
	var out []string
	for _, k := range ix.fileParents[fi] {
		if k[0] == label && !slices.Contains(out, k[1]) {
			out = append(out, k[1])
		}
	}
	return out
}

// fieldInBases looks property v up in bases level and their ancestors.
func (ix *Index) fieldInBases(level []string, v string) (extract.TypeRef, bool) {
	seen := map[string]bool{}
	for depth := 0; depth < 4 && len(level) > 0; depth++ {
		var next []string
		for _, b := range level {
			if seen[b] {
				continue
			}
			seen[b] = true
			if ix.typeNamedTwice(b, "jvm") {
				return extract.TypeRef{}, false // which b: not guessed
			}
			if tr, ok := ix.jvmField(b + "." + v); ok {
				return tr, true
			}
			next = append(next, ix.parents[b]...)
		}
		level = next
	}
	return extract.TypeRef{}, false
}

// jvmField is the type JVM files declare for member key ("Base.v"), when
// they agree.
func (ix *Index) jvmField(key string) (extract.TypeRef, bool) {
	var out extract.TypeRef
	found := false
	for _, d := range ix.fields[key] {
		if ix.files[d.file].fam != "jvm" {
			continue
		}
		if found && d.ref.Name != out.Name {
			return extract.TypeRef{}, false
		}
		out, found = d.ref, true
	}
	return out, found
}
