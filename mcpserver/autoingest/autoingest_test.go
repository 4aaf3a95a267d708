package autoingest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/document"
)

// recorder is an Applier that records what it was given and fails the
// paths it is told to.
type recorder struct {
	mu    sync.Mutex
	calls [][]Change
	fail  map[string]bool
}

func (r *recorder) apply(_ context.Context, ch []Change, _ Options, _ func(document.Format) bool) (Outcome, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, ch)
	out := Outcome{Errored: map[string]string{}}
	for _, c := range ch {
		switch {
		case r.fail[c.Path]:
			out.Errored[c.Path] = "broken"
		case c.Kind == Removed:
			out.Removed = append(out.Removed, c.Path)
		default:
			out.Ingested = append(out.Ingested, c.Path)
		}
	}
	return out, nil
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTicksFollowTheDisk(t *testing.T) {
	dir := t.TempDir()
	state := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "# A\n")
	write(t, filepath.Join(dir, "sub", "b.rst"), "B\n=\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n")
	write(t, filepath.Join(dir, "refs.bib"), "@misc{k, title = {T}}\n")
	rec := &recorder{fail: map[string]bool{}}
	rt := New(rec.apply, state, t.Logf)
	t.Cleanup(func() { rt.Close() })
	universal := func(f document.Format) bool { return f != document.BibTeX }
	boot, err := rt.Start(context.Background(), Options{Roots: []string{dir}, Namespace: "doc", DebounceMs: 50}, universal)
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a.md"), filepath.Join(dir, "sub", "b.rst")
	if want := []string{a, b}; !slices.Equal(boot.IngestedPaths, want) || boot.Trigger != "bootstrap" {
		t.Errorf("bootstrap %+v, want %v (no code, no bib)", boot, want)
	}
	// Nothing changed: a tick applies nothing.
	res, err := rt.Tick(context.Background())
	if err != nil || len(res.IngestedPaths)+len(res.RemovedPaths) != 0 {
		t.Errorf("idle tick %+v %v", res, err)
	}
	// Edit, add, remove; one file fails.
	write(t, a, "# A\n\nlonger now\n")
	c := filepath.Join(dir, "c.txt")
	write(t, c, "notes\n")
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	rec.fail[c] = true
	res, _ = rt.Tick(context.Background())
	if !slices.Equal(res.IngestedPaths, []string{a}) || !slices.Equal(res.RemovedPaths, []string{b}) || !slices.Equal(res.ErroredPaths, []string{c}) {
		t.Errorf("tick %+v", res)
	}
	st := rt.Status()
	if st.TrackedDocuments != 1 || len(st.LastErrors) != 1 || st.LastErrors[0].Path != c || st.TotalIngested != 3 || st.TotalRemoved != 1 {
		t.Errorf("status %+v", st)
	}
	// The failed file is tried again, and now succeeds.
	delete(rec.fail, c)
	res, _ = rt.Tick(context.Background())
	if !slices.Equal(res.IngestedPaths, []string{c}) {
		t.Errorf("retry tick %+v", res)
	}
	// A running watch is what a restarted server resumes; a stopped one
	// is not.
	if opt, ok := New(rec.apply, state, nil).Saved(); !ok || !slices.Equal(opt.Roots, rt.Status().Roots) {
		t.Errorf("saved while running: %+v %v, want the running watch's options", opt, ok)
	}
	was, n, err := rt.Stop()
	if _, ok := New(rec.apply, state, nil).Saved(); ok {
		t.Error("a stopped watch is saved as one to resume")
	}
	if !was || n != 2 || err != nil {
		t.Errorf("stop: %v %d %v", was, n, err)
	}
	data, err := os.ReadFile(filepath.Join(state, "auto-ingest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var mf manifestFile
	if err := json.Unmarshal(data, &mf); err != nil || len(mf.Entries) != 2 || mf.Running {
		t.Errorf("manifest %s (%v)", data, err)
	}
	if _, err := rt.Tick(context.Background()); err == nil {
		t.Error("tick after stop succeeded")
	}
}

// The watcher applies a new file without a tick call. (The wait is a
// bound on a hung test, not a latency assertion.)
func TestWatcherPicksUpChanges(t *testing.T) {
	dir := t.TempDir()
	rec := &recorder{fail: map[string]bool{}}
	rt := New(rec.apply, "", nil)
	t.Cleanup(func() { rt.Close() })
	if _, err := rt.Start(context.Background(), Options{Roots: []string{dir}, DebounceMs: 20}, nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "new.md")
	write(t, p, "# New\n")
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if st := rt.Status(); st.TotalIngested == 1 {
			if st.LastTick.Trigger != "watch" && st.LastTick.Trigger != "poll" {
				t.Errorf("trigger %q", st.LastTick.Trigger)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the new file was never applied: %+v", rt.Status())
}

func TestStartRefusesBadRoots(t *testing.T) {
	rt := New((&recorder{}).apply, "", nil)
	if _, err := rt.Start(context.Background(), Options{}, nil); err == nil {
		t.Error("no roots accepted")
	}
	if _, err := rt.Start(context.Background(), Options{Roots: []string{filepath.Join(t.TempDir(), "missing")}}, nil); err == nil {
		t.Error("missing root accepted")
	}
	if st := rt.Status(); st.Running {
		t.Error("running after refusals")
	}
}
