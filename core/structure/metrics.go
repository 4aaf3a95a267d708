package structure

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// LOC sources, most trusted first (docs/design.md#structure-family).
const (
	LOCSpan     = "span"     // the node's own provenance lines
	LOCChildren = "children" // the last line any contained node reaches
	LOCDisk     = "disk"     // lines counted in the file on disk
)

// MetricsOptions select the nodes Metrics measures.
type MetricsOptions struct {
	// Types are the node types listed (nil: files).
	Types []graph.NodeType
	// Packages adds one entry per directory holding selected files,
	// aggregated over its files.
	Packages bool
	// Scope keeps nodes whose file path starts with it.
	Scope string
	// Churn is the number of commits that touched a file (nil: 0).
	Churn func(file graph.NodeID) int
	// DiskLines counts a file's lines on disk: the last LOC tier (nil: none).
	DiskLines func(path string) (int, bool)
	// IsTest tells test files (for test links); nil: none are.
	IsTest func(path string) bool
}

// Metric is one node's (or directory's) structural numbers.
type Metric struct {
	Node      graph.NodeID // graph.NoNode for a directory
	Name      string       // external id, or the directory's path
	Type      graph.NodeType
	File      string
	LOC       int
	LOCSource string
	// FanIn, FanOut: dependents and dependencies (files for files and
	// directories, entities for entities).
	FanIn, FanOut int
	// Depth: containment ancestors (a file's directories, a method's
	// class and file).
	Depth                                        int
	PageRank                                     float32
	Churn                                        int
	ChangeFrequency                              float32
	Functions, Classes, Structs, Enums, TypeDefs int
	// TestLinks: dependents in test files.
	TestLinks int
}

// Children is the number of functions, classes, structs, enums and types
// the node contains.
func (m *Metric) Children() int { return m.Functions + m.Classes + m.Structs + m.Enums + m.TypeDefs }

// Complexity is a structural complexity: dependencies plus children.
func (m *Metric) Complexity() int { return m.FanOut + m.Children() }

// Density is dependency links per 100 lines (0 without lines).
func (m *Metric) Density() float64 {
	if m.LOC == 0 {
		return 0
	}
	return float64(m.FanIn+m.FanOut) * 100 / float64(m.LOC)
}

// Metrics measures the selected nodes of fd's graph; fd is its
// file-level DepGraph. An entity's links are read from its own edges.
func Metrics(fd *analysis.DepGraph, opt MetricsOptions) []Metric {
	g := fd.Graph()
	want := map[graph.NodeType]bool{}
	for _, t := range opt.Types {
		want[t] = true
	}
	if len(opt.Types) == 0 && !opt.Packages {
		want[graph.File] = true
	}
	w := walker{g: g, kind: make([]uint8, g.Strings().Len()), depth: make([]int32, g.NumNodes())}
	isTest := opt.IsTest
	if isTest == nil {
		isTest = func(string) bool { return false }
	}
	var out, files []Metric
	for v := 0; v < g.NumNodes(); v++ {
		id := graph.NodeID(v)
		t := g.Type(id)
		isFile := t == graph.File && fd.Unit(id) == id
		if !want[t] && !(opt.Packages && isFile) {
			continue
		}
		file := g.SourcePath(id)
		if isFile {
			file = FilePath(g, id)
		}
		if file == "" || !strings.HasPrefix(file, opt.Scope) {
			continue
		}
		m := Metric{Node: id, Name: g.ExternalID(id), Type: t, File: file, PageRank: g.PageRank(id), Depth: w.depthOf(id)}
		m.LOC, m.LOCSource = w.loc(id, isFile, file, opt.DiskLines)
		w.countChildren(id, &m)
		if isFile {
			m.FanIn, m.FanOut = len(fd.Dependents(id)), len(fd.Dependencies(id))
			for _, x := range fd.Dependents(id) {
				if isTest(g.SourcePath(x)) {
					m.TestLinks++
				}
			}
		} else {
			w.entityLinks(id, isTest, &m)
		}
		fileNode := id
		if !isFile {
			fileNode = w.fileOf(id)
		}
		if fileNode != graph.NoNode {
			m.ChangeFrequency = g.ChangeFrequency(fileNode)
			if opt.Churn != nil {
				m.Churn = opt.Churn(fileNode)
			}
		}
		if isFile && opt.Packages {
			files = append(files, m)
		}
		if want[t] {
			out = append(out, m)
		}
	}
	if opt.Packages {
		out = append(out, packages(fd, files, opt)...)
	}
	return out
}

