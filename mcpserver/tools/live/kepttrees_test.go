package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

// Watch ticks that edit the same two files again and again parse them
// from the trees the tick before kept (the root's ingest cache holds
// them, from a file's second change on): after every tick the graph is the one a full ingest of the tree
// builds. Closing the session frees the trees.
func TestWatchTickChainOnKeptTrees(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)
	tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	auth, pay := testcorpus.Backend["backend/auth.py"], testcorpus.Backend["backend/payments.py"]
	mid := func(s, ins string) string { return strings.Replace(s, "\n\n    def login", ins+"\n\n    def login", 1) }
	rounds := [][2]string{
		{mid(auth, "\n\n    def audit(self, user):\n        return self.store.create(user)"), pay},
		{mid(auth, "\n\n    def audit(self, user):\n        return self.validate_credentials(user, 0)"), pay},
		{auth + "\n\ndef logout(request):\n    return login(request)\n", pay},
		{"# héllo wörld 日本語\n" + auth + "\n\ndef logout(request):\n    return login(request)\n", pay + "\n\ndef refund(user):\n    return charge(user, 0)\n"},
		{"# héllo wörld 日本語\n" + auth + "\n\ndef lögout(request):\n    return login(request)\n", "\"\"\"Päyments.\"\"\"\n" + pay + "\n\ndef refund(user):\n    return charge(user, 0)\n"},
		{strings.ReplaceAll(auth+"\n\ndef logout(request):\n    return login(request)\n", "\n", "\r\n"), strings.ReplaceAll(pay, "\n", "\r\n")},
		{"def broken(:\n" + auth, pay + "\n\ndef refund(user):\n    return charge(user, 0)\n"},
		{auth, pay + "\n\ndef refund(user):\n    return charge(user, 1)\n"},
	}
	paths := []string{filepath.Join(dir, "backend", "auth.py"), filepath.Join(dir, "backend", "payments.py")}
	cfg := tooltest.TestConfig()
	for i, r := range rounds {
		for j, body := range r {
			if err := os.WriteFile(paths[j], []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ch := watch.Changes{Paths: paths, Complete: true, Closed: time.Now()}
		res := tools.DaemonOf(d).TickChanged(t.Context(), 0, ch)
		if res.FilesReingested != 2 || len(res.Updates) != 1 || !res.Updates[0].Patched || !res.Updates[0].WalkSkipped {
			t.Fatalf("round %d: watch tick %+v", i, res)
		}
		full := tooltest.NewDispatcher(t, cfg)
		tooltest.MustCall(t, full, "ingest", map[string]any{"agent_id": "t", "path": dir})
		got, want := graphFacts(d.Session.Current().Graph), graphFacts(full.Session.Current().Graph)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: graph after the tick differs from a full ingest (-full +tick):\n%s", i, diff)
		}
	}
	store, ok := session.RootSharedIfAny(d.Session, dir, tools.IngestCacheKey("code"))
	if !ok {
		t.Fatal("no ingest cache for the root")
	}
	if n, _ := store.Trees().Stats(); n != 2 {
		t.Fatalf("%d trees kept, want the two edited files'", n)
	}
	d.Session.Close()
	if n, b := store.Trees().Stats(); n != 0 || b != 0 {
		t.Errorf("%d trees (%d bytes) kept after the session closed", n, b)
	}
}
