package session

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoverageRecord(t *testing.T) {
	c := NewCoverage()
	c.Record("a", "view", []string{"x.py"}, []string{"file::x.py"})
	c.Record("a", "impact", nil, []string{"file::x.py", "file::y.py"})
	c.Record("a", "view", []string{"x.py", ""}, nil)
	c.Record("b", "seek", nil, []string{"file::z.py"})
	got, ok := c.Snapshot("a")
	if !ok {
		t.Fatal("no record for a")
	}
	want := CoverageSnapshot{
		Read:  map[string]Visit{"x.py": {Reads: 2, First: 1, Last: 3, Tool: "view"}},
		Seen:  map[string]int{"file::x.py": 2, "file::y.py": 1},
		Tools: map[string]int{"view": 2, "impact": 1},
		Calls: 3,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot mismatch (-want +got):\n%s", diff)
	}
	if _, ok := c.Snapshot("nobody"); ok {
		t.Error("an unknown agent has a record")
	}
}

func TestCoverageBounds(t *testing.T) {
	c := NewCoverage()
	for i := range MaxCoverageRead + 10 {
		c.Record("a", "view", []string{fmt.Sprintf("f%d.py", i)}, nil)
	}
	s, _ := c.Snapshot("a")
	if len(s.Read) != MaxCoverageRead || !s.Capped {
		t.Errorf("%d files kept (capped %v), want %d and capped", len(s.Read), s.Capped, MaxCoverageRead)
	}
	for i := range MaxCoverageAgents + 1 {
		c.Record(fmt.Sprintf("agent%d", i), "seek", nil, []string{"n"})
	}
	if _, ok := c.Snapshot("a"); ok {
		t.Error("the least recently active agent was not forgotten at the agent cap")
	}
	if _, ok := c.Snapshot(fmt.Sprintf("agent%d", MaxCoverageAgents)); !ok {
		t.Error("the newest agent was dropped")
	}
}

func TestCoverageConcurrent(t *testing.T) {
	c := NewCoverage()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				c.Record(fmt.Sprintf("a%d", w%2), "view", []string{fmt.Sprintf("f%d", i)}, []string{"n"})
				c.Snapshot("a0")
			}
		})
	}
	wg.Wait()
	s, _ := c.Snapshot("a0")
	if s.Calls != 800 || len(s.Read) != 200 {
		t.Errorf("calls %d files %d, want 800 and 200", s.Calls, len(s.Read))
	}
}
