package query

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/m1nd-go/m1nd/core/graph"
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
	originScanStop  = 64 // matches counted before the scan stops
)

// traceOrigin is a place whose string literal holds the message's words.
type traceOrigin struct {
	NodeID   string `json:"node_id"`
	FilePath string `json:"file_path"`
	Line     int    `json:"line"`
	Text     string `json:"text" jsonschema:"The line, trimmed."`
}

// messagePhrases are the longest pairs of adjacent message words that no
// value seems to fill in (no digit, path, quote or bracket), longest
// first: what a format string spells out around its holes.
// "http: superfluous response.WriteHeader call from main.h (main.go:12)"
// → "superfluous response.WriteHeader", "response.WriteHeader call", ….
func messagePhrases(msg string) []string {
	var out []string
	toks := strings.Fields(msg)
	for i := 0; i+1 < len(toks); i++ {
		if p := toks[i] + " " + toks[i+1]; constWord(toks[i]) && constWord(toks[i+1]) && len(p) >= originMinPhrase {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	out = slices.Compact(out)
	return out[:min(len(out), originPhrases)]
}

// constWord is a message word a format string likely writes as is.
func constWord(tok string) bool {
	return !strings.ContainsAny(tok, "0123456789/\\\"'`()[]{}<>=") && strings.ContainsFunc(tok, unicode.IsLetter)
}

// messageOrigins finds the code lines whose string literal holds one of
// the message's phrases: production code before tests, central files
// first, at most originKeep.
func messageOrigins(c *tools.Call, b *session.Bundle, msg string) []traceOrigin {
	g := b.Graph
	gf := tools.BundleGraphFiles(b)
	disk := tools.BundleDiskFiles(b)
	var files []textsearch.File
	var idx []int
	for _, i := range rankedFiles(b) {
		f := &gf.Files[i]
		if disk.Abs[i] == "" || f.Node == graph.NoNode || !tools.HoldsCode(g, f.Node) {
			continue
		}
		files = append(files, textsearch.File{Path: f.Path, Abs: disk.Abs[i]})
		idx = append(idx, i)
	}
	var found []scoredOrigin
	seen := map[traceOrigin]bool{}
	for _, phrase := range messagePhrases(msg) {
		m, err := textsearch.Compile(textsearch.Query{Pattern: phrase, CaseSensitive: true})
		if err != nil {
			continue
		}
		opt := textsearch.Options{Keep: originKeep, StopAfter: originScanStop, Cache: tools.BundleCache(b),
			MaxFileSize: searchMaxFileSize, Open: tools.BundleGuard(b).OpenReal}
		res := textsearch.Search(c.Ctx, files, m, opt)
		load := tools.NewContentLoader(opt.Cache, opt.Open)
		for k, fr := range res.Files {
			data := load.Load(files[k].Abs)
			for _, hit := range fr.Matches {
				if !hit.Fits(data) {
					continue
				}
				text := string(textsearch.LineText(data, hit.LineStart))
				fit := formatFit(text, phrase, msg)
				f := &gf.Files[idx[k]]
				o := traceOrigin{NodeID: g.ExternalID(f.Node), FilePath: f.Path, Line: hit.Line, Text: tools.ClipText(strings.TrimSpace(text), 160)}
				if fit == 0 || seen[o] {
					continue // not a literal the message can come from
				}
				seen[o] = true
				if n, ok := tools.Enclosing(g, f, hit.Line); ok {
					o.NodeID = g.ExternalID(n)
				}
				found = append(found, scoredOrigin{o, tools.IsTestPath(f.Path), fit})
			}
		}
		if slices.ContainsFunc(found, func(o scoredOrigin) bool { return !o.test }) {
			break // each phrase is a scan of every file: the longest found it
		}
	}
	// Production code first, then the literal that spells more of the
	// message; ties keep the central files' order.
	slices.SortStableFunc(found, func(a, b scoredOrigin) int {
		if a.test != b.test {
			return cmp.Compare(btoi(a.test), btoi(b.test))
		}
		return cmp.Compare(b.fit, a.fit)
	})
	var out []traceOrigin
	for _, f := range found[:min(len(found), originKeep)] {
		out = append(out, f.traceOrigin)
	}
	return out
}

type scoredOrigin struct {
	traceOrigin
	test bool
	fit  int
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// formatVerb matches the holes of a format string: printf verbs and
// brace placeholders ({}, {0}, {name!r}, ${x}).
var formatVerb = regexp.MustCompile(`%(\([^)]*\))?[-+# 0-9.*]*[a-zA-Z%]|\$?\{[^{}]*\}`)

// formatFit is how many bytes of the literal around phrase, read as a
// format string, stand in msg in order: "duplicate flag --%s" fits
// "duplicate flag --x" by 17 bytes, "duplicate flag %s" by 15; a piece the
// message lacks makes it 0.
func formatFit(line, phrase, msg string) int {
	at := strings.Index(line, phrase)
	lo := strings.LastIndexAny(line[:at], "\"'`")
	hi := strings.IndexAny(line[at+len(phrase):], "\"'`")
	if lo < 0 || hi < 0 {
		return 0
	}
	lit := line[lo+1 : at+len(phrase)+hi]
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
