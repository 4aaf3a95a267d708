package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// TestProfSeekPatch times the seek index of a patched ingest, as the
// server builds it before the patch's answer (seek-first6.md): with
// M1ND_SEEK_PATCH_CORPUS=dir (a copy of a tree it may append to), a full
// ingest then two patches of three go-std files, each index's wall and
// process CPU time logged (SEEKIDX); M1ND_SEEK_PATCH_PROF=file writes a
// CPU profile of the first patch's build. Run it under the heavy lock.
func TestProfSeekPatch(t *testing.T) {
	dir := os.Getenv("M1ND_SEEK_PATCH_CORPUS")
	if dir == "" {
		t.Skip("M1ND_SEEK_PATCH_CORPUS not set")
	}
	cfg := session.DefaultConfig()
	cfg.RuntimeDir, cfg.AllowRoots = t.TempDir(), []string{dir}
	s, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 1; i <= 3; i++ {
		patch := i >= 2
		if patch {
			for _, p := range []string{"net/http/server.go", "encoding/json/decode.go", "strings/strings.go"} {
				f, _ := os.OpenFile(filepath.Join(dir, p), os.O_APPEND|os.O_WRONLY, 0)
				fmt.Fprintln(f, "// patched", time.Now().UnixNano())
				f.Close()
			}
		}
		c := &Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
		r := &IngestRun{C: c, Path: dir, Adapter: "code", Mode: "replace", Incremental: patch}
		if err := r.Target(); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		nb, err := s.BuildBundle(r.kind(), func(old *session.Bundle) (*session.Bundle, error) { return r.Build(old) })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("ingest %d: %v patched=%v", i, time.Since(t0), r.Output().Stats.Incremental)
		var f *os.File
		prof := os.Getenv("M1ND_SEEK_PATCH_PROF")
		if i == 2 && prof != "" {
			f, _ = os.Create(prof)
			pprof.StartCPUProfile(f)
		}
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		t1 := time.Now()
		x, err := seekIndexCtx(context.Background(), s, nb)
		if err != nil {
			t.Fatal(err)
		}
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
		wall := time.Since(t1)
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
		var load float64
		if b, err := os.ReadFile("/proc/loadavg"); err == nil {
			fmt.Sscan(string(b), &load)
		}
		t.Logf("SEEKIDX %d patch=%v wall=%v cpu=%v load=%.2f reused=%d", i, patch, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), load, x.Stats().FilesReused)
	}
}
