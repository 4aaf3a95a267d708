package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// A burst of writes is one call; noise and ignored paths are none.
func TestBurstAndNoise(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "skip"), 0o755)
	var fires, events atomic.Int32
	w := Start([]string{root}, Config{
		Debounce: 150 * time.Millisecond, Poll: time.Second,
		Ignore: func(p string) bool { return filepath.Base(filepath.Dir(p)) == "skip" },
		Event:  func(string) { events.Add(1) },
		Fire:   func(context.Context, string) { fires.Add(1) },
	})
	defer w.Stop()
	if w.Backend != "notify" {
		t.Skip("kernel watches unavailable here:", w.Note)
	}
	for _, p := range []string{"a.go~", ".a.go.swp", "skip/x.go", ".m1nd-tmp-1"} {
		os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644)
	}
	time.Sleep(400 * time.Millisecond)
	if n := fires.Load(); n != 0 {
		t.Fatalf("noise fired %d times", n)
	}
	for i := 0; i < 200; i++ {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte("package x\n"), 0o644)
	}
	for i := 0; i < 1000 && fires.Load() == 0; i++ {
		time.Sleep(10 * time.Millisecond) // a bound against a hang
	}
	time.Sleep(400 * time.Millisecond)
	if n := fires.Load(); n != 1 || events.Load() < 200 {
		t.Errorf("200 writes: %d calls, %d events; want 1 call", n, events.Load())
	}
}

func TestNoise(t *testing.T) {
	for p, want := range map[string]bool{
		"/r/.git/index.lock": true, "/r/a.go~": true, "/r/.#a.go": true, "/r/4913": true, "/r/.a.swp": true,
		"/r/.m1nd-tmp-3": true, "/r/x.tmp": true, "/r/a.go": false, "/r/gitignore.go": false, "/r/.github/ci.yml": false,
	} {
		if got := Noise(p); got != want {
			t.Errorf("Noise(%q) = %v", p, got)
		}
	}
}

// A lone write is called after Quick, not Debounce (here an hour); a
// burst after it still waits for Debounce and is one call.
func TestLoneChangeIsQuick(t *testing.T) {
	root := t.TempDir()
	var fires atomic.Int32
	w := Start([]string{root}, Config{
		Debounce: time.Hour, Quick: 10 * time.Millisecond, Poll: time.Second,
		Fire: func(context.Context, string) { fires.Add(1) },
	})
	defer w.Stop()
	if w.Backend != "notify" {
		t.Skip("kernel watches unavailable here:", w.Note)
	}
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	for i := 0; i < 3000 && fires.Load() == 0; i++ {
		time.Sleep(10 * time.Millisecond) // a bound against a hang: Debounce would be an hour
	}
	if n := fires.Load(); n != 1 {
		t.Fatalf("a lone write: %d calls, want 1 after the quick wait", n)
	}
}

func TestQuiet(t *testing.T) {
	c := Config{Debounce: 100 * time.Millisecond, Quick: 20 * time.Millisecond}
	for n, want := range map[int]time.Duration{1: c.Quick, QuickEvents: c.Quick, QuickEvents + 1: c.Debounce, 300: c.Debounce} {
		if got := c.quiet(n); got != want {
			t.Errorf("quiet(%d) = %v, want %v", n, got, want)
		}
	}
	if got := (&Config{Debounce: time.Second}).quiet(1); got != time.Second {
		t.Errorf("without Quick, quiet(1) = %v", got)
	}
}

// Stop calls off a Fire in progress (its context ends) and returns once
// it has returned; Trigger fires without an event.
func TestStopCallsOffFire(t *testing.T) {
	started, observed := make(chan string, 1), make(chan struct{})
	w := Start([]string{t.TempDir()}, Config{Debounce: time.Hour, Poll: time.Hour,
		Fire: func(ctx context.Context, trigger string) {
			started <- trigger
			<-ctx.Done()
			close(observed)
		}})
	w.Trigger("resume")
	if tr := <-started; tr != "resume" {
		t.Fatalf("Fire(%q), want resume", tr)
	}
	w.Stop()
	select {
	case <-observed:
	default:
		t.Fatal("Stop returned before the Fire in progress saw its context end")
	}
	w.Stop() // a second Stop does nothing
}

// Under an owner's Go, the watch ends with the owner's lifetime: its
// context's end calls off the Fire in progress and ends the loop, which
// the owner waits for.
func TestWatchUnderOwner(t *testing.T) {
	life, end := context.WithCancel(context.Background())
	var names []string
	loopDone := make(chan struct{})
	goFn := func(name string, f func(context.Context) error) {
		names = append(names, name)
		go func() { defer close(loopDone); f(life) }()
	}
	started, observed := make(chan struct{}), make(chan struct{})
	w := Start([]string{t.TempDir()}, Config{Debounce: time.Hour, Poll: time.Hour, Go: goFn,
		Fire: func(ctx context.Context, _ string) {
			close(started)
			<-ctx.Done()
			close(observed)
		}})
	if len(names) != 1 {
		t.Fatalf("Go called %d times", len(names))
	}
	w.Trigger("manual")
	<-started
	end()
	<-loopDone
	select {
	case <-observed:
	default:
		t.Fatal("the loop ended before its Fire saw the lifetime end")
	}
	w.Stop() // after the owner ended it: returns at once
}

// A watch whose owner has already closed (Go runs f with an ended
// context) stops at once.
func TestWatchUnderClosedOwner(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	w := Start([]string{t.TempDir()}, Config{Debounce: time.Hour, Poll: time.Hour,
		Go:   func(_ string, f func(context.Context) error) { go f(ended) },
		Fire: func(context.Context, string) { t.Error("fired") }})
	w.Trigger("manual")
	w.Stop()
}

// A call after events names their paths (noise left out), complete while
// they are few; a burst of more than MaxChangeEvents is not complete.
func TestFireChangedNamesPaths(t *testing.T) {
	root := t.TempDir()
	got := make(chan Changes, 4)
	w := Start([]string{root}, Config{
		Debounce: time.Second, Quick: 50 * time.Millisecond, Poll: time.Second,
		Fire:        func(context.Context, string) { t.Error("Fire called; FireChanged was set") },
		FireChanged: func(_ context.Context, ch Changes) { got <- ch },
	})
	defer w.Stop()
	if w.Backend != "notify" {
		t.Skip("kernel watches unavailable here:", w.Note)
	}
	before := time.Now()
	os.WriteFile(filepath.Join(root, "a.go~"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	ch := <-got
	if want := []string{filepath.Join(root, "a.go")}; !ch.Complete || !slices.Equal(ch.Paths, want) || ch.Closed.Before(before) {
		t.Fatalf("after one write: %+v, want complete %v", ch, want)
	}
	for i := range MaxChangeEvents + 1 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.go", i)), []byte("package a\n"), 0o644)
	}
	if ch := <-got; ch.Complete {
		t.Fatalf("a burst of %d writes reported complete (%d paths)", MaxChangeEvents+1, len(ch.Paths))
	}
}