// packages aggregates file metrics per directory; fan-in/out are the
// directory's dependents and dependencies among directories.
func packages(fd *analysis.DepGraph, files []Metric, opt MetricsOptions) []Metric {
	u := BuildUnits(fd, UnitOptions{Granularity: Directory, Scope: opt.Scope})
	by := map[string]*Metric{}
	for _, f := range files {
		dir := path.Dir(f.File)
		p := by[dir]
		if p == nil {
			p = &Metric{Node: graph.NoNode, Name: dir, Type: graph.Directory, File: dir, LOCSource: LOCSpan}
			if dir != "." {
				p.Depth = strings.Count(dir, "/") + 1
			}
			if i, ok := u.Index(dir); ok {
				p.FanIn, p.FanOut = len(u.In[i]), len(u.Out[i])
			}
			by[dir] = p
		}
		p.LOC += f.LOC
		p.PageRank = max(p.PageRank, f.PageRank)
		p.Churn += f.Churn
		p.ChangeFrequency = max(p.ChangeFrequency, f.ChangeFrequency)
		p.Functions, p.Classes, p.Structs, p.Enums, p.TypeDefs = p.Functions+f.Functions, p.Classes+f.Classes, p.Structs+f.Structs, p.Enums+f.Enums, p.TypeDefs+f.TypeDefs
		p.TestLinks += f.TestLinks
	}
	out := make([]Metric, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	return out
}

// SortMetrics orders ms by key: "loc_desc", "complexity_desc", "name_asc",
// "fan_in_desc", "pagerank_desc" or "churn_desc"; ties by name.
func SortMetrics(ms []Metric, key string) {
	val := func(m *Metric) float64 {
		switch key {
		case "complexity_desc":
			return float64(m.Complexity())
		case "fan_in_desc":
			return float64(m.FanIn)
		case "pagerank_desc":
			return float64(m.PageRank)
		case "churn_desc":
			return float64(m.Churn) + float64(m.ChangeFrequency)
		case "name_asc":
			return 0
		}
		return float64(m.LOC)
	}
	slices.SortFunc(ms, func(a, b Metric) int {
		return cmp.Or(cmp.Compare(val(&b), val(&a)), cmp.Compare(a.Name, b.Name))
	})
}

// walker answers containment questions with memoised relation kinds.
type walker struct {
	g *graph.Graph
	// kind[s] is relation s's kind plus one (0: not classified yet).
	kind []uint8
	// depth[v] is v's containment depth plus one (0: not known yet).
	depth []int32
	// markIn, markOut hold the stamp of the entity whose links are being
	// counted (entityLinks).
	markIn, markOut []uint32
	stamp           uint32
	// markChild marks the nodes countChildren has seen for childStamp.
	markChild  []uint32
	childStamp uint32
}

func (w *walker) contains(e graph.EdgeIdx) bool {
	return !w.g.IsMirror(e) && w.kindOf(e) == analysis.Contains
}

func (w *walker) kindOf(e graph.EdgeIdx) analysis.RelKind {
	s := w.g.Relation(e)
	if int(s) >= len(w.kind) {
		return analysis.ClassifyRelation(w.g.Strings().String(s))
	}
	if w.kind[s] == 0 {
		w.kind[s] = uint8(analysis.ClassifyRelation(w.g.Strings().String(s))) + 1
	}
	return analysis.RelKind(w.kind[s] - 1)
}

// parent is the node that contains v (graph.NoNode at the top).
func (w *walker) parent(v graph.NodeID) graph.NodeID {
	lo, hi := w.g.InRange(v)
	for p := lo; p < hi; p++ {
		if w.contains(w.g.InEdge(p)) {
			return w.g.InSource(p)
		}
	}
	return graph.NoNode
}

// depthOf counts v's containment ancestors (bounded: a containment cycle
// stops at 64).
func (w *walker) depthOf(v graph.NodeID) int {
	if d := w.depth[v]; d > 0 {
		return int(d - 1)
	}
	d := 0
	if p := w.parent(v); p != graph.NoNode && p != v {
		d = min(w.depthOfBounded(p, 64), 63) + 1
	}
	w.depth[v] = int32(d) + 1
	return d
}

// depthOfBounded is depthOf with a recursion budget (a containment cycle
// stops there).
func (w *walker) depthOfBounded(v graph.NodeID, budget int) int {
	if d := w.depth[v]; d > 0 || budget == 0 {
		return max(int(d)-1, 0)
	}
	d := 0
	if p := w.parent(v); p != graph.NoNode && p != v {
		d = w.depthOfBounded(p, budget-1) + 1
	}
	w.depth[v] = int32(d) + 1
	return d
}

// fileOf is the file containing v, or graph.NoNode.
func (w *walker) fileOf(v graph.NodeID) graph.NodeID {
	for i := 0; v != graph.NoNode && i < 64; i++ {
		if w.g.Type(v) == graph.File {
			return v
		}
		v = w.parent(v)
	}
	return graph.NoNode
}

// entityLinks counts v's distinct dependents and dependencies among
// non-container nodes, read from its edges as DepGraph reads them
// (passive relations the right way round), and its dependents in tests.
func (w *walker) entityLinks(v graph.NodeID, isTest func(string) bool, m *Metric) {
	g := w.g
	if w.markIn == nil {
		w.markIn, w.markOut = make([]uint32, g.NumNodes()), make([]uint32, g.NumNodes())
	}
	// Stamps instead of sets: each neighbour counts once per side.
	w.stamp++
	add := func(x graph.NodeID, dependent bool) {
		if x == v || g.Type(x) == graph.Directory || g.Type(x) == graph.Module && (g.HasTag(x, "package") || g.HasTag(x, "workspace")) {
			return
		}
		if dependent {
			if w.markIn[x] != w.stamp {
				w.markIn[x] = w.stamp
				m.FanIn++
				if isTest(g.SourcePath(x)) {
					m.TestLinks++
				}
			}
		} else if w.markOut[x] != w.stamp {
			w.markOut[x] = w.stamp
			m.FanOut++
		}
	}
	lo, hi := g.OutRange(v)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) {
			switch w.kindOf(e) {
			case analysis.DependsOn:
				add(g.Target(e), false)
			case analysis.DependedOnBy:
				add(g.Target(e), true)
			}
		}
	}
	ilo, ihi := g.InRange(v)
	for p := ilo; p < ihi; p++ {
		if e := g.InEdge(p); !g.IsMirror(e) {
			switch w.kindOf(e) {
			case analysis.DependsOn:
				add(g.InSource(p), true)
			case analysis.DependedOnBy:
				add(g.InSource(p), false)
			}
		}
	}
}

