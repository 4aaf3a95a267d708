package resolve

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// A C++ type named in a field's type is the class, not the out-of-line
// constructor a .cpp defines under the class's name (yaml-cpp's
// unique_ptr<EmitterState> bound emitterstate.cpp's EmitterState::EmitterState);
// a call by that name still may be the constructor.
func TestTypeReferenceIsNotItsConstructor(t *testing.T) {
	ix := New([]*extract.Result{
		file("src/emitterstate.h", "cpp", "class YAML::EmitterState", "func YAML::EmitterState::good"),
		file("src/emitterstate.cpp", "cpp", "func YAML::EmitterState::EmitterState", "func YAML::EmitterState::good"),
		file("include/emitter.h", "cpp", "class YAML::Emitter"),
	}, nil)
	run(t, ix, []rcase{
		{name: "a field's type", from: "include/emitter.h", srcEnt: "YAML::Emitter", ref: "EmitterState", rel: extract.RelReferences,
			want: "file::src/emitterstate.h::YAML::EmitterState", status: Resolved},
	})
}
