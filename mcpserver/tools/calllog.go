package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// CallRecord is one finished tool call as the session's call log keeps
// it: who called what, how long it took, what the exchange weighed and
// which files the answer named (what reading files instead would have
// meant; docs/design.md#dynamics-and-reports).
type CallRecord struct {
	Seq         int // 1-based, in the order calls ended
	Agent       string
	Tool        string
	At          time.Time
	Elapsed     time.Duration
	ArgBytes    int
	AnswerBytes int
	IsError     bool
	// Files are the repository files the answer named (paths, at most
	// MaxLoggedFiles), read from the same fields coverage reads.
	Files []string
	// Shown: the answer showed file content itself (view, batch_view).
	Shown bool
}

// Call log bounds: the last MaxLoggedCalls calls are kept.
const (
	MaxLoggedCalls = 1000
	MaxLoggedFiles = 200
)

// CallLog is the session's record of finished calls, oldest first. It has
// its own lock and bounded memory; Total counts every call ever logged.
type CallLog struct {
	mu      sync.Mutex
	records []CallRecord
	seq     int
}

var callLogKey = session.NewKey[*CallLog]("calllog")

// Calls is the session's call log (made on first use).
func Calls(s *session.State) *CallLog {
	return session.Shared(s, callLogKey, func() *CallLog { return &CallLog{} })
}

// Records returns a copy of the kept records of agent ("" for all).
func (l *CallLog) Records(agent string) []CallRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []CallRecord
	for _, r := range l.records {
		if agent == "" || r.Agent == agent {
			out = append(out, r)
		}
	}
	return out
}

// Total is the number of calls logged since the session started.
func (l *CallLog) Total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

func (l *CallLog) add(r CallRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	r.Seq = l.seq
	if len(l.records) == MaxLoggedCalls {
		copy(l.records, l.records[1:])
		l.records = l.records[:len(l.records)-1]
	}
	l.records = append(l.records, r)
}

// logCall records a finished call: its sizes are the JSON the transports
// send, its files those the answer names.
func logCall(s *session.State, c *Call, args json.RawMessage, res Result, elapsed time.Duration) {
	r := CallRecord{Agent: c.AgentID, Tool: c.Tool.Name, At: s.Now(), Elapsed: elapsed,
		ArgBytes: len(args), AnswerBytes: len(res.Text()), IsError: res.IsError}
	if !res.IsError {
		if cr, ok := res.Value.(coverageReporter); ok {
			read, seen := cr.Coverage()
			r.Shown = len(read) > 0
			r.Files = filesNamed(read, seen)
		} else {
			w := walkerPool.Get().(*shownWalker)
			w.any(res.Value, "", 0)
			r.Files = filesNamed(nil, w.out)
			clear(w.out) // the answer's strings, which the pool must not keep
			*w = shownWalker{out: w.out[:0]}
			walkerPool.Put(w)
		}
	}
	Calls(s).add(r)
}

// walkerPool holds logCall's walkers: the strings an answer names were
// ≈ 2 KB of a go-std activate's garbage, and only the file paths among
// them are kept (filesNamed copies them out).
var walkerPool = sync.Pool{New: func() any { return new(shownWalker) }}

// filesNamed turns node ids and paths (read, then seen) into distinct
// file paths, in order, nil when there are none.
func filesNamed(read, seen []string) []string {
	sc := namedPool.Get().(*namedScratch)
	defer sc.put()
	for _, names := range [2][]string{read, seen} {
		for _, n := range names {
			if len(sc.out) == MaxLoggedFiles {
				break
			}
			p := n
			if rest, ok := strings.CutPrefix(n, "file::"); ok {
				p, _, _ = strings.Cut(rest, "::")
			} else if strings.Contains(n, "::") {
				continue // a directory, package or reference node, no file
			}
			if p != "" && !sc.has(p) {
				sc.add(p)
			}
		}
	}
	if len(sc.out) == 0 {
		return nil
	}
	return slices.Clone(sc.out) // the log keeps it: one exact allocation
}

// namedScratch is filesNamed's working list; past namedScanMax paths a
// set answers "seen already" instead of a scan of the list.
type namedScratch struct {
	out []string
	set map[string]struct{}
}

const namedScanMax = 32

var namedPool = sync.Pool{New: func() any { return &namedScratch{set: map[string]struct{}{}} }}

func (sc *namedScratch) has(p string) bool {
	if len(sc.out) <= namedScanMax {
		return slices.Contains(sc.out, p)
	}
	_, ok := sc.set[p]
	return ok
}

func (sc *namedScratch) add(p string) {
	sc.out = append(sc.out, p)
	switch {
	case len(sc.out) == namedScanMax+1:
		for _, q := range sc.out {
			sc.set[q] = struct{}{}
		}
	case len(sc.out) > namedScanMax+1:
		sc.set[p] = struct{}{}
	}
}

// put empties sc (its strings are an answer's) and gives it back.
func (sc *namedScratch) put() {
	clear(sc.out)
	sc.out = sc.out[:0]
	clear(sc.set)
	namedPool.Put(sc)
}
