package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/m1nd-go/m1nd/core/activation"
	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/seed"
	"github.com/m1nd-go/m1nd/core/xlr"
)

// run is one activation: the query, the indexes it runs on, and what each
// phase hands the next. Activate runs the phases in the order the package
// documentation gives.
type run struct {
	e   *Engine
	ix  *indexes
	g   *graph.Graph
	q   Query
	req [graph.NumDimensions]bool
	// pool is the number of candidates merge keeps for priming and XLR to
	// re-rank before the final cut.
	pool int
	ws   *activation.Workspace
	sc   *runScratch
	// d1 is D1's scratch, kept until merge has read the result it lends.
	d1  *activation.Workspace
	res *Result

	seeds    []graph.Scored                      // seeds
	memory   plasticity.Context                  // seeds
	dims     [graph.NumDimensions][]graph.Scored // dimensions
	feedback map[graph.NodeID]float32            // merge: learned relevance
	nodes    []Node                              // merge, re-scored by priming and XLR
	at       map[graph.NodeID]int                // merge: node → index in nodes
	// field is XLR's seed-side work (immunity, anti-seeds, both channels),
	// which needs no candidates and so runs beside the dimensions.
	field     *xlr.Field
	fieldTook time.Duration
	// semDone says D2 already ran, while another ranker's seeds were
	// being found (findSeeds).
	semDone bool
	// primed is priming, offered beside merge: its answer is in primes
	// (or its error in primeErr) once primed.wait returns.
	primed   *beside
	primes   []graph.Scored
	primeErr error
}

// Activate answers q. It fails on an invalid query, an unfinalized graph
// or a cancelled context (checked between phases; a query cancelled before
// its learn phase leaves the graph as it found it); a query that matches
// nothing is a result with no seeds and no activated nodes (and no
// learning), not an error.
func (e *Engine) Activate(ctx context.Context, q Query) (*Result, error) {
	start := time.Now()
	if err := q.normalize(); err != nil {
		return nil, err
	}
	ix, err := e.current()
	if err != nil {
		return nil, err
	}
	r := &run{
		e: e, ix: ix, g: e.g, q: q, req: q.requested(),
		pool: poolSize(e.opts, q),
		ws:   ix.pool.Get(),
		res:  &Result{Query: q.Text, Generation: ix.gen},
		sc:   scratchPool.Get().(*runScratch),
	}
	defer ix.pool.Put(r.ws)
	defer putScratch(r.sc) // deferred first, so it runs after priming is waited for
	defer func() {
		if r.d1 != nil {
			ix.pool.Put(r.d1)
		}
	}()
	defer func() {
		if r.field != nil {
			r.field.Release() // a query that failed or cancelled before XLR
		}
	}()
	defer func() {
		if r.primed != nil {
			r.primed.wait() // a query that failed or cancelled before prime
		}
	}()
	t := &r.res.Timings
	for _, p := range []struct {
		do   func() error
		took *time.Duration
	}{
		{r.findSeeds, &t.Seeds},
		{r.runDimensions, nil}, // times each dimension itself
		{r.merge, &t.Merge},
		{r.prime, &t.Priming},
		{r.cancelNoise, &t.XLR}, // plus the seed-side work done beside the dimensions
		{r.finish, nil},         // times top-k and learning itself
	} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		if err := p.do(); err != nil {
			return nil, err
		}
		if p.took != nil {
			*p.took = time.Since(t0)
		}
	}
	t.XLR += r.fieldTook
	r.res.Elapsed = time.Since(start)
	return r.res, nil
}

// findSeeds matches the query against the graph and derives the context
// query memory knows it by: its words and its strongest seeds.
func (r *run) findSeeds() error {
	var more []seed.Seed
	done := make(chan struct{})
	if r.q.MoreSeeds != nil {
		go func() {
			defer close(done)
			more = r.q.MoreSeeds()
		}()
	} else {
		close(done)
	}
	found := r.ix.seeds.FindSemantic(r.q.Text, r.q.MaxSeeds)
	if r.q.MoreSeeds != nil && r.req[graph.Semantic] {
		// D2 needs no seeds: it runs here, while this goroutine would
		// otherwise wait for the slower ranker, instead of taking its
		// share of the two cores beside the other dimensions.
		t0 := time.Now()
		r.dims[graph.Semantic] = r.ix.sem.Query(r.q.Text, r.pool)
		r.res.Timings.Semantic = time.Since(t0)
		r.semDone = true
	}
	<-done
	extra := r.q.Seeds
	if len(more) > 0 {
		extra = append(slices.Clip(extra), more...)
	}
	r.res.Seeds = mergeSeeds(found, extra, r.g.NumNodes())
	r.seeds = seed.Scored(r.res.Seeds)
	r.memory = r.e.context(r.q.Text, r.res.Seeds)
	return nil
}

