package tools

import (
	"errors"
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

func Round3(v float64) float64 {
	return math.Round(graph.Finite64(v)*1000) / 1000
}

// globMatcher matches root-relative slash paths against a glob.
type GlobMatcher struct {
	alts [][]string // brace-expanded alternatives, split into segments
}

// maxBraceExpansions bounds {a,b}{c,d}… blow-up.
const maxBraceExpansions = 256

// compileGlob validates and compiles a glob. Segments use path.Match
// syntax ([!…] is accepted for [^…]); "**" as a whole segment matches any
// number of directories; a pattern without '/' matches at any depth.
func CompileGlob(pattern string) (*GlobMatcher, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	gm := &GlobMatcher{}
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
func (gm *GlobMatcher) Match(p string) bool {
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
