package plasticity

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"weak"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// memNode is a node remembered in a record with its weight: its activation
// in the query (query memory), or the evidence a Learn call gave it
// (feedback memory: positive for Correct and Partial, negative for Wrong).
type memNode struct {
	key string // external ID
	w   float32
	// id is key's node in the graph of its record's epoch (query
	// memory; NoNode when that graph has none).
	id graph.NodeID
}

type memRecord struct {
	query string
	seeds []string // external IDs, sorted, unique
	nodes []memNode
	at    time.Time
	// epoch is the memory's epoch its nodes' IDs were found in (0: not
	// yet found).
	epoch uint32
}

// memory is the query-memory ring. Keys are external IDs so that memory
// survives a re-ingest that renumbers nodes; each record also keeps its
// nodes' IDs in the graph last asked about (the memory's epoch), found
// when a record is first read for that graph: priming looked every key
// up by binary search over the graph's external IDs on every call, ≈ 1 ms
// of an activate on go-std when questions did not repeat.
type memory struct {
	ring slotRing[memRecord]
	freq map[string]int32
	// seedID numbers the seeds some record has (an ID is reused once no
	// record has its seed); seeds holds each ID's seed and the ring slots
	// whose record has it.
	seedID    map[string]uint32
	seeds     []memSeed
	freeSeeds []uint32
	// bigrams counts the records with both seeds of a pair (bigramKey): by
	// ID, not by the strings ([2]string keys held 12 MB of pointers for
	// the collector to mark on go-std once the ring was full).
	bigrams map[uint64]int32
	ids     []uint32 // push's and evict's: a record's seed IDs
	scratch primeScratch
	// graph is the graph of epoch (not kept alive by the memory).
	graph weak.Pointer[graph.Graph]
	epoch uint32
	// changes counts the records pushed: what priming sums changed.
	changes uint64
}

func newMemory(capacity int) memory {
	return memory{
		ring:    newSlotRing[memRecord](capacity),
		freq:    map[string]int32{},
		seedID:  map[string]uint32{},
		bigrams: map[uint64]int32{},
	}
}

// memSeed is a seed some record has, and the ring slots of those records.
type memSeed struct {
	key   string
	slots []int32
}

// bigramKey is the key of seeds a and b, a's seed before b's in a
// record's (sorted) seeds.
func bigramKey(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }

// seedOf is seed k's ID, numbered now if no record has it.
func (m *memory) seedOf(k string) uint32 {
	if id, ok := m.seedID[k]; ok {
		return id
	}
	var id uint32
	if n := len(m.freeSeeds); n > 0 {
		id, m.freeSeeds = m.freeSeeds[n-1], m.freeSeeds[:n-1]
	} else {
		id = uint32(len(m.seeds))
		m.seeds = append(m.seeds, memSeed{})
	}
	m.seeds[id].key = k
	m.seedID[k] = id
	return id
}

// slotsOf are the ring slots whose record has seed k.
func (m *memory) slotsOf(k string) []int32 {
	if id, ok := m.seedID[k]; ok {
		return m.seeds[id].slots
	}
	return nil
}

// seedKeys returns the sorted unique external IDs of seeds, at most limit
// (limit ≤ 0: no limit); the first seeds given win when capping.
func seedKeys(g *graph.Graph, seeds []graph.NodeID, limit int) []string {
	n := len(seeds)
	if limit > 0 {
		// Activate hands over the seed finder's few hundred seeds and
		// keeps 16: room for all of them was ≈ 3.5 KB of garbage a use.
		n = min(n, limit)
	}
	return appendSeedKeys(make([]string, 0, n), g, seeds, limit)
}

