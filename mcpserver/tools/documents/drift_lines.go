package documents

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
	head  map[string]string    // git top level → HEAD, asked once per call
	hist  map[string]lineEntry // top NUL HEAD NUL path → history
	width map[string]int       // commit → files it changed (-1: unknown)
}

// sweepFiles: a commit changing this many files or more is taken for a
// sweep (a reformat, a type-hint or Python-version upgrade, a vendoring)
// and passed over when dating a symbol's lines, unless only sweeps
// touched them (then the one that brought them in dates them). Tuned on
// typer and starlette: benchmarks/results/drift.md.
const sweepFiles = 10

// newCall makes the next dating ask git for HEAD again.
func (s *driftSources) newCall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines.head = map[string]string{}
}

// dating is how a symbol's code change was dated: t by the lines that
// date it, the others by all its lines with fewer commits passed over
// (each tells which rule cleared a binding).
type dating struct {
	t       float64 // Unix seconds; 0 when not traced
	plain   float64 // all lines, no commit passed over
	swept   float64 // all lines, sweeps passed over
	typed   float64 // all lines, sweeps and type-only edits passed over
	lo, hi  int     // the symbol's lines
	sig     [2]int  // a def's decorators and signature (surface only)
	surface bool    // t is a Python class's surface (classSurface)
	passed  int     // sweeps and type-only edits passed over
	why     string  // why the lines were not traced ("" when they were)
	hash    string  // the commit that dates t
	// old and now: a Python def's or class's surface at the document's
	// date and today (nil when either could not be read).
	old, now pySurface
	// absent: no Python file of the repository defined the symbol at the
	// document's date, so the page did not describe this code.
	absent bool
}

