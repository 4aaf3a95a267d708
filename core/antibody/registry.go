package antibody

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Antibody is a stored bug shape and what is known of it.
type Antibody struct {
	ID          string   `json:"id"`
	Pattern     Pattern  `json:"pattern"`
	Severity    Severity `json:"severity"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Enabled     bool     `json:"enabled"`
	Specificity float64  `json:"specificity"`
	// Source is "manual" (antibody_create) or "learn" (extracted from
	// feedback).
	Source  string `json:"source"`
	Created int64  `json:"created"`
	// Scans counts the scans that ran it; Matches the matches they found;
	// LastMatched is the last scan with a match (Unix seconds).
	Scans       int   `json:"scans"`
	Matches     int   `json:"matches"`
	LastMatched int64 `json:"last_matched,omitempty"`
}

// Errors of Create.
var (
	ErrTooBroad  = errors.New("pattern too broad")
	ErrDuplicate = errors.New("duplicate antibody")
	ErrFull      = errors.New("antibody registry full")
)

// DuplicateError names the stored antibody a new pattern repeats.
type DuplicateError struct {
	ID         string
	Similarity float64
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%v: %.2f similar to %s", ErrDuplicate, e.Similarity, e.ID)
}

func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// Registry is the stored antibodies, at most MaxAntibodies. It is safe
// for concurrent use.
type Registry struct {
	mu     sync.Mutex
	list   []*Antibody // by id
	nextID int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{nextID: 1} }

// Create validates a, scores its specificity under mode (the default
// match mode), refuses it when too broad, a duplicate of a stored one
// (DuplicateError) or when the registry is full, and stores it with a new
// id. The stored copy is returned.
func (r *Registry) Create(a Antibody, mode MatchMode) (Antibody, error) {
	if err := a.Pattern.Validate(); err != nil {
		return Antibody{}, err
	}
	a.Specificity = a.Pattern.Specificity(mode)
	if a.Specificity < MinSpecificity {
		return Antibody{}, fmt.Errorf("%w: specificity %.3f is below %.2f", ErrTooBroad, a.Specificity, MinSpecificity)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.list {
		if sim := Similarity(a.Pattern, b.Pattern); sim >= DuplicateSimilarity {
			return *b, &DuplicateError{ID: b.ID, Similarity: sim}
		}
	}
	if len(r.list) >= MaxAntibodies {
		return Antibody{}, fmt.Errorf("%w: %d antibodies stored; delete some first", ErrFull, len(r.list))
	}
	a.ID = fmt.Sprintf("ab_%03d", r.nextID)
	r.nextID++
	a.Enabled = true
	a.Scans, a.Matches, a.LastMatched = 0, 0, 0
	stored := a
	r.list = append(r.list, &stored)
	return stored, nil
}

// SetEnabled enables or disables an antibody; false when there is none.
func (r *Registry) SetEnabled(id string, on bool) (Antibody, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.list {
		if a.ID == id {
			a.Enabled = on
			return *a, true
		}
	}
	return Antibody{}, false
}

// Delete removes an antibody; false when there is none.
func (r *Registry) Delete(id string) (Antibody, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, a := range r.list {
		if a.ID == id {
			r.list = slices.Delete(r.list, i, i+1)
			return *a, true
		}
	}
	return Antibody{}, false
}

// List returns copies of the antibodies, by id.
func (r *Registry) List() []Antibody {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Antibody, len(r.list))
	for i, a := range r.list {
		out[i] = *a
	}
	return out
}

// Len is the number of stored antibodies.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.list)
}

// RecordScan adds a scan's result to an antibody's history.
func (r *Registry) RecordScan(id string, matches int, at int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.list {
		if a.ID == id {
			a.Scans++
			a.Matches += matches
			if matches > 0 {
				a.LastMatched = at
			}
		}
	}
}

type registryFile struct {
	Version    int         `json:"version"`
	NextID     int         `json:"next_id"`
	Antibodies []*Antibody `json:"antibodies"`
}

// MarshalJSON writes the registry as antibodies.json holds it.
func (r *Registry) MarshalJSON() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.list
	if list == nil {
		list = []*Antibody{}
	}
	return json.MarshalIndent(registryFile{Version: 1, NextID: r.nextID, Antibodies: list}, "", " ")
}

// UnmarshalJSON replaces the registry with data's, checking every pattern.
func (r *Registry) UnmarshalJSON(data []byte) error {
	var f registryFile
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	if f.Version != 1 {
		return fmt.Errorf("antibodies version %d (want 1)", f.Version)
	}
	if len(f.Antibodies) > MaxAntibodies {
		return fmt.Errorf("%d antibodies (at most %d)", len(f.Antibodies), MaxAntibodies)
	}
	for _, a := range f.Antibodies {
		if err := a.Pattern.Validate(); err != nil {
			return fmt.Errorf("antibody %s: %w", a.ID, err)
		}
	}
	r.mu.Lock()
	r.list, r.nextID = f.Antibodies, max(f.NextID, len(f.Antibodies)+1)
	r.mu.Unlock()
	return nil
}

// maxLearnNodes bounds the patterns taken from feedback.
const maxLearnNodes = 6

// FromFeedback extracts a bug shape from nodes an agent confirmed for a
// query about a bug: the nodes with their exact labels and types, and the
// edges among them (contains edges aside: a file holding a function is
// no part of a bug's shape). ok is false when fewer than two nodes (or
// more than six) are given or they are not linked.
func FromFeedback(g *graph.Graph, nodes []graph.NodeID) (p Pattern, ok bool) {
	if len(nodes) < 2 || len(nodes) > maxLearnNodes {
		return Pattern{}, false
	}
	vars := map[graph.NodeID]string{}
	for i, id := range nodes {
		v := fmt.Sprintf("n%d", i+1)
		vars[id] = v
		p.Nodes = append(p.Nodes, PatternNode{ID: v, Label: g.Label(id), Type: typeName(g, id), Mode: Exact})
	}
	for _, id := range nodes {
		lo, hi := g.OutRange(id)
		for e := lo; e < hi; e++ {
			to := g.Target(e)
			rel := g.RelationName(e)
			if v, in := vars[to]; in && to != id && rel != "contains" && !g.IsMirror(e) {
				pe := PatternEdge{From: vars[id], To: v, Relation: rel}
				if !slices.Contains(p.Edges, pe) {
					p.Edges = append(p.Edges, pe)
				}
			}
		}
	}
	if p.Validate() != nil {
		return Pattern{}, false
	}
	return p, true
}

func typeName(g *graph.Graph, id graph.NodeID) string {
	if _, custom := g.Type(id).IsCustom(); custom {
		return ""
	}
	return lower(g.Type(id).String())
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
