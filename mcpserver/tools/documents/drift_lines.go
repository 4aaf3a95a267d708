package documents

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// maxLineHistory bounds the log read to date one file's lines: past it
// the older lines are dated by the file.
const maxLineHistory = 16 << 20

// lineEntry is one file's line history, or why it has none.
type lineEntry struct {
	h   *gitmeta.LineHistory
	why string
}

// lineCache holds line histories of the files drift dated, keyed by the
// HEAD they were read at, so a moved HEAD reads afresh.
type lineCache struct {
	head map[string]string    // git top level → HEAD, asked once per call
	hist map[string]lineEntry // top NUL HEAD NUL path → history
}

// newCall makes the next dating ask git for HEAD again.
func (s *driftSources) newCall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines.head = map[string]string{}
}

// entityDate dates a function, class or method by the last first-parent
// commit changing its own lines (`git log --first-parent -L lo,hi:file
// -1`), not by the newest change anywhere in its file. why says, when the
// lines cannot be traced, what stopped it (the caller then uses the
// file's date).
func (s *driftSources) entityDate(id graph.NodeID) (t float64, lo, hi int, why string) {
	g := s.b.Graph
	p := g.Provenance(id)
	lo, hi = int(p.LineStart), int(p.LineEnd)
	if lo == 0 || hi < lo {
		return 0, lo, hi, "the node has no line range"
	}
	res, _, _, err := tools.BundleSpace(s.b).Resolve(tools.BundleGuard(s.b), p.SourcePath)
	if err != nil || !res.Exists {
		return 0, lo, hi, "the file is not readable"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	top := s.topLevel(filepath.Dir(res.Real))
	rel, err := filepath.Rel(top, res.Real)
	if top == "" || err != nil {
		return 0, lo, hi, "the file is outside git"
	}
	e := s.lineHistory(top, filepath.ToSlash(rel))
	if e.why != "" {
		return 0, lo, hi, e.why
	}
	when, _, ok := e.h.LastTouch(lo, hi)
	switch {
	case ok:
		return float64(when), lo, hi, ""
	case !e.h.Complete:
		return 0, lo, hi, fmt.Sprintf("the file's history is over %d MB", maxLineHistory>>20)
	}
	return 0, lo, hi, "git's history of the file does not reach these lines"
}

// lineHistory reads (once per HEAD) the hunks of rel's history. s.mu is
// held.
func (s *driftSources) lineHistory(top, rel string) lineEntry {
	head, ok := s.lines.head[top]
	if !ok {
		out, err := exec.CommandContext(context.Background(), "git", "-C", top, "rev-parse", "--verify", "-q", "HEAD").Output()
		head = strings.TrimSpace(string(out))
		if err != nil {
			head = ""
		}
		s.lines.head[top] = head
	}
	if head == "" {
		return lineEntry{why: "the repository has no commit"}
	}
	key := top + "\x00" + head + "\x00" + rel
	if e, ok := s.lines.hist[key]; ok {
		return e
	}
	var e lineEntry
	if dirty(top, rel) {
		e.why = "the file has uncommitted changes"
	} else if h, err := gitmeta.ReadLineHistory(context.Background(), top, rel, maxLineHistory); err != nil {
		e.why = "git log failed: " + err.Error()
	} else {
		e.h = h
	}
	s.lines.hist[key] = e
	return e
}

// dirty reports whether the work tree's rel differs from HEAD's: the
// graph's line numbers are then not HEAD's.
func dirty(top, rel string) bool {
	err := exec.CommandContext(context.Background(), "git", "-C", top, "diff", "--quiet", "--no-ext-diff", "HEAD", "--", rel).Run()
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 1
}
