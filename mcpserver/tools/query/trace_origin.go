package query

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/stacktrace"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Where an error message is written in the code. A returned error (Go's
// fmt.Errorf, a raise far from the frame that reports it) surfaces in a
// frame that only passes it on — kong.Must panics with the "duplicate
// flag" error build.go returned. The message's words that no value
// filled in still stand in a string literal at the place that made it.

const (
	originMinPhrase = 10 // bytes: shorter runs of words match everywhere
	originPhrases   = 3  // the longest runs tried
	originKeep      = 3  // places listed
	originScanStop  = 64 // matches kept in a file, and counted before the scan stops
)

// traceOrigin is a place whose string literal holds the message's words.
type traceOrigin struct {
	NodeID   string `json:"node_id"`
	FilePath string `json:"file_path"`
	Line     int    `json:"line"`
	Text     string `json:"text" jsonschema:"The line, trimmed."`
}

// messagePhrases are the longest runs of two to four adjacent message
// words that no value seems to fill in (no digit, path, quote or
// bracket), each the shortest from its first word that reaches
// originMinPhrase bytes, longest first: what a format string spells out
// around its holes. "http: superfluous response.WriteHeader call from
// main.h (main.go:12)" → "superfluous response.WriteHeader", …;
// "failed to open "x": EOF" → "failed to open".
func messagePhrases(msg string) []string {
	var out []string
	seen := map[string]bool{}
	toks := strings.Fields(msg)
	for i := range toks {
		p := ""
		for j := i; j < min(len(toks), i+4) && constWord(toks[j]); j++ {
			p = strings.TrimSpace(p + " " + toks[j])
			if j > i && len(p) >= originMinPhrase {
				if !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
				break
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out[:min(len(out), originPhrases)]
}

// constWord is a message word a format string likely writes as is.
func constWord(tok string) bool {
	return !strings.ContainsAny(tok, "0123456789/\\\"'`()[]{}<>=") && strings.ContainsFunc(tok, unicode.IsLetter)
}

// originText is the text the message's words are read from: the parsed
// message, or, when it spans lines the parser did not keep (ZodError's
// JSON issue list after "ZodError: ["), the error text without its frames.
func originText(tr stacktrace.Trace, text string) string {
	if len(messagePhrases(tr.Error.Message)) > 0 {
		return tr.Error.Message
	}
	var keep []string
	for _, line := range strings.Split(text[:min(len(text), 8<<10)], "\n") {
		framed := false
		for _, f := range tr.Frames {
			if f.File != "" && strings.Contains(line, f.File) || f.Raw != "" && strings.Contains(f.Raw, strings.TrimSpace(line)) && strings.TrimSpace(line) != "" {
				framed = true
				break
			}
		}
		if !framed {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// messageOrigins finds the code lines whose string literal holds the
// message's words: production code first (tests spell the messages they
// expect, and many of them), a line inside a function on the stack (the
// external IDs in stack) first — uvicorn's "Exception in ASGI
// application" is spelled by three protocol modules and made by the one
// whose run_asgi is a frame —, then the literal that spells more of the
// message, central files first, at most originKeep.
func messageOrigins(c *tools.Call, b *session.Bundle, msg string, stack map[string]bool) []traceOrigin {
	g := b.Graph
	gf := tools.BundleGraphFiles(b)
	disk := tools.BundleDiskFiles(b)
	var prod, tests []int
	for _, i := range rankedFiles(b) {
		f := &gf.Files[i]
		if disk.Abs[i] == "" || f.Node == graph.NoNode || !tools.HoldsCode(g, f.Node) {
			continue
		}
		if tools.IsTestPath(f.Path) {
			tests = append(tests, i)
		} else {
			prod = append(prod, i)
		}
	}
	phrases := messagePhrases(msg)
	found := scanOrigins(c, b, prod, phrases, msg)
	if len(found) == 0 {
		found = scanOrigins(c, b, tests, phrases, msg)
	}
	// Ties keep the central files' order.
	slices.SortStableFunc(found, func(a, b scoredOrigin) int {
		if sa, sb := stack[a.NodeID], stack[b.NodeID]; sa != sb {
			return map[bool]int{true: -1, false: 1}[sa]
		}
		return cmp.Compare(b.fit, a.fit)
	})
	var out []traceOrigin
	for _, f := range found[:min(len(found), originKeep)] {
		out = append(out, f.traceOrigin)
	}
	return out
}

// scanOrigins searches the files (indexes into the graph's files) for
// each phrase, keeping the lines whose literal fits msg.
func scanOrigins(c *tools.Call, b *session.Bundle, idx []int, phrases []string, msg string) []scoredOrigin {
	g := b.Graph
	gf := tools.BundleGraphFiles(b)
	disk := tools.BundleDiskFiles(b)
	files := make([]textsearch.File, len(idx))
	for k, i := range idx {
		files[k] = textsearch.File{Path: gf.Files[i].Path, Abs: disk.Abs[i]}
	}
	opt := textsearch.Options{Keep: originScanStop, StopAfter: originScanStop, Cache: tools.BundleCache(b),
		MaxFileSize: searchMaxFileSize, Open: tools.BundleGuard(b).OpenReal}
	load := tools.NewContentLoader(opt.Cache, opt.Open)
	var found []scoredOrigin
	seen := map[traceOrigin]bool{}
	for _, phrase := range phrases {
		m, err := textsearch.Compile(textsearch.Query{Pattern: phrase, CaseSensitive: true})
		if err != nil {
			continue
		}
		for k, fr := range textsearch.Search(c.Ctx, files, m, opt).Files {
			data := load.Load(files[k].Abs)
			for _, hit := range fr.Matches {
				if !hit.Fits(data) {
					continue
				}
				text := string(textsearch.LineText(data, hit.LineStart))
				fit := formatFit(text, phrase, msg)
				f := &gf.Files[idx[k]]
				o := traceOrigin{NodeID: g.ExternalID(f.Node), FilePath: f.Path, Line: hit.Line, Text: tools.ClipText(strings.TrimSpace(text), 160)}
				if fit == 0 || commentLine(text) || seen[o] {
					continue // not a literal the message can come from
				}
				seen[o] = true
				if n, ok := tools.Enclosing(g, f, hit.Line); ok {
					o.NodeID = g.ExternalID(n)
				}
				found = append(found, scoredOrigin{o, fit})
			}
		}
	}
	return found
}

type scoredOrigin struct {
	traceOrigin
	fit int
}

// commentLine reports a line that is a comment (a doc comment's example
// output spells messages too, but makes none).
func commentLine(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"//", "#", "*", "/*", "--", ";"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// formatVerb matches the holes of a format string: printf verbs, brace
// placeholders ({}, {0}, {name!r}, ${x}), Ruby's #{x} and PHP's $x and
// $x->y (rack's "invalid cookie key: #{key.inspect}" matched nothing: its
// '#' was read as text).
var formatVerb = regexp.MustCompile(`%(\([^)]*\))?[-+# 0-9.*]*[a-zA-Z%]|[#$]?\{[^{}]*\}|\$[A-Za-z_]\w*(?:->\w+)*`)

// formatFit is how many bytes of the literal around phrase, read as a
// format string, stand in msg in order: "duplicate flag --%s" fits
// "duplicate flag --x" by 17 bytes, "duplicate flag %s" by 15; a piece the
// message lacks makes it 0.
func formatFit(line, phrase, msg string) int {
	at := strings.Index(line, phrase)
	lo := quoteAt(line, at, -1)
	hi := quoteAt(line, at+len(phrase), 1)
	if at < 0 || lo < 0 || hi < 0 {
		return 0
	}
	lit := literalUnescaper.Replace(line[lo+1 : hi])
	// A printed message loses the white space at its ends.
	lit = strings.TrimSpace(lit)
	fit, rest := 0, msg
	for _, piece := range formatVerb.Split(lit, -1) {
		i := strings.Index(rest, piece)
		if i < 0 {
			return 0
		}
		fit += len(piece)
		rest = rest[i+len(piece):]
	}
	return fit
}

// quoteAt is the index of the nearest unescaped quote before (dir -1) or
// from (dir 1) position i of line, or -1.
func quoteAt(line string, i, dir int) int {
	if i < 0 {
		return -1
	}
	start := i
	if dir < 0 {
		start = i - 1
	}
	for k := start; ; k += dir {
		if k < 0 || k >= len(line) {
			return -1
		}
		if strings.IndexByte("\"'`", line[k]) >= 0 && (k == 0 || line[k-1] != '\\') {
			return k
		}
	}
}

var literalUnescaper = strings.NewReplacer(`\"`, `"`, `\'`, `'`, "\\`", "`", `\\`, `\`, `\n`, " ", `\t`, " ")

// originGuidance points at where the message is made: first among the
// files to inspect, and in the hint when it is not the top suspect (with
// no suspect, view reads it instead of a seek for the message).
func originGuidance(c *tools.Call, out *traceOutput, sus []*suspect) {
	if len(out.RaisedAt) == 0 {
		return
	}
	o := out.RaisedAt[0]
	if !slices.Contains(out.FixScope.FilesToInspect, o.FilePath) {
		out.FixScope.FilesToInspect = append([]string{o.FilePath}, out.FixScope.FilesToInspect...)
	}
	if len(out.Suspects) > 0 && out.Suspects[0].NodeID == o.NodeID {
		return
	}
	where := fmt.Sprintf("%s line %d", o.FilePath, o.Line)
	if len(sus) > 0 {
		out.NextStepHint += " The message itself is made at " + where + ": read it too."
		return
	}
	if tool := tools.FirstTool(c.Registry, "view"); tool != "" {
		out.NextSuggestedTool, out.NextSuggestedTarget = tool, o.FilePath
		out.NextSuggestedArgs = map[string]any{"file_path": o.FilePath, "offset": max(1, o.Line-10), "limit": 30}
		out.NextStepHint = "No frame maps onto the graph, but the message is made at " + where + ": read it with view."
	}
}

// framelessOrigins adds to the error for a text without stack frames (an
// error message alone, "Error: duplicate flag --x") where the message is
// made, when the graph has its literal.
func framelessOrigins(c *tools.Call, err error, tr stacktrace.Trace, text string) error {
	var e *tools.Error
	if !errors.As(err, &e) || len(tr.Frames) > 0 || strings.TrimSpace(text) == "" || len(text) > traceMaxBytes {
		return err
	}
	var origins []traceOrigin
	_ = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		if b.Graph.NumNodes() > 0 {
			origins = messageOrigins(c, b, originText(tr, text), nil)
		}
		return nil
	})
	if len(origins) == 0 {
		return err
	}
	o := origins[0]
	e.SuggestedNextStep = fmt.Sprintf("No stack frame to map, but the message is made at %s line %d (%s): read it with view.", o.FilePath, o.Line, strings.TrimPrefix(o.NodeID, "file::"))
	if e.Extra == nil {
		e.Extra = map[string]any{}
	}
	e.Extra["raised_at"] = origins
	return e
}
