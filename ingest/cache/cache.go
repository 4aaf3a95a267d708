// Package cache keeps what an incremental ingest needs between runs: a
// manifest (size, mtime and content hash of every file seen) and each
// file's extraction result, content-addressed by path and content hash.
//
// On disk, under the caller's directory:
//
//	manifest.gob             the manifest, written atomically
//	results/ab/abcdef….bin   one extract.Result per file version (blob.go)
//
// A Store also keeps decoded results in memory, so a long-lived server that
// holds one Store re-reads nothing but the files that changed. Results are
// shared, never modified: callers must treat them as read-only.
//
// The cache is tied to the binary that wrote it (a hash of the executable is
// part of the manifest): results of an older extractor are never mixed with
// fresh ones, because an incremental ingest must equal a full one.
package cache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// schema is bumped whenever the manifest or result encoding changes.
const schema = 2

// Kind records what the walk found in a file.
type Kind uint8

const (
	// Text files have a cached extraction result.
	Text Kind = iota
	// Binary files (NUL in the first 8 KB) are skipped.
	Binary
	// Undecodable files (invalid UTF-8) are skipped.
	Undecodable
)

// Hash is a content hash (the first 16 bytes of SHA-256).
type Hash [16]byte

// HashOf hashes file content.
func HashOf(data []byte) Hash {
	sum := sha256.Sum256(data)
	var h Hash
	copy(h[:], sum[:])
	return h
}

// Entry is the manifest record of one file.
type Entry struct {
	Size    int64
	MTimeNS int64
	Hash    Hash
	Kind    Kind
	// Failed marks a file whose extractor returned an error; its cached
	// result is the generic fallback and Err the message.
	Failed bool
	Err    string
}

// key names a file version's result as this build extracts it: a blob
// another build wrote is never read (it may hold an older extractor's
// result, in an older format), and a full ingest writes its own beside it.
func key(rel string, h Hash) string {
	s := sha256.New()
	s.Write([]byte(blobVersion()))
	s.Write([]byte{0})
	s.Write([]byte(rel))
	s.Write([]byte{0})
	s.Write(h[:])
	return hex.EncodeToString(s.Sum(nil)[:16])
}

type manifestFile struct {
	Schema  int
	Version string
	// Root is the directory the entries describe ("" for a store never
	// bound): a cache copied or swapped in from another tree is refused,
	// not trusted by size and mtime.
	Root    string
	Entries map[string]Entry
}

// Store is a cache directory, with the decoded manifest and results kept in
// memory. It is safe for concurrent use.
type Store struct {
	dir  string
	root string // the tree it describes (Bind)
	// run serialises the ingests sharing this store (Lock, Unlock).
	run sync.Mutex

	mu       sync.Mutex
	loaded   bool
	manifest map[string]Entry
	results  map[string]*extract.Result // key → result
	// prepared holds results extracted ahead of an ingest (Prepare), by
	// key, in the order they came (oldest first, at most maxPrepared).
	prepared     map[string]Prepared
	preparedKeys []string
	// Extra holds state other layers keep alongside (the git history of a
	// HEAD); see SetExtra.
	extra map[string]any
	// disk writes blobs and manifests behind the ingests that asked for
	// them (Put, Commit) when behind is set (SetWriteBehind).
	behind bool
	disk   diskQueue
	// holds are the open HoldWrites, each with the room it has left.
	holds []*writeHold
	// keys remembers the key of each path of the last committed manifest:
	// a commit of a few changed files hashes those, not every path.
	keys map[string]hashKey
	// since are the results put or loaded since the last commit, which
	// keeps them only if they are live.
	since []pathKey
	// seq counts the manifests the store has held (every Commit, Load or
	// Bind that replaced it); delta lists, sorted, the paths whose entry
	// the last Commit added, removed or changed, when the manifest before
	// it was seq-1's (deltaOK): a caller that derived something from
	// manifest seq-1 updates it from these paths alone (ManifestDelta).
	seq     uint64
	delta   []string
	deltaOK bool
	// trees keeps the syntax trees of the files incremental ingests
	// parsed again (Trees); Close frees them.
	trees *extract.Keeper
}

