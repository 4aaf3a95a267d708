// Package seek finds code by intent and by pasted bug reports.
//
// It is a code-aware lexical index over the nodes of a graph, fused with
// graph signals. Each node is a document of four fields:
//
//	label  identifier-split name ("validateUserCredentials" → validat, user, credential, validateusercredentials)
//	path   the segments of its source path (mcpserver/tools/seek.go → mcpserver, tool, seek)
//	doc    its excerpt: signature or first docstring line
//	body   identifiers, comments and docstrings of its source lines (file nodes: of the whole file), read through Options.ReadFile
//
// Fields are weighted BM25F-style (label > path > doc > body) with per-field
// length normalisation. Queries run from three words to several kilobytes
// of bug report: terms are IDF-weighted, deduplicated and capped; stack
// traces (Python, Go, Java/Kotlin, JavaScript, C#) and file mentions are
// extracted, and a path in the query that matches a node's source path is a
// very strong signal. Graph fusion then spreads part of a strong hit's
// score to its neighbours, applies a small PageRank prior, lifts co-change
// partners of the best files, and scores files by their best entities.
//
// An Index is immutable once built and safe for concurrent Search calls.
// Results are deterministic: ties are broken by NodeID.
package seek

import (
	"errors"
	"fmt"
	"math"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/temporal"
)

// Field names one part of a node's document.
type Field uint8

// The document fields, strongest first.
const (
	Label Field = iota
	Path
	Doc
	Body
	NumFields
)

// String names the field ("label", "path", "doc", "body").
func (f Field) String() string {
	switch f {
	case Label:
		return "label"
	case Path:
		return "path"
	case Doc:
		return "doc"
	case Body:
		return "body"
	}
	return fmt.Sprintf("field(%d)", uint8(f))
}

// FieldParams weight one field in BM25F.
type FieldParams struct {
	// Weight multiplies the field's term frequency.
	Weight float32
	// B is the field's length normalisation in [0, 1] (0: none).
	B float32
}

// Options configure Build. Start from DefaultOptions.
type Options struct {
	// ReadFile returns the content of a node's source file given its
	// provenance source path (relative to its ingest root). Nil: no body
	// field, the index holds labels, paths and excerpts only.
	ReadFile func(path string) ([]byte, error)
	// FileStamp identifies a source file's current contents without
	// reading them (its size and modification time, say; false when it
	// cannot tell). With it, BuildFrom takes the body documents of files
	// whose stamp did not change from the previous index, and the index
	// keeps its own for the next build.
	FileStamp func(path string) (string, bool)
	// Parallelism bounds the goroutines reading and tokenising files
	// (0: GOMAXPROCS).
	Parallelism int
	// MaxFileBytes skips larger files' bodies (generated code, data).
	MaxFileBytes int
	// MaxEntityTerms caps the distinct body terms kept per entity (the
	// most frequent ones), MaxFileTerms per file node; they bound the
	// index's memory on large trees.
	MaxEntityTerms int
	MaxFileTerms   int
	// K1 is BM25's term-frequency saturation.
	K1 float32
	// Fields weight the document fields.
	Fields [NumFields]FieldParams
	// EntityPathWeight scales the path field of nodes that are not files
	// or directories: every function of auth.py shares the path "auth",
	// which says more about the file than about any one of them.
	EntityPathWeight float32
	// FileIDF in [0, 1] is the share of the file-level IDF in a query
	// term's weight (as an exponent; the rest is the node-level IDF):
	// seek ranks nodes, but a word is only as telling as the files that
	// carry it.
	FileIDF float32
	// NameMatch scales the evidence of a query that names a file (its
	// stem's terms are the query's own): the file gains NameMatch × its
	// share of the query × the best total of the candidates the query
	// does not name, so a query that is a module's name ranks that module
	// first (names.go). 0 disables it.
	NameMatch float32

	// Fusion weights graph signals when Params.GraphRerank is on.
	Fusion Fusion
}

