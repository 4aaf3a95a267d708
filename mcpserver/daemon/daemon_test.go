package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

// counting is a reconciler that counts its calls.
type counting struct{ n atomic.Int32 }

func (c *counting) reconcile(context.Context, int) (TickResult, []Alert, error) {
	c.n.Add(1)
	return TickResult{ChangedFilesDetected: 1}, nil, nil
}

// waitFor polls cond; the bound only keeps a broken watcher from hanging
// the test run.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestBurstIsOneTick(t *testing.T) {
	root := t.TempDir()
	var c counting
	d := New(Config{Debounce: 150 * time.Millisecond, MaxDelay: 10 * time.Second}, c.reconcile)
	st, err := d.Start([]string{root}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if st.Backend == "" || !st.Active {
		t.Fatalf("status %+v", st)
	}
	// A checkout writing 300 files: one update, not 300.
	for i := 0; i < 300; i++ {
		if err := os.WriteFile(filepath.Join(root, "f"+string(rune('a'+i%26))+time.Now().Format("150405.000000000")+".go"), []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "a tick", func() bool { return c.n.Load() >= 1 })
	time.Sleep(400 * time.Millisecond) // any second tick would have fired by now
	if st.Backend == "notify" {
		if n := c.n.Load(); n != 1 {
			t.Errorf("300 writes made %d ticks, want 1", n)
		}
	}
	if got := d.Status(); got.TickCount != int(c.n.Load()) || (st.Backend == "notify" && got.EventsSeen == 0) {
		t.Errorf("status %+v", got)
	}
}

func TestIgnoredEventsDoNotTick(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	var c counting
	d := New(Config{Debounce: 50 * time.Millisecond}, c.reconcile)
	st, err := d.Start([]string{root}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if st.Backend != "notify" {
		t.Skip("kernel watches unavailable here:", st.BackendNote)
	}
	for _, p := range []string{".git/index.lock", "a.go~", ".a.go.swp", "4913"} {
		os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644)
	}
	time.Sleep(300 * time.Millisecond)
	if n := c.n.Load(); n != 0 {
		t.Errorf("ignored paths made %d ticks", n)
	}
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	waitFor(t, "a tick for a.go", func() bool { return c.n.Load() == 1 })
}

func TestStatePersistsAndResumes(t *testing.T) {
	dir, root := t.TempDir(), t.TempDir()
	var c counting
	d := New(Config{StateDir: dir}, c.reconcile)
	if _, err := d.Start([]string{root}, 250*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	d.Alerts.Add(time.Unix(1, 0), Alert{Kind: KindHubDeleted, Severity: "warning", Message: "m"})
	d.Close() // a shutdown: the state stays active

	d2 := New(Config{StateDir: dir}, c.reconcile)
	ok, err := d2.Resume()
	if err != nil || !ok {
		t.Fatalf("resume %v %v", ok, err)
	}
	waitFor(t, "the resume tick", func() bool { return d2.Status().TickCount == 1 })
	st := d2.Status()
	if !st.Active || st.PollIntervalMs != 250 || len(st.WatchPaths) != 1 || st.AlertCount != 1 || st.UnackedAlerts != 1 {
		t.Errorf("resumed status %+v", st)
	}
	d2.Stop()
	d3 := New(Config{StateDir: dir}, c.reconcile)
	if ok, _ := d3.Resume(); ok {
		t.Error("a stopped daemon resumed")
	}
}

func TestCorruptStateIsSetAside(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "daemon.json"), []byte("{not json"), 0o644)
	os.WriteFile(filepath.Join(dir, "alerts.json"), []byte("[[["), 0o644)
	var c counting
	d := New(Config{StateDir: dir}, c.reconcile)
	if ok, err := d.Resume(); ok || err != nil {
		t.Errorf("resume from a corrupt file: %v %v", ok, err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.corrupt-*"))
	if len(matches) != 2 {
		t.Errorf("corrupt files set aside: %v", matches)
	}
	if ids := d.Alerts.Add(time.Unix(1, 0), Alert{Kind: KindHeadMoved}); len(ids) != 1 {
		t.Errorf("alerts unusable after a corrupt file: %v", ids)
	}
}

func TestAlertsAckAndTrim(t *testing.T) {
	a := openAlerts(filepath.Join(t.TempDir(), "alerts.json"), t.Logf)
	for i := 0; i < MaxAlerts+5; i++ {
		a.Add(time.Unix(int64(i), 0), Alert{Kind: KindIngestFailed})
	}
	all, unacked := a.List(true, 0)
	if len(all) != MaxAlerts || unacked != MaxAlerts || all[0].ID != "alert-1005" {
		t.Fatalf("kept %d, unacked %d, newest %s", len(all), unacked, all[0].ID)
	}
	acked, unknown := a.Ack("me", []string{"alert-1005", "alert-1", "alert-1005"})
	if len(acked) != 1 || len(unknown) != 1 {
		t.Errorf("ack: %v unknown %v", acked, unknown)
	}
	if l, n := a.List(false, 3); len(l) != 3 || n != MaxAlerts-1 || l[0].ID != "alert-1004" {
		t.Errorf("list after ack: %v %d", l, n)
	}
}

func TestStartRejectsMissingPath(t *testing.T) {
	var c counting
	d := New(Config{}, c.reconcile)
	if _, err := d.Start([]string{filepath.Join(t.TempDir(), "nope")}, 0); err == nil {
		t.Error("a missing path was accepted")
	}
	if _, err := d.Start(nil, 0); err == nil {
		t.Error("no paths accepted")
	}
	if d.Status().Active {
		t.Error("active after a failed start")
	}
}

// AddNew skips what an unacknowledged alert already says, and what it
// adds twice in one call; once acknowledged, the same alert is news again.
func TestAlertsAddNew(t *testing.T) {
	a := openAlerts("", func(string, ...any) {})
	now := time.Now()
	x := Alert{Kind: "tremor_hotspot", Message: "a.py changed in 4 commits"}
	if ids := a.AddNew(now, x, x); len(ids) != 1 {
		t.Fatalf("first AddNew: %v", ids)
	}
	if ids := a.AddNew(now, x); len(ids) != 0 {
		t.Fatalf("repeated while unacknowledged: %v", ids)
	}
	y := Alert{Kind: "tremor_hotspot", Message: "b.py changed in 3 commits"}
	if ids := a.AddNew(now, x, y); len(ids) != 1 {
		t.Fatalf("one new among two: %v", ids)
	}
	a.Ack("t", []string{"alert-1"})
	if ids := a.AddNew(now, x); len(ids) != 1 {
		t.Fatalf("after the ack: %v", ids)
	}
}

// A watch that falls back to polling says so in an alert (once while
// unacknowledged) besides daemon_status.
func TestDegradedWatchAlerts(t *testing.T) {
	defer func(s func([]string, watch.Config) *watch.Watcher) { startWatch = s }(startWatch)
	startWatch = func(paths []string, cfg watch.Config) *watch.Watcher {
		w := watch.Start(paths, cfg)
		w.Backend, w.Note = "polling", "kernel watches unavailable for "+paths[0]+" (too many open files): polling every 500ms"
		return w
	}
	root := t.TempDir()
	var c counting
	d := New(Config{}, c.reconcile)
	defer d.Close()
	for range 2 {
		if _, err := d.Start([]string{root}, 0); err != nil {
			t.Fatal(err)
		}
	}
	list, unacked := d.Alerts.List(false, 0)
	if unacked != 1 || list[0].Kind != KindWatchDegraded || !strings.Contains(list[0].Message, "too many open files") {
		t.Fatalf("alerts %+v, want one watch_degraded alert with the reason", list)
	}
}

// A watch tick hands its events' paths to the reconciler only when they
// are complete, the last tick did not fail and the whole tree was checked
// less than FullCheckEvery ago; otherwise the reconciler checks it all.
func TestTickChangedScopes(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	fail := false
	var scoped []bool
	d := New(Config{Now: func() time.Time { return now }}, func(ctx context.Context, _ int) (TickResult, []Alert, error) {
		_, ok := ChangesOf(ctx)
		scoped = append(scoped, ok)
		if fail {
			return TickResult{}, []Alert{{Kind: KindIngestFailed, Message: "x"}}, nil
		}
		return TickResult{}, nil, nil
	})
	ch := watch.Changes{Paths: []string{"/r/a.go"}, Complete: true, Closed: now}
	steps := []struct {
		name   string
		tick   func()
		scoped bool
	}{
		{"first: no full check yet", func() { d.TickChanged(context.Background(), 0, ch) }, false},
		{"after a full check", func() { d.TickChanged(context.Background(), 0, ch) }, true},
		{"incomplete events", func() { d.TickChanged(context.Background(), 0, watch.Changes{Closed: now}) }, false},
		{"failing", func() { fail = true; d.TickChanged(context.Background(), 0, ch) }, true},
		{"after a failure", func() { fail = false; d.TickChanged(context.Background(), 0, ch) }, false},
		{"again", func() { d.TickChanged(context.Background(), 0, ch) }, true},
		{"long after", func() { now = now.Add(FullCheckEvery); d.TickChanged(context.Background(), 0, ch) }, false},
		{"manual is full", func() { d.Tick(context.Background(), 0) }, false},
	}
	for i, s := range steps {
		s.tick()
		if scoped[i] != s.scoped {
			t.Errorf("%s: scoped %v, want %v", s.name, scoped[i], s.scoped)
		}
	}
}

// The reconciler's context says it runs in a tick (manual or watch), so a
// reingest may hand what it holds on to the tick's save; other contexts
// do not.
func TestInTick(t *testing.T) {
	var seen []bool
	d := New(Config{}, func(ctx context.Context, _ int) (TickResult, []Alert, error) {
		seen = append(seen, InTick(ctx))
		return TickResult{}, nil, nil
	})
	d.Tick(context.Background(), 0)
	d.TickChanged(context.Background(), 0, watch.Changes{Paths: []string{"/r/a.go"}, Complete: true, Closed: time.Now()})
	if len(seen) != 2 || !seen[0] || !seen[1] {
		t.Errorf("InTick in the reconciler of a manual and a watch tick: %v, want [true true]", seen)
	}
	if InTick(context.Background()) {
		t.Error("InTick outside a tick: true")
	}
}
