package walk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// ErrNotRegular is returned by ReadFile for anything but a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads a walked file, at most limit bytes (≤ 0: DefaultMaxFileSize).
// It refuses what stopped being a regular file since the walk (a FIFO
// would block a plain read forever) and a file that grew past the limit —
// pseudo files report size 0 and can be endless, so the size the walk saw
// is no bound.
func ReadFile(abs string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", abs, ErrNotRegular)
	}
	data, err := readAtMost(f, fi.Size(), limit+1)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: over the %d-byte limit", abs, limit)
	}
	return data, nil
}

// ReadOpened reads at most n bytes of an open file into one buffer sized
// from its stat, with room to see the end (or growth) without
// reallocating: io.ReadAll's doubling copies were 0.5 s of go-std's
// ingest CPU, which os.ReadFile in a bare parse does not pay.
func ReadOpened(f *os.File, n int64) ([]byte, error) {
	size := n
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return readAtMost(f, size, n)
}

// readAtMost reads f to its end, at most n bytes, into a buffer of size+1
// bytes — size is what a stat said, one more byte sees the end without a
// second buffer. The file may have changed since the stat: a shorter file
// returns only what read wrote (the buffer is not zeroed, so nothing
// beyond that may be returned), a longer one grows the buffer.
func readAtMost(f *os.File, size, n int64) ([]byte, error) {
	buf := uninitialized(int(min(max(size, 0)+1, n)))
	got := 0
	for int64(got) < n {
		if got == len(buf) {
			// Grown since the stat: zeroed room is fine on this rare path.
			buf = append(buf, make([]byte, min(int64(len(buf))+bytes.MinRead, n-int64(got)))...)
		}
		m, err := f.Read(buf[got:])
		got += m
		if err == io.EOF || (err == nil && m == 0) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf[:got:got], nil
}

// uninitialized returns n bytes whose contents are unspecified. A read
// overwrites them at once, and zeroing them first (what make and
// bytes.Buffer do) was a fifth of the ingest's read CPU on go-std;
// strings.Builder is the standard library's one way to allocate without
// zeroing. The builder and its string are dropped here, so writing into
// their array is writing into memory nothing else sees.
func uninitialized(n int) []byte {
	var sb strings.Builder
	sb.Grow(max(n, 1))
	sb.WriteByte(0) // an empty builder's String has no array to point at
	return unsafe.Slice(unsafe.StringData(sb.String()), sb.Cap())[:n]
}
