package query

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/stacktrace"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Bounds of one trace call.
const (
	// traceMaxBytes bounds error_text: a trace with its message is a few
	// kilobytes; a goroutine dump lists the panicking goroutine first.
	traceMaxBytes = 1 << 20
	// traceHalfLifeHours is the recency half-life: a file changed a week
	// before the repository's newest commit counts half as recent.
	traceHalfLifeHours = 7 * 24
	// traceMaxGroup: commits touching more files say little about which
	// files belong together (sweeping renames, formatting).
	traceMaxGroup = 20
	// traceWindowGroup bounds the commits the time-window scan reads.
	traceWindowGroup = 8
	// traceMaxCoChange bounds co_change_suspects.
	traceMaxCoChange = 5
	// traceMaxUnmapped bounds unmapped_frames (frames_parsed −
	// frames_mapped counts them all).
	traceMaxUnmapped = 50
	// traceExternalFactor demotes frames in libraries and runtimes.
	traceExternalFactor = 0.3
)

// The weights of suspiciousness: where the frame sits in the trace counts
// most (a high weight), recency and centrality less (a medium one).
const (
	traceWeightDepth      = 0.6
	traceWeightRecency    = 0.2
	traceWeightCentrality = 0.2
)

var traceLanguages = []string{"auto", "python", "go", "javascript", "typescript", "rust", "java", "kotlin", "csharp", "ruby", "php", "c", "cpp"}

// traceParams is trace's input. error_text's declared bound is
// 4 × traceMaxBytes; the handler refuses more than traceMaxBytes with a
// teaching error. declare_test.go holds the tag and the constant together.
type traceParams struct {
	ErrorText   string  `json:"error_text" help:"The full error output: message and stack trace as the program printed it (up to 1 MiB)." tool:"required,maxlen=4194304"`
	Language    string  `json:"language" jsonschema:"auto (detect) or the language: python, go, js, ts, rust, java, c, cpp…" help:"The trace's language: auto (detect), python, go, javascript, typescript, rust, java, kotlin, csharp, ruby, php, c or cpp (also py, golang, js, node, ts, rs, jvm, kt, cs, dotnet, rb, c++, asan, gdb, lldb, valgrind). A hint that finds no frame falls back to detection." tool:"default=auto"`
	WindowHours float64 `json:"window_hours" jsonschema:"Hours around the top suspect's last change for co-change." help:"Files changed in commits within this many hours of the top suspect's last change are co-change suspects (0: only files that usually change with the suspects)." tool:"default=24,min=0,max=8760"`
	TopK        int     `json:"top_k" help:"Maximum suspects returned." tool:"default=10,min=1,max=100"`
}

func registerTrace(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "trace",
		Title:       "Trace an error",
		Description: "Ranked suspect functions and files for an error's stack trace, with the causal chain.",
		Details: "Map a runtime error to the code that most likely caused it. Parses the stack trace (Python tracebacks with chained exceptions and pytest reports; Go panics, goroutine dumps and test failures; Node and browser JavaScript/TypeScript stacks; Rust panics with RUST_BACKTRACE frames; Java/Kotlin exceptions with \"Caused by\"; .NET exceptions; Ruby backtraces; PHP exceptions; C/C++ sanitizer reports, gdb, lldb and Valgrind stacks), maps every frame to the graph by path and line — absolute paths from other machines, file:// and bundler URLs and Java package paths included — and ranks the functions and files the frames land in by suspiciousness: depth in the trace (the project frame nearest the error first), recency of the file's last change relative to the repository's newest commit, and PageRank centrality. " +
			"Frames in libraries and runtimes (site-packages, node_modules, vendor/, GOROOT, the Rust toolchain, the JDK, installed gems, composer's vendor/) are demoted and never outrank project code. Also lists co-change suspects (files that usually change with the top suspects, or changed within window_hours of the top one), the causal chain, the fix scope and the frames it could not map.",
		Class:     tools.Read,
		WhenToUse: "Bug investigation: you have an error with a stack trace and want the ranked places to look, the causal chain through the code and the files likely involved in the fix.",
		AvoidWhen: "There is no stack trace, only a description of the bug (seek), or you already know the function (view, impact).",
		Next:      []string{"view", "impact", "timeline", "predict"},
		Example: map[string]any{"agent_id": "claude", "language": "python", "top_k": 5,
			"error_text": "Traceback (most recent call last):\n  File \"/srv/app/backend/middleware.py\", line 6, in require_session\n    user = store.lookup(request.headers.get(\"token\"))\n  File \"/srv/app/backend/session.py\", line 16, in lookup\n    entry = self.sessions.get(token)\nAttributeError: 'NoneType' object has no attribute 'get'"},
	}, runTrace)
}

type traceSignals struct {
	TraceDepth float64 `json:"trace_depth_score" jsonschema:"1 for the project frame nearest the error, decaying linearly outwards."`
	Recency    float64 `json:"recency_score" jsonschema:"Exponential decay (half-life 7 days) of the file's last change before the repository's newest commit; 0 without history."`
	Centrality float64 `json:"centrality_score" jsonschema:"Normalised PageRank of the node."`
}

type traceSuspect struct {
	NodeID         string       `json:"node_id"`
	Label          string       `json:"label"`
	Type           string       `json:"type"`
	Suspiciousness float64      `json:"suspiciousness" jsonschema:"In [0, 1]: weighted depth, recency and centrality, lowered for external and uncertain matches."`
	Signals        traceSignals `json:"signals"`
	FilePath       string       `json:"file_path"`
	Line           int          `json:"line,omitempty" jsonschema:"The line the trace names (the nearest frame's, when several land here)."`
	LineStart      int          `json:"line_start,omitempty"`
	LineEnd        int          `json:"line_end,omitempty"`
	Function       string       `json:"function,omitempty" jsonschema:"The function the trace names at that frame."`
	External       bool         `json:"external" jsonschema:"The frame is in a library, runtime or vendored code."`
	Match          string       `json:"match" jsonschema:"How the frame met the graph: exact, suffix, partial or ambiguous path; name for a frame without a file matched by its function."`
	Frames         int          `json:"frames" jsonschema:"Frames of the trace that land on this node."`
	RelatedCallers []string     `json:"related_callers" jsonschema:"The nodes of the frames that called into this one."`
	Reasons        []string     `json:"reasons"`
}

