package daemon_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// blocking is a reconciler whose tick runs until its context ends.
type blocking struct{ started, observed chan struct{} }

func newBlocking() *blocking {
	return &blocking{started: make(chan struct{}), observed: make(chan struct{})}
}

func (b *blocking) reconcile(ctx context.Context, _ int) (daemon.TickResult, []daemon.Alert, error) {
	close(b.started)
	<-ctx.Done()
	close(b.observed)
	return daemon.TickResult{}, nil, ctx.Err()
}

// resumable writes the state of a daemon that was watching root when its
// server stopped, so that Resume starts it and ticks at once.
func resumable(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	data, _ := json.Marshal(map[string]any{"active": true, "watch_paths": []string{root}, "poll_interval_ms": 3600000})
	if err := os.WriteFile(filepath.Join(dir, "daemon.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var daemonKey = session.NewKey[*daemon.Daemon]("daemon")

// A tick in progress when the session closes is called off, and Close
// returns only after it has returned: the daemon's watch runs under the
// session's lifetime.
func TestCloseCallsOffTickInFlight(t *testing.T) {
	s, err := session.Open(session.DefaultConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	rec := newBlocking()
	d := session.Shared(s, daemonKey, func() *daemon.Daemon {
		return daemon.New(daemon.Config{StateDir: resumable(t, t.TempDir()), Go: s.Go, Logf: t.Logf}, rec.reconcile)
	})
	if ok, err := d.Resume(); !ok || err != nil {
		t.Fatalf("Resume: %v, %v", ok, err)
	}
	<-rec.started // the resume tick runs
	if got := s.Running(); len(got) != 1 || !strings.HasPrefix(got[0], "watch ") {
		t.Fatalf("the session runs %v, want the daemon's watch", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rec.observed:
	default:
		t.Fatal("Close returned while the tick was still running")
	}
	if st := d.Status(); st.TickCount != 1 || st.LastTickError == "" || st.AlertCount != 0 {
		t.Fatalf("status %+v: want one tick, ended with its context's error, and no alert for it", st)
	}
}

// Without an owner, the daemon's own Close calls off its tick.
func TestDaemonCloseCallsOffTick(t *testing.T) {
	rec := newBlocking()
	d := daemon.New(daemon.Config{StateDir: resumable(t, t.TempDir())}, rec.reconcile)
	if ok, err := d.Resume(); !ok || err != nil {
		t.Fatalf("Resume: %v, %v", ok, err)
	}
	<-rec.started
	d.Close()
	select {
	case <-rec.observed:
	default:
		t.Fatal("Close returned while the tick was still running")
	}
}

// A reconciler that panics fails its tick; the daemon and the process go
// on.
func TestPanickingTickIsAnError(t *testing.T) {
	d := daemon.New(daemon.Config{}, func(context.Context, int) (daemon.TickResult, []daemon.Alert, error) { panic("bad graph") })
	res := d.Tick(context.Background(), 0)
	if !strings.Contains(res.Error, "panic: bad graph") {
		t.Fatalf("tick %+v", res)
	}
	if _, unacked := d.Alerts.List(false, 0); unacked != 1 {
		t.Fatalf("%d alerts, want the failed tick's", unacked)
	}
}