// appendSeedKeys is seedKeys into out (which must be empty).
func appendSeedKeys(out []string, g *graph.Graph, seeds []graph.NodeID, limit int) []string {
	for _, s := range seeds {
		k := g.ExternalID(s)
		if !slices.Contains(out, k) {
			out = append(out, k)
			if limit > 0 && len(out) == limit {
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// record adds a query to the ring, evicting the oldest record when full.
// nodes must be sorted strongest first; at most maxNodes are kept.
func (m *memory) record(g *graph.Graph, query string, seeds []graph.NodeID, nodes []graph.Scored, at time.Time, maxSeeds, maxNodes int) {
	rec := memRecord{query: strings.Clone(query), seeds: seedKeys(g, seeds, maxSeeds), at: at, epoch: m.use(g)}
	if n := min(len(nodes), maxNodes); n > 0 {
		rec.nodes = make([]memNode, 0, n) // one allocation, not append's doublings
	}
	for _, s := range nodes {
		if len(rec.nodes) == maxNodes {
			break
		}
		rec.nodes = append(rec.nodes, memNode{key: g.ExternalID(s.Node), w: s.Score, id: s.Node})
	}
	m.push(rec)
}

// use makes g the graph of the memory's epoch, a new epoch when it was
// another, and returns the epoch.
func (m *memory) use(g *graph.Graph) uint32 {
	if w := weak.Make(g); w != m.graph || m.epoch == 0 {
		m.graph = w
		m.epoch++
	}
	return m.epoch
}

// nodesIn returns the nodes of rec with their IDs in the graph of the
// memory's epoch, g, finding them first if they were found in another.
func (m *memory) nodesIn(g *graph.Graph, rec *memRecord) []memNode {
	if rec.epoch != m.epoch {
		for i := range rec.nodes {
			n := &rec.nodes[i]
			if id, ok := g.Lookup(n.key); ok {
				n.id = id
			} else {
				n.id = graph.NoNode
			}
		}
		rec.epoch = m.epoch
	}
	return rec.nodes
}

func (m *memory) push(rec memRecord) {
	m.changes++
	slot := m.ring.put(rec, m.evict)
	for _, n := range rec.nodes {
		m.freq[n.key]++
	}
	ids := m.ids[:0]
	for _, a := range rec.seeds {
		ids = append(ids, m.seedOf(a))
	}
	m.ids = ids
	for i := range ids {
		m.seeds[ids[i]].slots = append(m.seeds[ids[i]].slots, int32(slot))
	}
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			m.bigrams[bigramKey(a, b)]++
		}
	}
}

// evict removes the record in slot from every count and index.
func (m *memory) evict(slot int) {
	old := &m.ring.items[slot]
	for _, n := range old.nodes {
		if m.freq[n.key]--; m.freq[n.key] <= 0 {
			delete(m.freq, n.key)
		}
	}
	ids := m.ids[:0]
	for _, a := range old.seeds {
		ids = append(ids, m.seedID[a])
	}
	m.ids = ids
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			k := bigramKey(a, b)
			if m.bigrams[k]--; m.bigrams[k] <= 0 {
				delete(m.bigrams, k)
			}
		}
	}
	for i, a := range old.seeds {
		sd := &m.seeds[ids[i]]
		if j := slices.Index(sd.slots, int32(slot)); j >= 0 {
			sd.slots = slices.Delete(sd.slots, j, j+1)
		}
		if len(sd.slots) == 0 {
			delete(m.seedID, a)
			*sd = memSeed{}
			m.freeSeeds = append(m.freeSeeds, ids[i])
		}
	}
	*old = memRecord{}
}

// primeScratch is priming's working memory, kept between calls (issue
// 29: priming allocated ≈ 0.05 MB a call, maps and slices thrown away
// each time). It lives in the memory and is used under the engine's
// mutex, like the ring it reads.
type primeScratch struct {
	qs    []string
	qids  []graph.NodeID // the nodes of qs
	hits  []slotSeed
	sh    []uint32 // the seeds of qs a record shares, by ID
	score map[graph.NodeID]float64
	out   []graph.Scored
}

// slotSeed is one (ring slot, query seed) pair: the record in slot has
// the query's seed qs[seed] among its own.
type slotSeed struct{ slot, seed int32 }

// priming computes the priming signal for seeds (see Engine.Priming).
func (m *memory) priming(g *graph.Graph, seeds []graph.NodeID, maxSeeds, limit int, bigramBoost float32) []graph.Scored {
	sc := &m.scratch
	defer sc.release()
	total := m.sum(g, seeds, maxSeeds, bigramBoost)
	if total <= 0 {
		return nil
	}
	return sc.top(g, total, limit)
}

