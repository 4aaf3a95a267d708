// Package snapshot persists graphs and plasticity state: the JSON snapshot
// (version 3), a checksummed binary form for fast start-up, and the
// per-edge plasticity file (docs/design.md#persistence). Every write is
// atomic: a crash at any moment leaves the previous file readable.
package snapshot

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// faultHook lets tests interrupt WriteFileAtomic at a named step; nil in
// production.
var faultHook func(step string) error

func fault(step string) error {
	if faultHook != nil {
		return faultHook(step)
	}
	return nil
}

// WriteFileAtomic writes a file so that readers see either the old content
// or the complete new content, never a mix: write to a temp file in the same
// directory, fsync it, rename it over path, fsync the directory.
func WriteFileAtomic(path string, perm os.FileMode, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temp file for %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fault("created"); err != nil {
		return err
	}
	// 64 KB, not more: the binary snapshot arrives in chunks of that size
	// and JSON documents in one write, which bufio passes through, so a
	// larger buffer saves no system call and is held, per file, at the
	// auto-save's peak (the graph and three sidecars, 1 MB each before).
	bw := bufio.NewWriterSize(f, 64<<10)
	if err = write(&faultWriter{w: bw}); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = fault("written"); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err = fault("synced"); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rename %s over %s: %w", tmp, path, err)
	}
	if err = fault("renamed"); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		// Persist the rename itself; some filesystems refuse to fsync a
		// directory, which is not an error worth failing the save for.
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// faultWriter passes writes through, consulting the fault hook per write so
// tests can cut a save short at any byte.
type faultWriter struct {
	w io.Writer
	n int64
}

func (fw *faultWriter) Write(p []byte) (int, error) {
	if faultHook == nil {
		n, err := fw.w.Write(p)
		fw.n += int64(n)
		return n, err
	}
	// Under test, write in small chunks so a fault can land at any offset.
	done := 0
	for done < len(p) {
		if err := faultHook(fmt.Sprintf("byte:%d", fw.n)); err != nil {
			return done, err
		}
		end := min(done+4096, len(p))
		n, err := fw.w.Write(p[done:end])
		done += n
		fw.n += int64(n)
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

func fmtPath(path string, err error) error { return fmt.Errorf("%s: %w", path, err) }
