package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// The token model (docs/design.md#dynamics-and-reports): a token is about
// four bytes of JSON or source; without the graph an agent would have
// searched once and read, in full, each file an answer named that it had
// not read before in the session.
const (
	bytesPerToken = 4
	// CO2 per token: an assumption, not a measurement — 1 Wh per 1,000
	// tokens of inference on a grid emitting 400 g CO2e per kWh.
	whPerKToken  = 1.0
	gramsPerKWh  = 400.0
	savingsFile  = "savings.json"
	savingsVersn = 1
)

// Tally is the accounting of a set of calls.
type Tally struct {
	Calls          int   `json:"calls"`
	UsedTokens     int64 `json:"used_tokens" jsonschema:"Arguments and answers, bytes/4."`
	BaselineCalls  int   `json:"baseline_calls" jsonschema:"One search per answer naming files, plus one read per new file."`
	BaselineTokens int64 `json:"baseline_tokens" jsonschema:"The new files' sizes, bytes/4."`
	FilesAvoided   int   `json:"files_not_read" jsonschema:"Distinct files answers named, read once each in the baseline."`
}

func (t *Tally) add(o Tally) {
	t.Calls += o.Calls
	t.UsedTokens += o.UsedTokens
	t.BaselineCalls += o.BaselineCalls
	t.BaselineTokens += o.BaselineTokens
	t.FilesAvoided += o.FilesAvoided
}

// Saved is the baseline minus what the calls cost (negative when reading
// the files would have been cheaper).
func (t Tally) Saved() int64 { return t.BaselineTokens - t.UsedTokens }

func tokens(bytes int64) int64 { return (bytes + bytesPerToken - 1) / bytesPerToken }

// account tallies records per agent and per tool: each agent reads a file
// at most once in the baseline (the first answer that named it). size
// gives a file's bytes (false: not a file of the graph on disk).
func account(recs []tools.CallRecord, size func(path string) (int64, bool)) (agents, byTool map[string]*Tally) {
	agents, byTool = map[string]*Tally{}, map[string]*Tally{}
	read := map[string]map[string]bool{}
	for _, r := range recs {
		var t Tally
		t.Calls, t.UsedTokens = 1, tokens(int64(r.ArgBytes+r.AnswerBytes))
		if read[r.Agent] == nil {
			read[r.Agent] = map[string]bool{}
		}
		for _, f := range r.Files {
			n, ok := size(f)
			if !ok || read[r.Agent][f] {
				continue
			}
			read[r.Agent][f] = true
			t.BaselineCalls++
			t.BaselineTokens += tokens(n)
			t.FilesAvoided++
		}
		if t.FilesAvoided > 0 {
			t.BaselineCalls++ // the search that would have found them
		}
		if agents[r.Agent] == nil {
			agents[r.Agent] = &Tally{}
		}
		if byTool[r.Tool] == nil {
			byTool[r.Tool] = &Tally{}
		}
		agents[r.Agent].add(t)
		byTool[r.Tool].add(t)
	}
	return agents, byTool
}

// co2Grams is the CO2 estimate of a number of tokens.
func co2Grams(tok int64) float64 { return float64(tok) / 1000 * whPerKToken / 1000 * gramsPerKWh }

// ledger keeps the totals of earlier sessions (savings.json beside the
// graph) and adds this session's to them when it is written: at each
// savings or report call and when the session closes.
type ledger struct {
	mu      sync.Mutex
	path    string // "" for a memory-only session
	earlier persisted
	loadErr error
	s       *session.State
	compute func() Tally     // this session's tally, for Close
	sizes   map[string]int64 // file sizes by absolute path, read once
}

// persisted is savings.json.
type persisted struct {
	Version  int `json:"version"`
	Sessions int `json:"sessions"`
	Tally
}

var ledgerKey = session.NewKey[*ledger]("report.ledger")

func ledgerOf(s *session.State) *ledger {
	return session.Shared(s, ledgerKey, func() *ledger {
		l := &ledger{path: s.RuntimePath(savingsFile), s: s}
		l.load()
		return l
	})
}

func (l *ledger) load() {
	if l.path == "" {
		return
	}
	data, err := os.ReadFile(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var p persisted
	if err == nil {
		err = json.Unmarshal(data, &p)
	}
	if err != nil || p.Version != savingsVersn {
		l.loadErr = errors.Join(err, errors.New("savings.json unreadable: global totals restart from this session"))
		l.s.Logf("savings: %v", l.loadErr)
		return
	}
	l.earlier = p
}

// global is the earlier sessions' totals plus this one's.
func (l *ledger) global(session Tally) persisted {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.earlier
	g.Version, g.Sessions = savingsVersn, g.Sessions+1
	g.Tally.add(session)
	return g
}

// write saves the global totals with this session's tally atomically.
func (l *ledger) write(session Tally) error {
	if l.path == "" {
		return nil
	}
	g := l.global(session)
	return snapshot.WriteFileAtomic(l.path, 0o644, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(g)
	})
}

// Close writes the session's final tally (the session closes its shared
// objects before it releases the runtime directory).
func (l *ledger) Close() error {
	l.mu.Lock()
	compute := l.compute
	l.mu.Unlock()
	if compute == nil {
		return nil
	}
	return l.write(compute())
}

// topTools lists tools by tokens saved, most first, ties by name.
func topTools(byTool map[string]*Tally, n int) []toolSavingsJSON {
	var out []toolSavingsJSON
	for name, t := range byTool {
		out = append(out, toolSavingsJSON{Tool: name, Calls: t.Calls, SavedTokens: t.Saved()})
	}
	slices.SortFunc(out, func(a, b toolSavingsJSON) int {
		if c := cmp.Compare(b.SavedTokens, a.SavedTokens); c != 0 {
			return c
		}
		return cmp.Compare(a.Tool, b.Tool)
	})
	return out[:min(len(out), n)]
}
