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

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// The files in the runtime directory.
const (
	TrustFile  = "trust_state.json"
	TremorFile = "tremor_state.json"
	// AntibodyFile keeps its previous version in AntibodyFile + ".bak".
	AntibodyFile = "antibodies.json"
)

// Store is one session's immune state. Its parts are safe for concurrent
// use; saves are serialised.
type Store struct {
	Trust      *risk.Ledger
	Tremor     *risk.Observations
	Antibodies *antibody.Registry

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
	st := &Store{Trust: risk.NewLedger(), Tremor: risk.NewObservations(), Antibodies: antibody.NewRegistry(), dir: dir}
	st.load(TrustFile, st.Trust)
	st.load(TremorFile, st.Tremor)
	if !st.load(AntibodyFile, st.Antibodies) {
		// The backup is the version before the last save: a crash between
		// the two writes, or a damaged file, loses one change at most.
		st.Antibodies = antibody.NewRegistry()
		if st.load(AntibodyFile+".bak", st.Antibodies) {
			st.Warnings = append(st.Warnings, AntibodyFile+": read from its backup "+AntibodyFile+".bak")
		}
	}
	return st
}

// load reads name into into; false when the file exists and cannot be
// read (a warning says why).
func (st *Store) load(name string, into json.Unmarshaler) bool {
	if st.dir == "" {
		return true
	}
	data, err := os.ReadFile(filepath.Join(st.dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err == nil {
		err = into.UnmarshalJSON(data)
	}
	if err != nil {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s not read (its state starts empty): %v", name, err))
		return false
	}
	return true
}

// Persistent reports whether the store is kept on disk.
func (st *Store) Persistent() bool { return st.dir != "" }

// SaveTrust writes trust_state.json atomically.
func (st *Store) SaveTrust() error { return st.save(TrustFile, st.Trust) }

// SaveTremor writes tremor_state.json atomically.
func (st *Store) SaveTremor() error { return st.save(TremorFile, st.Tremor) }

// SaveAntibodies writes antibodies.json atomically, the previous version
// first copied (atomically too) to antibodies.json.bak.
func (st *Store) SaveAntibodies() error {
	if st.dir == "" {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	data, err := st.Antibodies.MarshalJSON()
	if err != nil {
		return err
	}
	if prev, err := os.ReadFile(filepath.Join(st.dir, AntibodyFile)); err == nil {
		if err := st.writeLocked(AntibodyFile+".bak", prev); err != nil {
			return err
		}
	}
	return st.writeLocked(AntibodyFile, data)
}

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
	return st.writeLocked(name, data)
}

func (st *Store) writeLocked(name string, data []byte) error {
	return snapshot.WriteFileAtomic(filepath.Join(st.dir, name), 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
