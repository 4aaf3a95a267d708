package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// Close returns only once a running background job has seen its context
// end and returned.
func TestCloseWaitsForBackgroundWork(t *testing.T) {
	s := openAt(t, t.TempDir())
	started, observed, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
	s.Go("test job", func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		close(observed)
		// Still running after its context ended: Close must wait.
		defer close(returned)
		return ctx.Err()
	})
	<-started
	select {
	case <-s.Context().Done():
		t.Fatal("the session's context ended before Close")
	default:
	}
	if got := s.Running(); len(got) != 1 || got[0] != "test job" {
		t.Fatalf("Running = %v", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ch   chan struct{}
		what string
	}{{observed, "saw its context end"}, {returned, "returned"}} {
		select {
		case <-c.ch:
		default:
			t.Fatalf("Close returned before the job %s", c.what)
		}
	}
	if got := s.Running(); len(got) != 0 {
		t.Fatalf("Running after Close = %v", got)
	}
}

// A panic in a job is logged and ends neither the server nor Close; an
// error is logged with the job's name; a job called off is not an error.
func TestGoRecoversAndLogs(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	cfg := DefaultConfig()
	s, err := Open(cfg, func(format string, args ...any) {
		mu.Lock()
		lines = append(lines, fmt.Sprintf(format, args...))
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	s.Go("panicky", func(context.Context) error { defer wg.Done(); panic("bad index") })
	s.Go("failing", func(context.Context) error { defer wg.Done(); return errors.New("disk full") })
	s.Go("called off", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	wg.Wait()
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	log := strings.Join(lines, "\n")
	for _, want := range []string{"panicky: panic: bad index", "failing: disk full"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "called off:") {
		t.Errorf("a job called off was logged as failing:\n%s", log)
	}
}

// Close says what it is still waiting for.
func TestCloseReportsWhatStillRuns(t *testing.T) {
	defer func(d time.Duration) { closeWaitReport = d }(closeWaitReport)
	closeWaitReport = time.Millisecond
	reported := make(chan string, 16)
	s, err := Open(DefaultConfig(), func(format string, args ...any) {
		if l := fmt.Sprintf(format, args...); strings.Contains(l, "still waiting") {
			select {
			case reported <- l:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var said string
	s.Go("slow job", func(ctx context.Context) error {
		<-ctx.Done()
		said = <-reported // return once Close has said it waits
		return nil
	})
	s.Close()
	if !strings.Contains(said, "[slow job]") {
		t.Fatalf("Close said %q", said)
	}
}

// Work started after Close began sees an ended context at once, and is
// not waited for.
func TestGoAfterClose(t *testing.T) {
	s, err := Open(DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	done := make(chan error, 1)
	s.Go("late", func(ctx context.Context) error { done <- ctx.Err(); return nil })
	if err := <-done; err == nil {
		t.Fatal("a job started after Close had a live context")
	}
}
