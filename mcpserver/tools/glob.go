package tools

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

func init() { families = append(families, registerGlob) }

type globParams struct {
	Pattern string `json:"pattern" jsonschema:"Glob pattern over root-relative paths, e.g. \"src/**/*.go\", \"*_test.py\", \"{cmd,internal}/**\"." tool:"required"`
	Scope   string `json:"scope" jsonschema:"Path prefix (or glob) the files must also match, e.g. \"backend/\"."`
	Sort    string `json:"sort" jsonschema:"\"path\" (alphabetical) or \"activation\" (most central and most recently activated first)." tool:"default=path,enum=path|activation"`
	TopK    int    `json:"top_k" jsonschema:"Maximum files returned (total_matches counts them all)." tool:"default=200,min=1,max=10000"`
	Limit   *int   `json:"limit" jsonschema:"Alias of top_k." tool:"min=1,max=10000"`
}

func registerGlob(r *Registry) {
	Add(r, Tool{
		Name:  "glob",
		Title: "Find files by path pattern",
		Description: "Graph-aware file globbing over the files already in the graph (no disk walk): " +
			"*, ?, [abc], [!a-z], {a,b} and ** across directories. A pattern without '/' matches the file name at any depth (\"*.py\"); " +
			"a pattern naming a directory lists the files below it. Sort by path or by activation " +
			"(how central the file is — its PageRank — and how recently queries lit it up).",
		Class:     Read,
		WhenToUse: "When you need files by path pattern, not content; before view on a file family.",
		AvoidWhen: "You are looking for text inside files (search) or code by intent (seek).",
		Next:      []string{"view", "batch_view", "search"},
		Example:   map[string]any{"agent_id": "claude", "pattern": "**/*_test.go", "sort": "activation"},
	}, runGlob)
}

// globFile is one glob result.
type globFile struct {
	FilePath  string `json:"file_path"`
	NodeID    string `json:"node_id,omitempty"`
	Extension string `json:"extension"`
	// LineCount comes from the graph (the file node's or its entities'
	// last line); 0 when unknown.
	LineCount int     `json:"line_count"`
	Entities  int     `json:"entities"`
	PageRank  float64 `json:"pagerank"`
	// Activation is set when sorting by activation.
	Activation *float64 `json:"activation,omitempty"`
	// Connections counts the file node's edges other than containment
	// (imports, tests, references…).
	Connections    int  `json:"connections"`
	HasConnections bool `json:"has_connections"`
}

type globResponse struct {
	Pattern         string     `json:"pattern"`
	Scope           *string    `json:"scope"`
	Sort            string     `json:"sort"`
	Files           []globFile `json:"files"`
	TotalMatches    int        `json:"total_matches"`
	Returned        int        `json:"returned"`
	Truncated       bool       `json:"truncated"`
	FilesIndexed    int        `json:"files_indexed"`
	ActivationBasis string     `json:"activation_basis,omitempty"`
	ElapsedMs       float64    `json:"elapsed_ms"`
	guidance
}

// activationHalfLife is how fast the "recently activated" part of a
// file's activation fades.
const activationHalfLife = time.Hour

func runGlob(c *Call, in globParams) (globResponse, error) {
	start := time.Now()
	pattern := strings.TrimSpace(in.Pattern)
	if pattern == "" {
		return globResponse{}, Errorf("pattern is a glob over root-relative paths such as \"**/*.py\" or \"src/{api,db}/*.go\"; use \"**\" for every file.", "pattern is empty").
			WithExample(map[string]any{"agent_id": "claude", "pattern": "**/*.py"})
	}
	gm, err := compileGlob(pattern)
	if err != nil {
		return globResponse{}, Errorf("Supported: * (within a directory), ** (any depth), ?, [abc], [a-z], [!abc], {a,b}. Escape a literal metacharacter with a backslash.", "invalid glob pattern %q: %v", pattern, err).
			WithExample(map[string]any{"agent_id": "claude", "pattern": "src/**/*.go"}).
			WithNext("Fix the pattern; to search file contents instead, call search.")
	}
	limit := in.TopK
	if in.Limit != nil {
		limit = *in.Limit
	}
	sortBy := in.Sort
	var out globResponse
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		if g.NumNodes() == 0 {
			return emptyGraphErr()
		}
		scope, err := parseScope(b, in.Scope)
		if err != nil {
			return err
		}
		gf := bundleGraphFiles(b)
		now := float64(time.Now().UnixNano()) / 1e9
		type hit struct {
			f   *graphFile
			act float64
		}
		var hits []hit
		for i := range gf.Files {
			f := &gf.Files[i]
			if gm.match(f.Path) && scope.match(f.Path) {
				hits = append(hits, hit{f: f})
			}
		}
		if sortBy == "activation" {
			// Plasticity writes the firing records under its own lock.
			c.Session.Plasticity.Locked(func() {
				for i := range hits {
					hits[i].act = fileActivation(g, hits[i].f, now)
				}
			})
			slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.act, a.act) })
		}
		out = globResponse{Pattern: pattern, Sort: sortBy, TotalMatches: len(hits), FilesIndexed: len(gf.Files), Files: []globFile{}}
		if scope != nil {
			s := scope.String()
			out.Scope = &s
		}
		if sortBy == "activation" {
			out.ActivationBasis = "0.5 × the file node's PageRank (0–1) + 0.5 × recency of its last activation (1 = a query lit the file or one of its entities just now, halving every hour; 0 = never)"
		}
		for i, h := range hits {
			if i == limit {
				out.Truncated = true
				break
			}
			gfOut := describeFile(g, h.f)
			if sortBy == "activation" {
				a := round3(h.act)
				gfOut.Activation = &a
			}
			out.Files = append(out.Files, gfOut)
		}
		out.Returned = len(out.Files)
		return nil
	})
	if err != nil {
		return globResponse{}, err
	}
	if len(out.Files) > 0 {
		top := out.Files[0].FilePath
		out.guidance = guidance{ProofState: "triaging", NextSuggestedTool: "view", NextSuggestedTarget: top,
			NextStepHint: fmt.Sprintf("Open %s with view; search narrows the family by content.", top)}
	} else {
		out.guidance = guidance{ProofState: "triaging", NextSuggestedTool: "search",
			NextStepHint: "No indexed file matches the pattern. Check it against glob \"**\", or search file contents if you are looking for text rather than names."}
	}
	out.ElapsedMs = ms(time.Since(start))
	return out, nil
}

