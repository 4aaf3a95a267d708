package edit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A batch is written in three steps, each durable before the next starts:
//
//  1. prepare: the journal <store>/<batch>.journal — every target, its old
//     contents and hashes, its temp file — is written and fsynced with its
//     directory: from then on a crash means "roll back" (a journal torn by
//     a crash while it was written is dropped: nothing else existed yet);
//     then the new contents go to temp files beside their targets, with
//     the targets' modes, written and fsynced in parallel.
//  2. write: each temp is renamed over its target; then each directory
//     written to is fsynced once. Cancellation is honoured between files.
//  3. commit (Txn.Commit) removes the journal and fsyncs the store; or
//     rollback (Txn.Rollback, Recover) restores every target from the
//     journal, then removes it the same way.
//
// Every step below the store goes through an os.Root of the target's
// root, so no path can leave it whatever happens to the tree meanwhile.
// A per-batch flock (<store>/<batch>.lock) tells a live batch from one a
// dead process left: Recover touches only the latter, so several servers
// may share a store.

// Store is a directory of batch journals. One batch runs at a time per
// store.
type Store struct {
	dir  string
	mu   sync.Mutex
	logf func(string, ...any)
	// fail, when set (tests), is asked before each step; errCrash makes
	// the batch stop dead, as if the process had been killed.
	fail func(step string, i int) error
	// lockMade, when set (tests), runs between a lock file's creation
	// and its flock: where another process's sweep can take it.
	lockMade func(name string)
	// impatient, when set (tests), asks another process's lock once.
	impatient bool
}

// keptHere holds the lock paths of batches this process let go of with
// their journals kept (a failed rollback; a test's simulated crash). No
// live batch can hold such a lock again, only this process's children
// between fork and exec (they share every descriptor, and a loaded
// machine can keep one from its exec for longer than the quarter second
// other processes' locks are asked for) or another process recovering
// the batch: Recover waits for them.
var keptHere sync.Map

// DefaultDir is where a server keeps its edit journals: <runtime>/edits,
// or without a runtime directory a per-user directory under the system
// temp directory (so a memory-only server killed mid-batch is still
// rolled back by the next one).
func DefaultDir(runtimeDir string) string {
	if runtimeDir != "" {
		return filepath.Join(runtimeDir, "edits")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("m1nd-edits-%d", os.Getuid()))
}

// OpenStore opens (creating) a journal directory.
func OpenStore(dir string, logf func(string, ...any)) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("edit journal directory %s: %w", dir, err)
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Store{dir: dir, logf: logf}, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

const journalFormat = 1

type journal struct {
	Format  int            `json:"m1nd_edit_journal"`
	Batch   string         `json:"batch_id"`
	Created time.Time      `json:"created"`
	Entries []journalEntry `json:"entries"`
}

type journalEntry struct {
	Root    string      `json:"root"` // real path of the root
	Rel     string      `json:"rel"`  // target, relative to Root
	Existed bool        `json:"existed"`
	Skip    bool        `json:"skip,omitempty"` // unchanged: nothing written
	OldSHA  string      `json:"old_sha256,omitempty"`
	NewSHA  string      `json:"new_sha256"`
	Mode    fs.FileMode `json:"mode"`
	Old     []byte      `json:"old,omitempty"` // the old contents (when Existed)
	Temp    string      `json:"temp"`          // relative to Root
	NewDirs []string    `json:"new_dirs,omitempty"`
}