// Fusion weights the graph signals mixed into lexical scores, in match
// units (see Breakdown).
type Fusion struct {
	// SpreadAlpha is the fraction of a strong hit's score passed to a
	// neighbour over a weight-1 edge of a fully counted relation (before
	// hub damping).
	SpreadAlpha float32
	// SpreadSources is how many of the best hits spread.
	SpreadSources int
	// PageRank scales the centrality prior: x·(1 + PageRank·r), where r
	// in [0, 1] is the node's PageRank percentile (raw PageRank is so
	// skewed that all but the hubs would get nothing).
	PageRank float32
	// FileAgg scales what a file gains from its second and third best
	// entities: FileAgg·(e2/2 + e3/4). (Its best entity e1 lifts the file
	// to at least 0.9·e1.)
	FileAgg float32
	// CoChange scales the lift of a top file's co-change partners:
	// CoChange·strength·x(file).
	CoChange float32
	// CoChangeFiles and CoChangePartners bound that lift.
	CoChangeFiles, CoChangePartners int
	// KindPrior multiplies the score of nodes that are rarely what a
	// search for code means, once per reason: tests (unless the query
	// speaks of tests), documentation, build and data files, fixtures
	// under testdata/, and directories. 1 disables it.
	KindPrior float32
	// TestPrior replaces KindPrior for tests (0: KindPrior): a fix
	// report is about the code a test exercises, and a test file shares
	// all of that code's words, so a mild discount leaves tests on top.
	TestPrior float32
}

// DefaultOptions returns the tuned defaults.
func DefaultOptions() Options {
	return Options{
		MaxFileBytes:   1 << 20,
		MaxEntityTerms: 48,
		MaxFileTerms:   4096,
		K1:             1.2,
		Fields: [NumFields]FieldParams{
			Label: {Weight: 3.0, B: 0.3},
			Path:  {Weight: 1.5, B: 0.3},
			Doc:   {Weight: 1.2, B: 0.5},
			Body:  {Weight: 0.5, B: 0.75},
		},
		EntityPathWeight: 0.4,
		FileIDF:          1,
		NameMatch:        1,
		Fusion: Fusion{
			SpreadAlpha: 0.3, SpreadSources: 32,
			PageRank: 0.1,
			FileAgg:  0.3,
			CoChange: 0.15, CoChangeFiles: 10, CoChangePartners: 5,
			KindPrior: 0.8,
			TestPrior: 0.3,
		},
	}
}

// Validate reports the first invalid option.
func (o Options) Validate() error {
	if o.MaxFileBytes < 0 || o.MaxEntityTerms < 0 || o.MaxFileTerms < 0 || o.Parallelism < 0 {
		return errors.New("seek: negative limit in options")
	}
	if !graph.IsFinite(o.K1) || o.K1 <= 0 {
		return fmt.Errorf("seek: K1 must be positive and finite, got %v", o.K1)
	}
	for f, p := range o.Fields {
		if !graph.IsFinite(p.Weight) || p.Weight < 0 {
			return fmt.Errorf("seek: %s weight must be >= 0 and finite, got %v", Field(f), p.Weight)
		}
		if !graph.IsFinite(p.B) || p.B < 0 || p.B > 1 {
			return fmt.Errorf("seek: %s b must be in [0, 1], got %v", Field(f), p.B)
		}
	}
	if !graph.IsFinite(o.FileIDF) || o.FileIDF < 0 || o.FileIDF > 1 {
		return fmt.Errorf("seek: FileIDF must be in [0, 1], got %v", o.FileIDF)
	}
	if !graph.IsFinite(o.NameMatch) || o.NameMatch < 0 || o.NameMatch > 10 {
		return fmt.Errorf("seek: NameMatch must be in [0, 10] (0: off), got %v", o.NameMatch)
	}
	if !graph.IsFinite(o.EntityPathWeight) || o.EntityPathWeight < 0 {
		return fmt.Errorf("seek: EntityPathWeight must be >= 0 and finite, got %v", o.EntityPathWeight)
	}
	fu := o.Fusion
	if !graph.IsFinite(fu.KindPrior) || fu.KindPrior <= 0 || fu.KindPrior > 1 {
		return fmt.Errorf("seek: KindPrior must be in (0, 1], got %v", fu.KindPrior)
	}
	if !graph.IsFinite(fu.TestPrior) || fu.TestPrior < 0 || fu.TestPrior > 1 {
		return fmt.Errorf("seek: TestPrior must be in [0, 1] (0: KindPrior), got %v", fu.TestPrior)
	}
	for _, v := range []float32{fu.SpreadAlpha, fu.PageRank, fu.FileAgg, fu.CoChange} {
		if !graph.IsFinite(v) || v < 0 || v > 10 {
			return fmt.Errorf("seek: fusion weights must be in [0, 10], got %+v", fu)
		}
	}
	if fu.SpreadSources < 0 || fu.CoChangeFiles < 0 || fu.CoChangePartners < 0 {
		return errors.New("seek: negative fusion limit")
	}
	return nil
}

