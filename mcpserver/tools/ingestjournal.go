package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// ingestArgs are an ingest run's parameters as the journal keeps them
// (session.IngestRecord.Args): what a restart needs to run it again.
type ingestArgs struct {
	Path            string   `json:"path"`
	Adapter         string   `json:"adapter"`
	Mode            string   `json:"mode"`
	Namespace       string   `json:"namespace,omitempty"`
	Incremental     bool     `json:"incremental,omitempty"`
	IncludeDotfiles bool     `json:"include_dotfiles,omitempty"`
	DotfilePatterns []string `json:"dotfile_patterns,omitempty"`
	// The call's budgets, so a recovery is not cut where the call was not.
	MaxNodes int `json:"max_nodes,omitempty"`
	TimeoutS int `json:"timeout_s,omitempty"`
}

func (r *IngestRun) args() json.RawMessage {
	raw, _ := json.Marshal(ingestArgs{Path: r.root, Adapter: r.Adapter, Mode: r.Mode, Namespace: r.Namespace,
		Incremental: r.Incremental, IncludeDotfiles: r.IncludeDotfiles, DotfilePatterns: r.DotfilePatterns,
		MaxNodes: r.MaxNodes, TimeoutS: int(r.Timeout / time.Second)})
	return raw
}

func (r *IngestRun) kind() string {
	if r.Mode == "merge" {
		return "graph_merged"
	}
	return "graph_replaced"
}

// JournaledBuild is what BuildJournaled made.
type JournaledBuild struct {
	Bundle *session.Bundle
	// Journaled is false for a memory-only session, for a graph kept as
	// it was, and when the record could not be written (logged): the
	// caller then saves the snapshot before answering (PersistAfterIngest).
	Journaled bool
	// seek is closed when the seek index started before the journal's
	// fsync is over (startSeekIndex); nil when none was started.
	seek <-chan struct{}
	// hold is closed when the work behind the answer may start
	// (afterFirstCall; nil: at once).
	hold <-chan struct{}
}

// Hold is closed when the work behind the ingest's answer (the query
// engine, the warm-ups, the memory release, the snapshot) may start: for
// a graph whose answer waited for its seek index, once the client's first
// call after the answer is answered (or a second passed without one), so
// that call has the process to itself; nil (at once) for the others.
func (jb JournaledBuild) Hold() <-chan struct{} { return jb.hold }

// BuildJournaled builds and publishes the ingest's graph (Build, under
// BuildBundle) and, before publishing a new one, records it in the
// journal (session.JournalIngest): the answer then waits for that one
// line's fsync, not for the snapshot (PersistBehindIngest). A large new
// graph's seek index starts building before that fsync
// (seekBeforeAnswer): AwaitSeekIndex holds the answer until it is done.
func (r *IngestRun) BuildJournaled() (JournaledBuild, error) {
	s := r.C.Session
	var out JournaledBuild
	r.holdCacheWrites()
	nb, err := s.BuildBundle(r.kind(), func(old *session.Bundle) (*session.Bundle, error) {
		nb, err := r.Build(old)
		if err != nil || nb == old {
			return nb, err
		}
		if nb.Graph != old.Graph && seekBeforeAnswer(nb.Graph.NumNodes()+nb.Graph.NumEdges()) {
			out.seek = startSeekIndex(s, nb)
		}
		rec := session.IngestRecord{Gen: old.Gen + 1, Args: r.args(), Root: r.root, Nodes: nb.Graph.NumNodes(), Edges: nb.Graph.NumEdges(), Inputs: session.InputsDigest(nb)}
		var jerr error
		if out.Journaled, jerr = s.JournalIngest(nb, rec); jerr != nil {
			s.Logf("%v", jerr)
		}
		return nb, nil
	})
	if err != nil || !out.Journaled {
		r.ReleaseCacheWrites() // no save behind the answer to follow
	}
	if err != nil {
		return JournaledBuild{}, err
	}
	out.Bundle = nb
	return out, nil
}

// cacheHoldElements bounds the extractions whose cache writes an ingest
// holds behind its answer (ingest.ReleaseWorth's bound): they stay in
// memory until written, a few MB below it, hundreds above.
const cacheHoldElements = 100_000

// holdCacheWrites keeps the root's ingest cache from writing the run's
// extraction blobs and manifest while it runs: they are not needed for a
// durable answer (the journal record is) and cost a small tree's ingest
// a tenth of its CPU beside the parse. ReleaseCacheWrites lets them run.
func (r *IngestRun) holdCacheWrites() {
	if r.cache != nil && r.Adapter == "code" && r.releaseCache == nil {
		r.releaseCache = r.cache.HoldWrites(cacheHoldElements)
	}
}

// ReleaseCacheWrites starts the cache writes held since BuildJournaled
// (nothing when none are held; a session's Close writes them too).
func (r *IngestRun) ReleaseCacheWrites() {
	if r.releaseCache != nil {
		r.releaseCache()
	}
}

