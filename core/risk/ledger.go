package risk

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Outcome is what an agent found about a module.
type Outcome int

// The outcomes a Ledger records.
const (
	// Defect: a bug was confirmed in the module.
	Defect Outcome = iota
	// FalseAlarm: the module was suspected and proved clean.
	FalseAlarm
	// Partial: part of the suspicion held.
	Partial
)

// Entry is the recorded outcomes of one module. Times are Unix seconds.
type Entry struct {
	Defects     int   `json:"defects"`
	FalseAlarms int   `json:"false_alarms"`
	Partials    int   `json:"partials"`
	LastDefect  int64 `json:"last_defect,omitempty"`
	First       int64 `json:"first"`
	Updated     int64 `json:"updated"`
}

// AddTo adds the entry's outcomes to e; now dates the last defect.
func (en Entry) AddTo(e *Evidence, now int64) {
	e.Defects += en.Defects
	e.FalseAlarms += en.FalseAlarms
	e.Partials += en.Partials
	e.Expose(float64(now-en.First) / 3600)
	if en.Defects > 0 || en.Partials > 0 {
		e.SeeDefect(float64(now-en.LastDefect) / 3600)
	}
}

// Ledger is the outcomes agents recorded, per module (a file's external
// ID). It is safe for concurrent use.
type Ledger struct {
	mu      sync.Mutex
	entries map[string]Entry
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{entries: map[string]Entry{}} }

// Record adds one outcome for module at time at (Unix seconds).
func (l *Ledger) Record(module string, o Outcome, at int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	en, ok := l.entries[module]
	if !ok || at < en.First {
		en.First = at
	}
	switch o {
	case Defect:
		en.Defects++
		en.LastDefect = max(en.LastDefect, at)
	case FalseAlarm:
		en.FalseAlarms++
	case Partial:
		en.Partials++
		en.LastDefect = max(en.LastDefect, at)
	}
	en.Updated = max(en.Updated, at)
	l.entries[module] = en
}

// Get returns module's entry.
func (l *Ledger) Get(module string) (Entry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	en, ok := l.entries[module]
	return en, ok
}

// Modules lists the modules with an entry, sorted.
func (l *Ledger) Modules() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.entries))
	for m := range l.entries {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// ledgerFile is trust_state.json.
type ledgerFile struct {
	Version int              `json:"version"`
	Entries map[string]Entry `json:"entries"`
}

// MarshalJSON writes the ledger as trust_state.json holds it.
func (l *Ledger) MarshalJSON() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return json.Marshal(ledgerFile{Version: 1, Entries: l.entries})
}

// UnmarshalJSON replaces the ledger's entries with data's.
func (l *Ledger) UnmarshalJSON(data []byte) error {
	var f ledgerFile
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	if f.Version != 1 {
		return fmt.Errorf("trust state version %d (want 1)", f.Version)
	}
	if f.Entries == nil {
		f.Entries = map[string]Entry{}
	}
	l.mu.Lock()
	l.entries = f.Entries
	l.mu.Unlock()
	return nil
}