// primingCount is len(priming(…)) without building or sorting the list:
// learning reports only the count, and it stops at limit.
func (m *memory) primingCount(g *graph.Graph, seeds []graph.NodeID, maxSeeds, limit int, bigramBoost float32) int {
	sc := &m.scratch
	defer sc.release()
	total := m.sum(g, seeds, maxSeeds, bigramBoost)
	if total <= 0 {
		return 0
	}
	n := 0
	for k, v := range sc.score {
		if n == limit {
			break
		}
		if _, ok := sc.kept(k, v, total); ok {
			n++
		}
	}
	return n
}

// sum adds up, in sc.score, what the remembered records sharing seeds
// give each node, and returns the records' total weight (0: nothing to
// prime). The caller releases the scratch.
func (m *memory) sum(g *graph.Graph, seeds []graph.NodeID, maxSeeds int, bigramBoost float32) float64 {
	if len(seeds) == 0 || m.ring.size == 0 {
		return 0
	}
	sc := &m.scratch
	sc.qs = appendSeedKeys(sc.qs[:0], g, seeds, maxSeeds)
	sc.qids = sc.qids[:0]
	for _, s := range seeds {
		if k := g.ExternalID(s); slices.Contains(sc.qs, k) && !slices.Contains(sc.qids, s) {
			sc.qids = append(sc.qids, s)
		}
	}
	sc.hits = sc.hits[:0]
	for i, s := range sc.qs {
		for _, slot := range m.slotsOf(s) {
			sc.hits = append(sc.hits, slotSeed{slot, int32(i)})
		}
	}
	if len(sc.hits) == 0 {
		return 0
	}
	// Slots in ascending order, each slot's shared seeds in qs order (so
	// sorted): the order the sums below were always taken in.
	slices.SortFunc(sc.hits, func(a, b slotSeed) int {
		if a.slot != b.slot {
			return int(a.slot - b.slot)
		}
		return int(a.seed - b.seed)
	})
	if sc.score == nil {
		sc.score = map[graph.NodeID]float64{}
	}
	m.use(g)
	total := 0.0
	for i := 0; i < len(sc.hits); {
		slot := sc.hits[i].slot
		sc.sh = sc.sh[:0]
		for ; i < len(sc.hits) && sc.hits[i].slot == slot; i++ {
			sc.sh = append(sc.sh, m.seedID[sc.qs[sc.hits[i].seed]])
		}
		rw := m.recordWeight(slot, sc.sh, len(sc.qs), bigramBoost)
		total += rw
		for _, n := range m.nodesIn(g, &m.ring.items[slot]) {
			if n.id != graph.NoNode { // (a node g lacks is never primed)
				sc.score[n.id] += rw * float64(n.w)
			}
		}
	}
	return total
}

// recordWeight is how much the record in slot counts for a query of nq
// seeds sharing sh with it: their Jaccard overlap, times up to 2 for
// shared seed pairs seen together before.
func (m *memory) recordWeight(slot int32, sh []uint32, nq int, bigramBoost float32) float64 {
	rec := &m.ring.items[slot]
	jac := float64(len(sh)) / float64(nq+len(rec.seeds)-len(sh))
	mult := 1.0
	for i, a := range sh {
		for _, b := range sh[i+1:] {
			if m.bigrams[bigramKey(a, b)] >= 2 {
				mult += float64(bigramBoost)
			}
		}
	}
	return jac * min(mult, 2)
}

// release drops the scratch's references to the graph's strings (the
// buffers stay): a scratch must not keep a replaced graph alive.
func (sc *primeScratch) release() {
	clear(sc.qs[:cap(sc.qs)])
	clear(sc.score)
}

