package tooltest

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// fixedNow is the clock of every tool test: shortly after the fixture's
// last commit, so temporal scores are stable.
var fixedNow = time.Date(2026, 1, 20, 12, 0, 0, 0, time.UTC)

func NewDispatcher(t testing.TB, cfg session.Config) *tools.Dispatcher {
	t.Helper()
	if cfg.LearningRate == 0 {
		def := session.DefaultConfig()
		def.RuntimeDir, def.GraphSource, def.PlasticityState, def.AllowRoots = cfg.RuntimeDir, cfg.GraphSource, cfg.PlasticityState, cfg.AllowRoots
		cfg = def
	}
	// Fixtures live in temporary directories.
	cfg.AllowRoots = append(cfg.AllowRoots, os.TempDir())
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	st.SetClock(func() time.Time { return fixedNow })
	t.Cleanup(func() { st.Close() })
	return &tools.Dispatcher{Registry: Builtin(), Session: st}
}

// call invokes a tool and decodes its JSON result.
func Call(t testing.TB, d *tools.Dispatcher, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res := d.Call(context.Background(), name, raw, nil)
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Text()), &out); err != nil {
		t.Fatalf("%s returned non-JSON text %q: %v", name, res.Text(), err)
	}
	return out, res.IsError
}

// mustCall fails the test when the tool reports an error.
func MustCall(t testing.TB, d *tools.Dispatcher, name string, args map[string]any) map[string]any {
	t.Helper()
	out, isErr := Call(t, d, name, args)
	if isErr {
		t.Fatalf("%s(%v) failed: %v", name, args, out)
	}
	return out
}

// ingestedFixture returns a dispatcher whose graph is the fixture backend,
// and the fixture's path.
func IngestedFixture(t testing.TB) (*tools.Dispatcher, string) {
	t.Helper()
	dir := fixture.Write(t)
	d := NewDispatcher(t, session.Config{})
	MustCall(t, d, "ingest", map[string]any{"agent_id": "test", "path": dir})
	return d, dir
}

// PersistedFixture returns a dispatcher whose graph is the fixture backend,
// ingested into a runtime directory of its own, and the configuration
// that opens that directory again (a restart: NewDispatcher(t, cfg)).
func PersistedFixture(t testing.TB) (*tools.Dispatcher, session.Config) {
	t.Helper()
	cfg := session.Config{RuntimeDir: t.TempDir()}
	d := NewDispatcher(t, cfg)
	MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": fixture.Write(t)})
	return d, cfg
}

func SessionConfigMemory() session.Config { return session.DefaultConfig() }

// testConfig is the default configuration allowed to ingest the temporary
// directories fixtures are written to.
func TestConfig() session.Config {
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{os.TempDir()}
	return cfg
}

// Teaches calls tool with args and fails t unless the call is refused
// with a teaching error: one whose message names want and that carries a
// hint and, when example is set, an example.
func Teaches(t testing.TB, d *tools.Dispatcher, tool string, args map[string]any, want string, example bool) {
	t.Helper()
	out, isErr := Call(t, d, tool, args)
	if !isErr {
		t.Errorf("%s(%v) succeeded: %v", tool, args, out)
		return
	}
	msg, _ := out["error"].(string)
	if !strings.Contains(msg, want) || out["hint"] == nil || (example && out["example"] == nil) {
		t.Errorf("%s(%v): error %v does not teach (want %q, a hint and, if asked, an example)", tool, args, out, want)
	}
}
