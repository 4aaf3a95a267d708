package gitmeta

import (
	"context"
	"maps"
	"slices"
)

// Extend returns the history at dir's HEAD given prev, a history read
// earlier with the same options: when prev's HEAD is on the new HEAD's
// first-parent chain only the commits since are read, and prev's are
// renamed through the renames they made (incremental is true); otherwise
// (a rebase, a merge that took another first parent, a bounded prev) the
// whole history is read again. prev is not modified.
func Extend(ctx context.Context, dir string, prev *History, opt Options) (h *History, incremental bool, err error) {
	if prev == nil || prev.Head == "" || prev.Truncated || opt.MaxCommits > 0 {
		h, err = Read(ctx, dir, opt)
		return h, false, err
	}
	seg, alias, reached, err := read(ctx, dir, opt, prev.Head)
	if err != nil {
		return nil, false, err
	}
	if !reached {
		h, err = Read(ctx, dir, opt)
		return h, false, err
	}
	if seg.Head == prev.Head {
		out := *prev
		out.Branch, out.Detached = seg.Branch, seg.Detached
		return &out, true, nil
	}
	return join(seg, prev, alias), true, nil
}

// join lays prev (older) under seg (newer), naming prev's paths as they
// are at seg's HEAD.
func join(seg, prev *History, alias map[string]string) *History {
	out := *seg
	out.CommitsRead += prev.CommitsRead
	out.Shallow = seg.Shallow || prev.Shallow
	out.Partial = seg.Partial || prev.Partial
	out.Files = maps.Clone(seg.Files)
	rename := func(p string) string { return follow(alias, []string{p}, nil)[0] }
	for p, fs := range prev.Files {
		q := rename(p)
		cur := out.Files[q]
		cur.Commits += fs.Commits
		cur.LastCommit = max(cur.LastCommit, fs.LastCommit)
		out.Files[q] = cur
	}
	out.Groups = slices.Clip(slices.Clone(seg.Groups))
	out.Commits = slices.Clip(slices.Clone(seg.Commits))
	for i, g := range prev.Groups {
		if len(alias) > 0 {
			g = follow(alias, g, nil)
		}
		out.Groups = append(out.Groups, g)
		if i < len(prev.Commits) {
			out.Commits = append(out.Commits, prev.Commits[i])
		}
	}
	return &out
}
