package textsearch

import (
	"bytes"
	"context"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// File is one file to search.
type File struct {
	// Path identifies the file to the caller (e.g. root-relative).
	Path string
	// Abs is where to read it (already checked by the caller's path
	// guard).
	Abs string
}

// Options tune a search.
type Options struct {
	// Workers bounds parallel scanning (default GOMAXPROCS).
	Workers int
	// Keep is how many matches to keep per file (counting goes on).
	Keep int
	// StopAfter stops scanning once this many matches were counted in
	// total (0 = scan everything). Counts are then lower bounds.
	StopAfter int
	// Cache, when set, keeps file contents between searches.
	Cache *Cache
	// MaxFileSize skips larger files (0 = no limit).
	MaxFileSize int64
	// Open opens a file for reading (default os.Open). The server passes
	// its path guard's, which re-checks containment at every open.
	Open Opener
}

// Opener opens a file to read; it may refuse (a symlink that now leads
// outside the roots, a special file).
type Opener func(abs string) (*os.File, error)

func (o Opener) open(abs string) (*os.File, error) {
	if o == nil {
		return os.Open(abs)
	}
	return o(abs)
}

// FileResult is the outcome for one input file.
type FileResult struct {
	Total   int
	Matches []Match
	// Skipped says why the file was not searched: "", "binary",
	// "too_large", "unreadable" or "not_scanned" (early stop).
	Skipped string
}

// Result is the outcome of Search, aligned with the input files.
type Result struct {
	Files        []FileResult
	Total        int
	FilesScanned int
	FilesMatched int
	Binary       int
	TooLarge     int
	Unreadable   int
	// Stopped is set when StopAfter (or the context) ended the scan
	// early; Total and FilesMatched are then lower bounds.
	Stopped bool
}

// Search scans files in parallel. Matches per file are in file order;
// the caller orders files.
func Search(ctx context.Context, files []File, m *Matcher, opt Options) *Result {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(1, len(files)))
	keep := max(opt.Keep, 1)
	res := &Result{Files: make([]FileResult, len(files))}
	var next atomic.Int64
	var total atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				fr := &res.Files[i]
				if stop.Load() || ctx.Err() != nil {
					fr.Skipped = "not_scanned"
					continue
				}
				var data []byte
				var err error
				data, buf, err = opt.Cache.load(files[i].Abs, buf, opt.MaxFileSize, opt.Open)
				switch {
				case err == errTooLarge:
					fr.Skipped = "too_large"
					continue
				case err != nil:
					fr.Skipped = "unreadable"
					continue
				case IsBinary(data):
					fr.Skipped = "binary"
					continue
				}
				fr.Total, fr.Matches = m.Scan(data, keep)
				if fr.Total > 0 && opt.StopAfter > 0 && total.Add(int64(fr.Total)) >= int64(opt.StopAfter) {
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for i := range res.Files {
		fr := &res.Files[i]
		switch fr.Skipped {
		case "":
			res.FilesScanned++
			res.Total += fr.Total
			if fr.Total > 0 {
				res.FilesMatched++
			}
		case "binary":
			res.Binary++
		case "too_large":
			res.TooLarge++
		case "unreadable":
			res.Unreadable++
		case "not_scanned":
			res.Stopped = true
		}
	}
	return res
}

// SniffLen is how many leading bytes IsBinary looks at.
const SniffLen = 8 << 10

// IsBinary reports whether data looks binary: a NUL byte in its first
// SniffLen bytes (what git, ripgrep and the ingest walker use).
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), SniffLen)], 0) >= 0
}

// Cache keeps file contents in memory up to a byte budget, validated by
// size and modification time on every use so edits are always seen. It
// never evicts: once full, further files are read from disk on each
// search. A nil *Cache reads from disk every time. Safe for concurrent
// use.
type Cache struct {
	limit int64
	mu    sync.RWMutex
	m     map[string]*cached
	size  int64

	hits, misses atomic.Int64
}

type cached struct {
	data []byte
	mod  time.Time
	size int64
}

// NewCache returns a cache holding at most limit bytes of content.
func NewCache(limit int64) *Cache {
	return &Cache{limit: limit, m: map[string]*cached{}}
}

// CacheStats describe a cache.
type CacheStats struct {
	Files  int   `json:"files"`
	Bytes  int64 `json:"bytes"`
	Limit  int64 `json:"limit"`
	Hits   int64 `json:"hits"`
	Misses int64 `json:"misses"`
}

// Stats returns the cache's current figures.
func (c *Cache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return CacheStats{Files: len(c.m), Bytes: c.size, Limit: c.limit, Hits: c.hits.Load(), Misses: c.misses.Load()}
}

type tooLargeErr struct{}

func (tooLargeErr) Error() string { return "file too large" }

var errTooLarge error = tooLargeErr{}

// Load returns the content of the file at abs, from the cache when it is
// still current.
func (c *Cache) Load(abs string, open Opener) ([]byte, error) {
	data, _, err := c.load(abs, nil, 0, open)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// load returns the file's content. Content that is not cached is read
// into buf (grown as needed and returned for reuse), so the returned
// slice is only valid until the next call with the same buf — unless it
// came from, or went into, the cache.
func (c *Cache) load(abs string, buf []byte, maxSize int64, open Opener) (data, nbuf []byte, err error) {
	if c != nil {
		c.mu.RLock()
		e := c.m[abs]
		c.mu.RUnlock()
		if e != nil {
			// Lstat: a file swapped for a symlink is not the cached file.
			if fi, err := os.Lstat(abs); err == nil && fi.Mode().IsRegular() && fi.Size() == e.size && fi.ModTime().Equal(e.mod) {
				c.hits.Add(1)
				return e.data, buf, nil
			}
		}
		c.misses.Add(1)
	}
	f, err := open.open(abs)
	if err != nil {
		return nil, buf, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, buf, err
	}
	if !fi.Mode().IsRegular() {
		return nil, buf, os.ErrInvalid
	}
	size := fi.Size()
	if maxSize > 0 && size > maxSize {
		return nil, buf, errTooLarge
	}
	keep := c != nil && c.room(size)
	var dst []byte
	if keep {
		dst = make([]byte, size)
	} else {
		if int64(cap(buf)) < size+1 {
			buf = make([]byte, size+size/4+512)
		}
		dst = buf[:size]
	}
	n, err := io.ReadFull(f, dst)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, buf, err
	}
	dst = dst[:n] // the file shrank while being read
	if keep {
		c.put(abs, dst, fi.ModTime(), fi.Size())
	}
	return dst, buf, nil
}

// room reports whether size more bytes fit under the limit.
func (c *Cache) room(size int64) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.size+size <= c.limit
}

func (c *Cache) put(abs string, data []byte, mod time.Time, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[abs]; old != nil {
		c.size -= int64(len(old.data))
	}
	if c.size+int64(len(data)) > c.limit {
		delete(c.m, abs)
		return
	}
	c.m[abs] = &cached{data: data, mod: mod, size: size}
	c.size += int64(len(data))
}
