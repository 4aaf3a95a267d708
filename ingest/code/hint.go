package code

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// A caller that has just compared the files of a root's graph with the
// disk (the daemon, right before it re-ingests) has done what the walk of
// an incremental run would do again: a stat of every file. When it also
// found no directory's entries changed, the files are the last walk's, and
// it can hand what it saw to its run (WithWalkHint) instead of having the
// tree walked again — a third of a one-file tick on go-std. When files came
// or went in directories it read, and no new directory appeared, it hands
// those too (WithWalkChanges). The hint travels with the call's context, so
// no other run (an apply_batch's reingest of the same root) can take it.

// hintKey keys the walk hint in a context.
type hintKey struct{}

// Stat is what a stat of a file showed.
type Stat struct {
	Size, ModTimeNS int64
}

type walkHint struct {
	root  string
	stats map[string]Stat // by root-relative path
	// added and removed are files that came and went since the last walk
	// (root-relative).
	added, removed []string
}

// WithWalkHint returns ctx carrying a walk hint for an incremental run of
// root: the files in stats (root-relative, forward slashes) were just
// stat'ed as given, and no directory holding the last run's files gained or
// lost an entry since that run. The run then takes the last walk's file
// list with these stats (files missing from stats are stat'ed again)
// instead of walking. Any mismatch — a file of stats the last walk did not
// take, one grown past the size limit, a walk cut by a budget, other
// options — makes the run walk as usual.
func WithWalkHint(ctx context.Context, root string, stats map[string]Stat) context.Context {
	return context.WithValue(ctx, hintKey{}, &walkHint{root: root, stats: stats})
}

// WithWalkChanges is WithWalkHint for a caller that also saw files come and
// go: removed (root-relative) are gone, added are new files the caller
// found in the directories whose entries changed (none of them a new
// directory). stats holds the stats of the added files too. Each added
// file must be one the walk takes (walk.Admit with the run's options),
// every removed one must be the last walk's, and none may be a .gitignore;
// otherwise the run walks.
func WithWalkChanges(ctx context.Context, root string, stats map[string]Stat, added, removed []string) context.Context {
	return context.WithValue(ctx, hintKey{}, &walkHint{root: root, stats: stats, added: added, removed: removed})
}

// hintedWalk is the walk the run's hint stands for, or nil. The cache is
// locked: the last walk is the one the run starts from.
func (r *run) hintedWalk(root string) *walk.Result {
	h, _ := r.ctx.Value(hintKey{}).(*walkHint)
	if h == nil {
		return nil
	}
	last, _ := r.store.Extra(lastRunKey).(*lastRun)
	if last == nil || last.walk == nil || last.walk.Truncated != "" || h.root != root || last.walk.Root != root ||
		last.optsKey != optsKey(&r.req, last.walk) {
		return nil
	}
	return h.apply(last.walk, walkOptions(&r.req))
}

// walkOptions are the walk options of an ingest request.
func walkOptions(req *adapter.Request) walk.Options {
	return walk.Options{IncludeDotfiles: req.IncludeDotfiles, DotfilePatterns: req.DotfilePatterns}
}

// apply is wr with the hinted changes and stats, or nil when they do not
// fit it.
func (h *walkHint) apply(wr *walk.Result, opt walk.Options) *walk.Result {
	out := *wr
	out.Files = make([]walk.File, 0, len(wr.Files)+len(h.added))
	files, ok := h.changedFiles(wr, opt)
	if !ok {
		return nil
	}
	used := 0
	var total int64
	for _, f := range files {
		s, ok := h.stats[f.Rel]
		if ok {
			used++
		} else {
			fi, err := os.Lstat(f.Abs)
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
			s = Stat{fi.Size(), fi.ModTime().UnixNano()}
		}
		if s.Size > walk.DefaultMaxFileSize {
			return nil
		}
		total += s.Size
		f.Size, f.ModTimeNS = s.Size, s.ModTimeNS
		out.Files = append(out.Files, f)
	}
	if used != len(h.stats) || total > walk.DefaultMaxTotalBytes || len(out.Files) > walk.DefaultMaxFiles {
		return nil
	}
	return &out
}

// changedFiles is the last walk's files without the removed ones and with
// the added ones, in walk order; false when a change does not fit.
func (h *walkHint) changedFiles(wr *walk.Result, opt walk.Options) ([]walk.File, bool) {
	if len(h.added) == 0 && len(h.removed) == 0 {
		return wr.Files, true
	}
	had := func(rel string) bool {
		_, found := slices.BinarySearchFunc(wr.Files, rel, func(f walk.File, rel string) int { return strings.Compare(f.Rel, rel) })
		return found
	}
	gone := make(map[string]bool, len(h.removed))
	for _, rel := range h.removed {
		if !had(rel) || path.Base(rel) == ".gitignore" {
			return nil, false
		}
		gone[rel] = true
	}
	files := make([]walk.File, 0, len(wr.Files)+len(h.added))
	for _, f := range wr.Files {
		if !gone[f.Rel] {
			files = append(files, f)
		}
	}
	for _, rel := range h.added {
		if had(rel) || path.Base(rel) == ".gitignore" {
			return nil, false
		}
		if ok, _ := walk.Admit(wr.Root, rel, opt); !ok {
			return nil, false
		}
		files = append(files, walk.File{Abs: filepath.Join(wr.Root, filepath.FromSlash(rel)), Rel: rel, Ext: walk.Ext(path.Base(rel))})
	}
	slices.SortFunc(files, func(a, b walk.File) int { return strings.Compare(a.Rel, b.Rel) })
	return files, true
}
