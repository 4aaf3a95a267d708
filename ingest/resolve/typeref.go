package resolve

import (
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// typesOverConstructors drops, from the candidates of a reference by a
// type's name, the constructors of a type that is a candidate too: yaml-cpp's
// `std::unique_ptr<EmitterState> m_pState;` in emitter.h names the class
// EmitterState, yet bound the out-of-line constructor EmitterState::EmitterState
// of emitterstate.cpp. A constructor is a function labelled as its owner.
// It returns cands itself when nothing is dropped.
func (ix *Index) typesOverConstructors(cands []int32) []int32 {
	types := map[string]bool{}
	for _, c := range cands {
		if isType(ix.cands[c].typ) {
			types[ix.cands[c].label] = true
		}
	}
	if len(types) == 0 {
		return cands
	}
	isCtor := func(c int32) bool {
		x := &ix.cands[c]
		return x.typ == graph.Function && x.owner == x.label && types[x.label]
	}
	if !slices.ContainsFunc(cands, isCtor) {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), isCtor)
}
