package structure

import (
	"bytes"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

var entityDepsKey = session.NewKey[*analysis.DepGraph]("structure.deps.entity")

func entityDeps(b *session.Bundle) (*analysis.DepGraph, error) {
	return session.Derive(b, entityDepsKey, func(g *graph.Graph) (*analysis.DepGraph, error) {
		return analysis.NewDepGraph(g, false)
	})
}

type metricsParams struct {
	Scope     string   `json:"scope" help:"Keep only nodes whose file path starts with this prefix."`
	NodeTypes []string `json:"node_types" jsonschema:"file, package, function, class, struct, …" help:"Node types listed: file, package (a directory, aggregated over its files), function, class, struct, enum, type, module. Default: file." tool:"maxitems=10"`
	Sort      string   `json:"sort" help:"loc_desc, complexity_desc (dependencies + contained entities), name_asc, fan_in_desc, pagerank_desc or churn_desc (commits touching the file)." tool:"default=loc_desc,enum=loc_desc|complexity_desc|name_asc|fan_in_desc|pagerank_desc|churn_desc"`
	TopK      int      `json:"top_k" help:"Entries listed; the summary counts all of them." tool:"default=20,min=1,max=500"`
}

func registerMetrics(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "metrics",
		Title:       "Structural metrics",
		Description: "Size, fan-in/out, depth, PageRank, churn and test links per file, package or entity.",
		Details: "Per node: lines of code (its provenance span; else the last line its children reach; else the file on disk — loc_source says which), " +
			"fan-in and fan-out (dependents and dependencies: files for files and packages, entities for entities), containment depth, " +
			"PageRank, churn (commits that touched the file in the ingested git history, and its change frequency), contained functions, " +
			"classes, structs, enums and types, test links (dependents in test files) and density (links per 100 lines). " +
			"A package is a directory, aggregated over its files. Scoped by path prefix, sorted, top_k listed; the summary counts every match.",
		Class:     tools.Read,
		WhenToUse: "Ranking files or packages by size, coupling, centrality or churn; hard numbers for an audit.",
		AvoidWhen: "You need what depends on one node (impact).",
		Next:      []string{"impact", "layers"},
		Example:   map[string]any{"agent_id": "claude", "node_types": []string{"file"}, "sort": "fan_in_desc", "top_k": 10},
	}, runMetrics)
}

// MetricsOutput is metrics' answer.
type MetricsOutput struct {
	Entries   []metricJSON   `json:"entries"`
	Summary   metricsSummary `json:"summary"`
	NotListed int            `json:"not_listed"`
	ElapsedMs float64        `json:"elapsed_ms"`
}

type metricJSON struct {
	Node            string  `json:"node"`
	Type            string  `json:"type"`
	File            string  `json:"file,omitempty"`
	LOC             int     `json:"loc"`
	LOCSource       string  `json:"loc_source,omitempty"`
	FanIn           int     `json:"fan_in"`
	FanOut          int     `json:"fan_out"`
	Depth           int     `json:"depth"`
	PageRank        float64 `json:"pagerank"`
	Churn           int     `json:"churn"`
	ChangeFrequency float64 `json:"change_frequency"`
	Functions       int     `json:"functions,omitempty"`
	Classes         int     `json:"classes,omitempty"`
	Structs         int     `json:"structs,omitempty"`
	Enums           int     `json:"enums,omitempty"`
	Types           int     `json:"types,omitempty"`
	TestLinks       int     `json:"test_links"`
	Density         float64 `json:"density"`
}

type metricsSummary struct {
	Matched   int            `json:"matched"`
	ByType    map[string]int `json:"by_type"`
	TotalLOC  int            `json:"total_loc"`
	MeanLOC   float64        `json:"mean_loc"`
	MeanFanIn float64        `json:"mean_fan_in"`
	Untested  int            `json:"untested" jsonschema:"Entries without test links."`
	Sort      string         `json:"sort"`
}