// pathKey is a result's key and the path it is of.
type pathKey struct{ rel, k string }

// hashKey is the key of a path at one content hash.
type hashKey struct {
	h Hash
	k string
}

// keyOf is key(rel, h), remembered from the last commit when rel had h.
func (s *Store) keyOf(rel string, h Hash) string {
	if hk, ok := s.keys[rel]; ok && hk.h == h {
		return hk.k
	}
	return key(rel, h)
}

// SetWriteBehind makes the store write to disk behind its callers: Put and
// Commit return once memory is updated, and one goroutine writes the
// blobs, then each manifest, in the order they were asked. A long-lived
// store (a server's) sets it so that a patch of a few files does not wait
// for a file creation per result and a manifest of every file; whoever
// sets it calls Flush or Close before another Store opens the directory
// or the directory is removed. A crash loses only cache: a manifest whose
// blobs were not written makes the next ingest extract those files again.
//
// A store with a directory that writes behind also spills (Spills): a
// result leaves memory once its blob is on disk, and Result reads it back
// without keeping it. A server kept every file's extraction in memory
// between ingests (go-std: 116 MB of live heap, twice that in resident
// memory under the GC's headroom) although an incremental ingest reads
// back only the few files a change can affect.
func (s *Store) SetWriteBehind(on bool) {
	s.mu.Lock()
	s.behind = on
	s.mu.Unlock()
	if !on {
		_ = s.Flush()
	}
}

// Spills reports whether results leave memory once written (a store with
// a directory that writes behind): callers then ask for a result when they
// need it (Result) rather than holding every one.
func (s *Store) Spills() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spills()
}

// spills is Spills with mu held.
func (s *Store) spills() bool { return s.behind && s.dir != "" }

// Has reports whether the result of a file version can be asked for
// without decoding it: in memory, or (for a store that spills) written to
// its blob. A blob missing or torn is reported by Result.
func (s *Store) Has(rel string, e Entry) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.keyOf(rel, e.Hash)
	return s.results[k] != nil || s.spills()
}

// write runs a disk write now, or queues it behind the caller.
func (s *Store) write(op func() error) error {
	s.mu.Lock()
	behind := s.behind
	s.mu.Unlock()
	if !behind {
		return op()
	}
	s.disk.do(op)
	return nil
}

// Open returns the store of dir. Nothing is read until Load. With dir ""
// the store lives in memory only: incremental ingests work within the
// process, nothing is written.
func Open(dir string) *Store {
	return &Store{dir: dir, results: map[string]*extract.Result{}, extra: map[string]any{}}
}

// Lock reserves the store for one ingest; concurrent ingests of the same
// store wait for each other (their results would otherwise interleave).
func (s *Store) Lock() { s.run.Lock() }

// Unlock releases the store.
func (s *Store) Unlock() { s.run.Unlock() }

// Dir is the cache directory.
func (s *Store) Dir() string { return s.dir }

var (
	versionOnce sync.Once
	version     string
)

// blobVersion is what a blob's key carries of the build (Version; a var
// for tests).
var blobVersion = Version

// Version identifies the extractor code: the schema and a hash of the
// running executable's Go build ID (a hash of the binary's content the go
// command writes into it), or of the whole executable when it carries none.
// Hashing a 70 MB executable was 50–75 ms of the first ingest's CPU, a
// tenth of py-335's.
func Version() string {
	versionOnce.Do(func() {
		version = "schema" + strconv.Itoa(schema)
		exe, err := os.Executable()
		if err != nil {
			return
		}
		h := sha256.New()
		if id := goBuildID(exe); id != "" {
			io.WriteString(h, "buildid:"+id)
		} else {
			f, err := os.Open(exe)
			if err != nil {
				return
			}
			defer f.Close()
			if _, err := io.Copy(h, f); err != nil {
				return
			}
		}
		version += "-" + hex.EncodeToString(h.Sum(nil)[:12])
	})
	return version
}

