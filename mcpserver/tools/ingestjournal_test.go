package tools

import (
	"context"
	"testing"
	"time"
)

// The ingest's snapshot is written after the new graph's indexes are
// built, not beside them (their memory and the snapshot's encoding were
// the server's peak on go-std); the memory release comes first.
func TestSaveAfterIndexes(t *testing.T) {
	built := make(chan struct{})
	released, persisted := make(chan struct{}), make(chan struct{})
	go saveAfter(context.Background(), built, func() { close(released) }, func() { close(persisted) })
	<-released
	select {
	case <-persisted:
		t.Fatal("the snapshot was written while the indexes were being built")
	case <-time.After(50 * time.Millisecond): // (a persist that does not wait runs at once)
	}
	close(built)
	<-persisted
}

// A session that closes does not wait for the builds: the save goes on
// (Close saves the graph itself).
func TestSaveAfterCalledOff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	persisted := false
	saveAfter(ctx, make(chan struct{}), func() {}, func() { persisted = true })
	if !persisted {
		t.Fatal("the save did not run once the session's context ended")
	}
}
