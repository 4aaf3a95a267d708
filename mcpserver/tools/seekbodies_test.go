package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// TestSeekDocumentsOutliveARestart: a persistent session saves its seek
// index's body documents; the next session on the same runtime directory
// builds its first index from them — on the saved graph, and after an
// incremental ingest of a file edited while it was down — reading no
// file, and answers as an index that reads the tree. Unchanged documents
// are not written again; a damaged file costs the build its reads.
func TestSeekDocumentsOutliveARestart(t *testing.T) {
	dir := fixture.Write(t)
	rt := t.TempDir()
	file := filepath.Join(rt, SeekBodiesFile)
	open := func() *session.State {
		cfg := session.DefaultConfig()
		cfg.AllowRoots, cfg.RuntimeDir = []string{dir}, rt
		s, err := session.Open(cfg, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	ingest := func(s *session.State, incremental bool) *session.Bundle {
		c := &Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
		r := &IngestRun{C: c, Path: dir, Adapter: "code", Mode: "replace", Incremental: incremental}
		if err := r.Target(); err != nil {
			t.Fatal(err)
		}
		jb, err := r.BuildJournaled()
		if err != nil {
			t.Fatal(err)
		}
		return jb.Bundle
	}
	// index builds s's index of b and reports the files it read, and
	// checks its answers against an index that reads the tree.
	index := func(s *session.State, b *session.Bundle) int64 {
		t.Helper()
		n := seekReads.Load()
		x, err := SeekIndex(s, b)
		if err != nil {
			t.Fatal(err)
		}
		read := seekReads.Load() - n
		o := seek.DefaultOptions()
		o.ReadFile = func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }
		want, err := seek.Build(context.Background(), b.Graph, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"validate user credentials", "session token store", "audit login attempts"} {
			p := seek.Params{TopK: 20, GraphRerank: true}
			if d := cmp.Diff(want.SearchText(q, p), x.SearchText(q, p)); d != "" {
				t.Errorf("query %q (-read +built):\n%s", q, d)
			}
		}
		return read
	}

	s := open()
	b := ingest(s, false)
	if n := index(s, b); n != 0 {
		t.Logf("first index read %d files", n) // (a small tree's feed holds them)
	}
	if _, err := s.Persist("test"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no documents saved at close: %v", err)
	}
	files := lastSeekOf(s).get().Files()

	t.Run("restart on the saved graph", func(t *testing.T) {
		s := open()
		if n := index(s, s.Current()); n != 0 {
			t.Errorf("the restart's index read %d of %d files", n, files)
		}
		s.Close()
		if now, _ := os.ReadFile(file); !bytes.Equal(now, saved) {
			t.Error("documents that did not change were written again")
		}
	})

	t.Run("read before the session opened", func(t *testing.T) {
		pre := PreloadSeekBodies(file)
		<-pre.done
		// Moved away: the session can have the documents only from the
		// read begun before it.
		if err := os.Rename(file, file+".aside"); err != nil {
			t.Fatal(err)
		}
		defer os.Rename(file+".aside", file)
		s := open()
		pre.Adopt(s)
		if n := index(s, s.Current()); n != 0 {
			t.Errorf("the index read %d of %d files: the preload was not taken", n, files)
		}
		s.Close()
	})

	t.Run("a file edited while down, an incremental ingest", func(t *testing.T) {
		f := filepath.Join(dir, "backend", "auth.py")
		src, _ := os.ReadFile(f)
		edited := append(src, "\n\ndef audit_login_attempts(user):\n    \"\"\"Audit the login attempts of user.\"\"\"\n    return user\n"...)
		if err := os.WriteFile(f, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		s := open()
		b := ingest(s, true)
		if n := index(s, b); n != 0 {
			t.Errorf("after the ingest the index read %d of %d files (the ingest read the edited one)", n, files)
		}
		s.Close()
		if now, _ := os.ReadFile(file); bytes.Equal(now, saved) {
			t.Error("the edited file's documents were not saved")
		}
	})

	t.Run("a damaged file", func(t *testing.T) {
		data, _ := os.ReadFile(file)
		data[len(data)/2] ^= 0xff
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s := open()
		if n := index(s, s.Current()); n != int64(files) {
			t.Errorf("with a damaged file the index read %d of %d files", n, files)
		}
		s.Close()
		data, _ = os.ReadFile(file)
		if _, err := seek.ReadBodies(data); err != nil {
			t.Errorf("not written again: %v", err)
		}
	})
}

// TestSeekDocumentsSavedWhenQuiet: a running session saves new documents
// once its builds have been quiet, without waiting for its close.
func TestSeekDocumentsSavedWhenQuiet(t *testing.T) {
	defer func(d time.Duration) { seekSaveQuiet = d }(seekSaveQuiet)
	seekSaveQuiet = 10 * time.Millisecond
	s, _, jb := buildFixtureJournaled(t, true)
	if _, err := SeekIndex(s, jb.Bundle); err != nil {
		t.Fatal(err)
	}
	file := s.RuntimePath(SeekBodiesFile)
	for range 500 {
		if data, err := os.ReadFile(file); err == nil {
			if b, err := seek.ReadBodies(data); err != nil || b.Files() != lastSeekOf(s).get().Files() {
				t.Fatalf("saved documents: %v", err)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no documents saved 5 s after the index's build")
}

// TestSeekDocumentsOfFewFilesSavedAtClose: a build whose documents differ
// from the saved ones in few files (one of the fixture's nine under a
// share of 4) is not written when quiet — an agent's edits a few seconds
// apart would rewrite every file's documents each time — but at the
// session's close; more (under a share of 16) are written when quiet.
func TestSeekDocumentsOfFewFilesSavedAtClose(t *testing.T) {
	defer func(d time.Duration, n int) { seekSaveQuiet, seekSaveShare = d, n }(seekSaveQuiet, seekSaveShare)
	seekSaveQuiet = 10 * time.Millisecond
	for _, tc := range []struct {
		share   int
		atClose bool
	}{{4, true}, {16, false}} {
		t.Run(fmt.Sprintf("share %d", tc.share), func(t *testing.T) {
			seekSaveShare = tc.share
			s, r, jb := buildFixtureJournaled(t, true)
			if _, err := SeekIndex(s, jb.Bundle); err != nil {
				t.Fatal(err)
			}
			file := s.RuntimePath(SeekBodiesFile)
			first := waitForFile(t, file, nil)
			f := filepath.Join(r.Path, "backend", "auth.py")
			src, _ := os.ReadFile(f)
			if err := os.WriteFile(f, append(src, "\n\ndef audit_login_attempts(user):\n    return user\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			again := &IngestRun{C: r.C, Path: r.Path, Adapter: "code", Mode: "replace", Incremental: true}
			if err := again.Target(); err != nil {
				t.Fatal(err)
			}
			jb, err := again.BuildJournaled()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := SeekIndex(s, jb.Bundle); err != nil {
				t.Fatal(err)
			}
			if !tc.atClose {
				waitForFile(t, file, first)
				return
			}
			time.Sleep(30 * seekSaveQuiet)
			if now, _ := os.ReadFile(file); !bytes.Equal(now, first) {
				t.Fatal("one file's new documents were saved when quiet: every file's were written again")
			}
			s.Close()
			now, err := os.ReadFile(file)
			if err != nil || bytes.Equal(now, first) {
				t.Fatalf("the new documents were not saved at close (%v)", err)
			}
			if b, err := seek.ReadBodies(now); err != nil || b.Files() != lastSeekOf(s).get().Files() {
				t.Fatalf("saved at close: %v", err)
			}
		})
	}
}

// waitForFile waits up to 5 s for file to exist with contents other than
// old, and returns them.
func waitForFile(t *testing.T, file string, old []byte) []byte {
	t.Helper()
	for range 500 {
		if data, err := os.ReadFile(file); err == nil && !bytes.Equal(data, old) {
			return data
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no documents saved 5 s after the index's build")
	return nil
}
