package toolset

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// tools/list sends each tool's output schema as the JSON kept at Register
// (the trees are not held): it must be the published schema itself.
func TestPublishedOutputSchemaIsTheSchema(t *testing.T) {
	t.Parallel()
	for _, tool := range Builtin().All() {
		want, err := json.Marshal(tool.OutputSchema())
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		if got := tool.OutputSchemaJSON(); string(got) != string(want) {
			t.Errorf("%s: tools/list would send\n%s\nwant\n%s", tool.Name, got, want)
		}
	}
}

// Every tool declares a title, its argument struct and its result type;
// the output schema is a JSON object; the argument struct has one field per
// declared parameter, with the parameter's name and JSON type.
func TestDeclarationsAreComplete(t *testing.T) {
	t.Parallel()
	for _, tool := range Builtin().All() {
		if tool.Title == "" || tool.Input == nil || tool.Output == nil {
			t.Errorf("%s: title %q, input %v, output %v: all are required", tool.Name, tool.Title, tool.Input, tool.Output)
			continue
		}
		if s := tool.OutputSchema(); s == nil || s.Type != "object" {
			t.Errorf("%s: output schema %v is not an object", tool.Name, s)
		}
		in, err := jsonschema.ForType(tool.Input, nil)
		if err != nil {
			t.Errorf("%s: input struct: %v", tool.Name, err)
			continue
		}
		var names []string
		for _, p := range tool.Params {
			names = append(names, p.Name)
			fs, ok := in.Properties[p.Name]
			if !ok {
				t.Errorf("%s: %s has no field for parameter %s", tool.Name, tool.Input, p.Name)
				continue
			}
			if got, want := schemaType(fs), paramType(p); got != want {
				t.Errorf("%s: field %s is %s, the parameter is %s", tool.Name, p.Name, got, want)
			}
		}
		for name := range in.Properties {
			if !slices.Contains(names, name) {
				t.Errorf("%s: %s has field %s, not a declared parameter", tool.Name, tool.Input, name)
			}
		}
	}
}

// paramType and schemaType name a JSON type the same way for a declared
// parameter and a schema derived from a Go type.
func paramType(p tools.Param) string {
	switch p.Type {
	case tools.StringArray:
		return "array of string"
	case tools.ObjectArray:
		return "array of object"
	case tools.Any:
		return "any"
	}
	return string(p.Type)
}

func schemaType(s *jsonschema.Schema) string {
	types := slices.DeleteFunc(append([]string{s.Type}, s.Types...), func(t string) bool { return t == "" || t == "null" })
	switch {
	case len(types) == 0:
		return "any"
	case types[0] == "array" && s.Items != nil:
		return "array of " + schemaType(s.Items)
	}
	return types[0]
}

// TestEveryToolIsOneTypedDeclaration: every tool's parameters are what its
// input struct declares, derived again here from the struct's tags — a
// parameter the input type does not have, or a field it does not publish,
// fails. A handler cannot read an argument it did not declare: the Call
// has no by-name accessors, only the struct Bind fills.
func TestEveryToolIsOneTypedDeclaration(t *testing.T) {
	t.Parallel()
	for _, tool := range Builtin().All() {
		again, err := tools.ParamsOf(tool.Input)
		if err != nil || !reflect.DeepEqual(again, tool.Params) {
			t.Errorf("%s: its parameters are not its input struct's (%s, %v):\n declared %+v\n derived  %+v", tool.Name, tool.Input, err, tool.Params, again)
		}
	}
	for _, m := range []string{"Str", "Int", "Float", "Bool", "Strs", "Has", "Raw", "Decode"} {
		if _, ok := reflect.TypeFor[*tools.Call]().MethodByName(m); ok {
			t.Errorf("tools.Call has %s: a handler could read an argument by name", m)
		}
	}
}

