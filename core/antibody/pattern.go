// Package antibody is immune memory: bug shapes stored as small graph
// patterns — nodes with label constraints, required edges and edges that
// must be absent — and matched against a graph by a budgeted depth-first
// search (docs/design.md#antibodies).
package antibody

import (
	"fmt"
	"regexp"
	"strings"
)

// Constants of the registry and the matcher (docs/design.md#antibodies).
const (
	// MinSpecificity: a pattern less specific than this would match
	// everywhere and is refused.
	MinSpecificity = 0.15
	// DuplicateSimilarity: a pattern this similar to a stored one is the
	// same antibody.
	DuplicateSimilarity = 0.9
	// MaxAntibodies is the registry's capacity.
	MaxAntibodies = 500
	// MaxPatternNodes bounds a pattern (the search is exponential in it).
	MaxPatternNodes = 8
)

// MatchMode is how a pattern node's label is compared with a node's.
type MatchMode string

// The match modes.
const (
	Exact     MatchMode = "exact"
	Substring MatchMode = "substring"
	Regex     MatchMode = "regex"
)

// ParseMode reads a mode case-insensitively ("Exact", "substring").
func ParseMode(s string) (MatchMode, error) {
	for _, m := range []MatchMode{Exact, Substring, Regex} {
		if strings.EqualFold(s, string(m)) {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown match mode %q (exact, substring or regex)", s)
}

// Severity ranks an antibody.
type Severity string

// The severities, worst first.
const (
	Critical Severity = "Critical"
	High     Severity = "High"
	Medium   Severity = "Medium"
	Low      Severity = "Low"
)

// ParseSeverity reads a severity case-insensitively.
func ParseSeverity(s string) (Severity, error) {
	for _, v := range []Severity{Critical, High, Medium, Low} {
		if strings.EqualFold(s, string(v)) {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown severity %q (Critical, High, Medium or Low)", s)
}

// Rank is 4 for Critical down to 1 for Low.
func (s Severity) Rank() int {
	switch s {
	case Critical:
		return 4
	case High:
		return 3
	case Medium:
		return 2
	}
	return 1
}

// PatternNode is one node of a pattern: a variable (ID) bound to a graph
// node whose label and type satisfy it.
type PatternNode struct {
	ID string `json:"id"`
	// Label constrains the node's label ("" matches any).
	Label string `json:"label,omitempty"`
	// Type is a node type name as tools print it ("function", "file");
	// "" matches any.
	Type string `json:"type,omitempty"`
	// Mode overrides the scan's match mode for this node.
	Mode MatchMode `json:"match_mode,omitempty"`
}

// PatternEdge is an edge between two pattern nodes; an empty Relation
// matches any relation.
type PatternEdge struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Relation string `json:"relation,omitempty"`
}

// Pattern is a bug shape: its nodes, the edges that must exist between
// them and the edges that must not (NegativeEdges: the missing check).
type Pattern struct {
	Nodes         []PatternNode `json:"nodes"`
	Edges         []PatternEdge `json:"edges,omitempty"`
	NegativeEdges []PatternEdge `json:"negative_edges,omitempty"`
}

// Validate checks the pattern's shape: 1 to MaxPatternNodes nodes with
// distinct ids, edges between known nodes, valid regular expressions; the
// nodes linked by required edges (from the first) form the match, and
// every other node is an absent node: reached only by negative edges from
// the match, it stands for any node that passes its test.
func (p Pattern) Validate() error {
	if len(p.Nodes) == 0 || len(p.Nodes) > MaxPatternNodes {
		return fmt.Errorf("a pattern has 1 to %d nodes, this one %d", MaxPatternNodes, len(p.Nodes))
	}
	ids := map[string]int{}
	for i, n := range p.Nodes {
		if n.ID == "" {
			return fmt.Errorf("pattern node %d has no id", i)
		}
		if _, dup := ids[n.ID]; dup {
			return fmt.Errorf("pattern node id %q is used twice", n.ID)
		}
		ids[n.ID] = i
		if n.Mode != "" {
			if _, err := ParseMode(string(n.Mode)); err != nil {
				return fmt.Errorf("node %s: %w", n.ID, err)
			}
		}
		if n.Mode == Regex {
			if _, err := regexp.Compile(n.Label); err != nil {
				return fmt.Errorf("node %s: label is not a regular expression: %w", n.ID, err)
			}
		}
	}
	for _, set := range [][]PatternEdge{p.Edges, p.NegativeEdges} {
		for _, e := range set {
			_, a := ids[e.From]
			_, b := ids[e.To]
			if !a || !b {
				return fmt.Errorf("edge %s→%s names a node the pattern does not have", e.From, e.To)
			}
			if e.From == e.To {
				return fmt.Errorf("edge %s→%s is a loop", e.From, e.To)
			}
		}
	}
	in := p.matched(ids)
	touched := make([]bool, len(p.Nodes))
	for _, e := range p.NegativeEdges {
		a, b := ids[e.From], ids[e.To]
		if !in[a] && !in[b] {
			return fmt.Errorf("negative edge %s→%s: one end must be linked to the match by required edges", e.From, e.To)
		}
		touched[a], touched[b] = true, true
	}
	for i, n := range p.Nodes {
		if !in[i] && !touched[i] {
			return fmt.Errorf("node %s is not linked: every pattern node needs an edge (or a negative edge to the match)", n.ID)
		}
	}
	return nil
}

// matched marks the nodes linked to the first by required edges.
func (p Pattern) matched(ids map[string]int) []bool {
	seen := make([]bool, len(p.Nodes))
	seen[0] = true
	for changed := true; changed; {
		changed = false
		for _, e := range p.Edges {
			a, b := ids[e.From], ids[e.To]
			if seen[a] != seen[b] {
				seen[a], seen[b], changed = true, true, true
			}
		}
	}
	return seen
}

// Specificity scores how narrow a pattern is, in [0, 1]: the mean over
// its nodes and edges of what each constrains. An exact label is 1, a
// substring up to 0.8 and a regular expression up to 0.5 (by length,
// full from 8 characters), a type adds 0.3; a required edge is 0.3 with a
// relation and 0.15 without, an absent edge 0.2. mode is the mode of
// nodes without their own.
func (p Pattern) Specificity(mode MatchMode) float64 {
	var sum float64
	for _, n := range p.Nodes {
		s := 0.0
		if n.Label != "" {
			l := min(1, float64(len(n.Label))/8)
			switch cmpMode(n.Mode, mode) {
			case Exact:
				s = 1
			case Substring:
				s = 0.8 * l
			case Regex:
				s = 0.5 * l
			}
		}
		if n.Type != "" {
			s += 0.3
		}
		sum += min(s, 1)
	}
	for _, e := range p.Edges {
		if e.Relation != "" {
			sum += 0.3
		} else {
			sum += 0.15
		}
	}
	sum += 0.2 * float64(len(p.NegativeEdges))
	return sum / float64(len(p.Nodes)+len(p.Edges)+len(p.NegativeEdges))
}

func cmpMode(own, def MatchMode) MatchMode {
	if own != "" {
		return own
	}
	return def
}

// features are a pattern's parts with the variables replaced by what
// they constrain, so two patterns that differ only in their ids compare
// equal.
func (p Pattern) features() map[string]bool {
	desc := map[string]string{}
	out := map[string]bool{}
	for _, n := range p.Nodes {
		d := string(n.Mode) + ":" + n.Type + ":" + n.Label
		desc[n.ID] = d
		out["n "+d] = true
	}
	for _, e := range p.Edges {
		out["e "+desc[e.From]+" "+e.Relation+" "+desc[e.To]] = true
	}
	for _, e := range p.NegativeEdges {
		out["! "+desc[e.From]+" "+e.Relation+" "+desc[e.To]] = true
	}
	return out
}

// Similarity is the Jaccard similarity of two patterns' features (nodes,
// edges and absent edges as their constraints read), in [0, 1].
func Similarity(a, b Pattern) float64 {
	fa, fb := a.features(), b.features()
	inter := 0
	for f := range fa {
		if fb[f] {
			inter++
		}
	}
	union := len(fa) + len(fb) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}
