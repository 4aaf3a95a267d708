package session

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Two packages that happen to choose one name: each key is its own.
var (
	keyOfPackageA = NewKey[*int]("index")
	keyOfPackageB = NewKey[*int]("index")
	keyOfOtherT   = NewKey[string]("index")
)

func TestKeysOfOneNameDoNotCollide(t *testing.T) {
	b := &Bundle{}
	one, two := new(int), new(int)
	a, _ := Derive(b, keyOfPackageA, func(*graph.Graph) (*int, error) { return one, nil })
	bb, _ := Derive(b, keyOfPackageB, func(*graph.Graph) (*int, error) { return two, nil })
	if a != one || bb != two {
		t.Fatalf("Derive: key A gave %p (want %p), key B %p (want %p)", a, one, bb, two)
	}
	if !Built(b, keyOfPackageA) || !Built(b, keyOfPackageB) || Built(b, keyOfOtherT) {
		t.Fatal("Built answers for another key of the same name")
	}

	s := &State{}
	if got := Shared(s, keyOfPackageA, func() *int { return one }); got != one {
		t.Fatal("Shared: first make not kept")
	}
	if got := Shared(s, keyOfPackageB, func() *int { return two }); got != two {
		t.Fatal("Shared: key B got key A's object")
	}
	if got := RootShared(s, "/r", keyOfPackageA, func() *int { return two }); got != two {
		t.Fatal("RootShared: a root's object is the session-wide one")
	}
	if got := RootShared(s, "/r", keyOfPackageB, func() *int { return one }); got != one {
		t.Fatal("RootShared: key B got key A's object")
	}
	if _, ok := RootSharedIfAny(s, "/other", keyOfPackageA); ok {
		t.Fatal("RootSharedIfAny found an object of another root")
	}
	if v, ok := RootSharedIfAny(s, "/r", keyOfPackageB); !ok || v != one {
		t.Fatal("RootSharedIfAny did not find the root's object")
	}
}

// A value stored under a name by a key of another type is never what a
// key of that name returns.
func TestKeyNeverReturnsAnotherType(t *testing.T) {
	b := &Bundle{}
	if _, err := Derive(b, NewKey[int]("index"), func(*graph.Graph) (int, error) { return 42, nil }); err != nil {
		t.Fatal(err)
	}
	s, _ := Derive(b, keyOfOtherT, func(*graph.Graph) (string, error) { return "text", nil })
	p, _ := Derive(b, keyOfPackageA, func(*graph.Graph) (*int, error) { return nil, errors.New("boom") })
	if s != "text" || p != nil {
		t.Fatalf("got %q and %v", s, p)
	}
	st := &State{}
	Shared(st, NewKey[int]("index"), func() int { return 42 })
	RootShared(st, "/r", NewKey[int]("index"), func() int { return 42 })
	Shared(st, keyOfOtherT, func() string { return "kept" })
	if got := Shared(st, keyOfPackageA, func() *int { return nil }); got != nil {
		t.Fatalf("Shared returned %v", got)
	}
	if got := RootShared(st, "/r", keyOfOtherT, func() string { return "root" }); got != "root" {
		t.Fatalf("RootShared returned %q", got)
	}
	if got := Shared(st, keyOfOtherT, func() string { return "made again" }); got != "kept" {
		t.Fatalf("Shared returned %q", got)
	}
}

func TestZeroKeyPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a zero Key was accepted")
		}
	}()
	Shared(&State{}, Key[int]{}, func() int { return 1 })
}

// A build called off is not kept, through DeriveCtx as through DerivedCtx.
func TestDeriveCtxCalledOff(t *testing.T) {
	b := &Bundle{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := DeriveCtx(ctx, b, keyOfOtherT, func(ctx context.Context, _ *graph.Graph) (string, error) { return "", ctx.Err() }); err == nil {
		t.Fatal("no error")
	}
	if Built(b, keyOfOtherT) {
		t.Fatal("a build called off was kept")
	}
	if v, _ := Derive(b, keyOfOtherT, func(*graph.Graph) (string, error) { return "built", nil }); v != "built" {
		t.Fatalf("got %q", v)
	}
}

type closer struct{ closed chan struct{} }

func (c *closer) Close() error { close(c.closed); return nil }

var closerKey = NewKey[io.Closer]("closer")

// Objects under typed keys are closed by Close, and a root's by its
// release.
func TestTypedSharedObjectsAreClosed(t *testing.T) {
	s := openAt(t, t.TempDir())
	c, r := &closer{make(chan struct{})}, &closer{make(chan struct{})}
	Shared(s, closerKey, func() io.Closer { return c })
	RootShared(s, "/gone", closerKey, func() io.Closer { return r })
	g := graph.New()
	g.Finalize()
	publish(t, s, g)
	select {
	case <-r.closed:
	default:
		t.Fatal("the object of a root no longer served was not closed")
	}
	s.Close()
	select {
	case <-c.closed:
	default:
		t.Fatal("Close did not close a shared object")
	}
}
