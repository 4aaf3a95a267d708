package continuity

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sampleTrail(agent, label string) Trail {
	return Trail{
		AgentID: agent, Label: label,
		Hypotheses: []Hypothesis{
			{Statement: "Auth tokens leak through session pool", Confidence: 0.7, SupportingNodes: []string{"file::session.py"}},
			{Statement: "Rate limiter missing from auth chain", Confidence: 0.9, SupportingNodes: []string{"file::middleware.py"}},
		},
		OpenQuestions: []string{"Does the rate limiter apply to WebSocket connections?"},
		Tags:          []string{"security", "auth"},
		Visited:       []Visited{{NodeID: "file::auth.py", Relevance: 0.5}},
		Boosts:        map[string]float64{"file::session.py": 0.8},
	}
}

func kindOf(err error) (Kind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}

func TestTrailSaveListReload(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	tr, err := s.Trails.Save(sampleTrail("jimi", "auth-leak"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tr.ID, "trail_jimi_001_") || tr.Status != StatusSaved || tr.Summary == "" {
		t.Fatalf("saved %+v", tr)
	}
	if got := tr.Nodes(); strings.Join(got, ",") != "file::auth.py,file::middleware.py,file::session.py" {
		t.Errorf("nodes %v", got)
	}
	tr2, _ := s.Trails.Save(sampleTrail("other", "perf"))
	if _, err := s.Trails.SetStatus(tr2.ID, StatusArchived, ""); err != nil {
		t.Fatal(err)
	}
	if l := s.Trails.List(TrailFilter{Tags: []string{"auth"}, Status: StatusSaved}); len(l) != 1 || l[0].ID != tr.ID {
		t.Errorf("filtered list %v", l)
	}
	// A restart sees the same trails; the next id does not reuse a number.
	s2 := open(t, dir)
	got, err := s2.Trails.Get(tr.ID)
	if err != nil || got.Label != "auth-leak" || len(got.Hypotheses) != 2 {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
	if g2, _ := s2.Trails.Get(tr2.ID); g2.Status != StatusArchived {
		t.Errorf("status after reopen: %s", g2.Status)
	}
	tr3, _ := s2.Trails.Save(sampleTrail("jimi", "again"))
	if !strings.HasPrefix(tr3.ID, "trail_jimi_002_") {
		t.Errorf("next id %s", tr3.ID)
	}
}

func TestTrailValidation(t *testing.T) {
	s := open(t, "")
	long := strings.Repeat("x", MaxStatement+1)
	for name, mut := range map[string]func(*Trail){
		"bad agent":        func(tr *Trail) { tr.AgentID = "../etc" },
		"empty label":      func(tr *Trail) { tr.Label = " " },
		"empty statement":  func(tr *Trail) { tr.Hypotheses[0].Statement = "" },
		"long statement":   func(tr *Trail) { tr.Hypotheses[0].Statement = long },
		"confidence > 1":   func(tr *Trail) { tr.Hypotheses[0].Confidence = 1.5 },
		"boost < 0":        func(tr *Trail) { tr.Boosts["file::a.py"] = -1 },
		"too many tags":    func(tr *Trail) { tr.Tags = make([]string, MaxTags+1) },
		"control in label": func(tr *Trail) { tr.Label = "a\x00b" },
	} {
		tr := sampleTrail("jimi", "x")
		mut(&tr)
		if _, err := s.Trails.Save(tr); err == nil {
			t.Errorf("%s: accepted", name)
		} else if k, ok := kindOf(err); !ok || (k != Invalid && k != Limit) {
			t.Errorf("%s: %v is not a teaching error", name, err)
		}
	}
	if s.Trails.Len() != 0 {
		t.Errorf("a refused save stored a trail")
	}
}

func TestAgentIDs(t *testing.T) {
	for _, id := range []string{"jimi", "hacker-auth", "a.b_c-1", "X"} {
		if err := ValidateAgentID(id); err != nil {
			t.Errorf("%q refused: %v", id, err)
		}
	}
	for _, id := range []string{"", ".hidden", "../x", "a/b", "a b", "é", strings.Repeat("a", 65), "-x", "a\\b"} {
		if err := ValidateAgentID(id); err == nil {
			t.Errorf("%q accepted", id)
		}
	}
}

func TestTrailCaps(t *testing.T) {
	s := open(t, "")
	for i := range MaxTrailsPerAgent {
		if _, err := s.Trails.Save(sampleTrail("jimi", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Trails.Save(sampleTrail("jimi", "one more")); err == nil {
		t.Fatal("cap not enforced")
	} else if k, _ := kindOf(err); k != Limit {
		t.Errorf("kind %v", k)
	}
}

// A file that does not decode or validate is moved to corrupt/ at load,
// the rest load, and a temp file left by a killed write is removed.
func TestCorruptFilesSetAside(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	good, _ := s.Trails.Save(sampleTrail("jimi", "good"))
	s.Memory.Set("jimi", "k", []byte(`{"a":1}`))
	tdir := filepath.Join(dir, Dir, trailsDir)
	os.WriteFile(filepath.Join(tdir, "trail_jimi_009_000000.json"), []byte(`{"format":1,"trail_id":"trail_jimi_0`), 0o644)
	os.WriteFile(filepath.Join(tdir, "trail_x_001_000000.json"), []byte(`{"format":1,"trail_id":"trail_y_001_000000","agent_id":"y","label":"l","status":"saved"}`), 0o644)
	os.WriteFile(filepath.Join(tdir, ".trail_jimi_010.json.tmp-123"), []byte(`{"half`), 0o644)
	os.WriteFile(filepath.Join(dir, Dir, memoryDir, "jimi.json"), []byte(`not json`), 0o644)
	os.WriteFile(filepath.Join(dir, Dir, metaFile), []byte(`{"format":1,`), 0o644)
	s2 := open(t, dir)
	if _, err := s2.Trails.Get(good.ID); err != nil {
		t.Errorf("good trail lost: %v", err)
	}
	if s2.Trails.Len() != 1 {
		t.Errorf("%d trails loaded, want 1", s2.Trails.Len())
	}
	if _, ok := s2.Memory.Get("jimi", "k"); ok {
		t.Errorf("corrupt memory served")
	}
	if w := s2.Warnings(); len(w) != 4 {
		t.Errorf("warnings %q, want 4", w)
	}
	aside, _ := os.ReadDir(filepath.Join(dir, Dir, corruptDir))
	if len(aside) != 4 {
		t.Errorf("%d files set aside, want 4", len(aside))
	}
	if m, _ := filepath.Glob(filepath.Join(tdir, ".*.tmp-*")); len(m) != 0 {
		t.Errorf("temp files left: %v", m)
	}
	// The sequence continues past what the loaded trails used.
	tr, _ := s2.Trails.Save(sampleTrail("jimi", "next"))
	if !strings.HasPrefix(tr.ID, "trail_jimi_002_") {
		t.Errorf("id after a lost meta file: %s", tr.ID)
	}
	// Nothing set aside is loaded by the next start.
	if s3 := open(t, dir); len(s3.Warnings()) != 0 || s3.Trails.Len() != 2 {
		t.Errorf("third start: %v, %d trails", s3.Warnings(), s3.Trails.Len())
	}
}

// Eight agents save, list and update trails and boot memory at once: every
// acknowledged write is there afterwards, in memory and after a reload.
func TestConcurrentAgents(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	var wg sync.WaitGroup
	ids := make([][]string, 8)
	for a := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := fmt.Sprintf("agent-%d", a)
			for i := range 10 {
				tr, err := s.Trails.Save(sampleTrail(agent, fmt.Sprint(i)))
				if err != nil {
					t.Error(err)
					return
				}
				ids[a] = append(ids[a], tr.ID)
				if _, err := s.Memory.Set(agent, fmt.Sprintf("k%d", i), []byte(fmt.Sprint(i))); err != nil {
					t.Error(err)
				}
				s.Trails.List(TrailFilter{})
				if i%3 == 0 {
					s.Trails.SetStatus(tr.ID, StatusActive, "")
				}
			}
		}()
	}
	wg.Wait()
	for _, st := range []*Store{s, open(t, dir)} {
		if st.Trails.Len() != 80 {
			t.Errorf("%d trails, want 80", st.Trails.Len())
		}
		for a := range 8 {
			keys, _ := st.Memory.List(fmt.Sprintf("agent-%d", a))
			if len(keys) != 10 {
				t.Errorf("agent %d: %d keys", a, len(keys))
			}
			for i, id := range ids[a] {
				tr, err := st.Trails.Get(id)
				if err != nil {
					t.Fatal(err)
				}
				if want := map[bool]string{true: StatusActive, false: StatusSaved}[i%3 == 0]; tr.Status != want {
					t.Errorf("%s: status %s, want %s", id, tr.Status, want)
				}
			}
		}
	}
}

func TestMemory(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.SetClock(func() time.Time { return time.Unix(1700000000, 0) })
	if existed, err := s.Memory.Set("jimi", "doctrine/review", []byte(` { "rules" : [1, 2] } `)); err != nil || existed {
		t.Fatal(existed, err)
	}
	if e, ok := s.Memory.Get("jimi", "doctrine/review"); !ok || string(e.Value) != `{"rules":[1,2]}` {
		t.Fatalf("get %s %v", e.Value, ok)
	}
	if _, ok := s.Memory.Get("other", "doctrine/review"); ok {
		t.Error("another agent reads jimi's memory")
	}
	for name, c := range map[string]struct{ key, val string }{
		"bad key":   {"a b", "1"},
		"bad json":  {"k", "{"},
		"empty":     {"k", ""},
		"too large": {"k", `"` + strings.Repeat("x", MaxMemoryValue) + `"`},
	} {
		if _, err := s.Memory.Set("jimi", c.key, []byte(c.val)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for i := range MaxMemoryKeys - 1 {
		if _, err := s.Memory.Set("jimi", fmt.Sprint(i), []byte("1")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Memory.Set("jimi", "one-more", []byte("1")); err == nil {
		t.Error("key cap not enforced")
	}
	if ok, err := s.Memory.Delete("jimi", "0"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	s2 := open(t, dir)
	keys, n := s2.Memory.List("jimi")
	if len(keys) != MaxMemoryKeys-1 || n == 0 {
		t.Errorf("after reopen: %d keys, %d bytes", len(keys), n)
	}
	if e, ok := s2.Memory.Get("jimi", "doctrine/review"); !ok || e.UpdatedMs != 1700000000000 {
		t.Errorf("entry after reopen: %+v", e)
	}
}

func TestMerge(t *testing.T) {
	a := &Trail{ID: "trail_a_001_x", AgentID: "a", Label: "auth", ModifiedMs: 1,
		Hypotheses: []Hypothesis{{Statement: "Session pool leaks tokens", Confidence: 0.8, SupportingNodes: []string{"file::pool.py"}}},
		Visited:    []Visited{{NodeID: "file::pool.py", Relevance: 0.4}, {NodeID: "file::auth.py", Relevance: 0.9}},
		Tags:       []string{"auth"}, OpenQuestions: []string{"Who rotates tokens?"}}
	b := &Trail{ID: "trail_b_001_y", AgentID: "b", Label: "session", ModifiedMs: 2,
		Hypotheses: []Hypothesis{
			{Statement: "Session pool tokens are properly scoped", Confidence: 0.5, SupportingNodes: []string{"file::pool.py"}},
			{Statement: "session pool LEAKS tokens!", Confidence: 0.6},
			{Statement: "Cache is fine", Confidence: 0.5, ContradictingNodes: []string{"file::auth.py"}},
		},
		Visited: []Visited{{NodeID: "file::pool.py", Relevance: 0.7}},
		Tags:    []string{"session", "auth"}, OpenQuestions: []string{"who rotates tokens"}}
	c := &Trail{ID: "trail_c_001_z", AgentID: "c", Label: "c", ModifiedMs: 0,
		Hypotheses: []Hypothesis{{Statement: "Auth checks passwords", Confidence: 0.5, SupportingNodes: []string{"file::auth.py"}}}}
	m, rep := Merge("jimi", "", []*Trail{a, b, c})
	if len(m.Visited) != 2 || m.Visited[0].Relevance != 0.7 {
		t.Errorf("visited %+v", m.Visited)
	}
	if len(m.Hypotheses) != 4 || len(m.OpenQuestions) != 1 || strings.Join(m.Tags, ",") != "auth,session" {
		t.Errorf("merged %+v", m)
	}
	if len(rep.Conflicts) != 2 {
		t.Fatalf("conflicts %v", rep.Conflicts)
	}
	// "leaks" 0.8 (older trail) vs "properly scoped" 0.5+0.1: resolved.
	c0 := rep.Conflicts[0]
	if c0.Why != "opposite_statements" || c0.Resolution != "resolved" || c0.Winner != "Session pool leaks tokens" || c0.ScoreDelta != 0.2 {
		t.Errorf("conflict 0: %+v", c0)
	}
	// The cache hypothesis contradicts auth.py, which trail c supports.
	if c1 := rep.Conflicts[1]; c1.Why != "contradicting_nodes" || c1.Resolution != "unresolved" {
		t.Errorf("conflict 1: %+v", c1)
	}
	if strings.Join(rep.SharedNodes, ",") != "file::auth.py,file::pool.py" || m.Label == "" {
		t.Errorf("shared %v label %q", rep.SharedNodes, m.Label)
	}
	if err := func() error { m.Status = StatusSaved; return m.Validate() }(); err != nil {
		t.Errorf("merged trail invalid: %v", err)
	}
}
