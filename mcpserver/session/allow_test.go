package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckIngestPath(t *testing.T) {
	allowed := t.TempDir()
	other := t.TempDir()
	cfg := DefaultConfig()
	cfg.AllowRoots = []string{allowed}
	st, err := Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sub := filepath.Join(allowed, "repo")
	os.MkdirAll(sub, 0o755)
	if err := st.CheckIngestPath(sub); err != nil {
		t.Errorf("a directory under an allowed root was refused: %v", err)
	}
	// A symlink inside the allowed root leading out is judged by its target.
	link := filepath.Join(allowed, "out")
	if err := os.Symlink(other, link); err == nil {
		if err := st.CheckIngestPath(link); err == nil {
			t.Error("a symlink leading out of the allowed root was accepted")
		}
	}
	for _, p := range []string{other, "/etc", "/"} {
		err := st.CheckIngestPath(p)
		var re *RootError
		if !errors.As(err, &re) || !strings.Contains(re.Hint(), "--allow-root") {
			t.Errorf("%s: %v, want a RootError saying how to allow it", p, err)
		}
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		cfg.AllowRoots = []string{"/"}
		st2 := &State{cfg: cfg}
		st2.cur.Store(&Bundle{Graph: st.Current().Graph})
		if err := st2.CheckIngestPath("/proc/self"); err == nil || !strings.Contains(err.Error(), "pseudo file system") {
			t.Errorf("/proc allowed under root /: %v", err)
		}
	}
}

func TestAgentTableIsBounded(t *testing.T) {
	st, err := Open(DefaultConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < MaxAgents+50; i++ {
		st.Touch(fmt.Sprintf("agent-%04d", i))
	}
	if n := len(st.Agents()); n != MaxAgents {
		t.Errorf("%d agents kept, want the bound %d", n, MaxAgents)
	}
	st.Touch("agent-0000")
	for _, a := range st.Agents() {
		if a.ID == "agent-0001" {
			t.Error("the least recently seen agents were not the ones dropped")
		}
	}
}

// The roots an MCP client reports (roots/list) are allowed too.
func TestClientRootsAreAllowed(t *testing.T) {
	allowed, client := t.TempDir(), t.TempDir()
	cfg := DefaultConfig()
	cfg.AllowRoots = []string{allowed}
	st, err := Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CheckIngestPath(client); err == nil {
		t.Fatal("a directory no one allowed was accepted")
	}
	st.SetClientRoots("session-1", []string{client})
	if err := st.CheckIngestPath(filepath.Join(client)); err != nil {
		t.Fatalf("a client root was refused: %v", err)
	}
}