// mergeSeeds adds extra seeds to found (per node the higher relevance
// wins; nodes outside the graph are ignored), strongest first, ties by
// node.
func mergeSeeds(found, extra []seed.Seed, n int) []seed.Seed {
	if len(extra) == 0 {
		return found
	}
	out := append(make([]seed.Seed, 0, len(found)+len(extra)), found...)
	// A node's place is looked up by scanning out from its end (the last
	// place a node was given wins, as a map's last write did): activate
	// adds seek's 20 to at most a few hundred, where building a map cost
	// more time and allocation than the scans. Large lists keep the map.
	var at map[graph.NodeID]int
	if len(extra)*len(out) > maxSeedScan {
		at = make(map[graph.NodeID]int, len(found)+len(extra))
		for i, s := range out {
			at[s.Node] = i
		}
	}
	for _, s := range extra {
		if int(s.Node) < 0 || int(s.Node) >= n || !(s.Relevance > 0) || !graph.IsFinite(s.Relevance) {
			continue
		}
		s.Relevance = min(s.Relevance, 1)
		i, ok := placeOf(out, at, s.Node)
		if ok {
			if s.Relevance > out[i].Relevance {
				out[i] = s
			}
			continue
		}
		if at != nil {
			at[s.Node] = len(out)
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b seed.Seed) int {
		if a.Relevance != b.Relevance {
			return cmp.Compare(b.Relevance, a.Relevance)
		}
		return cmp.Compare(a.Node, b.Node)
	})
	return out
}

// maxSeedScan bounds mergeSeeds' scans (extra × found seeds) before it
// indexes the seeds in a map instead (a variable: tests take both ways).
var maxSeedScan = 1 << 14

// placeOf is the last place of node in out, from at when it is given.
func placeOf(out []seed.Seed, at map[graph.NodeID]int, node graph.NodeID) (int, bool) {
	if at != nil {
		i, ok := at[node]
		return i, ok
	}
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Node == node {
			return i, true
		}
	}
	return 0, false
}

