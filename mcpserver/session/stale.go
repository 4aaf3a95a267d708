package session

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// FileStamp is what a file (or directory) looked like on disk when the
// graph was built from it: enough to tell, by a stat, that it changed.
type FileStamp struct {
	Rel     string `json:"rel"`
	Size    int64  `json:"size,omitempty"`
	MTimeNS int64  `json:"mtime_ns"`
}

// RootFiles are the stamps of one root's files and directories. Prefix is
// what turns a root-relative path into its file node's external ID
// ("file::" for a single root).
type RootFiles struct {
	Root   string      `json:"root"`
	Prefix string      `json:"prefix"`
	Files  []FileStamp `json:"files"`
	Dirs   []FileStamp `json:"dirs,omitempty"`
	// RunKey is what the root's graph depends on besides its files'
	// contents (ingest's RootInfo.RunKey), and Nodes and Edges the size of
	// the graph that ingest built: a restart that finds the same key, a
	// graph of that size and every file as Files stamps it keeps the saved
	// graph.
	RunKey string `json:"run_key,omitempty"`
	Nodes  int    `json:"nodes,omitempty"`
	Edges  int    `json:"edges,omitempty"`
}

// Staleness is how the disk differs from what the graph was built from.
type Staleness struct {
	Checked time.Time `json:"checked"`
	// Modified and Deleted are file node external IDs.
	Modified []string `json:"modified,omitempty"`
	Deleted  []string `json:"deleted,omitempty"`
	// Added are files the graph lacks that an ingest would take, found in
	// the directories whose entries changed (as they would be named).
	Added []string `json:"added,omitempty"`
	// Known is false when no root has stamps (memory or json adapters, a
	// snapshot from before stamps): nothing can be said.
	Known bool `json:"known"`
	// Restat holds what the check saw of the Modified files (by external
	// ID), and DirsMoved whether any directory's entries changed: with
	// neither additions nor deletions, the files are the graph's and
	// their stats all known, which the daemon hands to the ingest
	// (ingest.WithWalkHint) instead of a second walk.
	Restat    map[string]FileStamp `json:"-"`
	DirsMoved bool                 `json:"-"`
	// NewDirs is set when new directories held more files than the check
	// reads (maxNewFiles): Added then lacks some, and only a walk finds
	// them all.
	NewDirs bool `json:"-"`
}

// Stale reports whether anything changed.
func (s Staleness) Stale() bool {
	return len(s.Modified)+len(s.Deleted)+len(s.Added) > 0
}

// StaleIDs are the external IDs of the modified and deleted files.
func (s Staleness) StaleIDs() []string {
	return append(slices.Clone(s.Modified), s.Deleted...)
}

// staleTTL bounds how often a bundle's files are stat'ed: a tool answer
// may be annotated from a check this recent. A check that takes long (a
// huge tree) is repeated less often, so it never costs more than about
// one part in twenty of the server's time.
const staleTTL = 2 * time.Second

type staleCache struct {
	mu   sync.Mutex
	at   time.Time
	took time.Duration
	val  Staleness
}

var staleKey = NewKey[*staleCache]("staleness")

// Staleness compares b's files with the disk (a stat per file and per
// directory; cached for a couple of seconds per bundle).
func (s *State) Staleness(b *Bundle) Staleness {
	sc, _ := Derive(b, staleKey, func(*graph.Graph) (*staleCache, error) { return &staleCache{}, nil })
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if now := time.Now(); now.Sub(sc.at) >= max(staleTTL, 20*sc.took) {
		sc.val, sc.at = checkFiles(b.Files), now
		sc.took = time.Since(now)
	}
	return sc.val
}

func checkFiles(roots []RootFiles) Staleness {
	st := Staleness{Checked: time.Now().UTC()}
	for _, r := range roots {
		st.Known = true
		for _, c := range statFiles(r) {
			st.Modified = append(st.Modified, c.modified...)
			st.Deleted = append(st.Deleted, c.deleted...)
			for id, f := range c.restat {
				if st.Restat == nil {
					st.Restat = map[string]FileStamp{}
				}
				st.Restat[id] = f
			}
		}
		var known, knownDirs map[string]bool
		for _, d := range r.Dirs {
			fi, err := os.Stat(filepath.Join(r.Root, filepath.FromSlash(d.Rel)))
			if err != nil || fi.ModTime().UnixNano() != d.MTimeNS {
				st.DirsMoved = true
			}
			if err == nil && fi.ModTime().UnixNano() != d.MTimeNS {
				if known == nil {
					known = make(map[string]bool, len(r.Files))
					for _, f := range r.Files {
						known[f.Rel] = true
					}
					knownDirs = make(map[string]bool, len(r.Dirs))
					for _, d := range r.Dirs {
						knownDirs[d.Rel] = true
					}
				}
				added, newDirs := addedIn(r.Root, d.Rel, known, knownDirs, maxNewFiles-len(st.Added))
				for _, rel := range added {
					st.Added = append(st.Added, r.Prefix+rel)
				}
				st.NewDirs = st.NewDirs || newDirs
			}
		}
	}
	slices.Sort(st.Added)
	return st
}

