package session

import (
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestAutoPersistWaitsForAPause: a save that falls due in a burst of
// calls does not start while the calls go on (its garbage fed the
// collector they wait on, issue 29); it starts after autoPersistMaxLag
// intervals in a burst that never pauses, and at once after a pause.
func TestAutoPersistWaitsForAPause(t *testing.T) {
	s, err := Open(autoConfig(t), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(50, 120, 1))
	s.autoIdle = time.Hour // no pause in this burst
	for range 2 {
		s.QueryDone()
	}
	if last, _ := s.LastPersist(); s.autoBusy.Load() || !last.IsZero() {
		t.Fatal("a save started in the middle of a burst of calls")
	}
	for range 2 * autoPersistMaxLag {
		s.QueryDone()
	}
	waitPersist(t, s, "after autoPersistMaxLag intervals without a pause")
}

func TestAutoPersistAfterAPause(t *testing.T) {
	s, err := Open(autoConfig(t), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(50, 120, 1))
	s.autoIdle = 0 // every call is followed by a pause
	for range 2 {
		s.QueryDone()
	}
	waitPersist(t, s, "after a pause")
}

func autoConfig(t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.RuntimeDir = t.TempDir()
	cfg.AutoPersistInterval = 2
	return cfg
}

// waitPersist waits for a background save, for as long as it takes.
func waitPersist(t *testing.T, s *State, when string) {
	t.Helper()
	for {
		if last, msg := s.LastPersist(); !last.IsZero() {
			if msg != "" {
				t.Fatalf("the save %s failed: %s", when, msg)
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
