package patterns

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/patterns"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type typeTraceParams struct {
	Target      string `json:"target" jsonschema:"Type name or external id." help:"The type: an external id (file::models.py::User), a label (User), a qualified name (models.User) or part of a name; type definitions are preferred over files and functions of the same name." tool:"required"`
	Direction   string `json:"direction" help:"forward: where the type goes (constructors, parameters, returns, fields, other uses, then their users); reverse: what the type and its methods use; both." tool:"default=forward,enum=forward|reverse|both"`
	GroupByFile bool   `json:"group_by_file" help:"Group the usages by file: each file once, with its usages and the type names it touches (20 files, 5 names each, by default)." tool:"default=false"`
	MaxHops     int    `json:"max_hops" help:"Hops from the type (1: direct uses only)." tool:"default=2,min=1,max=5"`
	TopK        int    `json:"top_k" help:"Usages listed; total_usages counts all." tool:"default=20,min=1,max=500"`
}

// TypeTraceOutput is type_trace's answer.
type TypeTraceOutput struct {
	Target          string          `json:"target"`
	ResolvedBy      string          `json:"resolved_by" jsonschema:"exact_id, exact_label, segment or substring."`
	Others          []string        `json:"other_candidates,omitempty" jsonschema:"Other nodes the target could name."`
	Usages          []usageJSON     `json:"usages" jsonschema:"Nearest first."`
	ByKind          map[string]int  `json:"by_kind" jsonschema:"Direct usages per kind, before top_k."`
	Total           int             `json:"total_usages"`
	NotListed       int             `json:"not_listed"`
	FileGroups      []fileGroupJSON `json:"file_groups,omitempty" jsonschema:"Files with the most usages first."`
	GroupsNotListed int             `json:"file_groups_not_listed,omitempty"`
	Truncated       bool            `json:"truncated,omitempty" jsonschema:"The walk stopped at 500 nodes."`
	ElapsedMs       float64         `json:"elapsed_ms"`
	tools.Guidance
}

