package seed

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// MaxSeeds is the hard cap on seeds per query (docs/design.md#seeds).
const MaxSeeds = 200

// Options are the seed finder's parameters. Start from DefaultOptions.
type Options struct {
	// Relevance of each rule of the cascade (defaults: exact 1.0, prefix
	// 0.9, substring 0.8, tag 0.85).
	Exact, Prefix, Substring, Tag float32
	// FuzzyScale × trigram similarity is the relevance of a fuzzy match,
	// which needs similarity >= FuzzyThreshold (defaults 0.7 and 0.3).
	FuzzyScale, FuzzyThreshold float32
	// MaxSeeds caps the result (default and limit: MaxSeeds, 200; larger
	// values are clamped to it).
	MaxSeeds int
	// BasicWeight and SemanticWeight blend the cascade's relevance with the
	// semantic index's score when re-ranking (defaults 0.6 / 0.4).
	BasicWeight, SemanticWeight float32
	// BestWeight aggregates multi-word queries: relevance =
	// BestWeight·(best word) + (1−BestWeight)·(mean over words), so a node
	// matching every word beats one matching a single word equally well,
	// and a one-word query keeps the cascade's exact numbers.
	BestWeight float32
	// MinStemLen is the shortest label stem or tag that counts as a prefix
	// match when it is a prefix of a longer query word ("auth" for
	// "authentication"); shorter ones ("new", "get", "set") would tie a
	// query to every method with that common name.
	MinStemLen int
	// MinRelevance drops candidates scoring below it.
	MinRelevance float32
	// Stopwords are ignored in multi-word queries; nil means DefaultStopwords().
	Stopwords []string
}

// DefaultOptions returns the defaults of docs/design.md#seeds.
func DefaultOptions() Options {
	return Options{
		Exact: 1.0, Prefix: 0.9, Substring: 0.8, Tag: 0.85,
		FuzzyScale: 0.7, FuzzyThreshold: 0.3,
		MaxSeeds:    MaxSeeds,
		BasicWeight: 0.6, SemanticWeight: 0.4,
		BestWeight:   0.6,
		MinStemLen:   4,
		MinRelevance: 0.05,
	}
}

// DefaultStopwords are English and Portuguese filler words that carry no
// lookup signal in a natural-language query.
func DefaultStopwords() []string {
	return []string{
		"a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "is", "are", "be",
		"by", "at", "as", "it", "its", "this", "that", "from", "into", "how", "what", "where",
		"which", "who", "why", "does", "do", "find", "show", "me", "all", "about", "code", "i",
		"de", "da", "das", "dos", "e", "o", "os", "as", "em", "no", "na", "para", "por", "com",
		"um", "uma", "que",
	}
}

// Validate reports the first invalid parameter.
func (o Options) Validate() error {
	for _, p := range []struct {
		name string
		v    float32
	}{
		{"Exact", o.Exact}, {"Prefix", o.Prefix}, {"Substring", o.Substring}, {"Tag", o.Tag},
		{"FuzzyScale", o.FuzzyScale}, {"FuzzyThreshold", o.FuzzyThreshold},
		{"BasicWeight", o.BasicWeight}, {"BestWeight", o.BestWeight},
	} {
		if _, err := finite.UnitInterval("seed: "+p.name, p.v); err != nil {
			return err
		}
	}
	if !graph.IsFinite(o.SemanticWeight) || o.SemanticWeight < 0 || o.SemanticWeight > 1 {
		return fmt.Errorf("seed: SemanticWeight must be in [0, 1], got %v", o.SemanticWeight)
	}
	if !graph.IsFinite(o.MinRelevance) || o.MinRelevance < 0 || o.MinRelevance >= 1 {
		return fmt.Errorf("seed: MinRelevance must be in [0, 1), got %v", o.MinRelevance)
	}
	if o.MaxSeeds < 1 {
		return fmt.Errorf("seed: MaxSeeds must be >= 1, got %d", o.MaxSeeds)
	}
	if o.MinStemLen < 1 {
		return fmt.Errorf("seed: MinStemLen must be >= 1, got %d", o.MinStemLen)
	}
	return nil
}