// goBuildID returns the Go build ID of the ELF executable at path, "" when
// it is not ELF or has no build ID note.
func goBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	// An ELF note: name size, description size, type, the name "Go"
	// padded to 4 bytes, then the description (the ID).
	bo := f.ByteOrder
	namesz, descsz := bo.Uint32(data[0:4]), bo.Uint32(data[4:8])
	off := 12 + (uint64(namesz)+3)&^3
	if bo.Uint32(data[8:12]) != 4 || off+uint64(descsz) > uint64(len(data)) {
		return ""
	}
	return string(data[off : off+uint64(descsz)])
}

// ErrNoManifest is returned by Load when the directory holds no usable
// manifest yet.
var ErrNoManifest = errors.New("no manifest")

// Load reads the manifest (once; later calls reuse it). A missing manifest
// is ErrNoManifest; a manifest written by another binary or schema is
// reported and treated as missing.
func (s *Store) Load() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.loaded {
		return nil
	}
	if s.dir == "" {
		return ErrNoManifest
	}
	data, err := os.ReadFile(filepath.Join(s.dir, "manifest.gob"))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNoManifest
	}
	if err != nil {
		return fmt.Errorf("reading the ingest cache manifest: %w", err)
	}
	var m manifestFile
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&m); err != nil {
		return fmt.Errorf("%w: the manifest in %s is unreadable (%v); a full ingest rewrites it", ErrNoManifest, s.dir, err)
	}
	if m.Schema != schema || m.Version != Version() {
		s.dropStaleResults()
		return fmt.Errorf("%w: the cache in %s was written by another build of m1nd; a full ingest rewrites it", ErrNoManifest, s.dir)
	}
	if s.root != "" && m.Root != s.root {
		return fmt.Errorf("%w: the cache in %s describes %q, not %q; a full ingest rewrites it", ErrNoManifest, s.dir, m.Root, s.root)
	}
	s.manifest = m.Entries
	s.loaded = true
	s.replaced(nil, false)
	return nil
}

// dropStaleResults removes the blobs another build wrote: their keys
// name that build, so no store of this one would read, replace or remove
// them. Once per new build, before its first (full) ingest writes any.
// Caller holds mu.
func (s *Store) dropStaleResults() {
	_ = os.RemoveAll(filepath.Join(s.dir, "results"))
}

// replaced records that the manifest was replaced, and how (ManifestDelta).
// Caller holds mu.
func (s *Store) replaced(delta []string, ok bool) {
	s.seq++
	s.delta, s.deltaOK = delta, ok
}

// ManifestDelta returns the sequence number of the manifest the store
// holds and, when the last Commit replaced manifest seq-1, the paths whose
// entries it added, removed or changed, sorted (ok false otherwise: a
// Load, a Bind to another tree, no commit yet). A server that stamps every
// file of a root after each ingest restamps only these instead of every
// path (mcpserver/tools/reingest.go). The slice must not be modified.
func (s *Store) ManifestDelta() (seq uint64, paths []string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.delta, s.deltaOK
}

// Bind ties the store to the tree it caches (an absolute directory): Load
// refuses a manifest written for another one, and Commit records it. Call
// it before Load.
func (s *Store) Bind(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.root != root {
		s.root, s.loaded, s.manifest = root, false, nil
		s.replaced(nil, false)
	}
}

// Entry returns the manifest record of a file (after Load).
func (s *Store) Entry(rel string) (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.manifest[rel]
	return e, ok
}

// Entries calls f with the manifest record of each of n files (rel(i)
// names the i-th), all under one lock: a patch looks at thousands of
// unchanged files and takes the lock once. f must not call the store.
func (s *Store) Entries(n int, rel func(i int) string, f func(i int, e Entry, ok bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range n {
		e, ok := s.manifest[rel(i)]
		f(i, e, ok)
	}
}

// Len is the number of files of the manifest.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.manifest)
}

// Paths lists the files of the manifest (after Load), unordered.
func (s *Store) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.manifest))
	for p := range s.manifest {
		out = append(out, p)
	}
	return out
}