// TestBindForms: a lone string is a one-element array, 3.0 an integer,
// absent parameters take their defaults.
func TestBindForms(t *testing.T) {
	t.Parallel()
	tool, _ := Builtin().Lookup("learn")
	var p continuity.LearnParams
	if err := tool.Decode(json.RawMessage(`{"agent_id":"t","query":"q","feedback":"wrong","node_ids":"file::a.py"}`), &p); err != nil || !slices.Equal(p.NodeIDs, []string{"file::a.py"}) || p.Strength != 0.2 {
		t.Fatalf("learn: %+v, %v", p, err)
	}
	tool, _ = Builtin().Lookup("impact")
	var ip change.ImpactParams
	if err := tool.Decode(json.RawMessage(`{"agent_id":"t","node_id":"x","max_hops":3.0}`), &ip); err != nil || ip.MaxHops != 3 || ip.Direction != "dependents" || !ip.IncludeCausalChains {
		t.Fatalf("impact: %+v, %v", ip, err)
	}
}

// outputCalls are argument sets beyond each tool's example that reach the
// other shapes of its answer.
var outputCalls = map[string][]map[string]any{
	"activate": {{"query": "session", "include_seeds": true, "include_structural_holes": true, "top_k": 5}, {"query": "zzzz qqqq"}},
	"help":     {{}},
	"persist":  {{"action": "load"}},
	"drift":    {{"since": "session_start", "include_weight_drift": false}, {"since": "2020-01-01T00:00:00Z"}},
	"seek": {
		{"query": "Traceback (most recent call last):\n  File \"backend/auth.py\", line 17, in login\n    raise PermissionError(\"bad credentials\")"},
		{"query": "validate_credentials", "scope": "backend/"}, {"query": "zzzz qqqq"},
	},
	"search":   {{"query": "session", "mode": "semantic"}, {"query": "def \\w+", "mode": "regex", "count_only": true}, {"query": "class", "scope": "**/*.py", "max_results": 2}},
	"glob":     {{"pattern": "backend/*.py", "limit": 2}},
	"impact":   {{"node_id": "backend/session.py", "direction": "both", "level": "entity"}, {"node_id": "tests/test_auth.py"}},
	"why":      {{"source": "file::README.md", "target": "file::tests/test_session.py", "max_hops": 1}},
	"missing":  {{"query": "session"}, {"query": "zzzz qqqq"}},
	"resonate": {{"node_id": "file::backend/session.py"}, {}},
	"learn":    {{"query": "session expiry", "feedback": "wrong", "node_ids": []string{"file::backend/session.py"}}},
	"warmup":   {{"task_description": "zzzz qqqq"}},
	"view":     {{"file_path": "README.md", "limit": 2}},
	"ingest":   {{"incremental": true}, {"mode": "merge"}},
}

// exampleSetup prepares the state an example needs (a trail, a lock, a
// perspective to act on) and returns the arguments to call it with; tool
// families fill it from their own test files.
var exampleSetup = map[string]func(t *testing.T, d *tools.Dispatcher) map[string]any{}

