package seek

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// namesFixture adds attrs' shape (issue 27) to the corpus: validators.py
// whose code says "validator" a few times, _make.py whose functions are
// named validate/validator and say it everywhere, and typing examples
// full of Validated classes; config_loader.py beside a Config class
// elsewhere.
func namesFixture(t *testing.T, o Options) (*Index, *graph.Graph) {
	t.Helper()
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	add := func(p, src string, es ...testcorpus.Entity) {
		files[p], ents[p] = src, es
	}
	add("attr/validators.py", `def instance_of(type):
    """A validator that raises if the value is not an instance of type."""
    return _InstanceOf(type)
def in_(options):
    return _In(options)
def optional(v):
    return _Optional(v)
`,
		testcorpus.Entity{Name: "instance_of", Kind: testcorpus.Function, Start: 1, End: 3},
		testcorpus.Entity{Name: "in_", Kind: testcorpus.Function, Start: 4, End: 5},
		testcorpus.Entity{Name: "optional", Kind: testcorpus.Function, Start: 6, End: 7})
	add("attr/_make.py", `def validate(inst):
    """Validate all attributes on inst that have a validator."""
    for a in fields(inst):
        if a.validator is not None:
            a.validator(inst, a, getattr(inst, a.name))
def validator(meth):
    """Decorate a method as the attribute's validator; validators run in order."""
    return meth
def attrib(default=None, validator=None):
    """Define an attribute with its validator and its validators' order."""
    return Attribute(default, validator)
`,
		testcorpus.Entity{Name: "validate", Kind: testcorpus.Function, Start: 1, End: 5},
		testcorpus.Entity{Name: "validator", Kind: testcorpus.Function, Start: 6, End: 8},
		testcorpus.Entity{Name: "attrib", Kind: testcorpus.Function, Start: 9, End: 11})
	add("typing_examples/baseline.py", `class Validated:
    """Validators on every field: validator, validators, validated."""
    num = attrib(validator=validators.instance_of(int))
class ValidatedOptional:
    """More validators: validator after validator."""
    num = attrib(validator=validators.optional(validators.instance_of(int)))
`,
		testcorpus.Entity{Name: "Validated", Kind: testcorpus.Class, Start: 1, End: 3},
		testcorpus.Entity{Name: "ValidatedOptional", Kind: testcorpus.Class, Start: 4, End: 6})
	add("attr/validators.pyi", "def instance_of(type): ...\ndef optional(v): ...\n",
		testcorpus.Entity{Name: "instance_of", Kind: testcorpus.Function, Start: 1, End: 1},
		testcorpus.Entity{Name: "optional", Kind: testcorpus.Function, Start: 2, End: 2})
	add("app/as_loader.py", "def chain(a, b):\n    return a.loader(b.loader)\n",
		testcorpus.Entity{Name: "chain", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/loader_loader.py", "def chain(a, b):\n    return a.loader(b.loader)\n",
		testcorpus.Entity{Name: "chain", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/config_loader.py", "def read(path):\n    return parse(open(path).read())\n",
		testcorpus.Entity{Name: "read", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/settings.py", `class Config:
    """The config: every config value the loader read, and the config loader's defaults."""
    def load_config(self):
        """Load the config with the config loader."""
        return ConfigLoader().load()
`,
		testcorpus.Entity{Name: "Config", Kind: testcorpus.Class, Start: 1, End: 5},
		testcorpus.Entity{Name: "load_config", Kind: testcorpus.Function, Parent: "Config", Start: 3, End: 5})
	g, read := fixtureGraphOf(t, files, ents)
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return x, g
}

// TestQueryNamesFile: a query that is a file's name, in any of the
// spellings the index normalises, ranks that file first; without the
// name evidence _make.py, a typing example or settings.py won.
func TestQueryNamesFile(t *testing.T) {
	x, g := namesFixture(t, DefaultOptions())
	off := DefaultOptions()
	off.NameMatch = 0
	xoff, _ := namesFixture(t, off)
	tests := []struct {
		query string
		want  string
		// lost is set where the file was not first without the rule
		// (a query written as code was already found by its symbol).
		lost bool
	}{
		{"validators", "file::attr/validators.py", true},
		{"validator", "file::attr/validators.py", true},
		{"Validators", "file::attr/validators.py", true},
		{"config_loader", "file::app/config_loader.py", false},
		{"ConfigLoader", "file::app/config_loader.py", false},
		{"config loader", "file::app/config_loader.py", true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			for _, rerank := range []bool{true, false} {
				r := x.SearchText(tt.query, Params{TopK: 5, GraphRerank: rerank})
				if len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != tt.want {
					t.Errorf("rerank %v: top = %v, want %s first", rerank, ids(g, r.Hits), tt.want)
				}
			}
			// The fixture reproduces the bug: without the rule the
			// named file is not first.
			r := xoff.SearchText(tt.query, Params{TopK: 5, GraphRerank: true})
			if first := len(r.Hits) > 0 && g.ExternalID(r.Hits[0].Node) == tt.want; first == tt.lost {
				t.Errorf("without NameMatch %s first: %v, want %v", tt.want, first, !tt.lost)
			}
		})
	}
}

// TestNamedFileOrder: files sharing the name keep the order of their own
// evidence (the stub after the code); a name among other words is a
// share of the query, and a stem with a part the query lacks is not
// named.
func TestNamedFileOrder(t *testing.T) {
	x, g := namesFixture(t, DefaultOptions())
	r := x.SearchText("validators", Params{TopK: 10, GraphRerank: true})
	rank := map[string]int{}
	for i, h := range r.Hits {
		rank[g.ExternalID(h.Node)] = i + 1
	}
	if py, pyi := rank["file::attr/validators.py"], rank["file::attr/validators.pyi"]; py != 1 || pyi == 0 || pyi < py {
		t.Errorf("validators.py at %d, validators.pyi at %d: %v", py, pyi, ids(g, r.Hits))
	}
	terms := x.weighTerms(ParseQuery("validators config loader"), DefaultMaxTerms)
	got := map[string]float32{}
	for _, f := range x.namedFiles(terms) {
		got[g.ExternalID(f.Node)] = f.Score
	}
	v, c := got["file::attr/validators.py"], got["file::app/config_loader.py"]
	if !(v > 0 && v < 1 && c > 0 && c < 1) || !(v+c > 0.99 && v+c < 1.01) {
		t.Errorf("shares %v: want validators and config_loader sharing the query", got)
	}
	if _, ok := got["file::app/settings.py"]; ok {
		t.Errorf("settings.py named by a query without 'settings': %v", got)
	}
	for _, f := range x.namedFiles(x.weighTerms(ParseQuery("loader"), DefaultMaxTerms)) {
		t.Errorf("loader names %s: a stem that repeats a part or drops one is named by its whole only", g.ExternalID(f.Node))
	}
	if fs := x.namedFiles(x.weighTerms(ParseQuery("loader_loader"), DefaultMaxTerms)); len(fs) != 1 || g.ExternalID(fs[0].Node) != "file::app/loader_loader.py" {
		t.Errorf("loader_loader names %v, want loader_loader.py", fs)
	}
	for _, q := range []string{"config", "loader", "make validators"} {
		for _, f := range x.namedFiles(x.weighTerms(ParseQuery(q), DefaultMaxTerms)) {
			if id := g.ExternalID(f.Node); id == "file::app/config_loader.py" && q != "make validators" {
				t.Errorf("%q names config_loader.py (share %v): a stem needs all its parts", q, f.Score)
			}
		}
	}
}

func TestStemTerms(t *testing.T) {
	tests := []struct {
		stem            string
		parts, compacts []string
		dropped         bool
	}{
		{"validators", []string{"validator"}, nil, false},
		{"_make", []string{"mak"}, nil, false},
		{"config_loader", []string{"config", "loader"}, []string{"configloader"}, false},
		{"ConfigLoader", []string{"config", "loader"}, []string{"configloader"}, false},
		{"date-utils", []string{"dat", "util"}, nil, false},
		{"__init__", []string{"init"}, nil, false},
		{"as-promise", []string{"promis"}, nil, true},
		{"function.test", []string{"test"}, nil, true},
		{"unicode4-1-0", []string{"unicod"}, []string{"unicode4"}, true},
	}
	for _, tt := range tests {
		p, c, d := stemTerms(tt.stem)
		if !slices.Equal(p, tt.parts) || !slices.Equal(c, tt.compacts) || d != tt.dropped {
			t.Errorf("stemTerms(%q) = %v, %v, %v; want %v, %v, %v", tt.stem, p, c, d, tt.parts, tt.compacts, tt.dropped)
		}
	}
}

// TestFramesNameNoFile: the words of a stack trace's paths ("auth" of
// backend/auth.py) do not name the file again; the function at the
// innermost frame's line stays first.
func TestFramesNameNoFile(t *testing.T) {
	x, g := buildFixture(t, nil)
	r := x.SearchText(testcorpus.PythonTrace, Params{TopK: 3, GraphRerank: true})
	if want := "file::backend/auth.py::AuthService::validate_credentials"; len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != want {
		t.Errorf("top = %v, want %s first", ids(g, r.Hits), want)
	}
}
