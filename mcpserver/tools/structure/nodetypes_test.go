package structure

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// classRepo layers classes: base ← mid ← top, two classes a layer, and
// one upward call (B0.back calls B2, closing the cycle B0 → B2 → B1 →
// B0; B2 and B1 each lean twice on the class below, so B0 → B2 is the
// stray edge). The module-level functions belong to no class.
var classRepo = map[string]string{
	"pkg/__init__.py": "",
	"pkg/base.py":     "class A0:\n    def m(self):\n        return 1\n\nclass B0:\n    def m(self):\n        return 2\n\n    def back(self):\n        from pkg.top import B2\n        return B2()\n\ndef helper():\n    return A0()\n",
	"pkg/mid.py":      "from pkg.base import A0, B0\n\nclass A1:\n    def m(self):\n        return A0()\n\nclass B1:\n    def m(self):\n        return B0()\n\n    def n(self):\n        return B0().m()\n",
	"pkg/top.py":      "from pkg.mid import A1, B1\n\nclass A2:\n    def m(self):\n        return A1()\n\nclass B2:\n    def m(self):\n        return B1()\n\n    def n(self):\n        return B1().m()\n\ndef main():\n    return A2()\n",
}

// layersSummary renders layers' answer as one line per layer (its units
// sorted) and one per violation.
func layersSummary(out map[string]any) []string {
	var got []string
	for _, l := range out["layers"].([]any) {
		l := l.(map[string]any)
		sample := tooltest.ToStrings(l["sample"])
		slices.Sort(sample)
		got = append(got, fmt.Sprintf("L%v: %v", l["level"], sample))
	}
	for _, v := range out["violations"].([]any) {
		v := v.(map[string]any)
		got = append(got, fmt.Sprintf("%v %v %v(L%v) -> %v(L%v)", v["severity"], v["kind"], v["from"], v["from_level"], v["to"], v["to_level"]))
	}
	return got
}

func TestLayersNodeTypeFilter(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, classRepo)
	for _, tc := range []struct {
		name  string
		types []string
		want  []string
	}{
		{"classes", []string{"class"}, []string{
			"L0: [pkg/base.py::A0 pkg/base.py::B0]",
			"L1: [pkg/mid.py::A1 pkg/mid.py::B1]",
			"L2: [pkg/top.py::A2 pkg/top.py::B2]",
			"High UpwardDependency pkg/base.py::B0(L0) -> pkg/top.py::B2(L2)",
			"Medium CircularDependency pkg/base.py::B0(L0) -> pkg/top.py::B2(L2)",
		}},
		// Files see one cycle: the classes' order is lost.
		{"files", []string{"file"}, []string{
			"L0: [pkg/base.py pkg/mid.py pkg/top.py]",
			"Medium CircularDependency pkg/mid.py(L0) -> pkg/base.py(L0)",
		}},
		// What no class holds stays in its file: the files keep their
		// imports (base.py's import of top closes a file cycle), the
		// classes keep their order.
		{"files and classes", []string{"class", "file"}, []string{
			"L0: [pkg/base.py::A0 pkg/base.py::B0]",
			"L1: [pkg/mid.py pkg/mid.py::A1 pkg/mid.py::B1]",
			"L2: [pkg/base.py pkg/top.py pkg/top.py::A2 pkg/top.py::B2]",
			"High UpwardDependency pkg/base.py::B0(L0) -> pkg/top.py::B2(L2)",
			"Medium UpwardDependency pkg/mid.py(L1) -> pkg/base.py(L2)",
			"Medium CircularDependency pkg/base.py::B0(L0) -> pkg/top.py::B2(L2)",
			"Medium CircularDependency pkg/mid.py(L1) -> pkg/base.py(L2)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t", "detail": "full", "node_type_filter": tc.types})
			if got := layersSummary(out); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("layers %v:\n got %q\nwant %q\n%s", tc.types, got, tc.want, tooltest.ToJSON(out))
			}
		})
	}
	res, isErr := tooltest.Call(t, d, "layers", map[string]any{"agent_id": "t", "node_type_filter": []string{"directory"}})
	if !isErr || !strings.Contains(fmt.Sprint(res), "node_type_filter") {
		t.Errorf("node_type_filter [directory]: %v, want a teaching error", res)
	}
}
