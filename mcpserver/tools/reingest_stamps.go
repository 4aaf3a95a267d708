package tools

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest"
	ingestcache "github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// stampsExtra names the stamps a root's cache last gave (its Extra slot).
const stampsExtra = "tools.stamps"

// stampMemo is what fileStamps made from manifest seq of a root's cache.
// Its slices are never written after it is stored: bundles share them.
type stampMemo struct {
	seq   uint64
	root  string
	files []session.FileStamp // sorted by Rel
	dirs  []session.FileStamp // sorted by Rel
}

// restamp is fileStamps after a commit that changed a few entries of the
// manifest the last stamps were made from: the files of the delta are
// taken from the manifest and the directories above them stat'ed again;
// every other stamp is kept. A daemon tick paid a sort of every path and a
// stat of every directory (go-std: ≈ 10 K paths, ≈ 1 K directories) for
// the one file it changed. A directory whose mtime moved with no file of
// the manifest changing keeps its old stamp, as it does when a tick finds
// nothing changed and keeps the bundle: the staleness check then lists it
// and finds nothing added. nil when the memo is not the manifest before
// the last commit (the caller stamps everything).
func restamp(root string, cache *ingest.Cache) *session.RootFiles {
	memo, _ := cache.Extra(stampsExtra).(*stampMemo)
	seq, delta, ok := cache.ManifestDelta()
	if memo == nil || !ok || memo.seq+1 != seq || memo.root != root {
		return nil
	}
	files := mergeStamps(memo.files, delta, func(rel string) (session.FileStamp, bool) {
		e, ok := cache.Entry(rel)
		return session.FileStamp{Rel: rel, Size: e.Size, MTimeNS: e.MTimeNS}, ok && e.Kind == ingestcache.Text
	})
	dirs := mergeStamps(memo.dirs, dirsAbove(delta), func(d string) (session.FileStamp, bool) {
		return stampDir(root, d, files)
	})
	cache.SetExtra(stampsExtra, &stampMemo{seq: seq, root: root, files: files, dirs: dirs})
	return &session.RootFiles{Root: root, Prefix: "file::", Files: files, Dirs: dirs}
}

// rememberStamps keeps the stamps made from manifest seq for the next restamp.
func rememberStamps(cache *ingest.Cache, seq uint64, rf *session.RootFiles) {
	cache.SetExtra(stampsExtra, &stampMemo{seq: seq, root: rf.Root, files: rf.Files, dirs: rf.Dirs})
}

// mergeStamps returns old (sorted by Rel) with each path of changed
// (sorted) replaced by what now says of it, or removed when now says it
// has none. old is not modified.
func mergeStamps(old []session.FileStamp, changed []string, now func(string) (session.FileStamp, bool)) []session.FileStamp {
	out := make([]session.FileStamp, 0, len(old)+len(changed))
	i := 0
	for _, rel := range changed {
		for i < len(old) && old[i].Rel < rel {
			out = append(out, old[i])
			i++
		}
		if i < len(old) && old[i].Rel == rel {
			i++
		}
		if st, ok := now(rel); ok {
			out = append(out, st)
		}
	}
	return append(out, old[i:]...)
}

// dirsAbove lists, sorted and once each, the directories holding paths
// and their ancestors up to the root (".").
func dirsAbove(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		for d := path.Dir(p); !seen[d]; d = path.Dir(d) {
			seen[d] = true
			out = append(out, d)
			if d == "." {
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// stampDir stamps directory d as session.StampDirs would: only while a
// file of files (sorted) lies under it, by a stat now.
func stampDir(root, d string, files []session.FileStamp) (session.FileStamp, bool) {
	if d != "." {
		pre := d + "/"
		i, _ := slices.BinarySearchFunc(files, pre, func(f session.FileStamp, t string) int { return strings.Compare(f.Rel, t) })
		if i == len(files) || !strings.HasPrefix(files[i].Rel, pre) {
			return session.FileStamp{}, false
		}
	} else if len(files) == 0 {
		return session.FileStamp{}, false
	}
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(d)))
	if err != nil {
		return session.FileStamp{}, false
	}
	return session.FileStamp{Rel: d, MTimeNS: fi.ModTime().UnixNano()}, true
}
