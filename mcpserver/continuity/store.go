// Package continuity keeps what lets agents pick up where they left off:
// perspectives (navigable route surfaces), region locks (baselines that
// report what changed under them), investigation trails and a small boot
// memory. Each kind has its own store and its own lock; everything belongs
// to one agent (trails are readable by every agent). With a runtime
// directory every item is one JSON file, written atomically (temp file,
// fsync, rename, directory fsync) and loaded at start; a file that does not
// load is moved aside with a warning, never served and never fatal.
//
// The package knows the graph (core/graph) but not the server: the tool
// layer resolves node references, runs queries and hands the results in.
package continuity

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/m1nd-go/m1nd/core/snapshot"
)

// Dir is the runtime directory's subdirectory that holds continuity state.
const Dir = "continuity"

// Subdirectories, one per kind of item, and the place unreadable files are
// moved to.
const (
	trailsDir       = "trails"
	locksDir        = "locks"
	perspectivesDir = "perspectives"
	memoryDir       = "memory"
	corruptDir      = "corrupt"
	metaFile        = "meta.json"
)

// Store holds every continuity store of one server process.
type Store struct {
	root string // "" for a memory-only session
	logf func(format string, args ...any)
	now  func() time.Time

	// Epoch names this process: generations counted by the session restart
	// at every start, so a generation recorded by another process says
	// nothing about the graph served now.
	Epoch string

	Trails       *Trails
	Memory       *Memory
	Locks        *Locks
	Perspectives *Perspectives

	metaMu sync.Mutex
	meta   meta

	graphGen, plasGen atomic.Uint64

	warnMu   sync.Mutex
	warnings []string
}

// meta is what outlives a process besides the items: the sequence numbers
// of each agent's ids (an id is never handed out twice) and the number of
// graph changes seen (trails measure how far behind they are in it).
type meta struct {
	Format   int               `json:"format"`
	Counters map[string]uint64 `json:"counters"`
	GraphSeq uint64            `json:"graph_seq"`
}

const metaFormat = 1

// maxWarnings bounds the load warnings kept for reporting.
const maxWarnings = 64

// Open loads the continuity state kept under runtimeDir (nothing is read
// or written when runtimeDir is ""). Unreadable files are moved aside and
// reported through logf and Warnings; Open fails only when the directory
// itself cannot be created.
func Open(runtimeDir string, logf func(format string, args ...any)) (*Store, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	s := &Store{logf: logf, now: time.Now, Epoch: fmt.Sprintf("%x", time.Now().UnixNano())}
	s.meta = meta{Format: metaFormat, Counters: map[string]uint64{}}
	if runtimeDir != "" {
		s.root = filepath.Join(runtimeDir, Dir)
		for _, d := range []string{trailsDir, locksDir, perspectivesDir, memoryDir} {
			if err := os.MkdirAll(filepath.Join(s.root, d), 0o755); err != nil {
				return nil, fmt.Errorf("continuity: create %s: %w", d, err)
			}
			s.sweep(d)
		}
		s.loadMeta()
	}
	s.Trails = newTrails(s)
	s.Memory = newMemory(s)
	s.Locks = newLocks(s)
	s.Perspectives = newPerspectives(s)
	return s, nil
}

// SetClock fixes the store's notion of now (tests).
func (s *Store) SetClock(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	s.now = now
}

// nowMs is the current time in Unix milliseconds.
func (s *Store) nowMs() int64 { return s.now().UnixMilli() }

// Persistent reports whether items are written to disk.
func (s *Store) Persistent() bool { return s.root != "" }

// Warnings returns the load problems seen since start (files set aside).
func (s *Store) Warnings() []string {
	s.warnMu.Lock()
	defer s.warnMu.Unlock()
	return slices.Clone(s.warnings)
}

func (s *Store) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logf("WARNING: continuity: %s", msg)
	s.warnMu.Lock()
	if len(s.warnings) < maxWarnings {
		s.warnings = append(s.warnings, msg)
	}
	s.warnMu.Unlock()
}

// Observe records a change of the served graph or its learned state, as
// the session's events report it: kind "learned" for learned state, any
// other kind for a new graph. Locks with a watcher count the event.
func (s *Store) Observe(kind string, gen, plasGen uint64) {
	s.graphGen.Store(gen)
	s.plasGen.Store(plasGen)
	if kind == "learned" {
		s.Locks.watch(WatchOnLearn, kind, gen)
		return
	}
	s.metaMu.Lock()
	s.meta.GraphSeq++
	s.saveMetaLocked()
	s.metaMu.Unlock()
	s.Locks.watch(WatchOnIngest, kind, gen)
}

// GraphSeq counts the graph changes seen across restarts.
func (s *Store) GraphSeq() uint64 {
	s.metaMu.Lock()
	defer s.metaMu.Unlock()
	return s.meta.GraphSeq
}

