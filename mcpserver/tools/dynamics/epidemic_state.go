package dynamics

import (
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// epidemicStateFile keeps epidemic's memory in the runtime directory
// (docs/design.md#dynamics-and-reports).
const epidemicStateFile = "epidemic_state.json"

// Bounds of the memory: it stays small whatever the callers do.
const (
	maxKnown            = 500 // known infected and recovered nodes, each
	maxAgentsRemembered = 32
	maxRemembered       = 200 // predictions kept of a run
)

// epidemicState is what epidemic remembers across calls and restarts:
// the nodes reported infected (the seeds of earlier calls) and those
// reported recovered, each agent's last run (to compare the next one
// with), and the rate calibration found for a setup (so the same call on
// the same graph starts at it instead of halving again). Safe for
// concurrent use; every change is saved atomically.
type epidemicState struct {
	mu   sync.Mutex
	path string // "" for a memory-only session
	f    epidemicFile
}

type epidemicFile struct {
	Version   int                  `json:"version"`
	Infected  map[string]knownNode `json:"known_infected"`
	Recovered map[string]knownNode `json:"recovered"`
	LastRun   map[string]*lastRun  `json:"last_run"` // by agent
}

type knownNode struct {
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
	Runs  int       `json:"runs"`
}

// lastRun is one run as the next one compares with it.
type lastRun struct {
	At    time.Time `json:"at"`
	Setup string    `json:"setup"` // graph, seeds, direction, iterations, threshold, immune
	Seeds []string  `json:"seeds"`
	// Rate is the rate the run ended at; Calibrated says burnout lowered
	// it (the same setup starts there next time).
	Rate        float64            `json:"rate"`
	Calibrated  bool               `json:"calibrated"`
	Predictions map[string]float64 `json:"predictions"` // the most probable, by node id
}

var epidemicKey = session.NewKey[*epidemicState]("dynamics.epidemic")

// epidemicMemory is the session's epidemic state, read from the runtime
// directory on first use (an unreadable file starts empty and is logged).
func epidemicMemory(s *session.State) *epidemicState {
	return session.Shared(s, epidemicKey, func() *epidemicState {
		st := &epidemicState{path: s.RuntimePath(epidemicStateFile)}
		if err := st.load(); err != nil {
			s.Logf("%s: %v (epidemic memory starts empty)", epidemicStateFile, err)
			st.f = epidemicFile{}
		}
		st.f.init()
		return st
	})
}

func (f *epidemicFile) init() {
	f.Version = 1
	if f.Infected == nil {
		f.Infected = map[string]knownNode{}
	}
	if f.Recovered == nil {
		f.Recovered = map[string]knownNode{}
	}
	if f.LastRun == nil {
		f.LastRun = map[string]*lastRun{}
	}
}

func (st *epidemicState) load() error {
	if st.path == "" {
		return nil
	}
	data, err := os.ReadFile(st.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(data, &st.f)
}

// saveLocked writes the state atomically (st.mu held).
func (st *epidemicState) saveLocked() error {
	if st.path == "" {
		return nil
	}
	return snapshot.WriteFileAtomic(st.path, 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(&st.f)
	})
}

// known returns the infected nodes remembered, less those recovered and
// those in skip, ascending.
func (st *epidemicState) known(skip []string) []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []string
	for id := range st.f.Infected {
		if !slices.Contains(skip, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// recovered returns the recovered nodes remembered, ascending.
func (st *epidemicState) recovered() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Sorted(maps.Keys(st.f.Recovered))
}

// previous is agent's last run (nil for none).
func (st *epidemicState) previous(agent string) *lastRun {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.f.LastRun[agent]
}

// record remembers a run: its seeds as infected, the nodes reported
// recovered (no longer infected), and the run as agent's last. It
// returns the save's error (the memory keeps the run either way).
func (st *epidemicState) record(agent string, seeds, recovered []string, run *lastRun) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := run.At
	for _, id := range recovered {
		delete(st.f.Infected, id)
		touch(st.f.Recovered, id, now)
	}
	for _, id := range seeds {
		delete(st.f.Recovered, id)
		touch(st.f.Infected, id, now)
	}
	trim(st.f.Infected)
	trim(st.f.Recovered)
	st.f.LastRun[agent] = run
	for len(st.f.LastRun) > maxAgentsRemembered {
		oldest := ""
		for a, r := range st.f.LastRun {
			if o := st.f.LastRun[oldest]; oldest == "" || r.At.Before(o.At) || r.At.Equal(o.At) && a < oldest {
				oldest = a
			}
		}
		delete(st.f.LastRun, oldest)
	}
	return st.saveLocked()
}

func touch(m map[string]knownNode, id string, now time.Time) {
	k := m[id]
	if k.Runs == 0 {
		k.First = now
	}
	k.Last, k.Runs = now, k.Runs+1
	m[id] = k
}

// trim drops the least recently reported nodes beyond maxKnown.
func trim(m map[string]knownNode) {
	if len(m) <= maxKnown {
		return
	}
	ids := slices.Collect(maps.Keys(m))
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(m[a].Last.Compare(m[b].Last), cmp.Compare(a, b)) })
	for _, id := range ids[:len(ids)-maxKnown] {
		delete(m, id)
	}
}
