package documents

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
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

// headOf is top's HEAD, asked once per call. s.mu is held.
func (s *driftSources) headOf(top string) string {
	head, ok := s.lines.head[top]
	if !ok {
		out, err := exec.CommandContext(context.Background(), "git", "-C", top, "rev-parse", "--verify", "-q", "HEAD").Output()
		head = strings.TrimSpace(string(out))
		if err != nil {
			head = ""
		}
		s.lines.head[top] = head
	}
	return head
}

// lineHistory is rel's line history at HEAD, read now unless prefetch
// read it. s.mu is held.
func (s *driftSources) lineHistory(top, rel string) lineEntry {
	head := s.headOf(top)
	if head == "" {
		return lineEntry{why: "the repository has no commit"}
	}
	key := top + "\x00" + head + "\x00" + rel
	if _, ok := s.lines.hist[key]; !ok {
		s.readLines(top, []string{rel})
	}
	return s.lines.hist[key]
}

// prefetch reads, in one walk of each repository's history, the line
// histories of the files holding ids (those not cached at this HEAD):
// one git log instead of one per file.
func (s *driftSources) prefetch(ids []graph.NodeID) {
	g := s.b.Graph
	byTop := map[string][]string{}
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	for _, id := range ids {
		p := g.SourcePath(id)
		if seen[p] {
			continue
		}
		seen[p] = true
		res, _, _, err := tools.BundleSpace(s.b).Resolve(tools.BundleGuard(s.b), p)
		if err != nil || !res.Exists {
			continue
		}
		top := s.topLevel(filepath.Dir(res.Real))
		rel, err := filepath.Rel(top, res.Real)
		if top == "" || err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if head := s.headOf(top); head != "" {
			if _, ok := s.lines.hist[top+"\x00"+head+"\x00"+rel]; !ok {
				byTop[top] = append(byTop[top], rel)
			}
		}
	}
	for top, rels := range byTop {
		slices.Sort(rels)
		for len(rels) > 0 {
			n := min(len(rels), 200) // keeps the command line short
			s.readLines(top, rels[:n])
			rels = rels[n:]
		}
	}
}

// readLines reads and caches rels' line histories. s.mu is held.
func (s *driftSources) readLines(top string, rels []string) {
	head := s.headOf(top)
	args := append([]string{"-C", top, "diff", "--name-only", "--no-ext-diff", "--no-renames", "HEAD", "--"}, rels...)
	out, err := exec.CommandContext(context.Background(), "git", args...).Output()
	dirty := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		dirty[l] = true
	}
	var clean []string
	for _, r := range rels {
		if err != nil {
			s.lines.hist[top+"\x00"+head+"\x00"+r] = lineEntry{why: "git diff failed: " + err.Error()}
		} else if dirty[r] {
			s.lines.hist[top+"\x00"+head+"\x00"+r] = lineEntry{why: "the file has uncommitted changes"}
		} else {
			clean = append(clean, r)
		}
	}
	if len(clean) == 0 {
		return
	}
	hs, err := gitmeta.ReadLineHistories(context.Background(), top, clean, maxLineHistory)
	for _, r := range clean {
		e := lineEntry{why: "git log failed"}
		if err == nil {
			e = lineEntry{h: hs[r]}
		}
		s.lines.hist[top+"\x00"+head+"\x00"+r] = e
	}
}
