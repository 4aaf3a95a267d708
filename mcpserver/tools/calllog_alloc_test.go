package tools

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/race"
)

// filesNamedMap is filesNamed as it was, with a map of the paths seen:
// the reference the pooled scan must equal.
func filesNamedMap(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		p := n
		if rest, ok := strings.CutPrefix(n, "file::"); ok {
			p, _, _ = strings.Cut(rest, "::")
		} else if strings.Contains(n, "::") {
			continue
		}
		if p == "" || seen[p] || len(out) == MaxLoggedFiles {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// TestFilesNamedAsMap: read then seen give the paths the map version
// gave for the two lists joined, nil included, across the scan's switch
// to a set and the MaxLoggedFiles cap.
func TestFilesNamedAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 29))
	name := func(k int) string {
		switch r.IntN(5) {
		case 0:
			return fmt.Sprintf("file::src/f%d.go::func::F%d", k, r.IntN(3))
		case 1:
			return fmt.Sprintf("dir::src/d%d", k)
		case 2:
			return ""
		default:
			return fmt.Sprintf("src/f%d.go", k)
		}
	}
	for i := range 400 {
		distinct := []int{3, 20, 33, 40, 150, 600}[i%6]
		var read, seen []string
		for range r.IntN(2 * distinct) {
			read = append(read, name(r.IntN(distinct)))
		}
		for range r.IntN(3 * distinct) {
			seen = append(seen, name(r.IntN(distinct)))
		}
		if i%7 == 0 {
			read = nil
		}
		want := filesNamedMap(append(slices.Clip(read), seen...))
		got := filesNamed(read, seen)
		if !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("case %d (%d read, %d seen):\n got %v\nwant %v", i, len(read), len(seen), got, want)
		}
	}
}

type walkedNode struct {
	NodeID string  `json:"node_id"`
	Label  string  `json:"label"`
	Score  float64 `json:"score"`
}

type walkedAnswer struct {
	Activated []walkedNode `json:"activated"`
	Ghosts    []struct {
		Source string `json:"source"`
		Target string `json:"target"`
	} `json:"ghost_edges"`
}

// TestLogCallAllocations: logging an activate-shaped answer (20 nodes in
// 12 files, 5 ghost edges) costs one allocation, the record's file list:
// the walk's strings and filesNamed's list and set come from pools (13
// allocations when they were made for every call).
func TestLogCallAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation is not measured under the race detector")
	}
	s := openMemory(t)
	defer s.Close()
	var a walkedAnswer
	for i := range 20 {
		a.Activated = append(a.Activated, walkedNode{NodeID: fmt.Sprintf("file::src/p%d/f.go::func::F%d", i%12, i), Label: "F", Score: 0.5})
	}
	for i := range 5 {
		a.Ghosts = append(a.Ghosts, struct {
			Source string `json:"source"`
			Target string `json:"target"`
		}{fmt.Sprintf("file::src/p%d/f.go", i), fmt.Sprintf("file::src/p%d/f.go", i+1)})
	}
	res := Result{Value: a}.encoded()
	c := &Call{Tool: &Tool{Name: "activate"}, AgentID: "t"}
	for range 2 * MaxLoggedCalls { // the log full: its ring no longer grows
		logCall(s, c, nil, res, 0)
	}
	if files := Calls(s).Records("t"); len(files[len(files)-1].Files) != 12 {
		t.Fatalf("files %v, want 12", files[len(files)-1].Files)
	}
	if n := testing.AllocsPerRun(100, func() { logCall(s, c, nil, res, 0) }); n > 1 {
		t.Errorf("logCall: %.0f allocations a call, want 1 (the file list)", n)
	}
}
