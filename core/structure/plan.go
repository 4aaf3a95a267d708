package structure

import (
	"cmp"
	"path"
	"slices"
)

// Refactor plan defaults (docs/design.md#structure-family).
const (
	DefaultMinCommunitySize = 3
	// maxMoveCandidates bounds the file moves whose modularity is
	// recomputed (the most promising first).
	maxMoveCandidates = 200
	// mergeShare: a merge is proposed when one community holds at least
	// this share of each directory's files.
	mergeShare = 0.5
)

// PlanOptions tune RefactorPlan; zero values take the defaults.
type PlanOptions struct {
	MinCommunitySize int
	// Pinned reports directories that no proposal may change: a program's
	// entry point (Go's package main) cannot give a file to a library,
	// take one in, or merge with one, because nothing can import it.
	Pinned func(dir string) bool
}

// Community is a group Louvain found, with its cohesion.
type Community struct {
	ID                 int
	Units              []int
	Internal, External int // link weight inside, and to other communities
	// Directory is the directory most of its files are in, Share their share.
	Directory string
	Share     float64
	// Boundary are its units with the most links leaving it (at most 3).
	Boundary []int
}

// Cohesion is the share of the community's link weight that stays inside.
func (c *Community) Cohesion() float64 { return ratio(c.Internal, c.Internal+c.External) }

// ProposalKind is what a proposal changes in the directory layout.
type ProposalKind uint8

const (
	// Move one file to the directory its community lives in.
	Move ProposalKind = iota
	// Split a directory along its communities.
	Split
	// Merge two directories one community spans.
	Merge
)

func (k ProposalKind) String() string { return [...]string{"move", "split", "merge"}[k] }

// Proposal is one change to the directory layout and what it does to the
// coupling between directories, computed on the link graph: the cut (link
// weight between directories) and the modularity of the directory
// partition, before and after.
type Proposal struct {
	Kind                ProposalKind
	Units               []int // the files moved, or the directory's files
	From, To            string
	Parts               int // Split: the parts
	Community           int
	CutBefore, CutAfter int
	QBefore, QAfter     float64
}

// Gain is the modularity the proposal adds.
func (p *Proposal) Gain() float64 { return p.QAfter - p.QBefore }

// Plan is RefactorPlan's answer.
type Plan struct {
	Communities []Community // size ≥ MinCommunitySize, largest first
	Partition   []int
	// Modularity of the communities; DirModularity of the directories as
	// they are; Cut: link weight between directories.
	Modularity, DirModularity float64
	Cut, Links                int
	Proposals                 []Proposal // best gain first
}