// NewBatchID returns a fresh batch identifier.
func NewBatchID() string {
	var b [6]byte
	rand.Read(b[:])
	return "batch-" + time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// Txn is a batch on disk, from prepare to commit or rollback.
type Txn struct {
	s    *Store
	id   string
	path string // the journal file
	lock *os.File
	// dirs are the target directories this batch holds flocked, from
	// the recheck of the files to the end of the batch (lockDirs).
	dirs    []*os.File
	doc     journal
	targets []*Target
	// Written counts the targets renamed into place so far.
	Written int
	done    bool
}

// ID is the batch identifier.
func (t *Txn) ID() string { return t.id }

// errCrash (tests) stops a batch where it is, without cleaning up.
var errCrash = errors.New("simulated crash")

func (s *Store) step(name string, i int) error {
	if s.fail == nil {
		return nil
	}
	return s.fail(name, i)
}

// Apply writes targets as one batch: prepare, then the renames (calling
// onFile after each). It returns the open transaction: the caller commits
// it, or rolls it back (verification failed). When anything fails, or ctx
// ends before the next file, every target is restored and the error is
// returned.
func (s *Store) Apply(ctx context.Context, id string, targets []*Target, onFile func(i int)) (*Txn, error) {
	s.mu.Lock() // released when the transaction ends
	t, err := s.begin(ctx, id, targets)
	if err != nil {
		return nil, err
	}
	if err := t.write(ctx, onFile); err != nil {
		if errors.Is(err, errCrash) {
			t.abandon()
			return nil, err
		}
		if _, rerr := t.Rollback(); rerr != nil {
			return nil, fmt.Errorf("%w; restoring the batch also failed: %v", err, rerr)
		}
		return nil, err
	}
	return t, nil
}

// begin prepares the batch (step 1). Nothing under the roots changes
// except new temp files and parent directories, both named in the journal
// before they are made.
func (s *Store) begin(ctx context.Context, id string, targets []*Target) (*Txn, error) {
	lock, err := s.takeLock(id)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	t := &Txn{s: s, id: id, path: filepath.Join(s.dir, id+".journal"), lock: lock, targets: targets}
	t.doc = journal{Format: journalFormat, Batch: id, Created: time.Now().UTC()}
	if err := t.lockDirs(ctx); err != nil {
		t.discard()
		return nil, err
	}
	for _, tg := range targets {
		if err := tg.recheck(); err != nil {
			t.discard()
			return nil, err
		}
	}
	for i, tg := range targets {
		e := journalEntry{Root: tg.RootReal, Rel: tg.RelReal, Existed: tg.Existed, Skip: tg.Unchanged(), OldSHA: tg.OldSHA, NewSHA: tg.NewSHA, Mode: tg.Mode, NewDirs: tg.NewDirs}
		e.Temp = path.Join(path.Dir(tg.RelReal), fmt.Sprintf(".%s.m1nd-%s-%d.tmp", path.Base(tg.RelReal), id, i))
		if tg.Existed && !e.Skip {
			e.Old = tg.Old
		}
		t.doc.Entries = append(t.doc.Entries, e)
	}
	if err := s.step("journal", 0); err != nil {
		if errors.Is(err, errCrash) {
			t.abandon()
		} else {
			t.discard()
		}
		return nil, err
	}
	if err := t.saveJournal(); err != nil {
		t.discard()
		return nil, err
	}
	if err := t.writeTemps(); err != nil {
		return t.failPrepared(err)
	}
	return t, nil
}

// takeLock creates and flocks the batch's lock file. Another process's
// Recover may sweep the file between its creation and the flock (it looks
// like a dead batch's lock then): the sweep holds the flock while it
// removes the file, and a lock on an unlinked file protects nothing, so
// each such loss is retried with a fresh file rather than failing the
// batch — several servers (and test binaries) share one store.
func (s *Store) takeLock(id string) (*os.File, error) {
	name := filepath.Join(s.dir, id+".lock")
	wait := time.Millisecond
	for try := 0; ; try++ {
		lock, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("edit journal: %w", err)
		}
		if err == nil {
			if s.lockMade != nil {
				s.lockMade(name)
			}
			if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
				if fi, err := os.Stat(name); err == nil && sameFile(lock, fi) {
					return lock, nil
				}
			}
			lock.Close() // swept meanwhile, or being swept
		}
		if try == 12 {
			return nil, fmt.Errorf("edit journal lock %s: other processes sweeping %s kept removing it; retry", name, s.dir)
		}
		time.Sleep(wait)
		wait = min(2*wait, 64*time.Millisecond)
	}
}

