package code

import (
	"context"
	"os"

	"github.com/m1nd-go/m1nd/ingest/walk"
)

// A caller that has just compared the files of a root's graph with the
// disk (the daemon, right before it re-ingests) has done what the walk of
// an incremental run would do again: a stat of every file. When it also
// found no directory's entries changed, the files are the last walk's, and
// it can hand what it saw to its run (WithWalkHint) instead of having the
// tree walked again — a third of a one-file tick on go-std. The hint
// travels with the call's context, so no other run (an apply_batch's
// reingest of the same root) can take it.

// hintKey keys the walk hint in a context.
type hintKey struct{}

// Stat is what a stat of a file showed.
type Stat struct {
	Size, ModTimeNS int64
}

type walkHint struct {
	root  string
	stats map[string]Stat // by root-relative path
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
	return h.apply(last.walk)
}

// apply is wr with the hinted stats, or nil when they do not fit it.
func (h *walkHint) apply(wr *walk.Result) *walk.Result {
	out := *wr
	out.Files = make([]walk.File, len(wr.Files))
	used := 0
	var total int64
	for i, f := range wr.Files {
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
		out.Files[i] = f
	}
	if used != len(h.stats) || total > walk.DefaultMaxTotalBytes || len(out.Files) > walk.DefaultMaxFiles {
		return nil
	}
	return &out
}
