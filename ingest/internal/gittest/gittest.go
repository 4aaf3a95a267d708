// Package gittest builds git repositories with deterministic history for
// tests, through go-git (no git binary needed).
package gittest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a work tree under construction.
type Repo struct {
	T    testing.TB
	Dir  string
	Repo *git.Repository
	WT   *git.Worktree
}

// Epoch is the time of the first commit in tests that count from it.
var Epoch = time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)

// Init creates an empty repository in dir.
func Init(t testing.TB, dir string) *Repo {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{T: t, Dir: dir, Repo: r, WT: wt}
}

// Write creates or overwrites files in the work tree (path → content).
func (r *Repo) Write(files map[string]string) {
	r.T.Helper()
	for p, c := range files {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.T.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			r.T.Fatal(err)
		}
	}
}

// Remove deletes files from the work tree and stages the deletion.
func (r *Repo) Remove(paths ...string) {
	r.T.Helper()
	for _, p := range paths {
		if _, err := r.WT.Remove(p); err != nil {
			r.T.Fatal(err)
		}
	}
}

// Commit stages every change in the work tree and commits it as author at
// when (author and committer time alike).
func (r *Repo) Commit(msg, author string, when time.Time) plumbing.Hash {
	r.T.Helper()
	if err := r.WT.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.T.Fatal(err)
	}
	sig := &object.Signature{Name: author, Email: author + "@example.com", When: when}
	h, err := r.WT.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.T.Fatal(err)
	}
	return h
}

// Change writes files and commits them in one step. Only the written paths
// are staged (staging everything rescans the whole work tree, which makes
// long synthetic histories slow to build).
func (r *Repo) Change(files map[string]string, author string, when time.Time) plumbing.Hash {
	r.T.Helper()
	r.Write(files)
	for p := range files {
		if _, err := r.WT.Add(p); err != nil {
			r.T.Fatal(err)
		}
	}
	sig := &object.Signature{Name: author, Email: author + "@example.com", When: when}
	h, err := r.WT.Commit("change", &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.T.Fatal(err)
	}
	return h
}

// Synth writes a linear history straight into the object store (no work
// tree, no index), which is orders of magnitude faster than committing
// through the work tree: commit i changes the files change(i) returns
// (path → content) at Epoch + i minutes. The repository is repacked at the
// end, as real repositories are. HEAD points to the last commit on master.
func Synth(t testing.TB, dir string, commits int, change func(i int) map[string]string) *git.Repository {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	s := repo.Storer
	put := func(o interface {
		Encode(plumbing.EncodedObject) error
	}, typ plumbing.ObjectType) plumbing.Hash {
		obj := s.NewEncodedObject()
		obj.SetType(typ)
		if err := o.Encode(obj); err != nil {
			t.Fatal(err)
		}
		h, err := s.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	blobs := map[string]plumbing.Hash{} // path -> blob
	var parent plumbing.Hash
	for i := range commits {
		for p, c := range change(i) {
			obj := s.NewEncodedObject()
			obj.SetType(plumbing.BlobObject)
			w, _ := obj.Writer()
			_, _ = w.Write([]byte(c))
			_ = w.Close()
			h, err := s.SetEncodedObject(obj)
			if err != nil {
				t.Fatal(err)
			}
			blobs[p] = h
		}
		root := buildTree(t, blobs, put)
		when := Epoch.Add(time.Duration(i) * time.Minute)
		sig := object.Signature{Name: "synth", Email: "synth@example.com", When: when}
		c := &object.Commit{Author: sig, Committer: sig, Message: "c", TreeHash: root}
		if !parent.IsZero() {
			c.ParentHashes = []plumbing.Hash{parent}
		}
		parent = put(c, plumbing.CommitObject)
	}
	if err := s.SetReference(plumbing.NewHashReference(plumbing.Master, parent)); err != nil {
		t.Fatal(err)
	}
	if err := repo.RepackObjects(&git.RepackConfig{}); err != nil {
		t.Fatal(err)
	}
	return repo
}

// buildTree encodes the nested trees of a flat path → blob map.
func buildTree(t testing.TB, blobs map[string]plumbing.Hash, put func(interface {
	Encode(plumbing.EncodedObject) error
}, plumbing.ObjectType) plumbing.Hash) plumbing.Hash {
	type dir struct {
		files map[string]plumbing.Hash
		dirs  map[string]*dir
	}
	newDir := func() *dir { return &dir{files: map[string]plumbing.Hash{}, dirs: map[string]*dir{}} }
	root := newDir()
	for p, h := range blobs {
		d := root
		segs := strings.Split(p, "/")
		for _, s := range segs[:len(segs)-1] {
			if d.dirs[s] == nil {
				d.dirs[s] = newDir()
			}
			d = d.dirs[s]
		}
		d.files[segs[len(segs)-1]] = h
	}
	var enc func(d *dir) plumbing.Hash
	enc = func(d *dir) plumbing.Hash {
		tr := &object.Tree{}
		for n, h := range d.files {
			tr.Entries = append(tr.Entries, object.TreeEntry{Name: n, Mode: filemode.Regular, Hash: h})
		}
		for n, sub := range d.dirs {
			tr.Entries = append(tr.Entries, object.TreeEntry{Name: n, Mode: filemode.Dir, Hash: enc(sub)})
		}
		sort.Sort(object.TreeEntrySorter(tr.Entries))
		return put(tr, plumbing.TreeObject)
	}
	return enc(root)
}