// CoChange gives the nodes that change together with n; *temporal.CoChange
// implements it.
type CoChange interface {
	Partners(n graph.NodeID, k int) []temporal.Partner
}

// Params are one search's parameters. The zero value means: top 20, no
// filter, no graph fusion.
type Params struct {
	// TopK bounds the hits (<= 0: 20).
	TopK int
	// Scope keeps nodes whose source path starts with it ("backend/").
	Scope string
	// Types keeps nodes of these types (empty: all).
	Types []graph.NodeType
	// ExcludeTests drops tests: test files (by tag or naming convention)
	// and the entities in them.
	ExcludeTests bool
	// MinScore drops hits scoring below it (scores are in [0, 1)).
	MinScore float32
	// GraphRerank turns graph fusion on: neighbour spreading, PageRank
	// prior, co-change partners and file aggregation.
	GraphRerank bool
	// CoChange, when set and GraphRerank is on, lifts the co-change
	// partners of the best files.
	CoChange CoChange
	// MaxTerms caps the query terms used, strongest (IDF × frequency)
	// first (<= 0: DefaultMaxTerms).
	MaxTerms int
	// Feedback, when GraphRerank is on, is learned relevance in (−1, 1)
	// per node (engine.Engine.Feedback for the query): a candidate's score
	// s moves to s + (1 − s)·f for f > 0 and to s·(1 + f) for f < 0, as in
	// activate. Only nodes the query matched are re-ranked.
	Feedback []graph.Scored
}

// DefaultTopK and DefaultMaxTerms are the Params defaults.
const (
	DefaultTopK     = 20
	DefaultMaxTerms = 48
)

// Breakdown explains a hit's score. The components are in "match units":
// 1 is a node that carries the query's strongest terms (up to five) at
// full strength. Their sum x gives the score 1 − e^(−2x).
type Breakdown struct {
	// Lexical is the BM25F match of the node's document, and for a file
	// the query names (Options.NameMatch) the evidence of its name.
	Lexical float32 `json:"keyword_match"`
	// StackTrace is the evidence of stack frames, file mentions, code
	// symbols and title components ("net/http: ...") of the query that
	// name this node or its file.
	StackTrace float32 `json:"stacktrace"`
	// Graph is what neighbours of strong hits passed on, and for files
	// what their best entities add.
	Graph float32 `json:"graph_activation"`
	// PageRank is the centrality prior's share.
	PageRank float32 `json:"pagerank"`
	// CoChange is the lift from being a co-change partner of a top file.
	CoChange float32 `json:"co_change"`
	// Feedback is what learned relevance (Params.Feedback) added or, when
	// negative, took away.
	Feedback float32 `json:"feedback,omitempty"`
}

// Total is the sum of the components.
func (b Breakdown) Total() float32 {
	return b.Lexical + b.StackTrace + b.Graph + b.PageRank + b.CoChange + b.Feedback
}

// Hit is one ranked node.
type Hit struct {
	Node graph.NodeID
	// Score is in [0, 1): 1 − e^(−2·Breakdown.Total()).
	Score     float32
	Breakdown Breakdown
	// Prior is the kind prior applied (already folded into Breakdown's
	// components); 1 when none applied.
	Prior float32
	// Matched lists the query terms the node's document carries,
	// strongest contribution first (at most 8).
	Matched []string
	// Frame is the stack frame or file mention that points at the node
	// (nil if none).
	Frame *Frame
}

// WeightedTerm is a query term as the search used it.
type WeightedTerm struct {
	Term string `json:"term"`
	// Weight is IDF × query frequency × boost.
	Weight float32 `json:"weight"`
	// DF is the number of nodes whose document carries the term.
	DF int `json:"df"`
	// From is set for an expansion of a short query (a synonym or an
	// abbreviation): the query term it stands for.
	From string `json:"from,omitempty"`
}

// Result is a search's answer.
type Result struct {
	Hits []Hit
	// Candidates is how many nodes matched at least one term, frame or
	// symbol (before filters).
	Candidates int
	// Terms are the query terms used, strongest first, then the
	// expansions of a short query; terms no node carries are left out.
	Terms []WeightedTerm
	// Frames are the stack frames and file mentions found in the query.
	Frames []Frame
	// Symbols are the code identifiers found in the query.
	Symbols []string
}

// squash maps match units to a score in [0, 1).
func squash(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	s := float32(1 - math.Exp(-2*float64(x)))
	return finite.Clamp(s, 0, 1)
}
