package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// GraphNode and GraphEdge are what the graph endpoints send for drawing:
// a node's identity, kind and importance, an edge's relation and learned
// weight.
type GraphNode struct {
	ID         string  `json:"id"`
	Label      string  `json:"label"`
	Type       string  `json:"type"`
	PageRank   float32 `json:"pagerank"`
	File       string  `json:"file,omitempty"`
	Line       uint32  `json:"line,omitempty"`
	Activation float64 `json:"activation,omitempty"`
	Hop        int     `json:"hop,omitempty"`
}

type GraphEdge struct {
	Source   string  `json:"source"`
	Target   string  `json:"target"`
	Relation string  `json:"relation"`
	Weight   float32 `json:"weight"`
}

// Subgraph is GET /api/graph/subgraph's answer.
type Subgraph struct {
	Nodes     []GraphNode `json:"nodes"`
	Edges     []GraphEdge `json:"edges"`
	Truncated bool        `json:"truncated"`
}

// Bounds of the graph endpoints: a subgraph holds at most maxSubgraph
// nodes (the UI draws 2,000 smoothly), a snapshot at most maxSnapshot.
const (
	maxSubgraph = 5000
	maxSnapshot = 200_000
)

// serveSubgraph answers GET /api/graph/subgraph: ?node=ID&hops=N (the
// node's neighbourhood, breadth first) or ?query=Q (activate's nodes),
// each with the edges among them; top_k bounds the nodes.
func serveSubgraph(d *tools.Dispatcher, w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	topK, err := intParam(q.Get("top_k"), 200, 1, maxSubgraph)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, httpError("top_k: "+err.Error(), "/api/graph/subgraph?query=session&top_k=200"))
		return
	}
	hops, err := intParam(q.Get("hops"), 1, 1, 6)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, httpError("hops: "+err.Error(), "/api/graph/subgraph?node=file::src/app.py&hops=2"))
		return
	}
	g := d.Session.Current().Graph
	switch {
	case q.Get("node") != "":
		id, ok := g.Lookup(q.Get("node"))
		if !ok {
			writeJSON(w, http.StatusNotFound, httpError("no node "+q.Get("node"), "/api/graph/subgraph?query="+q.Get("node")+" finds nodes by words"))
			return
		}
		writeJSON(w, http.StatusOK, neighbourhood(g, id, hops, topK))
	case q.Get("query") != "":
		args, _ := json.Marshal(struct {
			AgentID string `json:"agent_id"`
			Query   string `json:"query"`
			TopK    int    `json:"top_k"`
		}{httpAgent, q.Get("query"), min(topK, 500)})
		res := d.Call(r.Context(), "activate", args, nil)
		if res.IsError {
			writeResult(w, res)
			return
		}
		writeJSON(w, http.StatusOK, activated(g, res.Text()))
	default:
		writeJSON(w, http.StatusBadRequest, httpError("give node (an id) or query (words)", "/api/graph/subgraph?query=session+expiry&top_k=100"))
	}
}

// neighbourhood is the nodes within hops of id (breadth first, the
// heaviest edges first, at most limit) and the edges among them.
func neighbourhood(g *graph.Graph, id graph.NodeID, hops, limit int) Subgraph {
	hop := map[graph.NodeID]int{id: 0}
	order := []graph.NodeID{id}
	truncated := false
	for frontier := []graph.NodeID{id}; len(frontier) > 0 && !truncated; {
		var next []graph.NodeID
		for _, n := range frontier {
			if hop[n] == hops {
				continue
			}
			nb := g.Neighbors(n)
			slices.SortStableFunc(nb, func(a, b graph.Neighbor) int {
				if a.Weight != b.Weight {
					return cmpDesc(a.Weight, b.Weight)
				}
				return int(a.Node) - int(b.Node)
			})
			for _, x := range nb {
				if _, seen := hop[x.Node]; seen {
					continue
				}
				if len(order) == limit {
					truncated = true
					break
				}
				hop[x.Node] = hop[n] + 1
				order = append(order, x.Node)
				next = append(next, x.Node)
			}
		}
		frontier = next
	}
	sg := induced(g, order)
	for i := range sg.Nodes {
		sg.Nodes[i].Hop = hop[order[i]]
	}
	sg.Truncated = truncated
	return sg
}

