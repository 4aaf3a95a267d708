package code

import (
	"path"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
)

// Where a patch puts nodes. A full build adds each file's nodes in walk
// order, each preceded by the directory nodes it is the first file below
// (its lead: outermost first), then packages and workspaces. So the old
// graph is a run of (lead, file nodes) pairs, and a patch replaces:
//
//   - a changed file's nodes, in place;
//   - a vanished file's lead and nodes, by nothing;
//   - a new file's lead and nodes, inserted after the file before it;
//   - a kept file's lead when it changes (the file that led a directory
//     vanished, or a new file now comes first in it).
//
// Adjacent pieces are merged into one range, so a directory node that
// moves from a vanished file's lead to the next file's stays the same node
// (with its edges). Files below one directory are contiguous in walk order,
// which keeps every such move inside one merged range; a move that is not
// is refused (DirectoriesMoved).

// piece is one replacement of old nodes [lo, hi) by nodes.
type piece struct {
	lo, hi graph.NodeID
	nodes  []graph.Node
}

// patchDirs lays out the splice ranges: the changed files' node ranges, and
// when files came or went, their leads and the directories moving with
// them, with the contains edges new files and directories need.
func (r *run) patchDirs(p *patchState) *noPatch {
	if !p.moved {
		for _, c := range p.changed {
			fl := &p.lay.files[c.oi]
			p.ranges = append(p.ranges, graph.NodeRange{Lo: fl.lo, Hi: fl.hi, Nodes: c.nodes})
		}
		if pk := p.packages; pk != nil {
			p.ranges = append(p.ranges, *pk)
		}
		return nil
	}
	pieces, why := p.pieces(leadDirs(p.files))
	if why != nil {
		return why
	}
	if pk := p.packages; pk != nil {
		pieces = append(pieces, piece{lo: pk.Lo, hi: pk.Hi, nodes: pk.Nodes})
	}
	p.ranges = mergePieces(pieces)
	if why := p.checkDirs(); why != nil {
		return why
	}
	p.containEdges(r)
	return nil
}

// leadDirs lists, per file in order, the directories a full build creates
// just before its nodes.
func leadDirs(files []*fileResult) [][]string {
	created := map[string]bool{"": true}
	leads := make([][]string, len(files))
	for i, fr := range files {
		var chain []string
		for d := parentDir(fr.file.Rel); !created[d]; d = parentDir(d) {
			chain = append(chain, d)
			created[d] = true
		}
		slices.Reverse(chain)
		leads[i] = chain
	}
	return leads
}

// pieces walks the new files beside the old ones and lists what replaces
// what, in ascending order.
func (p *patchState) pieces(leads [][]string) ([]piece, *noPatch) {
	var out []piece
	cursor := graph.NodeID(0) // end of the last old file passed
	next := 0                 // the next old file to pass
	gone := func(upTo int) *noPatch {
		for ; next < upTo; next++ {
			fl := &p.lay.files[next]
			gs, why := p.gapStart(next)
			if why != nil {
				return why
			}
			out = append(out, piece{lo: gs, hi: fl.hi})
			cursor = fl.hi
		}
		return nil
	}
	ci := 0
	for i := range p.files {
		var c *changedFile
		if ci < len(p.changed) && p.changed[ci].li == i {
			c = p.changed[ci]
			ci++
		}
		oi := p.old[i]
		if oi < 0 {
			out = append(out, piece{lo: cursor, hi: cursor, nodes: append(p.dirNodes(leads[i]), c.nodes...)})
			continue
		}
		if why := gone(oi); why != nil {
			return nil, why
		}
		fl := &p.lay.files[oi]
		gs, why := p.gapStart(oi)
		if why != nil {
			return nil, why
		}
		if !p.sameLead(gs, fl.lo, leads[i]) {
			out = append(out, piece{lo: gs, hi: fl.lo, nodes: p.dirNodes(leads[i])})
		}
		if c != nil {
			out = append(out, piece{lo: fl.lo, hi: fl.hi, nodes: c.nodes})
		}
		next, cursor = oi+1, fl.hi
	}
	if why := gone(len(p.lay.files)); why != nil {
		return nil, why
	}
	return out, nil
}