var metricTypes = map[string]graph.NodeType{"file": graph.File, "function": graph.Function, "class": graph.Class,
	"struct": graph.Struct, "enum": graph.Enum, "type": graph.Type, "module": graph.Module}

func runMetrics(c *tools.Call, in metricsParams) (MetricsOutput, error) {
	opt := core.MetricsOptions{Scope: strings.TrimPrefix(in.Scope, "./"), IsTest: tools.IsTestPath}
	for _, s := range in.NodeTypes {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "package" || s == "directory" {
			opt.Packages = true
			continue
		}
		t, ok := metricTypes[s]
		if !ok {
			return MetricsOutput{}, tools.Errorf("node_types are file, package, function, class, struct, enum, type or module.",
				"unknown node type %q", s).WithExample(map[string]any{"agent_id": "claude", "node_types": []string{"file", "package"}})
		}
		opt.Types = append(opt.Types, t)
	}
	var out MetricsOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		start := time.Now()
		fd, err := fileDeps(b)
		if err != nil {
			return err
		}
		h := b.History()
		opt.Churn = func(f graph.NodeID) int { return len(h.FileCommits(f)) }
		opt.DiskLines = diskLines(b)
		ms := core.Metrics(fd, opt)
		core.SortMetrics(ms, in.Sort)
		out = MetricsOutput{Entries: []metricJSON{}, Summary: metricsSummary{Matched: len(ms), ByType: map[string]int{}, Sort: in.Sort}}
		fanIn := 0
		for i := range ms {
			m := &ms[i]
			out.Summary.ByType[metricTypeName(m)]++
			out.Summary.TotalLOC += m.LOC
			fanIn += m.FanIn
			if m.TestLinks == 0 {
				out.Summary.Untested++
			}
			if len(out.Entries) < in.TopK {
				out.Entries = append(out.Entries, metricOut(m))
			}
		}
		if n := len(ms); n > 0 {
			out.Summary.MeanLOC, out.Summary.MeanFanIn = round3(float64(out.Summary.TotalLOC)/float64(n)), round3(float64(fanIn)/float64(n))
		}
		out.NotListed = len(ms) - len(out.Entries)
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

func metricTypeName(m *core.Metric) string {
	if m.Node == graph.NoNode {
		return "package"
	}
	return tools.TypeName(m.Type)
}

func metricOut(m *core.Metric) metricJSON {
	return metricJSON{Node: m.Name, Type: metricTypeName(m), File: m.File, LOC: m.LOC, LOCSource: m.LOCSource, FanIn: m.FanIn, FanOut: m.FanOut,
		Depth: m.Depth, PageRank: tools.R3(m.PageRank), Churn: m.Churn, ChangeFrequency: tools.R3(m.ChangeFrequency),
		Functions: m.Functions, Classes: m.Classes, Structs: m.Structs, Enums: m.Enums, Types: m.TypeDefs, TestLinks: m.TestLinks, Density: round3(m.Density())}
}

// maxDiskReads bounds the files metrics reads from disk for their line
// count (the last LOC tier: files with no span and no children).
const maxDiskReads = 2000

// diskLines counts a graph file's lines on disk through the path guard,
// at most maxDiskReads files per call.
func diskLines(b *session.Bundle) func(string) (int, bool) {
	if tools.NeedRoots(b) != nil {
		return nil
	}
	space, guard := tools.BundleSpace(b), tools.BundleGuard(b)
	reads := 0
	return func(p string) (int, bool) {
		if reads >= maxDiskReads {
			return 0, false
		}
		reads++
		res, _, _, err := space.Resolve(guard, p)
		if err != nil || !res.Exists {
			return 0, false
		}
		data, _, err := tools.ReadGuarded(res, "file")
		if err != nil {
			return 0, false
		}
		n := bytes.Count(data, []byte{'\n'})
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		return n, true
	}
}