// fileActivation blends centrality with how recently plasticity saw the
// file (or one of its entities) fire. Call it under Plasticity.Locked.
func fileActivation(g *graph.Graph, f *graphFile, now float64) float64 {
	pl := g.Nodes().Plasticity
	var last float64
	pr := 0.0
	if f.Node != graph.NoNode {
		pr = float64(g.PageRank(f.Node))
		last = float64(pl[f.Node].LastFired)
	}
	for _, id := range f.Nodes {
		last = max(last, float64(pl[id].LastFired))
	}
	rec := 0.0
	if last > 0 {
		age := max(0, now-last)
		rec = math.Exp2(-age / activationHalfLife.Seconds())
	}
	return graph.Finite64(0.5*pr + 0.5*rec)
}

func round3(v float64) float64 {
	return math.Round(graph.Finite64(v)*1000) / 1000
}

// describeFile is the response form of an indexed file.
func describeFile(g *graph.Graph, f *graphFile) globFile {
	out := globFile{FilePath: f.Path, Extension: strings.TrimPrefix(path.Ext(f.Path), "."), Entities: len(f.Nodes)}
	lines := 0
	for _, id := range f.Nodes {
		lines = max(lines, int(g.Provenance(id).LineEnd))
	}
	if f.Node != graph.NoNode {
		out.NodeID = g.ExternalID(f.Node)
		out.PageRank = round3(float64(g.PageRank(f.Node)))
		lines = max(lines, int(g.Provenance(f.Node).LineEnd))
		for _, nb := range g.Neighbors(f.Node) {
			if nb.Relation != "contains" {
				out.Connections++
			}
		}
	}
	out.LineCount = lines
	out.HasConnections = out.Connections > 0
	return out
}

// globMatcher matches root-relative slash paths against a glob.
type globMatcher struct {
	alts [][]string // brace-expanded alternatives, split into segments
}

// maxBraceExpansions bounds {a,b}{c,d}… blow-up.
const maxBraceExpansions = 256

// compileGlob validates and compiles a glob. Segments use path.Match
// syntax ([!…] is accepted for [^…]); "**" as a whole segment matches any
// number of directories; a pattern without '/' matches at any depth.
func compileGlob(pattern string) (*globMatcher, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	gm := &globMatcher{}
	for _, a := range alts {
		a = strings.TrimPrefix(a, "./")
		anchored := strings.Contains(strings.TrimSuffix(a, "/"), "/")
		a = strings.TrimPrefix(a, "/")
		if strings.HasSuffix(a, "/") {
			a += "**"
		}
		if a == "" {
			return nil, errors.New("an alternative is empty")
		}
		segs := strings.Split(a, "/")
		if !anchored {
			segs = append([]string{"**"}, segs...)
		}
		for i, s := range segs {
			if s == "" {
				return nil, errors.New("empty path segment (\"//\")")
			}
			s = strings.ReplaceAll(s, "[!", "[^")
			if s != "**" && strings.Contains(s, "**") {
				s = strings.ReplaceAll(s, "**", "*")
			}
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("segment %q: %w (check [ ] brackets and trailing backslashes)", segs[i], err)
			}
			segs[i] = s
		}
		gm.alts = append(gm.alts, segs)
	}
	return gm, nil
}

// match reports whether p, or one of its parent directories, matches.
func (gm *globMatcher) match(p string) bool {
	segs := strings.Split(p, "/")
	for _, a := range gm.alts {
		for n := len(segs); n >= 1; n-- {
			if matchSegs(a, segs[:n]) {
				return true
			}
		}
	}
	return false
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// expandBraces expands {a,b} alternations (nested allowed, escaped braces
// kept).
func expandBraces(p string) ([]string, error) {
	depth, open := 0, -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				return nil, errors.New("unmatched '}'")
			}
			depth--
			if depth == 0 {
				var parts []string
				d, last := 0, open+1
				for j := open + 1; j < i; j++ {
					switch p[j] {
					case '\\':
						j++
					case '{':
						d++
					case '}':
						d--
					case ',':
						if d == 0 {
							parts = append(parts, p[last:j])
							last = j + 1
						}
					}
				}
				parts = append(parts, p[last:i])
				var out []string
				for _, part := range parts {
					exp, err := expandBraces(p[:open] + part + p[i+1:])
					if err != nil {
						return nil, err
					}
					out = append(out, exp...)
					if len(out) > maxBraceExpansions {
						return nil, fmt.Errorf("braces expand to more than %d patterns", maxBraceExpansions)
					}
				}
				return out, nil
			}
		}
	}
	if depth != 0 {
		return nil, errors.New("unmatched '{'")
	}
	return []string{p}, nil
}
