package walk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
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
	data, err := ReadOpened(f, limit+1)
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
		size = min(fi.Size(), n)
	}
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, n)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