// entityDate dates a function, class or method by the last first-parent
// commit changing its own lines (`git log --first-parent -L lo,hi:file`),
// passing over sweeps and (with passTypes) type-only edits, not by the
// newest change anywhere in its file; a Python class or def by its
// surface only, compared with its text at doc (the document's date).
// why says, when the lines cannot be traced, what stopped it (the caller
// then uses the file's date).
func (s *driftSources) entityDate(id graph.NodeID, passTypes bool, doc float64) dating {
	g := s.b.Graph
	p := g.Provenance(id)
	d := dating{lo: int(p.LineStart), hi: int(p.LineEnd)}
	if d.lo == 0 || d.hi < d.lo {
		d.why = "the node has no line range"
		return d
	}
	res, _, _, err := tools.BundleSpace(s.b).Resolve(tools.BundleGuard(s.b), p.SourcePath)
	if err != nil || !res.Exists {
		d.why = "the file is not readable"
		return d
	}
	ranges := [][2]int{{d.lo, d.hi}}
	qual := pyQual(g, id)
	text, readable := s.source(p.SourcePath)
	if readable && qual != "" && isPython(p.SourcePath) {
		switch g.Type(id) {
		case graph.Class:
			ranges, d.surface = classSurface(text, d.lo, d.hi), true
		case graph.Function:
			ranges, d.surface = defSurface(string(text), qual, ranges)
			d.sig = ranges[0]
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	top := s.topLevel(filepath.Dir(res.Real))
	rel, err := filepath.Rel(top, res.Real)
	if top == "" || err != nil {
		d.why = "the file is outside git"
		return d
	}
	e := s.lineHistory(top, filepath.ToSlash(rel))
	if e.why != "" {
		d.why = e.why
		return d
	}
	s.dateLines(e.h, ranges, passTypes, &d)
	if d.surface && d.why == "" && d.t > doc {
		s.compare(top, filepath.ToSlash(rel), string(text), qual, doc, !passTypes, &d)
	}
	return d
}

// compare sets d.old and d.now from qual's surface in the file as it was
// at doc and in text. A def that was in another file then is compared
// with that file's (structlog's make_filtering_bound_logger moved to
// _native.py after the pages naming it: the move dated them all on the
// history harness of benchmarks/results/drift-precision.md); one no
// file defined then is absent. s.mu is held.
func (s *driftSources) compare(top, rel, text, qual string, doc float64, keepTypes bool, d *dating) {
	now, ok := surfaceOf(text, qual, keepTypes)
	if !ok {
		return
	}
	past, ok := s.textAt(top, rel, doc)
	old, found := pySurface(nil), false
	if ok {
		old, found = surfaceOf(string(past), qual, keepTypes)
	}
	if !found {
		files, searched := s.definersAt(top, qual, doc)
		for _, f := range files {
			if t, ok := s.textAt(top, f, doc); ok {
				if old, found = surfaceOf(string(t), qual, keepTypes); found {
					break
				}
			}
		}
		d.absent = searched && len(files) == 0
	}
	if found {
		d.old, d.now = old, now
	}
}

// definersAt lists the Python files that define qual's top-level name
// in the last first-parent commit before when (git grep); searched is
// false when git could not be asked. s.mu is held.
func (s *driftSources) definersAt(top, qual string, when float64) (files []string, searched bool) {
	rev := s.revAt(top, when)
	if rev == "" {
		return nil, false
	}
	name, _, _ := strings.Cut(qual, ".")
	pat := `^[[:space:]]*(async[[:space:]]+)?(def|class)[[:space:]]+` + name + `\b`
	out, err := exec.CommandContext(context.Background(), "git", "-C", top, "grep", "-l", "-E", pat, rev, "--", "*.py").Output()
	if err != nil {
		// git grep exits 1 when nothing matches: searched, none found.
		var ee *exec.ExitError
		return nil, errors.As(err, &ee) && ee.ExitCode() == 1
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if _, f, ok := strings.Cut(l, ":"); ok {
			files = append(files, f)
		}
	}
	return files, true
}

// pyQual is a Python symbol's qualified name from its node id
// ("file::pkg/m.py::Class::method" → "Class.method"), "" for a file.
func pyQual(g *graph.Graph, id graph.NodeID) string {
	segs := strings.Split(g.ExternalID(id), "::")
	if len(segs) < 3 || segs[0] != "file" {
		return ""
	}
	return strings.Join(segs[2:], ".")
}

// defSurface is the lines that date a Python def: its decorators and
// its signature (the body and docstring say nothing a caller relies
// on); ranges unchanged and false when the def is not found.
func defSurface(text, qual string, ranges [][2]int) ([][2]int, bool) {
	ls := pyLines(text)
	d, ok := findDef(pyOutline(ls), qual)
	if !ok || d.class {
		return ranges, false
	}
	return [][2]int{{d.start, ls[d.head].last}}, true
}

// dateLines fills d from h: t the newest of ranges' dates, passing over
// type-only edits when passTypes. s.mu is held.
func (s *driftSources) dateLines(h *gitmeta.LineHistory, ranges [][2]int, passTypes bool, d *dating) {
	sweep := func(hash string) bool { return s.lines.width[hash] >= sweepFiles }
	traced := false
	for _, r := range ranges {
		if when, hash, ok, passed := h.LastTouchFiltered(r[0], r[1], sweep, passTypes); ok && float64(when) >= d.t {
			d.t, d.hash, d.passed, traced = float64(when), hash, passed, true
		}
	}
	switch {
	case traced:
		plain, _, _ := h.LastTouch(d.lo, d.hi)
		swept, _, _, _ := h.LastTouchSkipping(d.lo, d.hi, sweep)
		typed, _, _, _ := h.LastTouchFiltered(d.lo, d.hi, sweep, passTypes)
		d.plain, d.swept, d.typed = float64(plain), float64(swept), float64(typed)
	case !h.Complete:
		d.why = fmt.Sprintf("the file's history is over %d MB", maxLineHistory>>20)
	default:
		d.why = "git's history of the file does not reach these lines"
	}
}

func isPython(path string) bool {
	return strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi")
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
	hs, err := gitmeta.ReadLineHistoriesCosmetic(context.Background(), top, clean, maxLineHistory, pythonCosmetic)
	var unknown []string
	for _, r := range clean {
		e := lineEntry{why: "git log failed"}
		if err == nil {
			e = lineEntry{h: hs[r]}
			for _, h := range hs[r].Hashes() {
				if _, ok := s.lines.width[h]; !ok {
					s.lines.width[h] = -1
					unknown = append(unknown, h)
				}
			}
		}
		s.lines.hist[top+"\x00"+head+"\x00"+r] = e
	}
	if len(unknown) > 0 {
		if ws, err := gitmeta.CommitWidths(context.Background(), top, unknown); err == nil {
			maps.Copy(s.lines.width, ws)
		}
	}
}
