// Package immunity is the session's immune state — the trust ledger, the
// tremor observations and the antibody registry — shared by the immune
// tools and learn (which records into it), and persisted beside the graph
// (docs/design.md#immune-memory-and-risk-signals).
package immunity

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// The files in the runtime directory.
const (
	TrustFile  = "trust_state.json"
	TremorFile = "tremor_state.json"
)

// Store is one session's immune state. Its parts are safe for concurrent
// use; saves are serialised.
type Store struct {
	Trust  *risk.Ledger
	Tremor *risk.Observations

	dir string // "" for a memory-only session
	mu  sync.Mutex
	// Warnings say which files could not be read at start (their state
	// starts empty; the file is left as it was until the next save).
	Warnings []string
}

var storeKey = session.NewKey[*Store]("immunity")

// For returns the session's store, loading it from the runtime directory
// on first use.
func For(s *session.State) *Store {
	return session.Shared(s, storeKey, func() *Store { return Open(s.RuntimePath("")) })
}

// Open loads the state kept in dir ("" for memory only). A missing file
// is an empty state; an unreadable one is a warning.
func Open(dir string) *Store {
	st := &Store{Trust: risk.NewLedger(), Tremor: risk.NewObservations(), dir: dir}
	st.load(TrustFile, st.Trust)
	st.load(TremorFile, st.Tremor)
	return st
}

func (st *Store) load(name string, into json.Unmarshaler) {
	if st.dir == "" {
		return
	}
	data, err := os.ReadFile(filepath.Join(st.dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil {
		err = into.UnmarshalJSON(data)
	}
	if err != nil {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s not read (its state starts empty): %v", name, err))
	}
}

// Persistent reports whether the store is kept on disk.
func (st *Store) Persistent() bool { return st.dir != "" }

// SaveTrust writes trust_state.json atomically.
func (st *Store) SaveTrust() error { return st.save(TrustFile, st.Trust) }

// SaveTremor writes tremor_state.json atomically.
func (st *Store) SaveTremor() error { return st.save(TremorFile, st.Tremor) }

func (st *Store) save(name string, v json.Marshaler) error {
	if st.dir == "" {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	data, err := v.MarshalJSON()
	if err != nil {
		return err
	}
	return snapshot.WriteFileAtomic(filepath.Join(st.dir, name), 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
