package gitmeta

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPartialCloneFollowed measures how much of a full clone's followed
// history a partial clone (git clone --filter=blob:none) keeps: for every
// file at HEAD, the commits counted in the partial clone against those of
// the full one (which equal `git log --follow --first-parent`). The figure
// benchmarks/results/renames.md records:
//
//	M1ND_RENAMES_FULL=/tmp/x M1ND_RENAMES_PARTIAL=/tmp/x-partial go test -run TestPartialCloneFollowed -v
//
// M1ND_RENAMES_READER=go-git reads both without the git command.
func TestPartialCloneFollowed(t *testing.T) {
	full, part := os.Getenv("M1ND_RENAMES_FULL"), os.Getenv("M1ND_RENAMES_PARTIAL")
	if full == "" || part == "" {
		t.Skip("set M1ND_RENAMES_FULL and M1ND_RENAMES_PARTIAL to a full and a blob:none clone of one repository")
	}
	if os.Getenv("M1ND_RENAMES_READER") == "go-git" {
		bin := gitBinary
		t.Cleanup(func() { gitBinary = bin })
		gitBinary = ""
	}
	ctx := context.Background()
	hf, err := Read(ctx, full, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hp, err := Read(ctx, part, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hf.Head != hp.Head || (gitBinary != "" && (!hp.Partial || hf.Partial)) {
		t.Fatalf("want one HEAD, a full and a partial clone: heads %s %s, partial %v %v", hf.Head, hp.Head, hf.Partial, hp.Partial)
	}
	var total, followed, excess, files, whole int
	type loss struct {
		f    string
		n, m int
	}
	var short []loss
	for f, fs := range hf.Files {
		if _, err := os.Stat(filepath.Join(full, f)); err != nil {
			continue // not at HEAD
		}
		p := hp.Files[f].Commits
		files++
		total += fs.Commits
		followed += min(p, fs.Commits)
		excess += max(0, p-fs.Commits)
		if p == fs.Commits {
			whole++
		} else {
			short = append(short, loss{f, p, fs.Commits})
		}
	}
	sort.Slice(short, func(i, j int) bool {
		a, b := abs(short[i].m-short[i].n), abs(short[j].m-short[j].n)
		return a > b || a == b && short[i].f < short[j].f
	})
	t.Logf("%s: files at HEAD %d, whole %d; commits followed %d of %d (%.1f%%), counted beyond the full clone %d",
		filepath.Base(full), files, whole, followed, total, 100*float64(followed)/float64(max(total, 1)), excess)
	var most []string
	for _, l := range short[:min(len(short), 8)] {
		most = append(most, fmt.Sprintf("%s %d/%d", l.f, l.n, l.m))
	}
	t.Logf("files not whole %d; most apart (partial/full): %s", len(short), strings.Join(most, ", "))
}

func abs(n int) int { return max(n, -n) }
