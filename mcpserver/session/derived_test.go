package session

import (
	"context"
	"errors"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A build whose context ends is not kept: a caller that waited for it
// builds the value itself, and the next caller gets that value.
func TestDerivedCtxAbandoned(t *testing.T) {
	b := &Bundle{}
	ctx, cancel := context.WithCancel(context.Background())
	started, release := make(chan struct{}), make(chan struct{})
	specErr := make(chan error, 1)
	go func() {
		_, err := DeriveCtx(ctx, b, testKey, func(ctx context.Context, _ *graph.Graph) (any, error) {
			close(started)
			<-release
			return nil, ctx.Err()
		})
		specErr <- err
	}()
	<-started
	waiter := make(chan any, 1)
	go func() {
		v, err := Derive(b, testKey, func(*graph.Graph) (any, error) { return "built by the waiter", nil })
		if err != nil {
			v = err
		}
		waiter <- v
	}()
	cancel()
	close(release)
	if err := <-specErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("the called-off build returned %v", err)
	}
	if v := <-waiter; v != "built by the waiter" {
		t.Fatalf("the waiter got %v", v)
	}
	if !Built(b, testKey) {
		t.Fatal("the waiter's value is not kept")
	}
	v, _ := Derive(b, testKey, func(*graph.Graph) (any, error) { return "built again", nil })
	if v != "built by the waiter" {
		t.Fatalf("a later caller got %v", v)
	}
}

// An error that is not the context's is kept, as Derive keeps it.
func TestDerivedCtxErrorKept(t *testing.T) {
	b := &Bundle{}
	boom := errors.New("boom")
	if _, err := DeriveCtx(context.Background(), b, testKey, func(context.Context, *graph.Graph) (any, error) { return nil, boom }); err != boom {
		t.Fatal(err)
	}
	if _, err := Derive(b, testKey, func(*graph.Graph) (any, error) { return 1, nil }); err != boom {
		t.Fatalf("the failed build was not kept: %v", err)
	}
}

// A build that panics leaves nothing behind: the next caller builds.
func TestDerivedPanicNotKept(t *testing.T) {
	b := &Bundle{}
	func() {
		defer func() { _ = recover() }()
		Derive(b, testKey, func(*graph.Graph) (any, error) { panic("bad graph") })
	}()
	if v, err := Derive(b, testKey, func(*graph.Graph) (any, error) { return 2, nil }); v != 2 || err != nil {
		t.Fatalf("after a panic: %v %v", v, err)
	}
}

// testKey holds any value, for the cache's own tests.
var testKey = NewKey[any]("k")
