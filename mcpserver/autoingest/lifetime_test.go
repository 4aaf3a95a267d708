package autoingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/autoingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A watch tick in progress when the session closes is called off, and
// Close returns only after it has returned.
func TestCloseCallsOffWatchTick(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(session.DefaultConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	started, observed := make(chan struct{}), make(chan struct{})
	apply := func(ctx context.Context, ch []autoingest.Change, _ autoingest.Options, _ func(document.Format) bool) (autoingest.Outcome, error) {
		if calls.Add(1) == 1 {
			return autoingest.Outcome{}, nil // the bootstrap tick
		}
		close(started)
		<-ctx.Done()
		close(observed)
		return autoingest.Outcome{}, ctx.Err()
	}
	rt := autoingest.New(apply, "", t.Logf).Under(s.Go)
	if _, err := rt.Start(context.Background(), autoingest.Options{Roots: []string{dir}, DebounceMs: 10}, nil); err != nil {
		t.Fatal(err)
	}
	if got := s.Running(); len(got) != 1 || !strings.HasPrefix(got[0], "watch ") {
		t.Fatalf("the session runs %v, want the watch", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.md"), []byte("# B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-started // the watch's tick (kernel event or poll)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-observed:
	default:
		t.Fatal("Close returned while the tick was still running")
	}
	rt.Close() // the watch already ended with the session: returns at once
}

// An Applier that panics fails its tick's changes, not the process.
func TestPanickingApplierIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rt := autoingest.New(func(context.Context, []autoingest.Change, autoingest.Options, func(document.Format) bool) (autoingest.Outcome, error) {
		panic("bad document")
	}, "", nil)
	defer rt.Close()
	res, err := rt.Start(context.Background(), autoingest.Options{Roots: []string{dir}, DebounceMs: 3600000}, nil)
	if err != nil || !strings.Contains(res.Error, "panic: bad document") || len(res.ErroredPaths) != 1 {
		t.Fatalf("bootstrap %+v, %v", res, err)
	}
}