// nextSeq hands out the next sequence number of kind for agent and makes
// it durable before the caller writes an item carrying it.
func (s *Store) nextSeq(kind, agent string) uint64 {
	s.metaMu.Lock()
	defer s.metaMu.Unlock()
	k := kind + "/" + agent
	s.meta.Counters[k]++
	n := s.meta.Counters[k]
	s.saveMetaLocked()
	return n
}

// nextSeqLazy is nextSeq for items written behind (perspectives): the
// counter is saved by the flusher before the item itself.
func (s *Store) nextSeqLazy(kind, agent string) uint64 {
	s.metaMu.Lock()
	defer s.metaMu.Unlock()
	k := kind + "/" + agent
	s.meta.Counters[k]++
	return s.meta.Counters[k]
}

// Close writes what is still pending (perspective changes). The store
// stays usable.
func (s *Store) Close() { s.Perspectives.Flush() }

// seenSeq raises a counter to at least n (items loaded from disk whose
// sequence is ahead of a lost meta file).
func (s *Store) seenSeq(kind, agent string, n uint64) {
	s.metaMu.Lock()
	defer s.metaMu.Unlock()
	if k := kind + "/" + agent; s.meta.Counters[k] < n {
		s.meta.Counters[k] = n
	}
}

func (s *Store) saveMetaLocked() {
	if s.root == "" {
		return
	}
	if err := s.writeJSON("", metaFile, s.meta); err != nil {
		s.logf("WARNING: continuity: %s not written: %v", metaFile, err)
	}
}

func (s *Store) loadMeta() {
	path := filepath.Join(s.root, metaFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	var m meta
	if err == nil {
		err = decodeStrict(data, &m)
	}
	if err == nil && m.Format != metaFormat {
		err = fmt.Errorf("format %d, this server reads %d", m.Format, metaFormat)
	}
	if err != nil {
		s.setAside("", metaFile, err)
		return
	}
	if m.Counters == nil {
		m.Counters = map[string]uint64{}
	}
	s.meta = m
}

// writeJSON writes v as sub/name atomically.
func (s *Store) writeJSON(sub, name string, v any) error {
	if s.root == "" {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.writeRaw(sub, name, data)
}

// writeRaw writes JSON data as sub/name atomically.
func (s *Store) writeRaw(sub, name string, data []byte) error {
	if s.root == "" {
		return nil
	}
	data = append(data, '\n')
	return snapshot.WriteFileAtomic(filepath.Join(s.root, sub, name), 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// remove deletes sub/name and makes the deletion durable.
func (s *Store) remove(sub, name string) error {
	if s.root == "" {
		return nil
	}
	dir := filepath.Join(s.root, sub)
	if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	syncDir(dir)
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// sweep removes temp files an interrupted write left in sub: only this
// process (the runtime directory's lock holder) writes there.
func (s *Store) sweep(sub string) {
	matches, _ := filepath.Glob(filepath.Join(s.root, sub, ".*.tmp-*"))
	for _, m := range matches {
		if err := os.Remove(m); err == nil {
			s.logf("continuity: removed %s, left by an interrupted write", filepath.Base(m))
		}
	}
}

// loadDir decodes every *.json file of sub with load; a file load refuses
// is set aside.
func (s *Store) loadDir(sub string, load func(name string, data []byte) error) {
	if s.root == "" {
		return
	}
	entries, err := os.ReadDir(filepath.Join(s.root, sub))
	if err != nil {
		s.warn("cannot list %s: %v", sub, err)
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		if !e.Type().IsRegular() {
			s.setAside(sub, name, errors.New("not a regular file"))
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.root, sub, name))
		if err == nil {
			err = load(name, data)
		}
		if err != nil {
			s.setAside(sub, name, err)
		}
	}
}

// setAside moves an unreadable file into corrupt/ under a unique name, so
// it is never loaded again and can still be inspected.
func (s *Store) setAside(sub, name string, why error) {
	from := filepath.Join(s.root, sub, name)
	cdir := filepath.Join(s.root, corruptDir)
	to := filepath.Join(cdir, fmt.Sprintf("%s%s.%d", strings.ReplaceAll(filepath.Join(sub, ""), string(filepath.Separator), "-"), name, time.Now().UnixNano()))
	err := os.MkdirAll(cdir, 0o755)
	if err == nil {
		err = os.Rename(from, to)
	}
	if err != nil {
		s.warn("%s is unreadable (%v) and could not be moved aside (%v); it is ignored", filepath.Join(sub, name), why, err)
		return
	}
	syncDir(filepath.Dir(from))
	s.warn("%s is unreadable (%v); moved to %s", filepath.Join(sub, name), why, to)
}

// decodeStrict decodes JSON refusing unknown fields and trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// approxSize is the size of v's JSON encoding.
func approxSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return math.MaxInt
	}
	return len(b)
}