// countChildren counts the entities v contains, at any depth.
func (w *walker) countChildren(v graph.NodeID, m *Metric) {
	if w.markChild == nil {
		w.markChild = make([]uint32, w.g.NumNodes())
	}
	w.childStamp++
	w.markChild[v] = w.childStamp
	stack := []graph.NodeID{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi := w.g.OutRange(x)
		for e := lo; e < hi; e++ {
			c := w.g.Target(e)
			if w.markChild[c] == w.childStamp || !w.contains(e) || w.g.Type(c) == graph.File || w.g.Type(c) == graph.Directory {
				continue
			}
			w.markChild[c] = w.childStamp
			stack = append(stack, c)
			switch w.g.Type(c) {
			case graph.Function:
				m.Functions++
			case graph.Class:
				m.Classes++
			case graph.Struct:
				m.Structs++
			case graph.Enum:
				m.Enums++
			case graph.Type:
				m.TypeDefs++
			}
		}
	}
}

// loc is v's line count: its span, else the last line its children reach
// (a file's span from 1), else the file on disk.
func (w *walker) loc(v graph.NodeID, isFile bool, file string, disk func(string) (int, bool)) (int, string) {
	p := w.g.Provenance(v)
	if p.LineEnd > 0 && p.LineEnd >= p.LineStart {
		return int(p.LineEnd-max(p.LineStart, 1)) + 1, LOCSpan
	}
	last := uint32(0)
	lo, hi := w.g.OutRange(v)
	for e := lo; e < hi; e++ {
		if w.contains(e) {
			last = max(last, w.g.Provenance(w.g.Target(e)).LineEnd)
		}
	}
	if last > 0 {
		first := p.LineStart
		if isFile || first == 0 {
			first = 1
		}
		return int(last-min(first, last)) + 1, LOCChildren
	}
	if isFile && disk != nil {
		if n, ok := disk(file); ok {
			return n, LOCDisk
		}
	}
	return 0, ""
}