// gapStart is where old file oi's lead begins: right after the file before
// it. Every node of the gap must be a directory.
func (p *patchState) gapStart(oi int) (graph.NodeID, *noPatch) {
	gs := graph.NodeID(0)
	if oi > 0 {
		gs = p.lay.files[oi-1].hi
	}
	for o := gs; o < p.lay.files[oi].lo; o++ {
		if p.g0.Type(o) != graph.Directory {
			return 0, refuse(DirectoriesMoved)
		}
	}
	return gs, nil
}

// sameLead reports whether the old nodes [lo, hi) are the directories lead.
func (p *patchState) sameLead(lo, hi graph.NodeID, lead []string) bool {
	if int(hi-lo) != len(lead) {
		return false
	}
	for k, d := range lead {
		if p.g0.ExternalID(lo+graph.NodeID(k)) != resolve.DirID(d) {
			return false
		}
	}
	return true
}

// dirNodes are the directory nodes of a lead: the old node where there is
// one (its attributes; times are set after the splice), else a new one as
// build makes it.
func (p *patchState) dirNodes(lead []string) []graph.Node {
	out := make([]graph.Node, 0, len(lead))
	for _, d := range lead {
		if o, ok := p.g0.Lookup(resolve.DirID(d)); ok {
			out = append(out, p.g0.Node(o))
			continue
		}
		out = append(out, dirNode(d))
	}
	return out
}

// dirNode is the node build's ensureDir adds for a directory.
func dirNode(dir string) graph.Node {
	return graph.Node{
		ExternalID: resolve.DirID(dir),
		Label:      path.Base(dir),
		Type:       graph.Directory,
		Tags:       []string{"directory"},
		Provenance: graph.Provenance{SourcePath: dir, Namespace: NamespaceCode},
	}
}

// mergePieces joins adjacent pieces into splice ranges.
func mergePieces(pieces []piece) []graph.NodeRange {
	var out []graph.NodeRange
	for _, pc := range pieces {
		if n := len(out); n > 0 && out[n-1].Hi == pc.lo {
			out[n-1].Hi = pc.hi
			out[n-1].Nodes = append(out[n-1].Nodes, pc.nodes...)
			continue
		}
		out = append(out, graph.NodeRange{Lo: pc.lo, Hi: pc.hi, Nodes: slices.Clone(pc.nodes)})
	}
	return out
}

// checkDirs makes sure every directory a range lists that the old graph
// has lies inside that range (so it stays the same node), marks the old
// nodes the ranges cover as replaced, indexes the ranges' directory nodes
// and notes whether directories came or went.
func (p *patchState) checkDirs() *noPatch {
	for _, rg := range p.ranges {
		p.replace(rg.Lo, rg.Hi)
		listed := 0
		for i := range rg.Nodes {
			n := &rg.Nodes[i]
			if n.Type != graph.Directory {
				continue
			}
			o, ok := p.g0.Lookup(n.ExternalID)
			switch {
			case !ok:
				p.dirsMoved = true // a new directory
			case o < rg.Lo || o >= rg.Hi:
				return refuse(DirectoriesMoved)
			default:
				listed++
			}
			p.newNode[n.ExternalID] = n
		}
		old := 0
		for o := rg.Lo; o < rg.Hi; o++ {
			if p.g0.Type(o) == graph.Directory {
				old++
			}
		}
		if old != listed {
			p.dirsMoved = true // a directory vanished
		}
	}
	return nil
}

// containEdges adds the contains edges build adds for what is new: parent
// directory → new directory, directory → new file, package → new file.
// Kept nodes keep theirs (the splice keeps edges between surviving nodes).
func (p *patchState) containEdges(r *run) {
	for _, rg := range p.ranges {
		for i := range rg.Nodes {
			n := &rg.Nodes[i]
			if n.Type != graph.Directory {
				continue
			}
			if _, old := p.g0.Lookup(n.ExternalID); !old {
				if parent := parentDir(n.Provenance.SourcePath); parent != "" {
					p.edge(resolve.DirID(parent), n.ExternalID, extract.RelContains, WeightCertain)
				}
			}
		}
	}
	for _, c := range p.changed {
		if c.oi >= 0 {
			continue
		}
		fid := extract.FileID(c.res.Path)
		if dir := parentDir(c.res.Path); dir != "" {
			p.edge(resolve.DirID(dir), fid, extract.RelContains, WeightCertain)
		}
		if pk := r.ws.Owner(c.res.Path, c.res.Language); pk != nil {
			if p.exists(pk.ID) {
				p.edge(pk.ID, fid, extract.RelContains, WeightCertain)
			}
		}
	}
}