// runDimensions runs the four dimensions and XLR's seed-side work on two
// goroutines: they read the graph only and each has its own scratch. D1,
// the longest, runs on the calling goroutine at once; the others are taken
// longest first from a shared list by a helper goroutine from the start
// and by this one once D1 is done, so the two cores finish about together
// (on go-std D1 is about XLR's work plus D4).
func (r *run) runDimensions() error {
	ix, g, opts := r.ix, r.g, &r.e.opts
	var took [graph.NumDimensions]time.Duration
	timed := func(d graph.Dimension, f func() ([]graph.Scored, error)) func() error {
		return func() (err error) {
			t0 := time.Now()
			r.dims[d], err = f()
			took[d] = time.Since(t0)
			return err
		}
	}
	var tasks []func() error // longest first
	if r.q.XLR && len(r.seeds) > 0 {
		tasks = append(tasks, func() error {
			t0 := time.Now()
			r.field = r.e.xlr.PrepareWith(g, ix.pool.Importers(), r.seeds)
			r.fieldTook = time.Since(t0)
			return nil
		})
	}
	if r.req[graph.Causal] && len(r.seeds) > 0 {
		r.ws.Lend() // merge's own use of r.ws leaves the lent result alone
		tasks = append(tasks, timed(graph.Causal, func() ([]graph.Scored, error) {
			return activation.Causal(g, r.seeds, opts.Causal, r.ws)
		}))
	}
	if r.req[graph.Temporal] {
		tasks = append(tasks, timed(graph.Temporal, func() ([]graph.Scored, error) {
			// At the graph's clock (its newest change), not the wall
			// clock: the same question must get the same answer later.
			r.sc.temporal = ix.temp.AppendActivate(r.sc.temporal[:0], r.seeds)
			return r.sc.temporal, nil
		}))
	}
	if r.req[graph.Semantic] && !r.semDone {
		tasks = append(tasks, timed(graph.Semantic, func() ([]graph.Scored, error) {
			return ix.sem.Query(r.q.Text, r.pool), nil
		}))
	}
	errs := make([]error, len(tasks)+1)
	var next atomic.Int32
	work := func() {
		for i := int(next.Add(1)); i <= len(tasks); i = int(next.Add(1)) {
			errs[i] = tasks[i-1]()
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		work()
	}()
	if r.req[graph.Structural] && len(r.seeds) > 0 {
		// D1 and D4 lend their results (Workspace.Lend): merge reads them
		// before either workspace is used again.
		r.d1 = ix.pool.Get()
		r.d1.Lend()
		errs[0] = timed(graph.Structural, func() (res []graph.Scored, err error) {
			res, r.res.Engine, err = activation.Structural(g, r.seeds, opts.Activation, r.d1)
			return res, err
		})()
	}
	work()
	<-done
	t := &r.res.Timings
	t.Structural, t.Temporal, t.Causal = took[graph.Structural], took[graph.Temporal], took[graph.Causal]
	if !r.semDone {
		t.Semantic = took[graph.Semantic]
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// merge fuses the dimensions into the candidate pool (scores in [0, 1]).
// It first reads what explicit feedback taught about the query, so that
// every node feedback confirmed and some dimension reached stays in the
// pool however far down the merge put it.
func (r *run) merge() error {
	rel, err := r.e.plast.Relevance(r.g, r.memory)
	if err != nil {
		return fmt.Errorf("engine: feedback: %w", err)
	}
	r.startPriming()
	r.feedback = r.sc.feedback
	keep := r.sc.keep[:0]
	for _, f := range rel {
		r.feedback[f.Node] = f.Score
		if f.Score > 0 {
			keep = append(keep, f.Node)
		}
	}
	r.res.Weights = activation.EffectiveWeights(&r.dims, r.req, r.e.opts.Merge)
	merged, err := activation.MergeKeepingLent(r.g, r.dims, r.req, r.pool, keep, r.e.opts.Merge, r.ws) // copied below
	if err != nil {
		return err
	}
	r.sc.keep = keep
	r.nodes = sized(r.sc.nodes, len(merged))
	r.sc.nodes = r.nodes
	r.at = r.sc.at
	for i, m := range merged {
		r.nodes[i] = Node{ID: m.Node, Activation: m.Score, Dims: m.Dims, DimCount: m.DimCount, PageRank: r.g.PageRank(m.Node), Gate: 1}
		r.at[m.Node] = i
	}
	return nil
}

// startPriming asks query memory for its priming of the seeds in another
// goroutine, beside merge: it depends on the seeds only, and merge leaves
// the second core idle. prime waits for it. Nothing writes query memory
// between the two points in one query, so the answer is the same.
func (r *run) startPriming() {
	if r.e.opts.PrimingWeight <= 0 || len(r.seeds) == 0 {
		return
	}
	r.primed = offer(func() {
		r.primes, r.primeErr = r.e.plast.Priming(r.g, r.memory.Seeds)
	})
}

// prime applies what memory knows to the candidates: query-memory priming
// (×PrimingWeight), warmup boosts and learned feedback. A boost b in
// [0, 1] moves a score toward 1, s + (1 − s)·b (several combine as
// 1 − Π(1 − b)); a rejection b in (−1, 0) moves it toward 0, s·(1 + b).
// Scores stay in [0, 1] and no learned change is clipped away. Only
// candidates the query reached are re-ranked; nothing unrelated is pulled
// in.
func (r *run) prime() error {
	if len(r.nodes) == 0 {
		return nil
	}
	rest := sized(r.sc.rest, len(r.nodes)) // Π(1 − b) of the boosts
	r.sc.rest = rest
	for i := range rest {
		rest[i] = 1
	}
	boost := func(n graph.NodeID, b float32) {
		if i, ok := r.at[n]; ok {
			rest[i] *= 1 - finite.Clamp(b, 0, 1)
		}
	}
	if r.primed != nil {
		r.primed.wait()
		r.primed = nil
		if r.primeErr != nil {
			return fmt.Errorf("engine: priming: %w", r.primeErr)
		}
		w := r.e.opts.PrimingWeight
		for _, p := range r.primes {
			boost(p.Node, w*p.Score)
		}
	}
	for _, b := range r.e.warm.Boosts(r.g) {
		boost(b.Node, b.Score)
	}
	for n, f := range r.feedback {
		if i, ok := r.at[n]; ok {
			r.nodes[i].Feedback = f
			boost(n, f) // negative feedback is no boost (clamped to 0)
		}
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		s := 1 - (1-n.Activation)*rest[i]
		if n.Feedback < 0 {
			s *= 1 + n.Feedback
		}
		s = finite.Clamp(s, 0, 1)
		n.Boost = graph.Finite(s - n.Activation)
		n.Activation = s
	}
	return nil
}

// cancelNoise runs XLR over the candidates when the query asked for it. A
// node learned feedback confirmed (relevance f > 0) is protected in
// proportion: its gate g becomes g + (1 − g)·f, since an agent already
// said it is signal.
func (r *run) cancelNoise() error {
	if !r.q.XLR || len(r.nodes) == 0 || len(r.seeds) == 0 {
		return nil
	}
	cand := sized(r.sc.cand, len(r.nodes))
	r.sc.cand = cand
	for i, n := range r.nodes {
		cand[i] = graph.Scored{Node: n.ID, Score: n.Activation}
	}
	f := r.field
	if f == nil {
		f = r.e.xlr.Prepare(r.g, r.seeds)
	}
	r.field = nil
	xr, err := f.Gate(cand)
	if err != nil {
		return fmt.Errorf("engine: xlr: %w", err)
	}
	r.res.XLR, r.res.XLRFallback, r.res.AntiSeeds = true, xr.FallbackToHotOnly, xr.AntiSeeds
	for i, s := range xr.Scores {
		n := &r.nodes[r.at[s.Node]]
		gate := finite.Clamp(xr.Details[i].Gate, 0, 1)
		if n.Feedback > 0 {
			gate += (1 - gate) * n.Feedback
		}
		n.Gate = gate
		n.Activation = finite.Clamp(n.Activation*gate, 0, 1)
	}
	return nil
}

// finish runs learning beside the top-k cut and its analyses: learning
// writes edge weights and memory, which neither reads (they read the
// candidates, the graph's structure, paths and the caller's weights), and
// it reads the candidates only. An analysis that fails after learning
// started still returns its error; the graph has then learned.
func (r *run) finish() error {
	var learnErr error
	learning := offer(func() {
		t0 := time.Now()
		learnErr = r.learn()
		r.res.Timings.Plasticity = time.Since(t0)
	})
	t0 := time.Now()
	err := r.selectTop()
	r.res.Timings.Analysis = time.Since(t0)
	learning.wait()
	if err != nil {
		return err
	}
	return learnErr
}

// selectTop cuts the final ranking to top_k and runs the analyses asked
// for over the whole candidate pool, which is broader than top_k.
func (r *run) selectTop() error {
	rank := r.sc.rank[:0]
	for _, n := range r.nodes {
		if r.q.Keep == nil || r.q.Keep(n.ID) {
			s := finite.Clamp(n.Activation, 0, 1) * r.weight(n.ID)
			rank = append(rank, graph.Scored{Node: n.ID, Score: s})
		}
	}
	r.sc.rank = rank
	top := graph.SelectTop(rank, r.q.TopK)
	r.res.Activated = make([]Node, len(top))
	for i, t := range top {
		r.res.Activated[i] = r.nodes[r.at[t.Node]]
		r.res.Activated[i].Activation = finite.Clamp(t.Score, 0, 1)
		r.res.Activated[i].Weight = r.weight(t.Node)
	}
	if !r.q.GhostEdges && !r.q.StructuralHoles {
		return nil
	}
	all := sized(r.sc.all, len(r.nodes))
	r.sc.all = all
	dimMap := r.sc.dimMap
	for i, n := range r.nodes {
		all[i] = graph.Scored{Node: n.ID, Score: finite.Clamp(n.Activation, 0, 1)}
		dimMap[n.ID] = n.Dims
	}
	var err error
	if r.q.GhostEdges {
		if r.res.GhostEdges, err = analysis.GhostEdges(r.g, all, dimMap, r.e.opts.Ghosts); err != nil {
			return fmt.Errorf("engine: ghost edges: %w", err)
		}
	}
	if r.q.StructuralHoles {
		h, err := analysis.StructuralHoles(r.g, all, r.e.opts.Holes)
		if err != nil {
			return fmt.Errorf("engine: structural holes: %w", err)
		}
		r.res.Holes = &h
	}
	return nil
}

// weight is Query.Weight's factor for n: 1 without one, and for a factor
// that is not a finite non-negative number.
func (r *run) weight(n graph.NodeID) float32 {
	if r.q.Weight == nil {
		return 1
	}
	w := r.q.Weight(n)
	if !graph.IsFinite(w) || w < 0 {
		return 1
	}
	return w
}

// learn runs the plasticity cycle and records the query in memory, then
// ticks the warmup boosts. The cycle sees the whole candidate pool, not
// just top_k: "both ends activated" is about activation, and a top_k of a
// few nodes rarely contains both ends of an edge. What it may write is
// bounded (plasticity.Params.MaxEdgesPerQuery) and reported.
func (r *run) learn() error {
	for _, n := range r.nodes {
		if n.Feedback != 0 {
			r.res.Plasticity.FeedbackNodes++
		}
	}
	if r.q.NoLearn || len(r.seeds) == 0 {
		return nil
	}
	act := sized(r.sc.act, len(r.nodes))
	r.sc.act = act
	for i, n := range r.nodes {
		act[i] = graph.Scored{Node: n.ID, Score: n.Activation}
	}
	st, err := r.e.plast.Update(r.g, plasticity.Query{Text: r.q.Text, Seeds: r.memory.Seeds, Activated: act, Time: r.e.now()})
	if err != nil {
		return fmt.Errorf("engine: plasticity: %w", err)
	}
	st.FeedbackNodes = r.res.Plasticity.FeedbackNodes
	r.res.Plasticity, r.res.Learned = st, true
	r.e.warm.Tick()
	return nil
}

// context is the memory context of a query with these seeds (strongest
// first).
func (e *Engine) context(text string, seeds []seed.Seed) plasticity.Context {
	ids := make([]graph.NodeID, 0, len(seeds))
	for _, s := range seeds {
		ids = append(ids, s.Node)
	}
	return plasticity.Context{Words: plasticity.ContextWords(text), Seeds: ids}
}

// Learn applies feedback on a query's results: plasticity.Engine.Learn with
// the query's context filled in as Activate computes it (req.Seeds, when
// nil, become the seeds Activate finds for req.Query; req.Words, when nil,
// its context words). The same query then ranks the judged nodes
// accordingly, and queries sharing most of its words or seeds do too,
// less strongly (see plasticity.Engine.Relevance).
func (e *Engine) Learn(req plasticity.LearnRequest) (plasticity.LearnResult, error) {
	ix, err := e.current()
	if err != nil {
		return plasticity.LearnResult{Feedback: req.Feedback}, err
	}
	if req.Seeds == nil {
		req.Seeds = e.context(req.Query, ix.seeds.FindSemantic(req.Query, 0)).Seeds
	}
	if req.Words == nil {
		req.Words = plasticity.ContextWords(req.Query)
	}
	return e.plast.Learn(e.g, req)
}

// Feedback is what explicit feedback taught about query: the signed
// relevance in (−1, 1) of every node judged for this or a similar query
// (plasticity.Engine.Relevance with the context Activate computes), sorted
// by relevance then NodeID. Other rankers (seek) apply it as Activate does.
func (e *Engine) Feedback(query string) ([]graph.Scored, error) {
	ix, err := e.current()
	if err != nil {
		return nil, err
	}
	return e.plast.Relevance(e.g, e.context(query, ix.seeds.FindSemantic(query, 0)))
}

// poolSize is the number of candidates a query keeps: CandidateFactor
// times top_k, at least MinCandidates, and four times that under a scope
// (Keep), which drops candidates after the pool is cut.
func poolSize(o Options, q Query) int {
	n := max(o.CandidateFactor*q.TopK, o.MinCandidates)
	if q.Keep != nil {
		n *= 4
	}
	return n
}

// beside is work offered to another goroutine that the offering one takes
// back if it has not started by the time the answer is needed: on a
// machine whose other core is busy, the work is then done where it would
// have been done without the offer, not late on the busy core.
type beside struct {
	taken atomic.Bool
	done  chan struct{}
	f     func()
}

// offer starts f on another goroutine unless wait takes it first.
func offer(f func()) *beside {
	b := &beside{done: make(chan struct{}), f: f}
	go func() {
		if b.taken.CompareAndSwap(false, true) {
			f()
			close(b.done)
		}
	}()
	return b
}

// wait runs f here if no goroutine took it, else waits for it to finish.
func (b *beside) wait() {
	if b.taken.CompareAndSwap(false, true) {
		b.f()
		close(b.done) // a second wait returns at once
		return
	}
	<-b.done
}