type traceCoChange struct {
	NodeID     string  `json:"node_id"`
	Label      string  `json:"label"`
	FilePath   string  `json:"file_path"`
	ModifiedAt float64 `json:"modified_at" jsonschema:"Unix seconds of the file's last change (0: unknown)."`
	CoChanges  int     `json:"co_changes" jsonschema:"Commits in which it changed together with a top suspect."`
	Coupling   float64 `json:"coupling" jsonschema:"Share of the suspect's commits that also changed this file, in [0, 1]."`
	Reason     string  `json:"reason"`
}

type traceFixScope struct {
	FilesToInspect       []string `json:"files_to_inspect"`
	EstimatedBlastRadius int      `json:"estimated_blast_radius" jsonschema:"Files that depend on the top suspect within two hops."`
	RiskLevel            string   `json:"risk_level" jsonschema:"low, medium or high, from the blast radius."`
}

type traceUnmapped struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Function string `json:"function,omitempty"`
	Raw      string `json:"raw"`
	External bool   `json:"external"`
	Reason   string `json:"reason"`
}

// traceOutput is trace's answer.
type traceOutput struct {
	LanguageDetected  string             `json:"language_detected"`
	ErrorType         string             `json:"error_type" jsonschema:"The exception class or kind of failure (panic, runtime error, test failure); empty when the text names none."`
	ErrorMessage      string             `json:"error_message"`
	ErrorChain        []stacktrace.Error `json:"error_chain,omitempty" jsonschema:"The error and its causes, nearest first, when the trace chains several."`
	FramesParsed      int                `json:"frames_parsed"`
	FramesMapped      int                `json:"frames_mapped"`
	Suspects          []traceSuspect     `json:"suspects" jsonschema:"Ranked, most suspicious first; project code before external code."`
	CoChangeSuspects  []traceCoChange    `json:"co_change_suspects"`
	CausalChain       []string           `json:"causal_chain" jsonschema:"The mapped frames from where the error surfaced outwards."`
	RaisedAt          []traceOrigin      `json:"raised_at,omitempty" jsonschema:"Code lines whose string literal spells the message's words: where the error is made when the frames only pass it on (at most 3)."`
	FixScope          traceFixScope      `json:"fix_scope"`
	UnmappedFrames    []traceUnmapped    `json:"unmapped_frames" jsonschema:"Frames that landed on no node, with why (at most 50)."`
	Goroutines        int                `json:"goroutines,omitempty" jsonschema:"Go: goroutines in the dump."`
	FramesTruncated   bool               `json:"frames_truncated,omitempty"`
	ElapsedMs         float64            `json:"elapsed_ms"`
	NextSuggestedArgs map[string]any     `json:"next_suggested_args,omitempty" jsonschema:"Arguments for next_suggested_tool."`
	tools.Guidance
}