// AwaitSeekIndex holds the ingest's answer until the seek index started
// before the journal's fsync is built (nothing to wait for when none
// was started), or until the call is called off: the first seek after a
// large ingest then finds it built (issue 29: ≤ 50 ms on go-std, where
// the build took 1.4–6 s behind the answer). The answer is later by the
// build's wall time less the fsync's; the query engine, the warm-ups, the
// memory release and the snapshot all start after it, and after the
// client's first call (Hold), so the build and that call have the
// process's cores to themselves.
func (jb *JournaledBuild) AwaitSeekIndex(c *Call) {
	if jb.seek == nil {
		return
	}
	t := time.Now()
	select {
	case <-jb.seek:
		c.Session.Logf("ingest: the answer waited %v for the seek index", time.Since(t).Round(time.Millisecond))
	case <-c.Ctx.Done():
	}
	// (after the wait: firstCallWait counts from the answer)
	jb.hold = afterFirstCall(c.Session, c.Session.Queries())
}

// SaveBehindIngest answers for an ingest whose record is in the journal:
// durable now (a restart builds it again from the record). In the
// background, once hold is closed (nil: at once; JournaledBuild.Hold), it
// releases the ingest's memory when the run built a graph large enough
// for that to pay (ReleaseAfterIngest; the save then reuses it, as it did
// when it ran before the answer), then, once the new graph's indexes are
// built (built, from BuildIndexesAfter; nil: at once), writes the
// snapshot (session.PersistBehind) and lets the ingest cache write what
// the run held (ReleaseCacheWrites). The snapshot is streamed from the
// graph's arrays (only the learned per-edge state is copied, ≈ 10 MB on
// go-std), yet it still reads the whole graph: after the index builds it
// shares the cores with nothing; the journal record keeps the ingest
// durable meanwhile.
func SaveBehindIngest(s *session.State, r *IngestRun, hold, built <-chan struct{}) Persisted {
	s.Go("save behind the ingest", func(ctx context.Context) error {
		waitStart(ctx, hold) // (when the session closes, Close saves)
		saveAfter(ctx, built, func() { ReleaseAfterIngest(r) }, func() { s.PersistBehind("ingest") })
		r.ReleaseCacheWrites() // last: nothing waits for them
		return nil
	})
	return Persisted{Durable: true, Reason: "journaled; snapshot written behind"}
}

// saveAfter releases, waits for built (nil: does not wait) or for ctx's
// end (Close then saves the graph itself), and persists.
func saveAfter(ctx context.Context, built <-chan struct{}, release, persist func()) {
	release()
	if built != nil {
		select {
		case <-built:
		case <-ctx.Done():
		}
	}
	persist()
}

// ReleaseAfterIngest returns the memory r's ingest no longer needs, when it
// built a new graph large enough for a full collection to pay
// (ingest.ReleaseWorth: after a small ingest the collection costs more
// CPU than the few megabytes it returns).
func ReleaseAfterIngest(r *IngestRun) {
	if !r.Kept && r.out != nil {
		ingest.ReleaseMemory(r.out.Stats)
	}
}

// RecoverJournal builds again, at start, the ingests that were answered
// on their journal record but whose snapshot a stop prevented
// (session.RecoverJournal): the ingest tool's run with the recorded
// arguments, published without a journal record of its own (the old one
// stands until the save that ends the recovery).
func RecoverJournal(d *Dispatcher) []session.RecoveredIngest {
	s := d.Session
	if !s.PendingRecovery() {
		return nil
	}
	t, ok := d.Registry.Lookup("ingest")
	if !ok {
		s.Logf("journal: this build has no ingest tool; the journaled ingests are not built again")
		return nil
	}
	return s.RecoverJournal(func(seq uint64, rec session.IngestRecord) (*session.Bundle, error) {
		var a ingestArgs
		if err := json.Unmarshal(rec.Args, &a); err != nil {
			return nil, fmt.Errorf("unreadable arguments %s: %w", rec.Args, err)
		}
		c := &Call{Ctx: s.Context(), Tool: t, AgentID: "m1nd-recovery", Session: s, Progress: func(float64, float64, string) {}, Registry: d.Registry}
		r := &IngestRun{C: c, Path: a.Path, Adapter: a.Adapter, Mode: a.Mode, Namespace: a.Namespace,
			Incremental: a.Incremental, IncludeDotfiles: a.IncludeDotfiles, DotfilePatterns: a.DotfilePatterns,
			MaxNodes: a.MaxNodes, Timeout: time.Duration(a.TimeoutS) * time.Second}
		if err := r.Target(); err != nil {
			return nil, err
		}
		return s.BuildBundle(r.kind(), func(old *session.Bundle) (*session.Bundle, error) {
			nb, err := r.Build(old)
			if err == nil && nb != old {
				nb.IngestSeq = seq
			}
			return nb, err
		})
	})
}