type usageJSON struct {
	NodeID    string `json:"node_id"`
	Kind      string `json:"kind" jsonschema:"constructor, parameter, return, field, use…"`
	Hop       int    `json:"hop"`
	Direction string `json:"direction,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Via       string `json:"via,omitempty" jsonschema:"Hop 2+: the usage it was reached through."`
}

type fileGroupJSON struct {
	File   string   `json:"file"`
	Count  int      `json:"count"`
	Kinds  []string `json:"kinds"`
	Usages []string `json:"usages"`
}

// maxFileGroups bounds the file groups listed.
const maxFileGroups = 20

func registerTypeTrace(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "type_trace",
		Title:       "Type flow",
		Description: "Where a type flows: constructors, parameters, returns, fields, users, by file.",
		Details: "Resolves the target in four tiers (exact id, exact label, qualified segments, substring), preferring type definitions. forward lists what uses the type — " +
			"each direct use classified from its source as constructor (returns or builds it), parameter, return, field (a type holding it), method, inherits or use — " +
			"then, hop by hop, what uses those (callers, users). reverse lists what the type and its methods depend on. Bounded by max_hops and 500 nodes.",
		Class:     tools.Read,
		WhenToUse: "Before changing a data model: every place that makes, takes, returns or stores it.",
		AvoidWhen: "Any node's blast radius (impact) or text search (search).",
		Next:      []string{"impact", "view"},
		Example:   map[string]any{"agent_id": "claude", "target": "SessionStore", "group_by_file": true},
	}, runTypeTrace)
}

func runTypeTrace(c *tools.Call, in typeTraceParams) (TypeTraceOutput, error) {
	var out TypeTraceOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		cands, tier := patterns.ResolveType(g, in.Target)
		if len(cands) == 0 {
			_, err := tools.ResolveNodeIn(g, in.Target, "target") // not found: the kit's teaching error
			if err == nil {
				err = tools.Errorf("target names a type: its name (User), a qualified name (models.User) or an external id.", "no type matches %q", in.Target)
			}
			return err
		}
		typ := cands[0]
		out = TypeTraceOutput{Target: g.ExternalID(typ), ResolvedBy: tier, Usages: []usageJSON{}, ByKind: map[string]int{}}
		for _, o := range cands[1:min(len(cands), 6)] {
			out.Others = append(out.Others, g.ExternalID(o))
		}
		res := patterns.TypeTrace(g, typ, patterns.TypeTraceParams{Direction: in.Direction, MaxHops: in.MaxHops})
		src := newBodies(b)
		groups := map[string]*fileGroupJSON{}
		kinds := make([]string, len(res.Usages))
		for i, u := range res.Usages {
			kinds[i] = usageKind(g, src, typ, u)
		}
		order := listingOrder(g, res.Usages, kinds)
		for _, i := range order {
			u, kind := res.Usages[i], kinds[i]
			if u.Hop == 1 {
				out.ByKind[kind]++
			}
			file := g.SourcePath(u.Node)
			if in.GroupByFile && file != "" {
				fg := groups[file]
				if fg == nil {
					fg = &fileGroupJSON{File: file}
					groups[file] = fg
				}
				fg.Count++
				if !slices.Contains(fg.Kinds, kind) {
					fg.Kinds = append(fg.Kinds, kind)
				}
				if len(fg.Usages) < 5 {
					fg.Usages = append(fg.Usages, g.Label(u.Node))
				}
			}
			if len(out.Usages) >= in.TopK {
				continue
			}
			item := usageJSON{NodeID: g.ExternalID(u.Node), Kind: kind, Hop: u.Hop, File: file, Line: int(g.Provenance(u.Node).LineStart)}
			if in.Direction == patterns.Both {
				item.Direction = u.Direction
			}
			if u.Hop > 1 {
				item.Via = g.ExternalID(u.Via)
			}
			out.Usages = append(out.Usages, item)
		}
		out.Total, out.NotListed, out.Truncated = len(res.Usages), len(res.Usages)-len(out.Usages), res.Truncated
		if in.GroupByFile {
			out.FileGroups = []fileGroupJSON{}
			for _, fg := range groups {
				out.FileGroups = append(out.FileGroups, *fg)
			}
			slices.SortFunc(out.FileGroups, func(a, b fileGroupJSON) int {
				if a.Count != b.Count {
					return b.Count - a.Count
				}
				return strings.Compare(a.File, b.File)
			})
			if len(out.FileGroups) > maxFileGroups {
				out.GroupsNotListed = len(out.FileGroups) - maxFileGroups
				out.FileGroups = out.FileGroups[:maxFileGroups]
			}
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = typeTraceGuidance(c, g, out)
		return nil
	})
	return out, err
}

// kindRank orders the kinds of a hop as the guidance reads them: what
// builds and holds the type first, plain uses last.
var kindRank = map[string]int{"constructor": 0, "field": 1, "inherits": 2, "parameter": 3, "return": 4, "method": 5, "use": 6}

// listingOrder lists usages by hop, then kind (kindRank), production code
// before tests, then as the walk ordered them (by node ID): before, the
// first listed were the first files by path (kotlinpoet's interop/ before
// its core) whatever their kind.
func listingOrder(g *graph.Graph, us []patterns.Usage, kinds []string) []int {
	order := make([]int, len(us))
	for i := range order {
		order[i] = i
	}
	rank := func(i int) int {
		if r, ok := kindRank[kinds[i]]; ok {
			return r
		}
		return len(kindRank)
	}
	test := func(i int) bool { return tools.IsTestPath(g.SourcePath(us[i].Node)) }
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(us[a].Hop, us[b].Hop); c != 0 {
			return c
		}
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		if ta, tb := test(a), test(b); ta != tb {
			if ta {
				return 1
			}
			return -1
		}
		return 0
	})
	return order
}

// usageKind classifies a usage. A direct forward use is read from the
// user's source: a type holding the type is a field (or inherits), a
// function is a constructor when it returns the type and is named or
// built so, a parameter or a return by its signature, else a use.
func usageKind(g *graph.Graph, src *bodies, typ graph.NodeID, u patterns.Usage) string {
	switch {
	case u.Relation == "method":
		return "method"
	case u.Direction == patterns.Reverse:
		return "dependency"
	case u.Hop > 1 && u.Relation == "calls":
		return "caller"
	case u.Hop > 1:
		return "user"
	case u.Relation == "inherits" || u.Relation == "implements":
		return "inherits"
	case patterns.IsTypeNode(g.Type(u.Node)):
		return "field"
	}
	lines, _ := src.lines(u.Node)
	params, results, body := signature(lines, g.Label(u.Node))
	name := regexp.MustCompile(`\b` + regexp.QuoteMeta(g.Label(typ)) + `\b`)
	inParams, inResults := name.MatchString(params), name.MatchString(results)
	low := strings.ToLower(g.Label(u.Node))
	builds := regexp.MustCompile(`\b` + regexp.QuoteMeta(g.Label(typ)) + `\s*[{(]`).MatchString(body)
	switch {
	case inResults && (builds || strings.HasPrefix(low, "new") || strings.HasPrefix(low, "make") || strings.HasPrefix(low, "create") || strings.HasPrefix(low, "build")):
		return "constructor"
	case inResults:
		return "return"
	case inParams:
		return "parameter"
	case builds:
		return "constructor"
	}
	return "use"
}

// signature splits a function's source into its parameters, its results
// and its body, for Go, Python, TypeScript, Java and Rust alike: the
// parameters are the parentheses after the name, the results what
// follows them up to the body's opening brace (or a line's final colon).
func signature(lines []string, name string) (params, results, body string) {
	src := strings.Join(lines, "\n")
	at := strings.Index(src, name+"(")
	if at < 0 {
		return "", "", src
	}
	open, depth := at+len(name), 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 {
			params, src = src[open+1:i], src[i+1:]
			break
		}
	}
	end := strings.IndexAny(src, "{\n")
	if end < 0 {
		return params, src, ""
	}
	if src[end] == '\n' && !strings.HasSuffix(strings.TrimSpace(src[:end]), ":") {
		if b := strings.Index(src, "{"); b >= 0 {
			end = b
		}
	}
	return params, src[:end], src[end+1:]
}

func typeTraceGuidance(c *tools.Call, g *graph.Graph, out TypeTraceOutput) tools.Guidance {
	if out.Total == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: fmt.Sprintf("Nothing in the graph uses %s: it is unused, or used only where the graph cannot see (reflection, generated code).", out.Target)}
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "view"), NextSuggestedTarget: out.Target,
		NextStepHint: fmt.Sprintf("%d direct usages of %s; a change to its fields reaches the constructors and fields first: read those, then impact for the full blast radius.", sum(out.ByKind), out.Target)}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