func runTrace(c *tools.Call, in traceParams) (traceOutput, error) {
	start := time.Now()
	tr, err := parseTraceInput(c, in)
	if err != nil {
		return traceOutput{}, framelessOrigins(c, err, tr, in.ErrorText)
	}
	var out traceOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		if b.Graph.NumNodes() == 0 {
			return tools.EmptyGraphErr()
		}
		out = traceAnswer(c, b, tr, in)
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

// traceExample is a valid call for teaching errors.
func traceExample(agent string) map[string]any {
	return map[string]any{"agent_id": agent, "error_text": "Traceback (most recent call last):\n  File \"app/handler.py\", line 12, in handle\n    return pool.submit(job)\n  File \"app/pool.py\", line 40, in submit\n    raise TimeoutError(\"pool exhausted\")\nTimeoutError: pool exhausted"}
}

// parseTraceInput checks error_text and language and parses the trace;
// bad input is a teaching error.
func parseTraceInput(c *tools.Call, in traceParams) (stacktrace.Trace, error) {
	if strings.TrimSpace(in.ErrorText) == "" {
		return stacktrace.Trace{}, tools.Errorf("error_text is the full error output — the message and the stack trace as the program printed it.", "error_text is empty").
			WithExample(traceExample(c.AgentID))
	}
	if len(in.ErrorText) > traceMaxBytes {
		return stacktrace.Trace{}, tools.Errorf("Paste the error message and its stack trace, not the whole log: a trace is a few kilobytes (a Go goroutine dump lists the panicking goroutine first, so cut after it).",
			"error_text is %d bytes; the limit is %d", len(in.ErrorText), traceMaxBytes).WithExample(traceExample(c.AgentID))
	}
	lang, err := stacktrace.ParseLanguage(in.Language)
	if err != nil {
		return stacktrace.Trace{}, tools.Errorf("language is one of "+strings.Join(traceLanguages, ", ")+" (aliases: py, golang, js, node, ts, rs, jvm, kt, cs, dotnet, rb, c++, asan, gdb, lldb, valgrind); leave it out to detect the language.",
			"language %q is not a language trace reads", in.Language).WithExample(traceExample(c.AgentID))
	}
	tr := stacktrace.Parse(in.ErrorText, lang)
	if len(tr.Frames) == 0 {
		e := tools.Errorf("trace reads stack frames such as Python's `File \"app/pool.py\", line 40, in submit`, Go's `\\t/src/app/pool.go:40 +0x1d` under a function line, JavaScript's `    at submit (/srv/app/pool.js:40:9)` or `submit@https://host/pool.js:40:9`, Rust's `thread 'main' panicked at src/pool.rs:40:9:` and `at ./src/pool.rs:40:9`, Java's `\\tat com.acme.Pool.submit(Pool.java:40)`, .NET's `   at Acme.Pool.Submit() in /src/Pool.cs:line 40` Ruby's `app/pool.rb:40:in 'submit'`, PHP's `#0 /app/src/Pool.php(40): App\\Pool->submit()` and C/C++'s `#0 0x4f1a2b in submit /src/pool.c:40:9` (sanitizers), `#0  submit (p=0x0) at pool.c:40` (gdb). Paste the whole output, stack included.",
			"no stack frame found in error_text (%d lines)", strings.Count(in.ErrorText, "\n")+1).WithExample(traceExample(c.AgentID))
		e.SuggestedNextStep = "Without a stack trace, call seek with the error message as query: it finds the code that raises or handles it."
		e.Extra = map[string]any{"recognised_formats": traceFormats}
		return tr, e
	}
	return tr, nil
}

// traceFormats shows one frame of each format trace reads.
var traceFormats = map[string]string{
	"python":     "Traceback (most recent call last):\n  File \"app/pool.py\", line 40, in submit\nTimeoutError: pool exhausted",
	"go":         "panic: pool exhausted\n\ngoroutine 1 [running]:\nmain.(*Pool).Submit(...)\n\t/src/app/pool.go:40 +0x1d",
	"javascript": "TypeError: pool is undefined\n    at submit (/srv/app/pool.js:40:9)",
	"rust":       "thread 'main' panicked at src/pool.rs:40:9:\npool exhausted",
	"java":       "java.lang.IllegalStateException: pool exhausted\n\tat com.acme.Pool.submit(Pool.java:40)",
	"csharp":     "System.InvalidOperationException: pool exhausted\n   at Acme.Pool.Submit() in /src/Pool.cs:line 40",
	"ruby":       "app/pool.rb:40:in `submit': pool exhausted (Pool::Exhausted)\n\tfrom app/handler.rb:12:in `handle'",
	"php":        "PHP Fatal error:  Uncaught RuntimeException: pool exhausted in /app/src/Pool.php:40\nStack trace:\n#0 /app/src/Handler.php(12): App\\Pool->submit()\n#1 {main}",
	"c":          "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020\n    #0 0x4f1a2b in submit /src/pool.c:40:9\n    #1 0x4f2c3d in handle /src/handler.c:12:5",
}

// traceAnswer maps the frames, ranks the suspects and assembles the
// answer.
func traceAnswer(c *tools.Call, b *session.Bundle, tr stacktrace.Trace, in traceParams) traceOutput {
	g := b.Graph
	x := traceIndexOf(b)
	hist := b.History()
	head := float64(hist.Head())
	if head == 0 {
		head = x.newest
	}
	m := &traceMapper{g: g, x: x, b: b, rs: tools.BundleSpace(b)}
	hits := make([]frameHit, len(tr.Frames))
	for i, f := range tr.Frames {
		hits[i] = m.mapFrame(f)
	}
	trustAgreeingLines(g, tr.Frames, hits)
	sus := rankSuspects(g, hist, head, tr, hits)
	out := traceOutput{
		LanguageDetected: string(tr.Language), ErrorType: tr.Error.Type, ErrorMessage: tr.Error.Message,
		FramesParsed: len(tr.Frames), Goroutines: tr.Goroutines, FramesTruncated: tr.Truncated,
		Suspects: []traceSuspect{}, CoChangeSuspects: []traceCoChange{}, CausalChain: []string{}, UnmappedFrames: []traceUnmapped{},
	}
	if len(tr.Chain) > 1 {
		out.ErrorChain = tr.Chain
	}
	for i, h := range hits {
		if h.ok {
			out.FramesMapped++
		} else if len(out.UnmappedFrames) < traceMaxUnmapped {
			f := tr.Frames[i]
			out.UnmappedFrames = append(out.UnmappedFrames, traceUnmapped{File: f.File, Line: f.Line, Function: f.Function, Raw: f.Raw, External: f.External, Reason: h.reason})
		}
	}
	out.CausalChain = causalChain(g, hits)
	for _, s := range sus[:min(len(sus), in.TopK)] {
		out.Suspects = append(out.Suspects, s.json(g))
	}
	out.CoChangeSuspects = coChangeSuspects(g, hist, sus, in.WindowHours, min(in.TopK, traceMaxCoChange))
	if msg := originText(tr, in.ErrorText); msg != "" {
		out.RaisedAt = messageOrigins(c, b, msg, stackNodes(g, hits))
	}
	out.FixScope = fixScope(g, sus, out.CoChangeSuspects)
	gd, args := traceGuidance(c, g, tr, sus)
	out.Guidance, out.NextSuggestedArgs = gd, args
	originGuidance(c, &out, sus)
	return out
}

// traceIndex is what trace reads from a graph, built once per bundle:
// its file nodes by lower-case base name, and the newest change time.
type traceIndex struct {
	byBase map[string][]graph.NodeID
	newest float64
}

var traceIndexKey = session.NewKey[*traceIndex]("trace.files")

func traceIndexOf(b *session.Bundle) *traceIndex {
	v, _ := session.Derive(b, traceIndexKey, func(g *graph.Graph) (*traceIndex, error) {
		x := &traceIndex{byBase: map[string][]graph.NodeID{}}
		for i := range g.NumNodes() {
			id := graph.NodeID(i)
			if g.Type(id) != graph.File {
				continue
			}
			if p := g.SourcePath(id); p != "" {
				base := strings.ToLower(tools.PathBase(p))
				x.byBase[base] = append(x.byBase[base], id)
				x.newest = max(x.newest, g.LastModified(id))
			}
		}
		return x, nil
	})
	return v
}

// frameHit is where one frame landed.
// stackNodes are the external IDs of the entities the mapped frames
// stand in.
func stackNodes(g *graph.Graph, hits []frameHit) map[string]bool {
	on := map[string]bool{}
	for _, h := range hits {
		if h.ok {
			on[g.ExternalID(h.node)] = true
		}
	}
	return on
}

type frameHit struct {
	ok       bool
	node     graph.NodeID // the innermost entity at the line, or the file
	file     graph.NodeID
	match    string  // exact, suffix, partial, ambiguous
	conf     float64 // how sure the path match is, in (0, 1]
	external bool
	reason   string // why it was not mapped
	note     string // a remark on the line → entity step
	// compiled: the frame's file is compiled JavaScript whose source the
	// graph holds (dist/…/index.js → source/…/index.ts); its line
	// numbers are the compiled file's, so only its function name maps.
	compiled bool
}

type traceMapper struct {
	g  *graph.Graph
	x  *traceIndex
	b  *session.Bundle
	rs *tools.RootSpace
}

// mapFrame finds the frame's file, then the innermost entity holding its
// line (or named like its function when the trace gives no line).
func (m *traceMapper) mapFrame(f stacktrace.Frame) frameHit {
	if f.File == "" {
		if f.External {
			return frameHit{reason: "external frame without a file (runtime or native code)"}
		}
		if n := m.byName(f); n != graph.NoNode {
			file := tools.FileOf(m.g, n)
			return frameHit{ok: true, node: n, file: file, match: "name", conf: 0.6, external: stacktrace.IsExternalPath(m.g.SourcePath(file)),
				note: "the frame names no file; matched by its function name"}
		}
		return frameHit{reason: "the frame names no file (no debug information) and no single function of the graph has its name"}
	}
	file, match, conf, ok := m.findFile(f)
	if !ok {
		r := fmt.Sprintf("no file of the graph ends with %s", traceTail(f.File))
		if f.External {
			r = "external: " + externalKind(f.File)
		}
		return frameHit{reason: r}
	}
	p := m.g.SourcePath(file)
	if (match == "partial" || match == "ambiguous" && conf < 0.85) && !m.defines(p, f) {
		// Two trailing segments shared (src/index.ts) by a file that
		// does not hold the frame's function: another program's file.
		return frameHit{reason: fmt.Sprintf("%s shares only its last segments with %s, which defines no %s", traceTail(f.File), p, f.Function)}
	}
	h := frameHit{ok: true, file: file, node: file, match: match, conf: conf, external: stacktrace.IsExternalPath(p)}
	if h.compiled = compiledFrom(f.File, p); h.compiled {
		f.Line = 0
	}
	h.node, h.note = entityAt(m.g, p, f)
	if conf == installedConfidence {
		h.node, h.note = installedEntity(m.g, p, f, h.node, h.note)
	}
	if h.compiled {
		h.note = strings.TrimPrefix(h.note+"; ", "; ") + fmt.Sprintf("the trace's lines are those of compiled %s, the graph holds its %s source: ", path.Ext(f.File), path.Ext(p))
		if h.node != graph.NoNode {
			h.note += "matched by function name"
		} else {
			h.note += "no function of that name, so the file"
		}
	}
	if h.node == graph.NoNode {
		h.node = file
	}
	return h
}

// compiledFrom reports a frame of compiled JavaScript mapped to the
// TypeScript file it was compiled from.
func compiledFrom(frameFile, source string) bool {
	switch path.Ext(frameFile) {
	case ".js", ".mjs", ".cjs", ".jsx":
		switch path.Ext(source) {
		case ".ts", ".tsx", ".mts", ".cts":
			return true
		}
	}
	return false
}

// defines reports whether the file at p declares the frame's function
// (true when the frame names none, or an anonymous one: nothing to check).
func (m *traceMapper) defines(p string, f stacktrace.Frame) bool {
	if f.Function == "" || strings.HasPrefix(f.Function, "<") {
		return true
	}
	for _, n := range m.g.NodesByPath(p) {
		if isCodeEntity(m.g.Type(n)) && m.g.Label(n) == f.Function {
			return true
		}
	}
	return false
}

// byName finds the one code entity named like a frame without a file
// ("Parser::expect_ident" in a Rust backtrace without debug information,
// a Java frame from "Unknown Source"): its label is the function and, when
// the frame names a class, its id ends with Class::function. NoNode when
// none or several match.
func (m *traceMapper) byName(f stacktrace.Frame) graph.NodeID {
	if f.Function == "" || strings.HasPrefix(f.Function, "<") {
		return graph.NoNode
	}
	found := graph.NoNode
	for _, n := range m.g.NodesByLabel(f.Function) {
		if !isCodeEntity(m.g.Type(n)) || f.Class != "" && !strings.HasSuffix(m.g.ExternalID(n), "::"+f.Class+"::"+f.Function) {
			continue
		}
		if found != graph.NoNode {
			return graph.NoNode
		}
		found = n
	}
	return found
}

// findFile matches the frame's path against the graph's files: a path
// inside an ingest root exactly, else the file whose path shares the
// longest run of trailing segments with it. A frame the parser calls
// external maps only on strong evidence (the graph holds that library).
func (m *traceMapper) findFile(f stacktrace.Frame) (graph.NodeID, string, float64, bool) {
	for _, r := range m.b.Roots {
		if rel, ok := tools.UnderRoot(r.Path, f.File); ok {
			if id, ok := m.g.Lookup(m.rs.FileID(m.rs.GraphPath(r.Path, rel))); ok {
				return id, "exact", 1, true
			}
		}
	}
	if f.External || stacktrace.IsExternalPath(f.File) {
		if id, ok := m.installedFile(f.File); ok {
			return id, "suffix", installedConfidence, true
		}
	}
	segs := strings.Split(strings.TrimPrefix(f.File, "/"), "/")
	var best []graph.NodeID
	bestM, bestConf := 0, 0.0
	for _, id := range m.x.byBase[strings.ToLower(segs[len(segs)-1])] {
		cs := strings.Split(m.g.SourcePath(id), "/")
		n := 0
		for n < len(cs) && n < len(segs) && strings.EqualFold(cs[len(cs)-1-n], segs[len(segs)-1-n]) {
			n++
		}
		conf := suffixConfidence(n, len(cs), len(segs))
		if f.External && !(n == len(cs) && n >= 3) && !(n == len(segs) && jvmPackagePath(f)) {
			conf = 0
		}
		if conf == 0 || n < bestM || n == bestM && conf < bestConf {
			continue
		}
		if n > bestM || conf > bestConf {
			best, bestM, bestConf = best[:0], n, conf
		}
		best = append(best, id)
	}
	switch len(best) {
	case 0:
		return 0, "", 0, false
	case 1:
		return best[0], matchName(bestM, len(segs), bestConf), bestConf, true
	}
	return m.disambiguate(best, f), "ambiguous", bestConf * 0.7, true
}

// jvmPackagePath reports whether a frame's path was built from its JVM
// package (org.junit.Assert → org/junit/Assert.java). A file of the graph
// at that whole package path is that very class, so a frame the parser
// took for a library's (org.junit., kotlin.) is the project's own code
// when the project is that library.
func jvmPackagePath(f stacktrace.Frame) bool {
	return f.Module != "" && f.Class != "" && strings.Count(f.File, "/") >= 1 &&
		f.File == strings.ReplaceAll(f.Module, ".", "/")+"/"+path.Base(f.File)
}

// suffixConfidence judges n shared trailing segments between a graph path
// of nc segments and a frame path of nf: the graph path wholly inside the
// frame's (another machine's checkout) is certain; the frame's path
// wholly inside the graph's (a bare test file name, a Java package path)
// nearly; two or more shared segments with different directories above
// them are a guess; one shared name with different directories is not a
// match.
func suffixConfidence(n, nc, nf int) float64 {
	switch {
	case n == 0:
		return 0
	case n == nc && n == nf:
		return 1
	case n == nc:
		return 1
	case n == nf:
		return 0.85
	case n >= 2:
		return 0.6
	}
	return 0
}

func matchName(n, nf int, conf float64) string {
	switch {
	case conf >= 1 && n == nf:
		return "exact"
	case conf >= 0.85:
		return "suffix"
	}
	return "partial"
}

// disambiguate picks among equally good files: one that defines the
// frame's function, else the shortest path, else the first by path.
func (m *traceMapper) disambiguate(ids []graph.NodeID, f stacktrace.Frame) graph.NodeID {
	score := func(id graph.NodeID) int {
		if f.Function == "" {
			return 0
		}
		for _, n := range m.g.NodesByPath(m.g.SourcePath(id)) {
			if m.g.Label(n) == f.Function && isCodeEntity(m.g.Type(n)) {
				return 1
			}
		}
		return 0
	}
	return slices.MinFunc(ids, func(a, b graph.NodeID) int {
		if sa, sb := score(a), score(b); sa != sb {
			return sb - sa
		}
		pa, pb := m.g.SourcePath(a), m.g.SourcePath(b)
		return cmp.Or(cmp.Compare(len(pa), len(pb)), strings.Compare(pa, pb))
	})
}

func isCodeEntity(t graph.NodeType) bool {
	switch t {
	case graph.Function, graph.Class, graph.Struct, graph.Enum, graph.Type, graph.Module:
		return true
	}
	return false
}

// entityAt returns the innermost code entity of file p whose line range
// holds the frame's line (the smallest span; the later start on a tie),
// or without a line the entity named like the frame's function. When the
// line lies in another entity than the one the frame names and the file
// has that one, the name wins: a runtime names the function it ran
// exactly, while lines move as soon as the file is edited. NoNode when
// none: the line is module-level code.
func entityAt(g *graph.Graph, p string, f stacktrace.Frame) (graph.NodeID, string) {
	best, bestSpan, bestStart := graph.NoNode, uint32(math.MaxUint32), uint32(0)
	var named []graph.NodeID
	for _, n := range g.NodesByPath(p) {
		if !isCodeEntity(g.Type(n)) {
			continue
		}
		if f.Function != "" && g.Label(n) == f.Function {
			named = append(named, n)
		}
		pv := g.Provenance(n)
		end := max(pv.LineEnd, pv.LineStart)
		if f.Line <= 0 || pv.LineStart == 0 || int(pv.LineStart) > f.Line || f.Line > int(end) {
			continue
		}
		span := end - pv.LineStart
		if span < bestSpan || span == bestSpan && (pv.LineStart > bestStart || pv.LineStart == bestStart && n < best) {
			best, bestSpan, bestStart = n, span, pv.LineStart
		}
	}
	switch {
	case best != graph.NoNode && (g.Label(best) == f.Function || len(named) == 0 || strings.HasPrefix(f.Function, "<")):
		return best, ""
	case len(named) > 0 && f.Line > 0:
		n := nearestTo(g, named, f.Line)
		pv := g.Provenance(n)
		return n, fmt.Sprintf("the trace names %s at line %d; the graph has it at lines %d–%d (the file changed since the trace?)", f.Function, f.Line, pv.LineStart, max(pv.LineEnd, pv.LineStart))
	case len(named) > 0:
		return named[0], fmt.Sprintf("no line given; %s matched by name", f.Function)
	}
	return best, ""
}

// nearestTo is the entity of ids whose line range lies nearest to line
// (ties by the lower ID): of overloads, the one the frame most likely ran.
func nearestTo(g *graph.Graph, ids []graph.NodeID, line int) graph.NodeID {
	dist := func(n graph.NodeID) int {
		pv := g.Provenance(n)
		lo, hi := int(pv.LineStart), int(max(pv.LineEnd, pv.LineStart))
		return max(lo-line, line-hi, 0)
	}
	return slices.MinFunc(ids, func(a, b graph.NodeID) int { return cmp.Or(cmp.Compare(dist(a), dist(b)), cmp.Compare(a, b)) })
}

// traceTail is the last three segments of a path, for messages.
func traceTail(p string) string {
	segs := strings.Split(p, "/")
	if len(segs) > 3 {
		return ".../" + strings.Join(segs[len(segs)-3:], "/")
	}
	return p
}

// externalKind names the kind of external code a path is in.
func externalKind(p string) string {
	low := strings.ToLower(p)
	for _, k := range [][2]string{
		// JVM first: a package path names its directories freely
		// (org/junit/internal/… is no Node.js internal module).
		{".java", "the JDK or a JVM library"}, {".kt", "the Kotlin runtime or a JVM library"},
		{"site-packages", "an installed Python package"}, {"dist-packages", "an installed Python package"}, {"python", "the Python runtime"},
		{"node_modules", "an npm package"}, {"node:", "the Node.js runtime"}, {"internal/", "the Node.js runtime"},
		// Rust before Go: ".cargo" holds "go".
		{"rustc", "the Rust standard library"}, {"cargo", "a Rust crate dependency"},
		{"vendor", "vendored code"}, {"/pkg/mod/", "a Go module dependency"}, {"go", "the Go runtime"},
	} {
		if strings.Contains(low, k[0]) {
			return k[1]
		}
	}
	return "library or runtime code"
}

// suspect is one node the trace lands on.
type suspect struct {
	node, file graph.NodeID
	line       int
	compiled   bool // line is a compiled file's (frameHit.compiled)
	function   string
	first      int // the most specific frame landing here
	frames     int
	external   bool
	match      string
	conf       float64
	depth      float64
	recency    float64
	central    float64
	score      float64
	rank       int // 1-based rank among project frames (0: external)
	of         int // project frames in all
	note       string
	lastChange float64
	callers    []graph.NodeID
}

// rankSuspects scores every node a frame landed on: depth among the
// project frames (1 for the nearest the error, decaying linearly),
// recency of the file's last change before the repository's newest
// commit, and centrality; external frames are demoted and sorted after
// project ones.
func rankSuspects(g *graph.Graph, hist *history.Index, head float64, tr stacktrace.Trace, hits []frameHit) []*suspect {
	project, mapped := 0, 0
	for _, h := range hits {
		if h.ok {
			mapped++
			if !h.external {
				project++
			}
		}
	}
	byNode := map[graph.NodeID]*suspect{}
	var out []*suspect
	pr, mr := 0, 0
	for i, h := range hits {
		if !h.ok {
			continue
		}
		depth := 1 - float64(mr)/float64(mapped)
		rank := 0
		if !h.external {
			depth = 1 - float64(pr)/float64(project)
			pr++
			rank = pr
		}
		mr++
		s := byNode[h.node]
		if s == nil {
			f := tr.Frames[i]
			s = &suspect{node: h.node, file: h.file, line: f.Line, compiled: h.compiled, function: f.Function, first: i, external: h.external, match: h.match, conf: h.conf, depth: depth, rank: rank, of: project, note: h.note}
			byNode[h.node] = s
			out = append(out, s)
		}
		s.frames++
		if caller := nextMapped(hits, i); caller != graph.NoNode && caller != h.node && !slices.Contains(s.callers, caller) && len(s.callers) < 3 {
			s.callers = append(s.callers, caller)
		}
	}
	for _, s := range out {
		s.lastChange = lastChange(g, hist, s.file)
		if s.lastChange > 0 && head > 0 {
			s.recency = math.Exp2(-max(head-s.lastChange, 0) / 3600 / traceHalfLifeHours)
		}
		s.central = float64(graph.Finite(g.PageRank(s.node)))
		s.score = (traceWeightDepth*s.depth + traceWeightRecency*s.recency + traceWeightCentrality*s.central) * (0.6 + 0.4*s.conf)
		if s.external {
			s.score *= traceExternalFactor
		}
		s.score = clamp01(s.score)
	}
	slices.SortStableFunc(out, func(a, b *suspect) int {
		if a.external != b.external {
			if a.external {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(g.ExternalID(a.node), g.ExternalID(b.node)))
	})
	return out
}

// nextMapped is the node of the next mapped frame outwards from i (its
// caller), NoNode when there is none.
func nextMapped(hits []frameHit, i int) graph.NodeID {
	for j := i + 1; j < len(hits); j++ {
		if hits[j].ok {
			return hits[j].node
		}
	}
	return graph.NoNode
}

// lastChange is the file's newest commit time, or its LastModified.
func lastChange(g *graph.Graph, hist *history.Index, file graph.NodeID) float64 {
	if cs := hist.FileCommits(file); len(cs) > 0 {
		return float64(hist.Commit(int(cs[0])).Time)
	}
	return g.LastModified(file)
}

func clamp01(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	return min(v, 1)
}

func (s *suspect) json(g *graph.Graph) traceSuspect {
	ref := tools.RefOf(g, s.node)
	pv := g.Provenance(s.node)
	out := traceSuspect{
		NodeID: ref.NodeID, Label: ref.Label, Type: ref.Type, Suspiciousness: tools.Round3(s.score),
		Signals:  traceSignals{TraceDepth: tools.Round3(s.depth), Recency: tools.Round3(s.recency), Centrality: tools.Round3(s.central)},
		FilePath: g.SourcePath(s.file), Line: s.line, Function: s.function, External: s.external, Match: s.match, Frames: s.frames,
		RelatedCallers: []string{}, Reasons: s.reasons(g),
	}
	if s.node != s.file {
		out.LineStart, out.LineEnd = int(pv.LineStart), int(max(pv.LineEnd, pv.LineStart))
	}
	for _, c := range s.callers {
		out.RelatedCallers = append(out.RelatedCallers, tools.ShortID(g, c))
	}
	return out
}

func (s *suspect) reasons(g *graph.Graph) []string {
	var r []string
	switch {
	case s.external:
		r = append(r, "external code (library, runtime or vendored): demoted below the project's frames")
	case s.rank == 1:
		r = append(r, fmt.Sprintf("the project frame nearest the error (1 of %d)", s.of))
	default:
		r = append(r, fmt.Sprintf("project frame %d of %d from the error", s.rank, s.of))
	}
	pv := g.Provenance(s.node)
	lo, hi := int(pv.LineStart), int(max(pv.LineEnd, pv.LineStart))
	switch {
	case s.compiled: // the note says why the line is not the source's
	case s.node != s.file && s.line >= lo && s.line <= hi:
		r = append(r, fmt.Sprintf("line %d lies in %s (lines %d–%d)", s.line, g.Label(s.node), lo, hi))
	case s.node != s.file:
		// Matched by the frame's function name (an installed copy of
		// another version): its note says so; the line is not inside.
	case s.line > 0:
		r = append(r, fmt.Sprintf("line %d is module-level code (no function of the graph holds it)", s.line))
	}
	if s.note != "" {
		r = append(r, s.note)
	}
	if s.frames > 1 {
		r = append(r, fmt.Sprintf("%d frames land here", s.frames))
	}
	if s.match != "exact" && s.match != "name" {
		r = append(r, fmt.Sprintf("path matched by %s", s.match))
	}
	if s.recency >= 0.5 {
		r = append(r, "changed recently (near the repository's newest commit)")
	}
	if s.central >= 0.5 {
		r = append(r, "central: many paths of the graph go through it")
	}
	return r
}

// causalChain lists the mapped frames from the error outwards, one entry
// per run of frames on the same node.
func causalChain(g *graph.Graph, hits []frameHit) []string {
	out := []string{}
	last := graph.NoNode
	for _, h := range hits {
		if !h.ok || h.node == last {
			continue
		}
		last = h.node
		out = append(out, tools.ShortID(g, h.node))
		if len(out) == 20 {
			break
		}
	}
	return out
}

// coChangeSuspects: files that usually change with the top suspects'
// files (history partners in at least two commits, ranked by coupling
// discounted for thin support), then files changed in small commits
// within window hours of the top suspect's last change. Files of the
// trace itself are left out, and so are files without code (changelogs,
// author lists): they change with everything and cause no error.
func coChangeSuspects(g *graph.Graph, hist *history.Index, sus []*suspect, windowHours float64, limit int) []traceCoChange {
	inTrace := map[graph.NodeID]bool{}
	var tops []graph.NodeID
	for _, s := range sus {
		inTrace[s.file] = true
		if !s.external && len(tops) < 3 && !slices.Contains(tops, s.file) {
			tops = append(tops, s.file)
		}
	}
	type cand struct {
		traceCoChange
		node  graph.NodeID
		order float64
	}
	byNode := map[graph.NodeID]*cand{}
	add := func(n graph.NodeID, order float64, times int, coupling float64, reason string) {
		if inTrace[n] || !tools.HoldsCode(g, n) {
			return
		}
		if c := byNode[n]; c != nil {
			if order > c.order {
				c.order, c.Reason = order, reason
			}
			c.CoChanges, c.Coupling = max(c.CoChanges, times), max(c.Coupling, coupling)
			return
		}
		byNode[n] = &cand{node: n, order: order, traceCoChange: traceCoChange{
			NodeID: g.ExternalID(n), Label: g.Label(n), FilePath: g.SourcePath(n), ModifiedAt: lastChange(g, hist, n),
			CoChanges: times, Coupling: coupling, Reason: reason,
		}}
	}
	for k, t := range tops {
		// The top suspect's partners weigh most; a pair seen together
		// once is no pattern, and support discounts thin evidence.
		rankW := 1 - 0.2*float64(k)
		for _, p := range hist.Partners(t, 0, traceMaxGroup, 20) {
			if p.Times < 2 {
				continue
			}
			total := int(math.Round(float64(p.Times) / p.Coupling))
			conf := p.Coupling * float64(p.Times) / float64(p.Times+1)
			add(p.Node, 0.5+0.5*conf*rankW, p.Times, tools.Round3(p.Coupling),
				fmt.Sprintf("changed together with %s in %d of its %d commits", g.Label(t), p.Times, total))
		}
	}
	if len(tops) > 0 && windowHours > 0 {
		t := lastChange(g, hist, tops[0])
		for i := range hist.Len() {
			c := hist.Commit(i)
			dt := math.Abs(float64(c.Time) - t)
			fs := hist.CommitFiles(i)
			if t <= 0 || dt > windowHours*3600 || len(fs) > traceWindowGroup {
				continue
			}
			for _, f := range fs {
				add(f, 0.5*(1-dt/(windowHours*3600)), 0, 0, fmt.Sprintf("changed within %.0fh of %s's last change", math.Ceil(dt/3600), g.Label(tops[0])))
			}
		}
	}
	cands := make([]*cand, 0, len(byNode))
	for _, c := range byNode {
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b *cand) int {
		return cmp.Or(cmp.Compare(b.order, a.order), strings.Compare(a.NodeID, b.NodeID))
	})
	out := []traceCoChange{}
	for _, c := range cands[:min(len(cands), limit)] {
		out = append(out, c.traceCoChange)
	}
	return out
}

// fixScope: the files to read (suspects first, then co-change suspects),
// and the blast radius of the top suspect (files depending on it within
// two hops).
func fixScope(g *graph.Graph, sus []*suspect, co []traceCoChange) traceFixScope {
	fs := traceFixScope{FilesToInspect: []string{}, RiskLevel: "low"}
	seen := map[string]bool{}
	addFile := func(p string) {
		if p != "" && !seen[p] && len(fs.FilesToInspect) < 10 {
			seen[p] = true
			fs.FilesToInspect = append(fs.FilesToInspect, p)
		}
	}
	for _, s := range sus {
		if !s.external {
			addFile(g.SourcePath(s.file))
		}
	}
	for _, c := range co {
		addFile(c.FilePath)
	}
	if len(sus) == 0 {
		return fs
	}
	p := analysis.DefaultImpactParams()
	p.Level, p.MaxHops, p.TopK, p.IncludeCausalChains, p.MaxVia, p.EdgeBudget = analysis.LevelFile, 2, 1, false, 0, 200_000
	if res, err := analysis.Impact(g, sus[0].node, p); err == nil {
		fs.EstimatedBlastRadius = res.Affected
	}
	switch n := fs.EstimatedBlastRadius; {
	case n >= 25:
		fs.RiskLevel = "high"
	case n >= 5 || len(fs.FilesToInspect) > 5:
		fs.RiskLevel = "medium"
	}
	return fs
}

// traceGuidance: no project frame mapped → find the code another way;
// otherwise read the top suspect at its line (view), or weigh its blast
// radius (impact) when view is not served.
func traceGuidance(c *tools.Call, g *graph.Graph, tr stacktrace.Trace, sus []*suspect) (tools.Guidance, map[string]any) {
	if len(sus) == 0 {
		q := strings.TrimSpace(tr.Error.Type + ": " + tr.Error.Message)
		if tr.Error.Type == "" {
			q = tr.Frames[0].Function
		}
		hint := fmt.Sprintf("None of the %d frames names a file of the graph", len(tr.Frames))
		if f := tr.Frames[0].File; f != "" {
			hint += fmt.Sprintf(" (the first is %s)", f)
		}
		hint += ": if the trace comes from another repository, ingest that one; otherwise look for the code that raises the error with seek."
		gd := tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "seek", "search"), NextSuggestedTarget: tools.ClipText(q, 200), NextStepHint: hint}
		if gd.NextSuggestedTool != "" && q != "" {
			return gd, map[string]any{"query": tools.ClipText(q, 500)}
		}
		return gd, nil
	}
	top := sus[0]
	path := g.SourcePath(top.file)
	line := max(top.line, 1)
	if top.compiled {
		line = 1
	}
	where := path
	if top.line > 0 && !top.compiled { // none: a name-only or compiled frame
		where = fmt.Sprintf("%s line %d", path, line)
	}
	if top.node != top.file {
		where += " (" + g.Label(top.node) + ")"
	}
	state := "proving"
	lead := fmt.Sprintf("The error surfaces in project code at %s", where)
	if top.external {
		state = "triaging"
		lead = fmt.Sprintf("Only library or runtime frames map onto the graph; the nearest is %s", where)
	}
	if tool := tools.FirstTool(c.Registry, "view"); tool != "" {
		offset, limit := max(1, line-10), 30
		if top.node != top.file {
			pv := g.Provenance(top.node)
			offset = max(1, int(pv.LineStart)-2)
			limit = min(200, max(30, int(max(pv.LineEnd, pv.LineStart)-pv.LineStart)+5))
		}
		return tools.Guidance{ProofState: state, NextSuggestedTool: tool, NextSuggestedTarget: path,
				NextStepHint: lead + ": read it with view, confirm the cause, then run impact on " + g.ExternalID(top.node) + " before changing it."},
			map[string]any{"file_path": path, "offset": offset, "limit": limit}
	}
	return tools.Guidance{ProofState: state, NextSuggestedTool: tools.FirstTool(c.Registry, "impact"), NextSuggestedTarget: g.ExternalID(top.node),
		NextStepHint: lead + ": check its blast radius with impact before changing it."}, nil
}

