package tools

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// SeekBodiesFile is the runtime directory's copy of the seek index's
// body documents (seek.Bodies.WriteTo). A server started on its saved
// graph builds its first index from it, taking each file whose stamp is
// the graph's instead of reading and tokenising it: on go-std that build
// is a quarter of the one that reads the tree. It is a cache: a missing,
// old or damaged file costs that build its reads, nothing else.
const SeekBodiesFile = "seek-bodies.bin"

// seekSaveQuiet is how long after the last index build the documents
// are saved: a burst of ticks writes them once. A var for tests.
var seekSaveQuiet = 2 * time.Second

// seekSaveShare is the share of files (1/seekSaveShare) whose documents
// must differ from the file's before a build's are saved when quiet;
// fewer wait for the session's close. A file written earlier only costs
// the next start's build a read of each file changed since (that build
// takes a file by its stamp): an agent's edit a few seconds apart would
// otherwise rewrite all of them each time (go-std 14.6 MB, CPython's
// library 47.7 MB) for one file's documents. A var for tests.
var seekSaveShare = 16

// savedBodies is what lastSeek knows of the runtime directory's copy.
type savedBodies struct {
	s       *session.State
	path    string // "" for a memory-only session
	pre     *SeekBodiesPreload
	load    sync.Once
	loaded  *seek.Bodies // what load read (nil: none)
	disk    *seek.Bodies // documents the file holds all of, by identity
	unsaved *seek.Bodies // newer ones, to write
	quiet   afterQuiet
	write   sync.Mutex // one write at a time
}

func lastSeekOf(s *session.State) *lastSeek {
	return session.Shared(s, seekLastKey, func() *lastSeek {
		return &lastSeek{saved: savedBodies{s: s, path: s.RuntimePath(SeekBodiesFile)}}
	})
}

// load reads the saved documents, once per session, and makes them the
// last index's when the session has none; it returns them (nil when
// there are none, or they cannot be read: the build then reads files).
func (l *lastSeek) load() *seek.Bodies {
	sv := &l.saved
	sv.load.Do(func() {
		if sv.path == "" {
			return
		}
		l.mu.Lock()
		pre := sv.pre
		sv.pre = nil
		l.mu.Unlock()
		if pre == nil {
			pre = PreloadSeekBodies(sv.path)
		}
		<-pre.done
		b, err := pre.b, pre.err
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			sv.s.Logf("seek index documents not taken from %s (the first index reads the files; the file is written again after it): %v", sv.path, err)
			return
		}
		sv.s.Logf("seek index documents of %d files read from %s in %v", b.Files(), sv.path, pre.took.Round(time.Millisecond))
		l.mu.Lock()
		defer l.mu.Unlock()
		sv.loaded = b
		if l.x == nil {
			l.x, sv.disk = b, b
		}
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.x == sv.loaded {
		return sv.loaded
	}
	return nil
}

// built notes the documents x of an index built from prev, which took
// reused files from it: unless they are all the file holds, they are
// saved once builds have been quiet for seekSaveQuiet, or at close when
// they differ from the file's in few files (seekSaveShare). Called under
// l.mu.
func (l *lastSeek) built(x, prev *seek.Bodies, reused int) {
	sv := &l.saved
	if x != sv.loaded {
		sv.loaded = nil // (load's answer once taken: not kept for the session's life)
	}
	sv.pre = nil // (a build without it: not wanted)
	if sv.path == "" || x == nil {
		return
	}
	if prev != nil && prev == sv.disk && reused == x.Files() {
		sv.disk, sv.unsaved = x, nil // (a file it no longer has is only unused)
		return
	}
	sv.unsaved = x
	if sv.disk != nil && x.FilesNotIn(sv.disk)*seekSaveShare < x.Files() {
		return // saved at close (Close)
	}
	sv.quiet.Schedule(seekSaveQuiet, func() {
		sv.s.Go("save the seek index's documents", func(context.Context) error { return l.save() })
	})
}

// save writes the newest unsaved documents, if any.
func (l *lastSeek) save() error {
	sv := &l.saved
	sv.write.Lock()
	defer sv.write.Unlock()
	l.mu.Lock()
	b := sv.unsaved
	sv.unsaved = nil
	l.mu.Unlock()
	if b == nil {
		return nil
	}
	t := time.Now()
	err := snapshot.WriteFileAtomic(sv.path, 0o644, func(w io.Writer) error {
		_, err := b.WriteTo(w)
		return err
	})
	if err != nil {
		sv.s.Logf("seek index documents not saved (the next start's first index reads the files): %v", err)
		return nil
	}
	l.mu.Lock()
	sv.disk = b
	l.mu.Unlock()
	sv.s.Logf("seek index documents of %d files saved in %v", b.Files(), time.Since(t).Round(time.Millisecond))
	return nil
}

// Close saves documents not saved yet (the session is closing: its
// background jobs are over).
func (l *lastSeek) Close() error {
	l.saved.quiet.stop()
	return l.save()
}

// SeekBodiesPreload is a read of a bodies file begun before the session
// that owns it opened (PreloadSeekBodies, Adopt).
type SeekBodiesPreload struct {
	path string
	done chan struct{}
	b    *seek.Bodies
	err  error
	took time.Duration
}

// PreloadSeekBodies starts reading the bodies file at path (a runtime
// directory's SeekBodiesFile) in the background. The server starts it
// before its session loads the saved graph, whose decoding keeps one
// core: the other decodes the documents the first index build takes
// (0.2–0.8 s on CPython's library). Reading needs no lock: the file is
// only ever replaced whole.
func PreloadSeekBodies(path string) *SeekBodiesPreload {
	p := &SeekBodiesPreload{path: path, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		t := time.Now()
		var data []byte
		if data, p.err = os.ReadFile(path); p.err == nil {
			p.b, p.err = seek.ReadBodies(data)
		}
		p.took = time.Since(t)
	}()
	return p
}

// Adopt hands the read to s, whose first index build waits for it rather
// than reading the file again; a read of another session's file, or one
// that no build wanted (an ingest of another tree), is let go.
func (p *SeekBodiesPreload) Adopt(s *session.State) {
	if p == nil {
		return
	}
	l := lastSeekOf(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.saved.path == p.path && l.x == nil {
		l.saved.pre = p
	}
}
