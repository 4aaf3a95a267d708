package patterns

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/patterns"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type taintParams struct {
	EntryNodes []string `json:"entry_nodes" jsonschema:"Where tainted data enters (handlers, parsers)." help:"The nodes where tainted data enters: request handlers, parsers, functions reading secrets — external ids, paths, qualified names or labels. A file or class stands for the functions it holds." tool:"required,maxitems=50"`
	TaintType  string   `json:"taint_type" help:"user_input: data from outside reaching shell, SQL or file-path sinks; sql, shell, path: one of those sink kinds; sensitive_data: secrets reaching logs, prints or the network; custom: only the sinks you name." tool:"default=user_input,enum=user_input|sensitive_data|sql|shell|path|custom"`
	Sinks      []string `json:"sinks" jsonschema:"More call names that count as sinks." help:"Call names that also count as sinks (\"render_template\", \"db.Raw\"); required with taint_type custom." tool:"maxitems=50"`
	MaxDepth   int      `json:"max_depth" help:"Call hops followed from an entry." tool:"default=6,min=1,max=12"`
	TopK       int      `json:"top_k" help:"Paths listed; total_paths counts all." tool:"default=10,min=1,max=100"`
}

// TaintOutput is taint_trace's answer.
type TaintOutput struct {
	Entries     []string    `json:"entry_nodes"`
	TaintType   string      `json:"taint_type"`
	Paths       []taintJSON `json:"paths" jsonschema:"Entry-to-sink paths, unsanitised first."`
	TotalPaths  int         `json:"total_paths"`
	Unsanitised int         `json:"unsanitised_paths"`
	Visited     int         `json:"nodes_visited"`
	Truncated   bool        `json:"truncated,omitempty" jsonschema:"The walk stopped at its visit budget."`
	ElapsedMs   float64     `json:"elapsed_ms"`
	tools.Guidance
}

type taintJSON struct {
	Sink       string     `json:"sink" jsonschema:"shell, sql, path, sensitive or custom."`
	Sanitised  bool       `json:"sanitised"`
	Sanitisers []string   `json:"sanitisers,omitempty"`
	Steps      []stepJSON `json:"steps" jsonschema:"Entry to sink, each at the line of its call."`
}