// RefactorPlan finds u's communities (Louvain) and proposes moves, splits
// and merges of directories toward them, each with its computed effect on
// cut and modularity; only changes that raise modularity are proposed.
// u's units should be files (FileUnit).
func RefactorPlan(u *Units, opt PlanOptions) Plan {
	if opt.MinCommunitySize <= 0 {
		opt.MinCommunitySize = DefaultMinCommunitySize
	}
	g := undirected(u)
	part := Louvain(u)
	dirs, dirOf := directories(u)
	p := Plan{Partition: part, Modularity: g.modularity(part), DirModularity: g.modularity(dirOf), Cut: CutWeight(u, dirOf)}
	for v := range u.Len() {
		for _, l := range u.Out[v] {
			p.Links += l.Weight
		}
	}
	p.Communities = communities(u, part, opt.MinCommunitySize)
	p.Proposals = append(p.Proposals, moves(u, g, &p, dirs, dirOf)...)
	p.Proposals = append(p.Proposals, splits(u, g, &p, dirs, dirOf, opt.MinCommunitySize)...)
	p.Proposals = append(p.Proposals, merges(u, g, &p, dirs, dirOf)...)
	if opt.Pinned != nil {
		p.Proposals = slices.DeleteFunc(p.Proposals, func(pr Proposal) bool {
			return opt.Pinned(pr.From) || pr.To != "" && opt.Pinned(pr.To)
		})
	}
	slices.SortStableFunc(p.Proposals, func(a, b Proposal) int {
		return cmp.Or(cmp.Compare(b.Gain(), a.Gain()), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	return p
}

// directories numbers the units' directories (ascending) and gives each
// unit its directory's number.
func directories(u *Units) ([]string, []int) {
	idx := map[string]int{}
	var dirs []string
	for _, name := range u.Names {
		if d := path.Dir(name); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	for i, d := range dirs {
		idx[d] = i
	}
	of := make([]int, u.Len())
	for v, name := range u.Names {
		of[v] = idx[path.Dir(name)]
	}
	return dirs, of
}

func communities(u *Units, part []int, minSize int) []Community {
	by := map[int]*Community{}
	for v, c := range part {
		if by[c] == nil {
			by[c] = &Community{ID: c}
		}
		by[c].Units = append(by[c].Units, v)
	}
	var out []Community
	for _, c := range by {
		if len(c.Units) < minSize {
			continue
		}
		ext := map[int]int{}
		count := map[string]int{}
		for _, v := range c.Units {
			count[path.Dir(u.Names[v])]++
			for _, l := range u.Out[v] {
				if part[l.To] == c.ID {
					c.Internal += l.Weight
				} else {
					c.External += l.Weight
					ext[v] += l.Weight
				}
			}
			for _, l := range u.In[v] {
				if part[l.To] != c.ID {
					c.External += l.Weight
					ext[v] += l.Weight
				}
			}
		}
		c.Directory = dominant(count)
		c.Share = ratio(count[c.Directory], len(c.Units))
		b := slices.Clone(c.Units)
		slices.SortStableFunc(b, func(x, y int) int { return cmp.Compare(ext[y], ext[x]) })
		for _, v := range b[:min(3, len(b))] {
			if ext[v] > 0 {
				c.Boundary = append(c.Boundary, v)
			}
		}
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Community) int { return cmp.Or(len(b.Units)-len(a.Units), a.ID-b.ID) })
	return out
}

// dominant is the key with the largest count (ties: the smaller key).
func dominant(count map[string]int) string {
	best := ""
	for k, n := range count {
		if best == "" || n > count[best] || n == count[best] && k < best {
			best = k
		}
	}
	return best
}

// evaluate fills a proposal's before/after figures for the directory
// partition after.
func evaluate(u *Units, g *ugraph, p *Plan, pr Proposal, after []int) Proposal {
	pr.CutBefore, pr.QBefore = p.Cut, p.DirModularity
	pr.CutAfter, pr.QAfter = CutWeight(u, after), g.modularity(after)
	return pr
}

// moves proposes moving a file into the directory its community lives in
// when it has more links there than in its own directory.
func moves(u *Units, g *ugraph, p *Plan, dirs []string, dirOf []int) []Proposal {
	dirIdx := map[string]int{}
	for i, d := range dirs {
		dirIdx[d] = i
	}
	type cand struct{ v, to, gain int }
	var cands []cand
	for _, c := range p.Communities {
		to := dirIdx[c.Directory]
		for _, v := range c.Units {
			if dirOf[v] == to {
				continue
			}
			kTo, kFrom := 0, 0
			for _, l := range g.adj[v] {
				switch dirOf[l.to] {
				case to:
					kTo += int(l.w)
				case dirOf[v]:
					kFrom += int(l.w)
				}
			}
			if kTo > kFrom {
				cands = append(cands, cand{v, to, kTo - kFrom})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Or(b.gain-a.gain, a.v-b.v) })
	dirDeg := make([]float64, len(dirs))
	for v, d := range dirOf {
		dirDeg[d] += g.deg[v]
	}
	m := g.m2 / 2
	var out []Proposal
	for _, c := range cands[:min(len(cands), maxMoveCandidates)] {
		// Moving v from A to B: A loses its links to v, B gains them, and
		// the degree sums shift by v's degree (docs/design.md#structure-family).
		v, a, b := c.v, dirOf[c.v], c.to
		kA, kB := linksTo(g, v, dirOf, a), linksTo(g, v, dirOf, b)
		dq := (kB-kA)/m - g.deg[v]*(dirDeg[b]-(dirDeg[a]-g.deg[v]))/(2*m*m)
		pr := Proposal{Kind: Move, Units: []int{v}, From: dirs[a], To: dirs[b], Community: p.Partition[v],
			CutBefore: p.Cut, CutAfter: p.Cut - int(kB-kA), QBefore: p.DirModularity, QAfter: p.DirModularity + dq}
		if pr.Gain() > 1e-9 {
			out = append(out, pr)
		}
	}
	return out
}

// linksTo is v's link weight to units of directory d other than itself.
func linksTo(g *ugraph, v int, dirOf []int, d int) float64 {
	k := 0.0
	for _, l := range g.adj[v] {
		if l.to != v && dirOf[l.to] == d {
			k += l.w
		}
	}
	return k
}

// splits proposes splitting a directory whose files fall into two or more
// communities of at least minSize files each.
func splits(u *Units, g *ugraph, p *Plan, dirs []string, dirOf []int, minSize int) []Proposal {
	members := make([][]int, len(dirs))
	for v, d := range dirOf {
		members[d] = append(members[d], v)
	}
	var out []Proposal
	for d := range dirs {
		count := map[int]int{}
		files := members[d]
		for _, v := range files {
			count[p.Partition[v]]++
		}
		var big []int
		for c, n := range count {
			if n >= minSize {
				big = append(big, c)
			}
		}
		if len(big) < 2 {
			continue
		}
		slices.Sort(big)
		after := slices.Clone(dirOf)
		for _, v := range files {
			if i := slices.Index(big, p.Partition[v]); i > 0 {
				after[v] = len(dirs) + i // a new directory per extra part
			}
		}
		pr := evaluate(u, g, p, Proposal{Kind: Split, Units: files, From: dirs[d], Parts: len(big), Community: -1}, after)
		if pr.Gain() > 1e-9 {
			out = append(out, pr)
		}
	}
	return out
}

// merges proposes merging two linked directories when one community holds
// at least half of each one's files.
func merges(u *Units, g *ugraph, p *Plan, dirs []string, dirOf []int) []Proposal {
	size := map[int]int{}
	inComm := map[[2]int]int{} // (community, dir) → files
	dirDeg := make([]float64, len(dirs))
	for v := range u.Len() {
		size[dirOf[v]]++
		inComm[[2]int{p.Partition[v], dirOf[v]}]++
		dirDeg[dirOf[v]] += g.deg[v]
	}
	between := map[[2]int]float64{}
	for v := range u.Len() {
		for _, l := range g.adj[v] {
			if a, b := dirOf[v], dirOf[l.to]; a < b {
				between[[2]int{a, b}] += l.w
			}
		}
	}
	members := map[int][]int{}
	for v, d := range dirOf {
		members[d] = append(members[d], v)
	}
	m := g.m2 / 2
	var out []Proposal
	for pair, lab := range between {
		a, b := pair[0], pair[1]
		for _, c := range p.Communities {
			if float64(inComm[[2]int{c.ID, a}]) < mergeShare*float64(size[a]) || float64(inComm[[2]int{c.ID, b}]) < mergeShare*float64(size[b]) {
				continue
			}
			// Merging A and B: their links become inner, their degree
			// sums pool (docs/design.md#structure-family).
			dq := lab/m - dirDeg[a]*dirDeg[b]/(2*m*m)
			files := append(slices.Clone(members[a]), members[b]...)
			slices.Sort(files)
			pr := Proposal{Kind: Merge, Units: files, From: dirs[b], To: dirs[a], Community: c.ID,
				CutBefore: p.Cut, CutAfter: p.Cut - int(lab), QBefore: p.DirModularity, QAfter: p.DirModularity + dq}
			if pr.Gain() > 1e-9 {
				out = append(out, pr)
			}
			break
		}
	}
	return out
}
