package documents

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// driftSources gives a bundle's document index what the graph lacks:
// code files' text (guarded reads: class attributes and library bases)
// and each file's last commit (git), read once per bundle and cached.
type driftSources struct {
	b *session.Bundle

	mu    sync.Mutex
	text  map[string][]byte             // graph path → text (nil: unreadable)
	repos map[string]map[string]float64 // git top level → path → last commit
	top   map[string]string             // directory → its git top level ("": none)
	lines lineCache
	past  map[string][]byte // top NUL time NUL path → text then (nil: absent)
	revs  map[string]string // top NUL time → last first-parent commit by then
	// exHist: a def file's versions, read back for an example's call.
	exHist map[string]*fileVersions
	// cli: the project's commands, read once (every page of a run asks).
	cliOnce sync.Once
	cli     []cliDecl
}

func newDriftSources(b *session.Bundle) *driftSources {
	return &driftSources{b: b, text: map[string][]byte{}, repos: map[string]map[string]float64{}, top: map[string]string{},
		lines: lineCache{head: map[string]string{}, hist: map[string]lineEntry{}, width: map[string]int{}},
		past:  map[string][]byte{}, revs: map[string]string{}, exHist: map[string]*fileVersions{}}
}

// driftSourcesKey keeps one driftSources per bundle, shared by the
// document index's hooks and the entity dating of document_drift.
var driftSourcesKey = session.NewKey[*driftSources]("document.drift-sources")

func bundleSources(b *session.Bundle) *driftSources {
	v, _ := session.Derive(b, driftSourcesKey, func(*graph.Graph) (*driftSources, error) { return newDriftSources(b), nil })
	return v
}

// attach sets the index's hooks.
func (s *driftSources) attach(x *document.Index) {
	x.Source = s.source
	x.Changed = s.changed
}

// source reads a graph file through the path guard.
func (s *driftSources) source(p string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.text[p]; ok {
		return t, t != nil
	}
	var data []byte
	if res, _, _, err := tools.BundleSpace(s.b).Resolve(tools.BundleGuard(s.b), p); err == nil {
		data, _, _ = tools.ReadGuarded(res, "path")
	}
	s.text[p] = data
	return data, data != nil
}

// changed is the last commit touching a node's file (committer time), 0
// when the file is outside git or never committed.
func (s *driftSources) changed(id graph.NodeID) float64 {
	g := s.b.Graph
	res, _, _, err := tools.BundleSpace(s.b).Resolve(tools.BundleGuard(s.b), g.SourcePath(id))
	if err != nil || !res.Exists {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	top := s.topLevel(filepath.Dir(res.Real))
	if top == "" {
		return 0
	}
	times, ok := s.repos[top]
	if !ok {
		times = lastCommits(top)
		s.repos[top] = times
	}
	rel, err := filepath.Rel(top, res.Real)
	if err != nil {
		return 0
	}
	return times[filepath.ToSlash(rel)]
}

// topLevel is the git work tree holding dir, asked once per directory.
func (s *driftSources) topLevel(dir string) string {
	if t, ok := s.top[dir]; ok {
		return t
	}
	out, err := exec.CommandContext(context.Background(), "git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	t := ""
	if err == nil {
		t = strings.TrimSpace(string(out))
		if r, err := filepath.EvalSymlinks(t); err == nil {
			t = r
		}
	}
	s.top[dir] = t
	return t
}

// lastCommits reads the whole first-parent history once: each path's
// last change as `git log -1 --first-parent -- path` dates it (a branch's
// change by the merge that landed it). Dates come from commits, never
// from file times (a fresh clone makes every file "changed today").
func lastCommits(top string) map[string]float64 {
	times := map[string]float64{}
	last, err := gitmeta.LastChanged(context.Background(), top)
	if err != nil {
		return times
	}
	for p, t := range last {
		times[p] = float64(t)
	}
	return times
}

// textAt is rel's text in the last first-parent commit at or before
// when (Unix seconds): what the code read like when a document was last
// written. false when the file was not there. s.mu is held.
func (s *driftSources) textAt(top, rel string, when float64) ([]byte, bool) {
	at := strconv.FormatInt(int64(when), 10)
	key := top + "\x00" + at + "\x00" + rel
	if t, ok := s.past[key]; ok {
		return t, t != nil
	}
	rev := s.revAt(top, when)
	var text []byte
	if rev != "" {
		if out, err := exec.CommandContext(context.Background(), "git", "-C", top, "show", rev+":"+rel).Output(); err == nil {
			text = out
		}
	}
	s.past[key] = text
	return text, text != nil
}

// revAt is the last first-parent commit before when ("" when none);
// cached. s.mu is held.
func (s *driftSources) revAt(top string, when float64) string {
	at := strconv.FormatInt(int64(when), 10)
	rev, ok := s.revs[top+"\x00"+at]
	if !ok {
		out, err := exec.CommandContext(context.Background(), "git", "-C", top, "rev-list", "-1", "--first-parent", "--before=@"+at, "HEAD").Output()
		if err == nil {
			rev = strings.TrimSpace(string(out))
		}
		s.revs[top+"\x00"+at] = rev
	}
	return rev
}