// writeTemps writes the temp files in parallel (their fsyncs dominate a
// batch); the failure points are passed in order first, so a simulated
// crash at temp i leaves exactly the temps before it.
func (t *Txn) writeTemps() error {
	stop, stepErr := len(t.targets), error(nil)
	for i := range t.targets {
		if t.doc.Entries[i].Skip {
			continue
		}
		if err := t.s.step("temp", i); err != nil {
			stop, stepErr = i, err
			break
		}
	}
	errs := make([]error, stop)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range stop {
		if t.doc.Entries[i].Skip {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := t.writeTemp(i, t.targets[i]); err != nil {
				errs[i] = fmt.Errorf("writing %s: %w", t.targets[i].Res.Rel, err)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return stepErr
}

// recheck refuses a target whose file changed between validation and the
// write (another batch, an editor): the old contents the journal saves
// must be what the agent saw.
func (t *Target) recheck() error {
	root, err := os.OpenRoot(t.RootReal)
	if err != nil {
		return err
	}
	defer root.Close()
	cur, err := root.ReadFile(filepath.FromSlash(t.RelReal))
	switch {
	case errors.Is(err, fs.ErrNotExist) && !t.Existed:
		return nil
	case err == nil && t.Existed && SHA256(cur) == t.OldSHA:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	now := "absent"
	if err == nil {
		now = SHA256(cur)
	}
	return &Error{Index: t.Index, Path: t.Given, Kind: ErrStale,
		Msg:  fmt.Sprintf("edit %d: %q changed while the batch was being validated (now sha256 %s)", t.Index, t.Given, now),
		Hint: "Another writer changed the file at the same moment: re-read it and redo the edit."}
}

// lockDirs takes an exclusive flock on the directory of every target (its
// deepest existing ancestor for a file in new directories), in path order,
// and holds them until the batch ends. The freshness recheck and the
// renames are then one step per file for every writer on the machine:
// another server — on this runtime directory or another — writing the
// same file waits, then finds it changed, instead of both writes being
// acknowledged and one silently lost. A directory's inode survives the
// renames inside it, which a lock on the file itself would not. Waiting
// ends with ctx.
func (t *Txn) lockDirs(ctx context.Context) error {
	seen := map[string]bool{}
	var dirs []string
	for _, tg := range t.targets {
		d := path.Dir(tg.RelReal)
		if len(tg.NewDirs) > 0 {
			d = path.Dir(tg.NewDirs[0])
		}
		abs := filepath.Join(tg.RootReal, filepath.FromSlash(d))
		if !seen[abs] {
			seen[abs] = true
			dirs = append(dirs, abs)
		}
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		f, err := os.Open(d)
		if err != nil {
			return fmt.Errorf("locking %s: %w", d, err)
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
				break
			}
			select {
			case <-ctx.Done():
				f.Close()
				return fmt.Errorf("waiting for another writer of %s: %w", d, ctx.Err())
			case <-time.After(5 * time.Millisecond):
			}
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("locking %s: %w", d, err)
		}
		t.dirs = append(t.dirs, f)
	}
	return nil
}

// failPrepared ends a batch whose journal exists: a crash leaves it, any
// other failure rolls back (removing temps and created directories).
func (t *Txn) failPrepared(err error) (*Txn, error) {
	if errors.Is(err, errCrash) {
		t.abandon()
		return nil, err
	}
	if _, rerr := t.Rollback(); rerr != nil {
		return nil, fmt.Errorf("%w; cleaning up also failed: %v", err, rerr)
	}
	return nil, err
}

func (t *Txn) saveJournal() error {
	data, err := json.Marshal(t.doc)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("edit journal: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(t.s.dir)
	}
	if err != nil {
		return fmt.Errorf("edit journal: %w", err)
	}
	return nil
}

// writeTemp creates the missing parents and the temp file of target i
// with the new contents and the target's mode.
func (t *Txn) writeTemp(i int, tg *Target) error {
	e := t.doc.Entries[i]
	root, err := os.OpenRoot(e.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, d := range e.NewDirs {
		if err := root.Mkdir(filepath.FromSlash(d), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		syncRootDir(root, path.Dir(d))
	}
	return writeRootFile(root, e.Temp, tg.New, e.Mode)
}

// write renames every temp over its target (step 2).
func (t *Txn) write(ctx context.Context, onFile func(i int)) error {
	root := map[string]*os.Root{}
	defer func() {
		for _, r := range root {
			r.Close()
		}
	}()
	for i, e := range t.doc.Entries {
		if e.Skip {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("cancelled before writing %s: %w", e.Rel, err)
		}
		if err := t.s.step("rename", i); err != nil {
			return err
		}
		r := root[e.Root]
		if r == nil {
			var err error
			if r, err = os.OpenRoot(e.Root); err != nil {
				return err
			}
			root[e.Root] = r
		}
		if err := r.Rename(filepath.FromSlash(e.Temp), filepath.FromSlash(e.Rel)); err != nil {
			return fmt.Errorf("writing %s: %w", e.Rel, err)
		}
		if err := t.s.step("renamed", i); err != nil {
			return err
		}
		t.Written++
		if onFile != nil {
			onFile(i)
		}
	}
	return t.syncDirs(root)
}

// syncDirs fsyncs each directory written to once, in parallel: the
// renames are durable before the journal goes.
func (t *Txn) syncDirs(root map[string]*os.Root) error {
	type dir struct{ root, rel string }
	seen := map[dir]bool{}
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, e := range t.doc.Entries {
		d := dir{e.Root, path.Dir(e.Rel)}
		if e.Skip || seen[d] {
			continue
		}
		seen[d] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := syncRootDir(root[d.root], d.rel); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("syncing %s: %w", d.rel, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Commit keeps the written files: the journal is dropped.
func (t *Txn) Commit() error {
	if t.done {
		return nil
	}
	if err := t.s.step("commit", 0); err != nil {
		if errors.Is(err, errCrash) {
			t.abandon()
		}
		return err
	}
	t.finish()
	return nil
}

// Conflict is a file a rollback left alone because it holds neither the
// old nor the new contents of the batch: someone else changed it since.
type Conflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Rollback restores every target of the batch byte for byte (removing the
// files it created) and drops the journal. Files changed by someone else
// meanwhile are left alone and reported; the journal is then kept aside
// (<batch>.conflict) with the old contents.
func (t *Txn) Rollback() ([]Conflict, error) {
	if t.done {
		return nil, nil
	}
	conflicts, err := rollback(t.s, t.doc)
	if errors.Is(err, errCrash) {
		t.abandon()
		return nil, err
	}
	if err != nil {
		t.keep()
		return conflicts, err
	}
	if len(conflicts) > 0 {
		t.keepAside()
		return conflicts, nil
	}
	t.finish()
	return nil, nil
}

// rollback restores the entries of a journal, last first.
func rollback(s *Store, doc journal) ([]Conflict, error) {
	var conflicts []Conflict
	var errs []error
	for i := len(doc.Entries) - 1; i >= 0; i-- {
		e := doc.Entries[i]
		if err := s.step("restore", i); err != nil {
			return nil, err
		}
		c, err := restoreEntry(doc.Batch, e)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(e.Root, e.Rel), err))
		}
		if c != "" {
			conflicts = append(conflicts, Conflict{Path: filepath.Join(e.Root, filepath.FromSlash(e.Rel)), Reason: c})
		}
	}
	return conflicts, errors.Join(errs...)
}

// restoreEntry puts one target back as the journal recorded it.
func restoreEntry(batch string, e journalEntry) (conflict string, err error) {
	root, err := os.OpenRoot(e.Root)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if err := root.Remove(filepath.FromSlash(e.Temp)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if e.Skip {
		return "", nil
	}
	name := filepath.FromSlash(e.Rel)
	cur, rerr := root.ReadFile(name)
	missing := errors.Is(rerr, fs.ErrNotExist)
	if rerr != nil && !missing {
		return "", rerr
	}
	curSHA := ""
	if !missing {
		curSHA = SHA256(cur)
	}
	switch {
	case e.Existed && curSHA == e.OldSHA:
	case e.Existed && (missing || curSHA == e.NewSHA):
		old := e.Old
		if SHA256(old) != e.OldSHA {
			return "", errors.New("the saved old contents do not match their recorded hash")
		}
		tmp := path.Join(path.Dir(e.Rel), fmt.Sprintf(".%s.m1nd-%s.restore", path.Base(e.Rel), batch))
		if err := writeRootFile(root, tmp, old, e.Mode); err != nil {
			return "", err
		}
		if err := root.Rename(filepath.FromSlash(tmp), name); err != nil {
			return "", err
		}
		if err := syncRootDir(root, path.Dir(e.Rel)); err != nil {
			return "", err
		}
	case e.Existed:
		return fmt.Sprintf("changed by someone else after the write (sha256 %s, neither the old %s nor the written %s); left as it is", curSHA, e.OldSHA, e.NewSHA), nil
	case missing:
	case curSHA == e.NewSHA:
		if err := root.Remove(name); err != nil {
			return "", err
		}
		if err := syncRootDir(root, path.Dir(e.Rel)); err != nil {
			return "", err
		}
	default:
		return fmt.Sprintf("created by the batch, then changed by someone else (sha256 %s); left as it is", curSHA), nil
	}
	for _, d := range slices.Backward(e.NewDirs) {
		if root.Remove(filepath.FromSlash(d)) == nil { // only when empty
			syncRootDir(root, path.Dir(d))
		}
	}
	return "", nil
}

// finish removes the journal (fsynced: an acknowledged commit must not
// come back as a rollback), then its lock.
func (t *Txn) finish() {
	t.done = true
	if err := os.Remove(t.path); err == nil || errors.Is(err, fs.ErrNotExist) {
		syncDir(t.s.dir)
	}
	os.Remove(t.lock.Name())
	t.release()
}

// keepAside moves a journal whose rollback met conflicts out of the way,
// with the old contents, for a person to look at.
func (t *Txn) keepAside() {
	t.done = true
	aside := t.path + ".conflict"
	if err := os.Rename(t.path, aside); err == nil {
		t.s.logf("edit batch %s: some files changed by someone else were left alone; the old contents are kept in %s", t.id, aside)
	}
	syncDir(t.s.dir)
	os.Remove(t.lock.Name())
	t.release()
}

// discard drops a batch whose journal never became durable: nothing was
// written under the roots.
func (t *Txn) discard() {
	t.done = true
	os.Remove(t.path)
	os.Remove(t.lock.Name())
	t.release()
}

// abandon (tests) leaves everything as a killed process would.
func (t *Txn) abandon() {
	t.done = true
	t.keep()
}

// keep lets go of a batch whose journal stays for Recover.
func (t *Txn) keep() {
	if t.lock != nil {
		keptHere.Store(t.lock.Name(), struct{}{})
	}
	t.release()
}

func (t *Txn) release() {
	for _, d := range t.dirs {
		d.Close() // drops the flock
	}
	t.dirs = nil
	if t.lock != nil {
		t.lock.Close()
		t.lock = nil
		t.s.mu.Unlock()
	}
}

// Recovered is one batch a dead process left behind, rolled back.
type Recovered struct {
	Batch     string     `json:"batch_id"`
	Files     []string   `json:"files"`
	Conflicts []Conflict `json:"conflicts,omitempty"`
	Err       string     `json:"error,omitempty"`
}

// Recover rolls back every batch in the store whose process is gone (its
// lock is free): a batch that did not commit is undone entirely, so each
// is all old on disk. Batches of live processes are left alone.
func (s *Store) Recover() []Recovered {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	var out []Recovered
	for _, de := range ents {
		id, ok := strings.CutSuffix(de.Name(), ".journal")
		if !ok || de.IsDir() || !strings.HasPrefix(id, "batch-") {
			continue
		}
		if r, ok := s.recoverOne(id); ok {
			out = append(out, r)
		}
	}
	s.sweepLocks()
	return out
}

// sweepLocks removes lock files of batches without a journal whose
// process is gone.
func (s *Store) sweepLocks() {
	locks, _ := filepath.Glob(filepath.Join(s.dir, "batch-*.lock"))
	for _, l := range locks {
		if _, err := os.Stat(strings.TrimSuffix(l, ".lock") + ".journal"); err == nil {
			continue
		}
		f, err := os.OpenFile(l, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if s.lockLeft(f) {
			os.Remove(l)
		}
		f.Close()
	}
}

func (s *Store) recoverOne(id string) (Recovered, bool) {
	lock, err := os.OpenFile(filepath.Join(s.dir, id+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return Recovered{}, false
	}
	if !s.lockLeft(lock) {
		lock.Close()
		return Recovered{}, false // a live batch
	}
	s.mu.Lock()
	t := &Txn{s: s, id: id, path: filepath.Join(s.dir, id+".journal"), lock: lock}
	data, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		t.discard() // another process recovered it meanwhile
		return Recovered{}, false
	}
	r := Recovered{Batch: id}
	if err == nil {
		err = json.Unmarshal(data, &t.doc)
	}
	if err != nil || t.doc.Format != journalFormat || t.doc.Batch != id {
		// Torn while it was written (the only write it ever gets): no temp
		// file or target was touched before it was durable.
		s.logf("edit batch %s: its journal was cut short by a crash while being written; nothing had been written yet", id)
		t.discard()
		return Recovered{}, false
	}
	for _, e := range t.doc.Entries {
		if !e.Skip {
			r.Files = append(r.Files, filepath.Join(e.Root, filepath.FromSlash(e.Rel)))
		}
	}
	conflicts, err := t.Rollback()
	r.Conflicts = conflicts
	if err != nil {
		r.Err = err.Error()
		s.logf("edit batch %s: rollback incomplete: %v (the journal is kept; the next start retries)", id, err)
	} else {
		s.logf("edit batch %s was interrupted: rolled back %d files to their contents before it", id, len(r.Files))
	}
	return r, true
}

// lockLeft takes a batch's lock if its process is gone. A refusal is
// asked again for a quarter of a second: between fork and exec a child of
// any process that held the lock shares its open file description, so a
// lock closed a moment ago can still look held (seen in CI: the tests
// start compilers beside a crashed batch). A lock this process kept is
// asked for up to eight seconds: only such children or another recovery
// can hold it.
func (s *Store) lockLeft(f *os.File) bool {
	_, kept := keptHere.Load(f.Name())
	patience := 250 * time.Millisecond
	switch {
	case kept:
		patience = 8 * time.Second
	case s.impatient:
		patience = 0
	}
	for wait := time.Millisecond; ; wait = min(2*wait, time.Second) {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			keptHere.Delete(f.Name())
			return true
		}
		if patience <= 0 {
			return false
		}
		wait = min(wait, patience)
		time.Sleep(wait)
		patience -= wait
	}
}

func sameFile(f *os.File, fi fs.FileInfo) bool {
	own, err := f.Stat()
	return err == nil && os.SameFile(own, fi)
}

// writeRootFile creates rel under root (it must not exist), writes data,
// sets mode through the descriptor, and fsyncs.
func writeRootFile(root *os.Root, rel string, data []byte, mode fs.FileMode) error {
	name := filepath.FromSlash(rel)
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // a leftover of an interrupted restore
		if err = root.Remove(name); err == nil {
			f, err = root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		}
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(name)
	}
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func syncRootDir(root *os.Root, rel string) error {
	d, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
