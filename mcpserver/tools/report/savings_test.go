package report

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// scripted runs calls and returns each one's argument and answer bytes.
func scripted(t *testing.T, d *tools.Dispatcher, calls [][2]string) (sizes [][2]int, texts []string) {
	t.Helper()
	for _, c := range calls {
		text := d.Call(context.Background(), c[0], json.RawMessage(c[1]), nil).Text()
		sizes = append(sizes, [2]int{len(c[1]), len(text)})
		texts = append(texts, text)
	}
	return sizes, texts
}

func tok(n int) int64 { return int64((n + 3) / 4) }

// A scripted session: the savings are the token model applied by hand to
// what the calls sent and received and to the files' sizes on disk.
func TestSavingsScripted(t *testing.T) {
	dir := fixture.Write(t)
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	d := tooltest.NewDispatcher(t, cfg)
	ingest := `{"agent_id":"a","path":` + string(must(json.Marshal(dir))) + `}`
	sizes, texts := scripted(t, d, [][2]string{
		{"ingest", ingest},
		{"panoramic", `{"agent_id":"a","top_k":200}`},
		{"view", `{"agent_id":"a","file_path":"backend/session.py"}`},
		{"view", `{"agent_id":"b","file_path":"backend/session.py"}`},
		{"panoramic", `{"agent_id":"a","scope":"nowhere/"}`},
	})
	size := func(rel string) int64 {
		st, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	// panoramic names its ranked files; session.py is among them, so a's
	// view of it reads nothing new, b's does.
	var pano PanoramicOutput
	if err := json.Unmarshal([]byte(texts[1]), &pano); err != nil {
		t.Fatal(err)
	}
	var want struct{ a, b Tally }
	for i, s := range sizes {
		tl := &want.a
		if i == 3 {
			tl = &want.b
		}
		tl.Calls++
		tl.UsedTokens += tok(s[0] + s[1])
	}
	for _, m := range pano.Modules {
		want.a.BaselineTokens += tok(int(size(strings.TrimPrefix(m.NodeID, "file::"))))
		want.a.FilesAvoided++
	}
	want.a.BaselineCalls = len(pano.Modules) + 1
	want.b = Tally{Calls: 1, UsedTokens: want.b.UsedTokens, BaselineCalls: 2, BaselineTokens: tok(int(size("backend/session.py"))), FilesAvoided: 1}

	got := tooltest.MustCall(t, d, "savings", map[string]any{"agent_id": "a"})
	var out SavingsOutput
	if err := json.Unmarshal([]byte(tooltest.ToJSON(got)), &out); err != nil {
		t.Fatal(err)
	}
	if out.Agent.Tally != want.a {
		t.Errorf("agent a: %+v, want %+v", out.Agent.Tally, want.a)
	}
	sess := want.a
	sess.add(want.b)
	if out.Session.Tally != sess || out.Session.SavedTokens != sess.BaselineTokens-sess.UsedTokens || out.Session.CallsSaved != sess.BaselineCalls-sess.Calls {
		t.Errorf("session: %+v, want %+v", out.Session, sess)
	}
	if out.Global.Sessions != 1 || out.Global.Tally != sess || !out.Global.Persisted {
		t.Errorf("global: %+v", out.Global)
	}
	if g := co2Grams(max(out.Session.SavedTokens, 0)); out.CO2.SessionGramsSaved != r3(g) {
		t.Errorf("co2 %v, want %v", out.CO2.SessionGramsSaved, g)
	}
	// The totals are kept beside the graph: a new session starts from them.
	data, err := os.ReadFile(filepath.Join(cfg.RuntimeDir, savingsFile))
	if err != nil {
		t.Fatal(err)
	}
	var p persisted
	if err := json.Unmarshal(data, &p); err != nil || p.Sessions != 1 || p.Tally != sess {
		t.Fatalf("savings.json %s (%v)", data, err)
	}
	l := &ledger{path: filepath.Join(cfg.RuntimeDir, savingsFile), s: d.Session}
	l.load()
	if g := l.global(Tally{Calls: 2}); g.Sessions != 2 || g.Calls != sess.Calls+2 {
		t.Errorf("next session's global: %+v", g)
	}
}

// Closing the session writes its final tally, calls after the last
// savings call included.
func TestSavingsWrittenAtClose(t *testing.T) {
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	d := &tools.Dispatcher{Registry: tooltest.Builtin(), Session: st}
	tooltest.MustCall(t, d, "savings", map[string]any{"agent_id": "a"})
	tooltest.MustCall(t, d, "savings", map[string]any{"agent_id": "a"})
	st.Close()
	data, err := os.ReadFile(filepath.Join(cfg.RuntimeDir, savingsFile))
	var p persisted
	if err != nil || json.Unmarshal(data, &p) != nil || p.Calls != 2 || p.Sessions != 1 {
		t.Fatalf("savings.json after close: %s (%v)", data, err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