// Result returns the cached extraction result of a file version, from
// memory or disk.
func (s *Store) Result(rel string, e Entry) (*extract.Result, error) {
	// The key remembered from the last commit: an incremental ingest asks
	// for every unchanged file's result, and a SHA-256 each was a cost
	// that grew with the tree, not with the change.
	s.mu.Lock()
	k := s.keyOf(rel, e.Hash)
	r := s.results[k]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	if s.dir == "" {
		return nil, fmt.Errorf("cached result of %s: not in memory", rel)
	}
	data, err := os.ReadFile(s.blobPath(k))
	if err != nil {
		return nil, fmt.Errorf("cached result of %s: %w", rel, err)
	}
	r, err = decodeResult(data)
	if err != nil {
		return nil, fmt.Errorf("cached result of %s is corrupt: %w", rel, err)
	}
	s.mu.Lock()
	if !s.spills() {
		// A store that spills hands results read back to the one run that
		// asked: keeping them would fill memory again tick by tick.
		s.results[k] = r
		s.since = append(s.since, pathKey{rel, k})
	}
	s.mu.Unlock()
	return r, nil
}

func (s *Store) blobPath(k string) string {
	return filepath.Join(s.dir, "results", k[:2], k+".bin")
}

// Put stores the result of a file version: in memory at once, on disk
// unless it is already there (behind the caller with SetWriteBehind). It
// is called from extraction workers.
func (s *Store) Put(rel string, h Hash, r *extract.Result) error {
	k := key(rel, h)
	s.mu.Lock()
	s.results[k] = r
	s.since = append(s.since, pathKey{rel, k})
	full := s.spendHolds(len(r.Nodes) + len(r.Edges))
	s.mu.Unlock()
	for _, h := range full {
		h.end()
	}
	if s.dir == "" {
		return nil
	}
	return s.write(func() error { return s.writeBlob(k, r) })
}

// writeBlob writes a result unless it is on disk already or no longer
// wanted (a Commit dropped it while the write waited).
func (s *Store) writeBlob(k string, r *extract.Result) error {
	s.mu.Lock()
	live := s.results[k] == r
	s.mu.Unlock()
	p := s.blobPath(k)
	if !live {
		return nil
	}
	if _, err := os.Stat(p); err == nil {
		s.spill(k, r)
		return nil
	}
	if err := encodeBlob(p, r); err != nil {
		return err
	}
	s.spill(k, r)
	return nil
}

// spill drops a result from memory once its blob is on disk, when the
// store spills and the result is still the one kept under k.
func (s *Store) spill(k string, r *extract.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spills() && s.results[k] == r {
		delete(s.results, k)
	}
}

