package document

import (
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Cross-domain bridges between entities of different namespaces and their
// weights (docs/design.md#edge-relations).
const (
	RelSameAs        = "same_as"        // same DOI, PMID, RFC or patent number
	RelSameORCID     = "same_orcid"     // same researcher
	RelSameAuthor    = "same_author"    // same author name
	RelSharedKeyword = "shared_keyword" // same keyword or subject

	// KeywordCap: a keyword shared by more entities than this is too
	// common to bridge (the hub-explosion guard).
	KeywordCap = 20
)

var bridgeOf = map[string]struct {
	rel string
	w   float32
}{
	"doi": {RelSameAs, 1}, "pmid": {RelSameAs, 1}, "rfc": {RelSameAs, 1}, "patent": {RelSameAs, 1},
	"orcid":   {RelSameORCID, 0.95},
	"author":  {RelSameAuthor, 0.7},
	"keyword": {RelSharedKeyword, 0.6},
}

// CrossDomainStats counts the bridges Bridge added.
type CrossDomainStats struct {
	IdentityMatches int `json:"identity_matches"`
	ORCIDBridges    int `json:"orcid_bridges"`
	AuthorBridges   int `json:"author_bridges"`
	KeywordBridges  int `json:"keyword_bridges"`
}

// Bridge links the entities of different namespaces that share an
// identity key: every entity of a key to the first one (by namespace,
// then ID) of each other namespace — cross-domain only, no self-loops,
// keywords held by more than KeywordCap entities skipped. Edges go both
// ways; call Finalize afterwards.
func Bridge(g *graph.Graph) CrossDomainStats {
	var st CrossDomainStats
	byKey := map[string][]graph.NodeID{}
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		if g.Type(id) != graph.Concept || !IsDocID(g.ExternalID(id)) {
			continue
		}
		for _, t := range g.Tags(id) {
			if k, ok := strings.CutPrefix(t, TagKeyPrefix); ok {
				byKey[k] = append(byKey[k], id)
			}
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		kind, _, _ := strings.Cut(k, ":")
		b, ok := bridgeOf[kind]
		ids := byKey[k]
		if !ok || len(ids) < 2 || kind == "keyword" && len(ids) > KeywordCap {
			continue
		}
		slices.SortFunc(ids, func(a, c graph.NodeID) int {
			if x := strings.Compare(g.Provenance(a).Namespace, g.Provenance(c).Namespace); x != 0 {
				return x
			}
			return strings.Compare(g.ExternalID(a), g.ExternalID(c))
		})
		first := map[string]graph.NodeID{}
		for _, id := range ids {
			ns := g.Provenance(id).Namespace
			if _, ok := first[ns]; !ok {
				first[ns] = id
			}
		}
		if len(first) < 2 {
			continue // one namespace: the same node already
		}
		for _, id := range ids {
			for ns, f := range first {
				if ns == g.Provenance(id).Namespace || f == id {
					continue
				}
				if g.AddEdge(graph.Edge{Source: id, Target: f, Relation: b.rel, Weight: b.w, Direction: graph.Bidirectional, CausalStrength: 0.2}) != nil {
					continue
				}
				switch b.rel {
				case RelSameAs:
					st.IdentityMatches++
				case RelSameORCID:
					st.ORCIDBridges++
				case RelSameAuthor:
					st.AuthorBridges++
				default:
					st.KeywordBridges++
				}
			}
		}
	}
	return st
}
