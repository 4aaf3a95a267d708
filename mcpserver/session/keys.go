package session

import (
	"context"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Key names a value of type T that the session caches: per bundle
// (Derive), for the session's lifetime (Shared) or per ingest root
// (RootShared). Declare each key once, as a package variable beside what
// it caches:
//
//	var engineKey = session.NewKey[*engine.Engine]("engine")
//
// A key is its variable, not its name: two keys made with the same name
// (in two packages, or twice in one) are two keys, and neither sees what
// the other holds. The name is for people (logs, Key.String). Only a
// builder of T ever stores under a Key[T], so a lookup can never return a
// value of another type; and Key[A] cannot be converted to Key[B].
type Key[T any] struct{ id *keyID[T] }

// keyID is a key's identity (its address) and name; the type parameter
// keeps Key[A] and Key[B] from being convertible into each other.
type keyID[T any] struct{ name string }

// NewKey makes a new key: a different key from every other, whatever its
// name.
func NewKey[T any](name string) Key[T] { return Key[T]{&keyID[T]{name: name}} }

// Name is the name the key was made with.
func (k Key[T]) Name() string {
	if k.id == nil {
		return ""
	}
	return k.id.name
}

func (k Key[T]) String() string { return k.Name() }

// ident is the key's identity in the caches' maps. A zero Key (not made
// by NewKey) would make every zero key of the type one key: it is a
// programming error.
func (k Key[T]) ident() any {
	if k.id == nil {
		panic("session: a Key used without NewKey")
	}
	return k.id
}

// as returns v as a T (T's zero value for nil, or for a failed build).
func as[T any](v any) T {
	t, _ := v.(T)
	return t
}

// Derive returns the value k holds for b's graph, building it with build
// on first use (one build per bundle, whoever asks first; the others wait
// for it). A failed build is cached too: the graph will not change under
// it. A new bundle starts empty.
func Derive[T any](b *Bundle, k Key[T], build func(g *graph.Graph) (T, error)) (T, error) {
	v, err := b.derive(nil, k.ident(), func(_ context.Context, g *graph.Graph) (any, error) { return build(g) })
	return as[T](v), err
}

// DeriveCtx is Derive for a build that can be called off: when ctx ends
// before its build returns a value, nothing is cached (the next caller
// builds it), and callers that were waiting for it build it themselves.
func DeriveCtx[T any](ctx context.Context, b *Bundle, k Key[T], build func(ctx context.Context, g *graph.Graph) (T, error)) (T, error) {
	v, err := b.derive(ctx, k.ident(), func(ctx context.Context, g *graph.Graph) (any, error) { return build(ctx, g) })
	return as[T](v), err
}

// Built reports whether k's value has been built for b (without building
// it).
func Built[T any](b *Bundle, k Key[T]) bool { return b.built(k.ident()) }

// Shared returns the session-lifetime object k holds, making it with make
// on first use (stores, runtimes, caches that outlive a graph). An object
// that implements io.Closer is closed by the session's Close.
func Shared[T any](s *State, k Key[T], make func() T) T {
	return as[T](s.shared1(k.ident(), func() any { return make() }))
}

// RootShared is Shared for an object that belongs to one ingest root (its
// ingest cache and what that keeps in memory): it is released (and
// closed, if an io.Closer) once the root is no longer served, so a server
// that ingests tree after tree holds state for the trees it serves only.
func RootShared[T any](s *State, root string, k Key[T], make func() T) T {
	return as[T](s.shared1(rootKey{root, k.ident()}, func() any { return make() }))
}

// RootSharedIfAny returns the object RootShared keeps for root under k,
// without making one when there is none: readers that only profit from a
// root's ingest cache (cross_verify's content hashes) must not create it.
func RootSharedIfAny[T any](s *State, root string, k Key[T]) (T, bool) {
	s.sharedMu.Lock()
	v, ok := s.shared[rootKey{root, k.ident()}]
	s.sharedMu.Unlock()
	return as[T](v), ok
}

// rootKey is a RootShared object's key in the shared map: its root and
// its key's identity.
type rootKey struct {
	root string
	key  any
}