// encodeBlob writes r to the blob file p.
func encodeBlob(p string, r *extract.Result) error {
	buf := encodeResult(r)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	// Blobs are content-addressed: a torn write leaves a file whose decode
	// fails, which Result reports and a full ingest repairs; no fsync here
	// keeps a full ingest of thousands of files fast.
	tmp := p + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, buf, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// Flush waits until every write queued so far (SetWriteBehind) is on
// disk, and returns the first error among them since the last Flush.
func (s *Store) Flush() error { return s.disk.wait() }

// Close flushes and frees the kept syntax trees (a session closes the
// stores it shares).
func (s *Store) Close() error {
	s.mu.Lock()
	t := s.trees
	s.mu.Unlock()
	t.Clear()
	return s.Flush()
}

// Trees returns the store's keeper of syntax trees: an incremental ingest
// parses a changed file from the tree its last parse kept there
// (extract.ExtractFileKept).
func (s *Store) Trees() *extract.Keeper {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.trees == nil {
		s.trees = extract.NewKeeper(extract.DefaultKeepBytes, extract.DefaultKeepTrees)
	}
	return s.trees
}

// Prepared is the extraction of a file version made before the file was
// written (an edit tool extracting new contents while it fsyncs them).
type Prepared struct {
	Result *extract.Result
	// Err is the extractor's error when the result is the generic fallback.
	Err string
}

// maxPrepared bounds the prepared results a store holds: they are taken by
// the next ingest, or are stale (the write never landed) and age out.
const maxPrepared = 64

// Prepare keeps the extraction of a file version (rel, its content hash)
// for the next ingest that reads that content: it takes it instead of
// extracting again. Memory only.
func (s *Store) Prepare(rel string, h Hash, p Prepared) {
	k := key(rel, h)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prepared == nil {
		s.prepared = map[string]Prepared{}
	}
	if _, ok := s.prepared[k]; !ok {
		s.preparedKeys = append(s.preparedKeys, k)
	}
	s.prepared[k] = p
	for len(s.preparedKeys) > maxPrepared {
		delete(s.prepared, s.preparedKeys[0])
		s.preparedKeys = s.preparedKeys[1:]
	}
}

// TakePrepared returns and forgets the prepared extraction of a file
// version, if there is one.
func (s *Store) TakePrepared(rel string, h Hash) (Prepared, bool) {
	k := key(rel, h)
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prepared[k]
	if ok {
		delete(s.prepared, k)
		s.preparedKeys = slices.DeleteFunc(s.preparedKeys, func(x string) bool { return x == k })
	}
	return p, ok
}

// Commit replaces the manifest with entries and deletes the results no
// entry refers to any more: in memory at once, then on disk (the manifest
// written atomically, the stale blobs removed). With SetWriteBehind the
// disk part runs behind the caller, after the blobs Put before it, and an
// error returned is that of an earlier queued write.
func (s *Store) Commit(entries map[string]Entry) error {
	s.mu.Lock()
	old, was := s.manifest, s.loaded
	stale, delta := s.rekey(old, entries)
	return s.committed(entries, was, stale, delta)
}

// ErrNotLoaded is CommitDelta's answer when the store holds no manifest
// to change (no Load or Commit since it was opened or bound): nothing
// was changed, and a Commit of the whole manifest is what is needed.
var ErrNotLoaded = errors.New("ingest cache: no manifest loaded to commit changes to")

// CommitDelta is Commit of the manifest the store holds with set's entries
// put and del's paths removed (a path in both is put), at the cost of the
// change in memory: a patch of a few files among thousands neither builds
// nor compares a map of every file. The manifest on disk is still written
// whole.
func (s *Store) CommitDelta(set map[string]Entry, del []string) error {
	s.mu.Lock()
	if !s.loaded {
		s.mu.Unlock()
		return ErrNotLoaded
	}
	old := s.manifest
	// A copy: the committed map may still be being written behind.
	entries := maps.Clone(old)
	if entries == nil {
		entries = make(map[string]Entry, len(set))
	}
	for _, p := range del {
		delete(entries, p)
	}
	maps.Copy(entries, set)
	stale, delta := s.rekeyDelta(old, set, del)
	return s.committed(entries, true, stale, delta)
}

// committed makes entries the manifest, drops the results no live key
// names, unlocks mu (held by the caller) and writes the manifest.
func (s *Store) committed(entries map[string]Entry, was bool, stale, delta []string) error {
	s.manifest = entries
	s.loaded = true
	s.replaced(delta, was)
	// Results are kept for live keys only: those committed before that
	// are not stale, and those put or loaded since that are live now.
	for _, k := range stale {
		delete(s.results, k)
	}
	for _, pk := range s.since {
		if e, ok := entries[pk.rel]; !ok || e.Kind != Text || s.keyOf(pk.rel, e.Hash) != pk.k {
			delete(s.results, pk.k)
		}
	}
	s.since = s.since[:0]
	root := s.root
	s.mu.Unlock()
	if s.dir == "" {
		return nil
	}
	if err := s.write(func() error { return s.writeManifest(root, entries, stale) }); err != nil {
		return err
	}
	return s.disk.err()
}

// rekey brings s.keys from the old manifest to the new one in place and
// returns the keys that went stale (a text file gone or changed), and the
// paths whose entries differ between the two, sorted: a commit of a few
// changed files among many allocates for those only. Caller holds mu.
func (s *Store) rekey(old, entries map[string]Entry) (stale, delta []string) {
	for p, e := range old {
		n, ok := entries[p]
		if !ok || n != e {
			delta = append(delta, p)
		}
		if e.Kind != Text {
			continue
		}
		if !ok || n.Kind != Text || n.Hash != e.Hash {
			stale = append(stale, s.keyOf(p, e.Hash))
		}
	}
	if s.keys == nil {
		s.keys = make(map[string]hashKey, len(entries))
	}
	for p, hk := range s.keys {
		if e, ok := entries[p]; !ok || e.Kind != Text || e.Hash != hk.h {
			delete(s.keys, p)
		}
	}
	for p, e := range entries {
		if _, ok := old[p]; !ok {
			delta = append(delta, p)
		}
		if _, ok := s.keys[p]; !ok && e.Kind == Text {
			s.keys[p] = hashKey{e.Hash, key(p, e.Hash)}
		}
	}
	slices.Sort(delta)
	return stale, delta
}

// rekeyDelta is rekey for a manifest that differs from old only in set's
// and del's paths; s.keys keeps the other paths' keys it has. Caller
// holds mu.
func (s *Store) rekeyDelta(old, set map[string]Entry, del []string) (stale, delta []string) {
	if s.keys == nil {
		s.keys = make(map[string]hashKey, len(set))
	}
	gone := func(p string, e Entry) { // e, old's entry of p, is no longer p's
		if e.Kind == Text {
			stale = append(stale, s.keyOf(p, e.Hash))
		}
	}
	for _, p := range del {
		e, had := old[p]
		if _, put := set[p]; !had || put {
			continue
		}
		delta = append(delta, p)
		gone(p, e)
		delete(s.keys, p)
	}
	for p, n := range set {
		e, had := old[p]
		if had && e == n {
			continue
		}
		delta = append(delta, p)
		if had && (n.Kind != Text || n.Hash != e.Hash) {
			gone(p, e)
		}
		if n.Kind != Text {
			delete(s.keys, p)
		} else if hk, ok := s.keys[p]; !ok || hk.h != n.Hash {
			s.keys[p] = hashKey{n.Hash, key(p, n.Hash)}
		}
	}
	slices.Sort(delta)
	return stale, delta
}

// writeManifest writes the manifest atomically, then removes the blobs it
// no longer names.
func (s *Store) writeManifest(root string, entries map[string]Entry, stale []string) error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("creating the ingest cache directory: %w", err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(manifestFile{Schema: schema, Version: Version(), Root: root, Entries: entries}); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(s.dir, "manifest.gob"), buf.Bytes()); err != nil {
		return fmt.Errorf("writing the ingest cache manifest: %w", err)
	}
	for _, k := range stale {
		_ = os.Remove(s.blobPath(k))
	}
	return nil
}

