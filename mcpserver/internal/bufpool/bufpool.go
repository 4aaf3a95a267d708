// Package bufpool holds the byte buffers a call's answer is encoded and
// framed in, shared by the dispatcher, the server and the stdio transport:
// made fresh, they were a large share of every call's garbage.
package bufpool

import (
	"bytes"
	"sync"
)

// MaxKept keeps a rare huge answer's buffer out of the pool.
const MaxKept = 1 << 20

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Get returns an empty buffer.
func Get() *bytes.Buffer {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// Put gives b back, unless it is nil or grew past MaxKept. Nothing may
// read b's bytes afterwards.
func Put(b *bytes.Buffer) {
	if b != nil && b.Cap() <= MaxKept {
		pool.Put(b)
	}
}
