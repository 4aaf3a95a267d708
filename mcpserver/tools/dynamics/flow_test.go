package dynamics

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// racyGo: main and a request handler both increment one package-level
// counter through bump; the handler's lock is invisible to the graph
// (mu.Lock() is a method call on a variable), a limit constant is shared
// harmlessly.
var racyGo = map[string]string{
	"go.mod": "module example.com/app\n\ngo 1.22\n",
	"main.go": `package main

import (
	"net/http"
	"sync"
)

const limit = 10

var counter int
var mu sync.Mutex

func bump() {
	if counter < limit {
		counter++
	}
}

func main() {
	bump()
	http.HandleFunc("/", handleIndex)
	http.ListenAndServe(":8080", nil)
}

func handleIndex(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	bump()
	mu.Unlock()
}
`,
}

// Two entry points writing one shared variable: exactly one turbulence
// point, the variable, with both entries and their paths.
func TestFlowSimulateOneTurbulencePoint(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, racyGo)
	out := tooltest.MustCall(t, d, "flow_simulate", map[string]any{"agent_id": "t", "detail": "full"})
	var entries []string
	for _, e := range out["entry_points"].([]any) {
		m := e.(map[string]any)
		entries = append(entries, m["node_id"].(string)+" "+m["kind"].(string))
	}
	if want := []string{"file::main.go::main main", "file::main.go::handleIndex http_handler"}; !slices.Equal(entries, want) {
		t.Errorf("entry points %v, want %v", entries, want)
	}
	turb := out["turbulence"].([]any)
	if len(turb) != 1 {
		t.Fatalf("turbulence %v, want one point", turb)
	}
	tp := turb[0].(map[string]any)
	if tp["node_id"] != "file::main.go::counter" || tp["severity"] != "high" || tp["score"] != 0.5 || tp["guarded"] != false {
		t.Errorf("turbulence point %v", tp)
	}
	var paths []string
	for _, p := range tp["paths"].([]any) {
		paths = append(paths, strings.Join(tooltest.ToStrings(p), " > "))
	}
	slices.Sort(paths)
	want := []string{
		"file::main.go::handleIndex > file::main.go::bump > file::main.go::counter",
		"file::main.go::main > file::main.go::bump > file::main.go::counter",
	}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	if pairs := tp["entry_pairs"].([]any); len(pairs) != 1 || tp["entry_count"] != 2.0 {
		t.Errorf("entry pairs %v", pairs)
	}
	// Brief: one path, no pairs.
	brief := tooltest.MustCall(t, d, "flow_simulate", map[string]any{"agent_id": "t"})
	bp := brief["turbulence"].([]any)[0].(map[string]any)
	if len(bp["paths"].([]any)) != 1 || bp["entry_pairs"] != nil || bp["entry_count"] != 2.0 {
		t.Errorf("brief turbulence point %v", bp)
	}
}

func TestFlowSimulateTeachingErrors(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, racyGo)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"agent_id": "t", "scope_filter": "vendor/"}, "NoEntryPoints"},
		{map[string]any{"agent_id": "t", "num_particles": 101}, "num_particles"},
		{map[string]any{"agent_id": "t", "max_depth": 0}, "max_depth"},
	} {
		out, isErr := tooltest.Call(t, d, "flow_simulate", tc.args)
		msg, _ := out["error"].(string)
		if !isErr || !strings.Contains(msg, tc.want) || out["hint"] == nil || out["example"] == nil {
			t.Errorf("flow_simulate(%v) = %v, want a teaching error about %s", tc.args, out, tc.want)
		}
	}
}