// top turns the summed scores into the answer: normalised by total,
// seeds and scores under 1e-3 left out, best first (ties by NodeID), at
// most limit. Only the answer is a new slice; the caller keeps it.
func (sc *primeScratch) top(g *graph.Graph, total float64, limit int) []graph.Scored {
	sc.out = sc.out[:0]
	for k, v := range sc.score {
		if s, ok := sc.kept(k, v, total); ok {
			sc.out = append(sc.out, s)
		}
	}
	// Distinct nodes: the selected top is the sorted list's prefix.
	return slices.Clone(graph.SelectTop(sc.out, limit))
}

// kept is node id, summed to v of total, as priming answers it, and
// whether it is in the answer at all: a score of at least 1e-3, not a
// query seed.
func (sc *primeScratch) kept(id graph.NodeID, v, total float64) (graph.Scored, bool) {
	s := finite.Clamp(float32(v/total), 0, 1)
	if s < 1e-3 || slices.Contains(sc.qids, id) {
		return graph.Scored{}, false
	}
	return graph.Scored{Node: id, Score: s}, true
}

// QueryRecord is one remembered query as ExportQueryMemory gives it: its
// seeds and the nodes it activated (external IDs) with their activation.
type QueryRecord struct {
	Query string       `json:"query"`
	Seeds []string     `json:"seeds"`
	Nodes []ScoredNode `json:"nodes"`
	Time  time.Time    `json:"time"`
}

// ScoredNode is a node of a remembered query and its activation.
type ScoredNode struct {
	NodeID string  `json:"node_id"`
	Score  float32 `json:"score"`
}

// ExportQueryMemory returns query memory (the priming ring), oldest record
// first, so a server can keep it across restarts.
func (e *Engine) ExportQueryMemory() []QueryRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := &e.mem
	out := make([]QueryRecord, 0, m.ring.size)
	for rec := range m.ring.oldestFirst() {
		r := QueryRecord{Query: rec.query, Seeds: slices.Clone(rec.seeds), Time: rec.at}
		for _, n := range rec.nodes {
			r.Nodes = append(r.Nodes, ScoredNode{NodeID: n.key, Score: n.w})
		}
		out = append(out, r)
	}
	return out
}

// ImportQueryMemory appends records (oldest first, as ExportQueryMemory
// gives them) to query memory; the ring keeps the newest when they exceed
// its capacity. Records with an empty node ID or a score that is not a
// finite non-negative number are refused, all of them, before any is added.
func (e *Engine) ImportQueryMemory(recs []QueryRecord) error {
	for i, r := range recs {
		for _, n := range r.Nodes {
			if n.NodeID == "" || !graph.IsFinite(n.Score) || n.Score < 0 {
				return fmt.Errorf("query memory record %d: node %q with score %v", i, n.NodeID, n.Score)
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range recs {
		rec := memRecord{query: r.Query, seeds: sortedUnique(r.Seeds), at: r.Time}
		for _, n := range r.Nodes {
			rec.nodes = append(rec.nodes, memNode{key: n.NodeID, w: n.Score})
		}
		e.mem.push(rec)
	}
	return nil
}

// RenameNodes renames the nodes query memory and feedback memory remember
// (their external IDs, as seeds and as results): what a graph whose nodes
// were renamed — put under a namespace — needs for its memories to keep
// recognising them. rename returns the new external ID.
func (e *Engine) RenameNodes(rename func(externalID string) string) {
	qm, fb := e.ExportQueryMemory(), e.ExportFeedback()
	for i := range qm {
		for j := range qm[i].Seeds {
			qm[i].Seeds[j] = rename(qm[i].Seeds[j])
		}
		for j := range qm[i].Nodes {
			qm[i].Nodes[j].NodeID = rename(qm[i].Nodes[j].NodeID)
		}
	}
	for i := range fb {
		for j := range fb[i].Seeds {
			fb[i].Seeds[j] = rename(fb[i].Seeds[j])
		}
		for j := range fb[i].Nodes {
			fb[i].Nodes[j].NodeID = rename(fb[i].Nodes[j].NodeID)
		}
	}
	e.ResetMemory()
	// Both lists came out of this engine, so they import cleanly.
	_ = e.ImportQueryMemory(qm)
	_ = e.ImportFeedback(fb)
}