type stepJSON struct {
	NodeID string `json:"node_id"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Code   string `json:"code,omitempty"`
}

func registerTaint(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "taint_trace",
		Title:       "Taint trace",
		Description: "Paths from entry points to shell, SQL, file or log sinks, with sanitisers.",
		Details: "Marks the entry nodes tainted and walks the call graph (calls, instantiates, uses) breadth first up to max_depth, reading each function's body: " +
			"a function that calls a sink of the taint type (exec.Command, subprocess, os.system; Query/Exec/cursor.execute; open, os.Open/ReadFile/WriteFile; " +
			"logging, printing and HTTP posts for sensitive_data; your own sinks) ends a path. A function on the way that validates, escapes, quotes or parses " +
			"(by name or by what it calls) is a sanitiser. Each path lists its steps with file, line and the code of the call. Unsanitised paths come first.",
		Class:     tools.Read,
		WhenToUse: "Security review: does request data reach a shell, SQL or a file path without validation?",
		AvoidWhen: "You want everything a node affects (impact) or a plain call path (why).",
		Next:      []string{"view", "why"},
		Example:   map[string]any{"agent_id": "claude", "entry_nodes": []string{"backend/auth.py"}, "taint_type": "user_input"},
	}, runTaint)
}

// Sink patterns per kind: calls that act on their argument.
var sinkKinds = map[string]*regexp.Regexp{
	"shell": regexp.MustCompile(`\bexec\.Command(Context)?\(|\bos\.(system|popen|exec[lv]p?e?|spawn\w*)\(|\bsubprocess\.\w+\(|\bchild_process\b|\bexec(Sync|File)?\(|\bspawn(Sync)?\(|Runtime\.getRuntime\(\)\.exec|\bsyscall\.Exec\(`),
	// With an argument: url.Query() reads a query string, it runs none.
	"sql":       regexp.MustCompile(`\.(Query|QueryRow|Exec|QueryContext|ExecContext|QueryRowContext|Raw|execute|executemany|executescript|raw|query)\(\s*[^)\s]|\bexecuteQuery\(|\bexecuteUpdate\(`),
	"path":      regexp.MustCompile(`\bos\.(Open|OpenFile|Create|ReadFile|WriteFile|Remove|RemoveAll|Rename|Mkdir|MkdirAll|ReadDir|remove|unlink|rename|makedirs|listdir|open)\(|\bioutil\.(ReadFile|WriteFile)\(|(^|[^.\w])open\(|\bshutil\.\w+\(|\bfs\.(readFile|writeFile|createReadStream|createWriteStream|unlink)\w*\(|\bsend_file\(|\bhttp\.ServeFile\(`),
	"sensitive": regexp.MustCompile(`\blog(ger|ging)?\.\w+\(|\bslog\.\w+\(|\bfmt\.(Print|Fprint)\w*\(|(^|[^.\w])print\(|\bconsole\.(log|info|warn|error)\(|\bhttp\.(Post|PostForm)\(|\brequests\.(post|put)\(|\bfetch\(`),
}

// sinkPackages are the directories whose functions are sinks of a kind
// when the graph holds them (the Go standard library ingested with the
// code): os/exec's Cmd.Start is a shell sink however it is called.
var sinkPackages = map[string]string{"os/exec": "shell", "database/sql": "sql"}

// taintSinks are the sink kinds of each taint type.
var taintSinks = map[string][]string{
	"user_input": {"shell", "sql", "path"}, "sql": {"sql"}, "shell": {"shell"}, "path": {"path"}, "sensitive_data": {"sensitive"}, "custom": nil,
}

var (
	sanitiserName = regexp.MustCompile(`(?i)saniti[sz]|escape|quote|validat|allow_?list|whitelist|verify|authori[sz]|authenticat|normali[sz]e|^clean|^check|^(is_?|must_?)?valid`)
	// Calls that clean a value for a sink (parsing one number or compiling
	// a pattern does not: a handler doing so still passes the rest on).
	sanitiserCall = regexp.MustCompile(`\b(shlex\.quote|pipes\.quote|html\.escape|html\.EscapeString|url\.(QueryEscape|PathEscape)|filepath\.(Clean|Base|Rel)|path\.Clean|escape\w*|sanitiz\w*|sanitis\w*|validat\w*|quote_\w*|is_?[vV]alid\w*)\(`)
)

// bodies reads function bodies, each file once per call.
type bodies struct {
	b     *session.Bundle
	files map[string]fileLines
}

type fileLines struct {
	data []byte
	offs []int
}

func newBodies(b *session.Bundle) *bodies { return &bodies{b: b, files: map[string]fileLines{}} }

// lines returns a node's source lines and the number of its first line.
func (s *bodies) lines(id graph.NodeID) ([]string, int) {
	p := s.b.Graph.Provenance(id)
	if p.LineStart == 0 {
		return nil, 0
	}
	f, ok := s.files[p.SourcePath]
	if !ok {
		gf, df := tools.BundleGraphFiles(s.b), tools.BundleDiskFiles(s.b)
		if i, ok := gf.ByPath[p.SourcePath]; ok && df.Abs[i] != "" {
			f.data, _ = os.ReadFile(df.Abs[i])
			f.offs = lineStarts(f.data)
		}
		s.files[p.SourcePath] = f
	}
	body := span(f.data, f.offs, p.LineStart, p.LineEnd)
	if body == nil {
		return nil, 0
	}
	return strings.Split(string(body), "\n"), int(p.LineStart)
}

// find returns the first line of id's body that re matches (0: none),
// skipping comment lines.
func (s *bodies) find(id graph.NodeID, re *regexp.Regexp) (int, string) {
	ls, first := s.lines(id)
	for i, l := range ls {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "*") {
			continue
		}
		if re.MatchString(l) {
			return first + i, tools.ClipText(t, 120)
		}
	}
	return 0, ""
}

// findCall is find for a call: the first line re matches that def (the
// callee's own definition, nested in the caller) does not.
func (s *bodies) findCall(id graph.NodeID, re, def *regexp.Regexp) (int, string) {
	ls, first := s.lines(id)
	for i, l := range ls {
		if t := strings.TrimSpace(l); !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "#") && re.MatchString(l) && !def.MatchString(l) {
			return first + i, tools.ClipText(t, 120)
		}
	}
	return 0, ""
}

// qualified is how callers name a node: "exec.Command" for Command in
// os/exec, "DB.Query" for a method.
func qualified(g *graph.Graph, id graph.NodeID) string {
	ext := g.ExternalID(id)
	parts := strings.Split(ext, "::")
	if len(parts) >= 4 {
		return parts[len(parts)-2] + "." + g.Label(id) + "("
	}
	dir := path.Base(path.Dir(g.SourcePath(id)))
	return dir + "." + g.Label(id) + "("
}

func runTaint(c *tools.Call, in taintParams) (TaintOutput, error) {
	kinds := taintSinks[in.TaintType]
	var custom *regexp.Regexp
	if len(in.Sinks) > 0 {
		var alts []string
		for _, s := range in.Sinks {
			alts = append(alts, `\b`+regexp.QuoteMeta(strings.TrimSuffix(strings.TrimSpace(s), "("))+`\(`)
		}
		custom = regexp.MustCompile(strings.Join(alts, "|"))
	} else if in.TaintType == "custom" {
		return TaintOutput{}, tools.Errorf("taint_type custom reports only the sinks you name: pass sinks, e.g. [\"render_template\", \"eval\"].", "taint_type custom needs sinks").
			WithExample(map[string]any{"agent_id": c.AgentID, "entry_nodes": in.EntryNodes, "taint_type": "custom", "sinks": []string{"render_template"}})
	}
	var out TaintOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		var entries []graph.NodeID
		for _, ref := range in.EntryNodes {
			id, err := tools.ResolveNode(b, ref, "entry_nodes")
			if err != nil {
				return err
			}
			entries = append(entries, expandEntry(g, id)...)
			out.Entries = append(out.Entries, g.ExternalID(id))
		}
		start := time.Now()
		src := newBodies(b)
		// sinkOf names the sink a node is or calls ("" for none), with
		// the line of the call.
		type sinkAt struct {
			kind, code string
			line       int
		}
		memo := map[graph.NodeID]sinkAt{}
		sinkOf := func(id graph.NodeID) sinkAt {
			if s, ok := memo[id]; ok {
				return s
			}
			var s sinkAt
			q := qualified(g, id)
			if k := sinkPackages[path.Dir(g.SourcePath(id))]; k != "" && slices.Contains(kinds, k) && g.Type(id) == graph.Function {
				s = sinkAt{kind: k, line: int(g.Provenance(id).LineStart)}
			}
			for _, k := range kinds {
				if s.kind != "" {
					break
				}
				if sinkKinds[k].MatchString(q) {
					s = sinkAt{kind: k, line: int(g.Provenance(id).LineStart)}
					break
				}
				if line, code := src.find(id, sinkKinds[k]); line > 0 {
					s = sinkAt{kind: k, line: line, code: code}
					break
				}
			}
			if s.kind == "" && custom != nil {
				if line, code := src.find(id, custom); line > 0 {
					s = sinkAt{kind: "custom", line: line, code: code}
				}
			}
			memo[id] = s
			return s
		}
		res := patterns.Taint(g, entries, patterns.TaintParams{
			MaxDepth:  in.MaxDepth,
			MaxPaths:  in.TopK,
			Sink:      func(id graph.NodeID) bool { return sinkOf(id).kind != "" },
			Sanitiser: func(id graph.NodeID) bool { return sanitises(g, src, id) },
		})
		out.TaintType, out.Paths = in.TaintType, []taintJSON{}
		out.TotalPaths, out.Unsanitised, out.Visited, out.Truncated = res.Total, res.Unsanitised, res.Visited, res.Truncated
		for _, p := range res.Paths {
			sink := sinkOf(p.Nodes[len(p.Nodes)-1])
			t := taintJSON{Sink: sink.kind, Sanitised: len(p.Sanitisers) > 0}
			for _, s := range p.Sanitisers {
				t.Sanitisers = append(t.Sanitisers, g.ExternalID(s))
			}
			for i, n := range p.Nodes {
				st := stepJSON{NodeID: g.ExternalID(n), File: g.SourcePath(n), Line: int(g.Provenance(n).LineStart)}
				if i+1 < len(p.Nodes) {
					// The call, not a nested definition of the callee.
					name := regexp.QuoteMeta(g.Label(p.Nodes[i+1]))
					next := regexp.MustCompile(`\b` + name + `\s*\(`)
					def := regexp.MustCompile(`\b(def|func|function|fn)\s+` + name + `\b`)
					if line, code := src.findCall(n, next, def); line > 0 {
						st.Line, st.Code = line, code
					}
				} else {
					st.Line, st.Code = sink.line, sink.code
				}
				t.Steps = append(t.Steps, st)
			}
			out.Paths = append(out.Paths, t)
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = taintGuidance(c, out)
		return nil
	})
	return out, err
}

// sanitises reports whether a node cleans what it handles: by its name
// (validate…, escape…, quote…), by a callee's name, or by a cleaning call
// in its body (shlex.quote, filepath.Clean, strconv.Atoi, a regexp).
func sanitises(g *graph.Graph, src *bodies, id graph.NodeID) bool {
	if sanitiserName.MatchString(g.Label(id)) {
		return true
	}
	lo, hi := g.OutRange(id)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) && g.RelationName(e) == "calls" && sanitiserName.MatchString(g.Label(g.Target(e))) {
			return true
		}
	}
	line, _ := src.find(id, sanitiserCall)
	return line > 0
}

// expandEntry: a file, class or module stands for the functions it
// holds (at most 200).
func expandEntry(g *graph.Graph, id graph.NodeID) []graph.NodeID {
	switch g.Type(id) {
	case graph.Function:
		return []graph.NodeID{id}
	}
	var out []graph.NodeID
	frontier := []graph.NodeID{id}
	for len(frontier) > 0 && len(out) < 200 {
		n := frontier[0]
		frontier = frontier[1:]
		lo, hi := g.OutRange(n)
		for e := lo; e < hi && len(out) < 200; e++ {
			if g.IsMirror(e) || g.RelationName(e) != "contains" {
				continue
			}
			t := g.Target(e)
			switch g.Type(t) {
			case graph.Function:
				out = append(out, t)
			case graph.Class, graph.Struct:
				frontier = append(frontier, t)
			}
		}
	}
	if len(out) == 0 {
		return []graph.NodeID{id}
	}
	return out
}

func taintGuidance(c *tools.Call, out TaintOutput) tools.Guidance {
	if len(out.Paths) == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: fmt.Sprintf("No %s sink within reach of the entries (%d nodes visited); raise max_depth or name more sinks.", out.TaintType, out.Visited)}
	}
	p := out.Paths[0]
	last := p.Steps[len(p.Steps)-1]
	if !p.Sanitised {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: last.File,
			NextStepHint: fmt.Sprintf("Tainted data reaches a %s sink at %s:%d with no sanitiser on the way: read the path and add validation before the sink.", p.Sink, last.File, last.Line)}
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: p.Sanitisers[0],
		NextStepHint: "Every path found passes a sanitiser: read them to check they really validate what the sink needs."}
}