// Every answer of every tool — its example on an ingested fixture (with a
// runtime directory, so persist and durable learning work), the calls
// above, and answers flagged stale_files — is valid against its output
// schema in the closed form: no field the schema does not declare, every
// required field present.
func TestAnswersMatchOutputSchemas(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	rt := t.TempDir()
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt, GraphSource: filepath.Join(rt, "graph.bin"), PlasticityState: filepath.Join(rt, "plasticity.json")})
	reg := d.Registry
	ingest, _ := reg.Lookup("ingest")
	args := func(tool *tools.Tool, extra map[string]any) map[string]any {
		a := map[string]any{"agent_id": "schema"}
		if extra == nil {
			extra = tool.Example
		}
		for k, v := range extra {
			a[k] = v
		}
		if tool == ingest {
			a["path"] = dir
		}
		return a
	}
	checkAnswer(t, d, ingest, args(ingest, nil), true)
	for _, tool := range reg.All() {
		example := tool.Example
		if setup := exampleSetup[tool.Name]; setup != nil {
			example = setup(t, d)
		}
		on := d
		if tool.Name == "federate" {
			// It replaces the graph the other tools' examples read.
			on = tooltest.NewDispatcher(t, tooltest.TestConfig())
		}
		checkAnswer(t, on, tool, args(tool, example), true)
		for _, extra := range outputCalls[tool.Name] {
			checkAnswer(t, d, tool, args(tool, extra), true)
		}
	}
	// A file changed on disk after an ingest (before the staleness of the
	// new graph is first checked, then cached): read answers that name it
	// carry stale_files.
	d2, dir2 := tooltest.IngestedFixture(t)
	if err := os.WriteFile(filepath.Join(dir2, "backend", "session.py"), []byte("# rewritten\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	impact, _ := reg.Lookup("impact")
	if out := checkAnswer(t, d2, impact, args(impact, nil), true); out["stale_files"] == nil {
		t.Errorf("impact on a changed file: no stale_files in %v", out)
	}
	health, _ := reg.Lookup("health")
	checkAnswer(t, d2, health, args(health, nil), true)
}

// checkAnswer calls tool and validates a successful answer against the
// closed and the published output schema.
func checkAnswer(t *testing.T, d *tools.Dispatcher, tool *tools.Tool, args map[string]any, mustSucceed bool) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(args)
	res := d.Call(context.Background(), tool.Name, raw, nil)
	var v map[string]any
	if err := json.Unmarshal([]byte(res.Text()), &v); err != nil {
		t.Fatalf("%s: answer is not a JSON object: %v", tool.Name, err)
	}
	if res.IsError {
		if mustSucceed {
			t.Errorf("%s(%s) failed: %s", tool.Name, raw, res.Text())
		}
		return v
	}
	for name, s := range map[string]*jsonschema.Schema{"closed": tool.ClosedOutputSchema(), "published": tool.OutputSchema()} {
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %s schema: %v", tool.Name, name, err)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s(%s): answer does not match its %s output schema: %v\nanswer: %s", tool.Name, raw, name, err, tools.ClipText(res.Text(), 2000))
		}
	}
	return v
}

// The published schema admits fields it does not list (a newer server may
// add one); the closed one, which tests use, does not.
func TestPublishedSchemaIsOpen(t *testing.T) {
	t.Parallel()
	tool, _ := Builtin().Lookup("why")
	answer := map[string]any{"source": "a", "target": "b", "paths": []any{}, "total_paths_found": 0, "truncated": false, "elapsed_ms": 1.0, "later_field": 1}
	open, _ := tool.OutputSchema().Resolve(nil)
	closed, _ := tool.ClosedOutputSchema().Resolve(nil)
	if err := open.Validate(answer); err != nil {
		t.Errorf("published schema refuses an extra field: %v", err)
	}
	if err := closed.Validate(answer); err == nil {
		t.Errorf("closed schema accepts an undeclared field")
	}
}

// Annotations follow the class, with declared hints taking precedence, and
// no tool reaches an open world.
func TestAnnotations(t *testing.T) {
	t.Parallel()
	r := Builtin()
	for _, tool := range r.All() {
		h := tool.Annotations()
		if h.OpenWorld {
			t.Errorf("%s: openWorld", tool.Name)
		}
		if tool.Hints == nil && h.ReadOnly != (tool.Class == tools.Read) {
			t.Errorf("%s (%s): readOnly %v", tool.Name, tool.Class, h.ReadOnly)
		}
	}
	for name, want := range map[string]tools.Hints{
		"seek":    {ReadOnly: true, Idempotent: true},
		"learn":   {},
		"ingest":  {Destructive: true, Idempotent: true},
		"persist": {Destructive: true, Idempotent: true},
		"view":    {Idempotent: true},
	} {
		tool, _ := r.Lookup(name)
		if got := tool.Annotations(); got != want {
			t.Errorf("%s: hints %+v, want %+v", name, got, want)
		}
	}
}