// trustAgreeingLines re-maps a frame named like a function of its file
// that does not hold its line, when another frame of that file lands in
// the function it names: the file's lines then match the trace's, and the
// frame is a call made at that line into code the graph does not hold.
// Ruby reports a core method so (`base.rb:1072:in 'each'` is route!
// calling Array#each); without this the frame went to sinatra's own
// Stream#each, 600 lines away.
func trustAgreeingLines(g *graph.Graph, frames []stacktrace.Frame, hits []frameHit) {
	agree := map[graph.NodeID]bool{}
	for i, h := range hits {
		f := frames[i]
		if h.ok && !h.compiled && f.Line > 0 && h.node != h.file && g.Label(h.node) == f.Function && holdsLine(g, h.node, f.Line) {
			agree[h.file] = true
		}
	}
	for i := range hits {
		h, f := &hits[i], frames[i]
		if !h.ok || h.compiled || f.Line <= 0 || !agree[h.file] || h.node == h.file || g.Label(h.node) != f.Function || holdsLine(g, h.node, f.Line) {
			continue
		}
		if at := lineEntity(g, g.SourcePath(h.file), f.Line); at != graph.NoNode {
			h.node = at
			h.note = fmt.Sprintf("line %d lies in %s, and the file's other frames agree with its lines: %s is called from here (not code of the graph)", f.Line, g.Label(at), f.Function)
		}
	}
}

// lineEntity is the innermost code entity of the file at p holding line.
func lineEntity(g *graph.Graph, p string, line int) graph.NodeID {
	n, _ := entityAt(g, p, stacktrace.Frame{Line: line})
	return n
}
