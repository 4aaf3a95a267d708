package plasticity

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/seed"
	"github.com/m1nd-go/m1nd/core/semantic"
)

// Context is how memory recognises a query again: its content words and
// its strongest seeds. Two queries are similar when they share most of
// their words or most of their seeds (see Relevance).
type Context struct {
	// Words are the query's content words as ContextWords gives them; any
	// order, duplicates ignored.
	Words []string
	// Seeds are the query's seeds, strongest first; only the first
	// Params.MemorySeedsPerQuery count.
	Seeds []graph.NodeID
}

var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range seed.DefaultStopwords() {
		m[w] = true
	}
	return m
}()

// ContextWords returns the words memory compares queries by: the query's
// words with identifiers split into their parts ("parseHTTPRequest" →
// parse, http, request; "session_pool.py" → session, pool), lower case,
// without stopwords, one-letter words and numbers (issue references such
// as "(#3180)" say nothing about the code), a plural "s" dropped
// ("colors" → color), sorted and unique.
func ContextWords(text string) []string {
	var out []string
	add := func(w string) {
		w = strings.ToLower(w)
		if utf8.RuneCountInString(w) < 2 || stopwords[w] || strings.Trim(w, "0123456789") == "" {
			return
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		out = append(out, w)
	}
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_.-/:$#", r)
	})
	for _, w := range fields {
		parts := semantic.SplitIdentifier(w)
		if len(parts) == 0 {
			add(w)
		}
		for _, p := range parts {
			add(p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// jaccard is |a ∩ b| / |a ∪ b| for sorted unique lists (0 when both are
// empty).
func jaccard(a, b []string) float64 {
	i, j, both := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			both++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - both
	if union == 0 {
		return 0
	}
	return float64(both) / float64(union)
}

// fbRecord is one Learn call: the context it was given for and the judged
// nodes with their signed evidence.
type fbRecord struct {
	query string
	words []string // sorted, unique
	seeds []string // external IDs, sorted, unique
	nodes []memNode
	at    time.Time
}

// feedbackMemory is the ring of remembered Learn calls, indexed by word and
// by seed. Keys are external IDs so that feedback survives a re-ingest.
type feedbackMemory struct {
	ring      slotRing[fbRecord]
	wordSlots map[string][]int32
	seedSlots map[string][]int32
}

func newFeedbackMemory(capacity int) feedbackMemory {
	return feedbackMemory{ring: newSlotRing[fbRecord](capacity), wordSlots: map[string][]int32{}, seedSlots: map[string][]int32{}}
}

func (m *feedbackMemory) push(rec fbRecord) {
	slot := m.ring.put(rec, m.evict)
	for _, w := range rec.words {
		m.wordSlots[w] = append(m.wordSlots[w], int32(slot))
	}
	for _, s := range rec.seeds {
		m.seedSlots[s] = append(m.seedSlots[s], int32(slot))
	}
}

func unindex(idx map[string][]int32, keys []string, slot int32) {
	for _, k := range keys {
		list := idx[k]
		if j := slices.Index(list, slot); j >= 0 {
			list = slices.Delete(list, j, j+1)
		}
		if len(list) == 0 {
			delete(idx, k)
		} else {
			idx[k] = list
		}
	}
}

func (m *feedbackMemory) evict(slot int) {
	old := &m.ring.items[slot]
	unindex(m.wordSlots, old.words, int32(slot))
	unindex(m.seedSlots, old.seeds, int32(slot))
	*old = fbRecord{}
}

// relevance sums, per node, the evidence of every record at least minSim
// similar to (words, seeds), weighted by how far the similarity is above
// minSim, and squashes the sums with tanh. Records are visited in slot order, so the float sums are
// deterministic.
func (m *feedbackMemory) relevance(g *graph.Graph, words, seeds []string, minSim float64) []graph.Scored {
	if m.ring.size == 0 {
		return nil
	}
	var slots []int32
	for _, w := range words {
		slots = append(slots, m.wordSlots[w]...)
	}
	for _, s := range seeds {
		slots = append(slots, m.seedSlots[s]...)
	}
	if len(slots) == 0 {
		return nil
	}
	slices.Sort(slots)
	slots = slices.Compact(slots)
	sum := map[string]float64{}
	var keys []string
	for _, slot := range slots {
		rec := &m.ring.items[slot]
		sim := max(jaccard(words, rec.words), jaccard(seeds, rec.seeds))
		if sim < minSim {
			continue
		}
		weight := 1.0
		if minSim < 1 {
			weight = (sim - minSim) / (1 - minSim)
		}
		for _, n := range rec.nodes {
			if _, ok := sum[n.key]; !ok {
				keys = append(keys, n.key)
			}
			sum[n.key] += weight * float64(n.w)
		}
	}
	out := make([]graph.Scored, 0, len(keys))
	for _, k := range keys {
		b := finite.Clamp(float32(math.Tanh(sum[k])), -1, 1)
		if math.Abs(float64(b)) < 1e-3 {
			continue
		}
		if id, ok := g.Lookup(k); ok {
			out = append(out, graph.Scored{Node: id, Score: b})
		}
	}
	graph.SortScored(out)
	return out
}

// evidence is what one Learn call says about each judged node.
func (e *Engine) evidence(f Feedback, strength float32) float32 {
	v := e.p.FeedbackBase + (1-e.p.FeedbackBase)*strength
	switch f {
	case Partial:
		return v / 2
	case Wrong:
		return -v
	}
	return v
}

// Relevance is what explicit feedback taught about a query: for every
// node judged by a remembered Learn call whose context is similar to c,
//
//	relevance = tanh(Σ weight · evidence),  weight = (sim − min) / (1 − min)
//
// over those calls, where sim is the larger of the Jaccard indexes of the
// two contexts' words and of their seeds, min is Params.MinSimilarity
// (calls below it do not count, and the weight rises from 0 there to 1 for
// the same context, so nothing jumps at the threshold), and evidence is
// ±(FeedbackBase + (1 − FeedbackBase)·strength) (+ for Correct, half of it
// for Partial, − for Wrong). Scores are in (−1, 1): the same query marked
// wrong three times at full strength gives tanh(−3) ≈ −0.995; a query
// sharing two of its three words with it (sim 2/3), tanh(−3·0.52) ≈ −0.92;
// a query sharing one word of three, nothing. The list is sorted by score,
// then NodeID; nodes no longer in g are left out.
func (e *Engine) Relevance(g *graph.Graph, c Context) ([]graph.Scored, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := checkNodes(g, c.Seeds); err != nil {
		return nil, err
	}
	words := slices.Clone(c.Words)
	slices.Sort(words)
	words = slices.Compact(words)
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.fb.relevance(g, words, seedKeys(g, c.Seeds, e.p.MemorySeedsPerQuery), float64(e.p.MinSimilarity)), nil
}

// FeedbackRecord is one remembered Learn call in a form that survives a
// restart and a re-ingest (nodes and seeds by external ID).
type FeedbackRecord struct {
	Query string         `json:"query"`
	Words []string       `json:"words"`
	Seeds []string       `json:"seeds"`
	Nodes []FeedbackNode `json:"nodes"`
	Time  time.Time      `json:"time"`
}

// FeedbackNode is a judged node and the evidence the call gave it.
type FeedbackNode struct {
	NodeID   string  `json:"node_id"`
	Evidence float32 `json:"evidence"`
}

// FeedbackRecords counts the records in feedback memory: zero means no
// learn call has been made (or loaded), so rankers can skip asking.
func (e *Engine) FeedbackRecords() int {
	return int(e.fbRecords.Load())
}

// ExportFeedback returns feedback memory, oldest record first.
func (e *Engine) ExportFeedback() []FeedbackRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := &e.fb
	out := make([]FeedbackRecord, 0, m.ring.size)
	for rec := range m.ring.oldestFirst() {
		r := FeedbackRecord{Query: rec.query, Words: slices.Clone(rec.words), Seeds: slices.Clone(rec.seeds), Time: rec.at}
		for _, n := range rec.nodes {
			r.Nodes = append(r.Nodes, FeedbackNode{NodeID: n.key, Evidence: n.w})
		}
		out = append(out, r)
	}
	return out
}

// ErrBadFeedback reports an imported feedback record that cannot be used.
var ErrBadFeedback = errors.New("invalid feedback record")

// ImportFeedback appends records (oldest first, as ExportFeedback gives
// them) to feedback memory. It validates every record first and imports
// nothing when one is invalid: no nodes, an empty node ID, or evidence
// outside [−1, 1] or not finite.
func (e *Engine) ImportFeedback(recs []FeedbackRecord) error {
	for i, r := range recs {
		if len(r.Nodes) == 0 {
			return fmt.Errorf("%w %d: no nodes", ErrBadFeedback, i)
		}
		for _, n := range r.Nodes {
			if n.NodeID == "" || !graph.IsFinite(n.Evidence) || n.Evidence < -1 || n.Evidence > 1 {
				return fmt.Errorf("%w %d: node %q with evidence %v", ErrBadFeedback, i, n.NodeID, n.Evidence)
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range recs {
		rec := fbRecord{query: r.Query, words: sortedUnique(r.Words), seeds: sortedUnique(r.Seeds), at: r.Time}
		for _, n := range r.Nodes {
			rec.nodes = append(rec.nodes, memNode{key: n.NodeID, w: n.Evidence})
		}
		e.fb.push(rec)
	}
	e.fbRecords.Store(int32(e.fb.ring.size))
	return nil
}

func sortedUnique(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