// activated reads activate's answer and returns its nodes with their
// activation and the edges among them.
func activated(g *graph.Graph, text string) Subgraph {
	var a struct {
		Activated []struct {
			NodeID     string  `json:"node_id"`
			Activation float64 `json:"activation"`
		} `json:"activated"`
	}
	json.Unmarshal([]byte(text), &a)
	var ids []graph.NodeID
	act := map[graph.NodeID]float64{}
	for _, n := range a.Activated {
		if id, ok := g.Lookup(n.NodeID); ok {
			ids = append(ids, id)
			act[id] = n.Activation
		}
	}
	sg := induced(g, ids)
	for i := range sg.Nodes {
		sg.Nodes[i].Activation = act[ids[i]]
	}
	return sg
}

// induced returns ids as nodes, in order, with every edge between two of
// them (mirror edges once).
func induced(g *graph.Graph, ids []graph.NodeID) Subgraph {
	in := make(map[graph.NodeID]bool, len(ids))
	for _, id := range ids {
		in[id] = true
	}
	sg := Subgraph{Nodes: make([]GraphNode, 0, len(ids)), Edges: []GraphEdge{}}
	for _, id := range ids {
		sg.Nodes = append(sg.Nodes, graphNode(g, id))
		lo, hi := g.OutRange(id)
		for e := lo; e < hi; e++ {
			if t := g.Target(e); in[t] && !g.IsMirror(e) {
				sg.Edges = append(sg.Edges, GraphEdge{Source: g.ExternalID(id), Target: g.ExternalID(t), Relation: g.RelationName(e), Weight: g.Weight(e)})
			}
		}
	}
	return sg
}

func graphNode(g *graph.Graph, id graph.NodeID) GraphNode {
	p := g.Provenance(id)
	return GraphNode{ID: g.ExternalID(id), Label: g.Label(id), Type: g.Type(id).String(), PageRank: g.PageRank(id), File: p.SourcePath, Line: p.LineStart}
}

// serveSnapshot answers GET /api/graph/snapshot: the graph's nodes, then
// its edges among the nodes sent, streamed as one JSON object; ?limit
// bounds the nodes (default and most: maxSnapshot).
func serveSnapshot(d *tools.Dispatcher, w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r.URL.Query().Get("limit"), maxSnapshot, 1, maxSnapshot)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, httpError("limit: "+err.Error(), "/api/graph/snapshot?limit=10000"))
		return
	}
	g := d.Session.Current().Graph
	n := min(limit, g.NumNodes())
	w.Header().Set("Content-Type", "application/json")
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	fmt.Fprintf(bw, `{"node_count":%d,"edge_count":%d,"truncated":%t,"nodes":[`, g.NumNodes(), g.NumEdges(), n < g.NumNodes())
	for i := range n {
		if i > 0 {
			bw.WriteByte(',')
		}
		enc.Encode(graphNode(g, graph.NodeID(i)))
	}
	bw.WriteString(`],"edges":[`)
	first := true
	for i := range n {
		lo, hi := g.OutRange(graph.NodeID(i))
		for e := lo; e < hi; e++ {
			if t := g.Target(e); int(t) < n && !g.IsMirror(e) {
				if !first {
					bw.WriteByte(',')
				}
				first = false
				enc.Encode(GraphEdge{Source: g.ExternalID(graph.NodeID(i)), Target: g.ExternalID(t), Relation: g.RelationName(e), Weight: g.Weight(e)})
			}
		}
		if r.Context().Err() != nil {
			return // the client left
		}
	}
	bw.WriteString("]}\n")
}

// intParam reads an integer query parameter within [lo, hi] (def when
// absent).
func intParam(s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%q is not a whole number from %d to %d", s, lo, hi)
	}
	return v, nil
}

func cmpDesc(a, b float32) int {
	if a > b {
		return -1
	}
	return 1
}