// fileChecks is what the stat of a run of a root's files found.
type fileChecks struct {
	modified, deleted []string
	restat            map[string]FileStamp
}

// statFiles stats r's files, in runs checked in parallel (a stat is a
// system call: on a large tree they are most of a check); the runs'
// findings are in file order.
func statFiles(r RootFiles) []fileChecks {
	n := max(1, min(runtime.GOMAXPROCS(0), len(r.Files)/512))
	out := make([]fileChecks, n)
	var wg sync.WaitGroup
	for i := range n {
		lo, hi := i*len(r.Files)/n, (i+1)*len(r.Files)/n
		wg.Go(func() { out[i] = statRun(r, r.Files[lo:hi]) })
	}
	wg.Wait()
	return out
}

func statRun(r RootFiles, files []FileStamp) fileChecks {
	var c fileChecks
	for _, f := range files {
		fi, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(f.Rel)))
		switch {
		case err != nil:
			c.deleted = append(c.deleted, r.Prefix+f.Rel)
		case fi.Size() != f.Size || fi.ModTime().UnixNano() != f.MTimeNS:
			c.modified = append(c.modified, r.Prefix+f.Rel)
			if c.restat == nil {
				c.restat = map[string]FileStamp{}
			}
			c.restat[r.Prefix+f.Rel] = FileStamp{Rel: f.Rel, Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()}
		}
	}
	return c
}

// maxNewFiles bounds the files a check lists in new directories; a tree
// bigger than that (a checkout of another branch) is left to a walk.
const maxNewFiles = 20000

// addedIn lists the regular files of dir (root-relative) that the graph
// lacks and a walk would take, and those below the directories in it the
// graph has no file in that a walk would enter (all new, or none of their
// files taken before). It reports whether it stopped at budget files.
func addedIn(root, dir string, known, knownDirs map[string]bool, budget int) (out []string, over bool) {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		rel := path.Join(dir, e.Name())
		if e.IsDir() && !knownDirs[rel] && !walk.SkipsDir(filepath.Join(root, filepath.FromSlash(dir)), e.Name()) && !strings.HasPrefix(e.Name(), ".") {
			below, over := addedIn(root, rel, known, knownDirs, budget-len(out))
			out = append(out, below...)
			if over {
				return out, true
			}
			continue
		}
		if !e.Type().IsRegular() || known[rel] {
			continue
		}
		if len(out) >= budget {
			return out, true
		}
		if ok, _ := walk.Admit(root, rel, walk.Options{}); ok {
			out = append(out, rel)
		}
	}
	return out, false
}

// StampDirs stamps the directories holding files, by a stat now: a
// directory's mtime moves when an entry is added or removed.
func StampDirs(root string, files []FileStamp) []FileStamp {
	seen := map[string]bool{}
	var out []FileStamp
	for _, f := range files {
		d := path.Dir(f.Rel)
		for !seen[d] {
			seen[d] = true
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(d))); err == nil {
				out = append(out, FileStamp{Rel: d, MTimeNS: fi.ModTime().UnixNano()})
			}
			if d == "." {
				break
			}
			d = path.Dir(d)
		}
	}
	slices.SortFunc(out, func(a, b FileStamp) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

// StalenessNow compares b's files with the disk now, bypassing (and
// refreshing) the cache: the daemon asks right after a change.
func (s *State) StalenessNow(b *Bundle) Staleness {
	sc, _ := Derive(b, staleKey, func(*graph.Graph) (*staleCache, error) { return &staleCache{}, nil })
	sc.mu.Lock()
	defer sc.mu.Unlock()
	now := time.Now()
	sc.val, sc.at = checkFiles(b.Files), now
	sc.took = time.Since(now)
	return sc.val
}

// MarkFresh records that b's file stamps matched the disk at at: the
// ingest that built b stat'ed every file after at and stamped what it saw.
// The first answers about a freshly reconciled graph then need not stat
// the whole tree again (tens of milliseconds on a large one) before the
// usual staleness TTL has passed since at.
func (s *State) MarkFresh(b *Bundle, at time.Time) {
	sc, _ := Derive(b, staleKey, func(*graph.Graph) (*staleCache, error) { return &staleCache{}, nil })
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.at.Before(at) {
		sc.val, sc.at = Staleness{Checked: at.UTC(), Known: len(b.Files) > 0}, at
	}
}