// HoldWrites keeps the disk writes queued behind the callers
// (SetWriteBehind) from starting until the returned release is called, so
// that an ingest's blob encodes and file creations (a tenth of a small
// tree's CPU) run after its answer instead of beside its parse. The
// results stay in memory meanwhile (a store that spills drops them once
// written), so the hold ends by itself once the results Put under it hold
// more than maxElements nodes and edges: a large tree's writes start as
// before. Flush and Close write what is held. Release may be called more
// than once; holds of concurrent callers nest.
func (s *Store) HoldWrites(maxElements int) (release func()) {
	h := &writeHold{s: s, left: maxElements}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	s.disk.hold(1)
	return h.end
}

// Holding reports whether a HoldWrites is open (its writes wait).
func (s *Store) Holding() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.holds) > 0
}

// writeHold is one HoldWrites.
type writeHold struct {
	s    *Store
	left int
	once sync.Once
}

// end lets the queue run (once all holds are over).
func (h *writeHold) end() {
	h.once.Do(func() {
		s := h.s
		s.mu.Lock()
		s.holds = slices.DeleteFunc(s.holds, func(x *writeHold) bool { return x == h })
		s.mu.Unlock()
		s.disk.hold(-1)
	})
}

// spendHolds takes n elements from every open hold's room and returns the
// holds it overdrew, which the caller ends once mu is released. Caller
// holds mu.
func (s *Store) spendHolds(n int) (full []*writeHold) {
	for _, h := range s.holds {
		if h.left -= n; h.left < 0 {
			full = append(full, h)
		}
	}
	return full
}

// diskQueue runs a store's disk writes one at a time, in the order they
// were asked, on a goroutine that lives while there is work and no hold
// keeps it (hold) or a wait asks for it.
type diskQueue struct {
	mu      sync.Mutex
	ops     []func() error
	running bool
	holds   int // open holds: queued writes wait
	waiters int // waits in progress: queued writes run despite holds
	done    *sync.Cond
	first   error // the first error since the last wait
}

func (q *diskQueue) do(op func() error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ops = append(q.ops, op)
	q.start()
}

// hold adds d to the open holds and starts what they no longer keep.
func (q *diskQueue) hold(d int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.holds += d
	q.start()
}

// free reports whether queued writes may run. Caller holds mu.
func (q *diskQueue) free() bool { return q.holds == 0 || q.waiters > 0 }

// start runs the queue unless it runs, is empty or held. Caller holds mu.
func (q *diskQueue) start() {
	if !q.running && len(q.ops) > 0 && q.free() {
		q.running = true
		go q.drain()
	}
}

func (q *diskQueue) drain() {
	for {
		q.mu.Lock()
		if len(q.ops) == 0 || !q.free() {
			q.running = false
			if q.done != nil {
				q.done.Broadcast()
			}
			q.mu.Unlock()
			return
		}
		op := q.ops[0]
		q.ops[0] = nil
		q.ops = q.ops[1:]
		q.mu.Unlock()
		if err := op(); err != nil {
			q.mu.Lock()
			if q.first == nil {
				q.first = err
			}
			q.mu.Unlock()
		}
	}
}

// wait blocks until the queue is empty (running what holds keep) and returns (and clears) the first
// error since the last wait.
func (q *diskQueue) wait() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.done == nil {
		q.done = sync.NewCond(&q.mu)
	}
	q.waiters++
	defer func() { q.waiters-- }()
	for q.start(); q.running; q.start() {
		q.done.Wait()
	}
	return q.takeErr()
}

// err returns (and clears) the first error of the writes done so far.
func (q *diskQueue) err() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.takeErr()
}

// takeErr returns and clears the first error. Caller holds mu.
func (q *diskQueue) takeErr() error {
	err := q.first
	q.first = nil
	return err
}

// Extra returns state stored with SetExtra.
func (s *Store) Extra(name string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.extra[name]
}

// SetExtra keeps in-memory state for later runs (not persisted).
func (s *Store) SetExtra(name string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.extra[name] = v
}

// PutFile keeps data under name (a plain file name) in the cache
// directory, replacing what was there, for a later process: written
// atomically, behind the caller with SetWriteBehind. A memory-only store
// keeps nothing. Like the rest of the cache it is a copy of what can be
// computed again, so it is not fsynced.
func (s *Store) PutFile(name string, data []byte) error {
	if s.dir == "" {
		return nil
	}
	if filepath.Base(name) != name || name == "manifest.gob" || name == "results" {
		return fmt.Errorf("cache file name %q is not a plain name of its own", name)
	}
	return s.write(func() error {
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return fmt.Errorf("creating the ingest cache directory: %w", err)
		}
		return writeAtomic(filepath.Join(s.dir, name), data)
	})
}

// ReadFile returns what PutFile kept under name on disk (an error
// wrapping fs.ErrNotExist when nothing is, or the store lives in memory
// only). A write still queued behind its caller is not seen: callers keep
// what they put in memory too (SetExtra) and read the file in a later
// process.
func (s *Store) ReadFile(name string) ([]byte, error) {
	if s.dir == "" || filepath.Base(name) != name {
		return nil, fmt.Errorf("cache file %q: %w", name, fs.ErrNotExist)
	}
	return os.ReadFile(filepath.Join(s.dir, name))
}

// writeAtomic writes a file so that a crashed process leaves either the
// old or the new content: temp file in the same directory, then rename.
// There is no fsync: the manifest is a cache, written after every
// incremental ingest (the daemon's ticks, every apply_batch), and two
// fsyncs were a large part of a small patch. A manifest torn by a power
// loss fails to decode, which Load reports as ErrNoManifest, and the next
// ingest runs in full and rewrites it; a stale one only makes the next
// incremental ingest re-read the files that changed since (their sizes
// and mtimes no longer match).
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
