package workspace

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// TSConfig is what one tsconfig.json (or jsconfig.json) says of module
// names: compilerOptions.paths and baseUrl, with its "extends" chain of
// local files followed. Apps import their own code through these aliases
// ("@/components/Button"); without them such imports had no edge.
type TSConfig struct {
	Dir string // the config's root-relative directory
	// BaseURL is the root-relative directory bare names resolve against;
	// HasBase says whether the config (or one it extends) set one.
	BaseURL string
	HasBase bool
	Paths   []TSPath // in the config's order
}

// TSPath is one "paths" entry: a pattern with at most one "*", and its
// root-relative targets, tried in order.
type TSPath struct {
	Pattern string
	Targets []string
}

// tsRaw is the part of a tsconfig read here.
type tsRaw struct {
	Extends         json.RawMessage `json:"extends"`
	CompilerOptions struct {
		BaseURL *string             `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

// maxExtends bounds an extends chain (a cycle ends there too).
const maxExtends = 8

func (in *Info) addTSConfig(f, dir string, data []byte) {
	c := TSConfig{Dir: dir}
	var paths tsPathsRaw
	if !in.readTSConfig(&c, &paths, f, data, 0) {
		in.Problems = append(in.Problems, f+": not a JSON object (comments and trailing commas allowed)")
		return
	}
	if paths.m != nil {
		// Targets are relative to the effective baseUrl, else to the
		// directory of the config that set "paths".
		base := paths.dir
		if c.HasBase {
			base = c.BaseURL
		}
		c.Paths = tsPaths(paths.m, base)
	}
	if c.HasBase || len(c.Paths) > 0 {
		in.TSConfigs = append(in.TSConfigs, &c)
	}
}

// tsPathsRaw is the "paths" object nearest the config, and where it was.
type tsPathsRaw struct {
	m   map[string][]string
	dir string
}

// readTSConfig fills c and paths from config file f (root-relative) and
// the local configs it extends; a value set nearer f wins, and baseUrl is
// relative to the directory of the file that sets it, as tsc has it.
func (in *Info) readTSConfig(c *TSConfig, paths *tsPathsRaw, f string, data []byte, depth int) bool {
	var raw tsRaw
	if json.Unmarshal(stripJSONC(data), &raw) != nil {
		return false
	}
	dir, _ := splitPath(f)
	if o := raw.CompilerOptions; o.BaseURL != nil && !c.HasBase {
		c.BaseURL, c.HasBase = rootRel(dir, *o.BaseURL), true
	}
	if p := raw.CompilerOptions.Paths; p != nil && paths.m == nil {
		paths.m, paths.dir = p, dir
	}
	if depth < maxExtends {
		for _, e := range extendsOf(raw.Extends) {
			in.readTSExtends(c, paths, dir, e, depth)
		}
	}
	return true
}

// readTSExtends follows one "extends" entry that names a file of the tree
// (a package name, "@tsconfig/node16", is outside it).
func (in *Info) readTSExtends(c *TSConfig, paths *tsPathsRaw, dir, e string, depth int) {
	if !strings.HasPrefix(e, "./") && !strings.HasPrefix(e, "../") {
		return
	}
	f := rootRel(dir, e)
	if !strings.HasSuffix(f, ".json") {
		f += ".json"
	}
	if strings.HasPrefix(f, "../") || in.root == "" {
		return
	}
	data, err := os.ReadFile(filepath.Join(in.root, filepath.FromSlash(f)))
	if err == nil {
		in.readTSConfig(c, paths, f, data, depth+1)
	}
}

// extendsOf reads "extends": a string or (TypeScript 5) an array.
func extendsOf(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	json.Unmarshal(raw, &many)
	return many
}

// tsPaths lists a "paths" object's entries with targets made
// root-relative against base, patterns sorted for determinism (the
// longest-prefix rule, not the order, picks among matches).
func tsPaths(p map[string][]string, base string) []TSPath {
	out := make([]TSPath, 0, len(p))
	for pat, targets := range p {
		tp := TSPath{Pattern: pat}
		for _, t := range targets {
			tp.Targets = append(tp.Targets, rootRel(base, t))
		}
		out = append(out, tp)
	}
	slices.SortFunc(out, func(a, b TSPath) int { return strings.Compare(a.Pattern, b.Pattern) })
	return out
}

// rootRel joins a config-relative path to the config's root-relative
// directory ("" is the root; a result above the root keeps its "../").
func rootRel(dir, p string) string {
	j := path.Clean(path.Join(dir, p))
	if j == "." {
		return ""
	}
	return j
}

// TSAlias returns the root-relative paths (without extension: probe them
// as an import) that module name mod may mean in a file of directory
// fromDir, by the nearest config above it: its "paths" entry with the
// longest matching prefix first, then — when withBase — mod under its
// baseUrl. Nil when no config applies.
func (in *Info) TSAlias(fromDir, mod string, withBase bool) []string {
	c := in.tsConfigFor(fromDir)
	if c == nil {
		return nil
	}
	var out []string
	if p, star, ok := c.match(mod); ok {
		for _, t := range p.Targets {
			out = append(out, strings.Replace(t, "*", star, 1))
		}
	}
	if withBase && c.HasBase {
		out = append(out, rootRel(c.BaseURL, mod))
	}
	return out
}

// tsConfigFor is the config of the nearest directory at or above dir.
func (in *Info) tsConfigFor(dir string) *TSConfig {
	var best *TSConfig
	for _, c := range in.TSConfigs {
		if (c.Dir == "" || dir == c.Dir || strings.HasPrefix(dir, c.Dir+"/")) && (best == nil || len(c.Dir) > len(best.Dir)) {
			best = c
		}
	}
	return best
}

// match finds the paths entry for mod: an exact pattern, else the
// pattern with "*" whose prefix is longest (tsc's rule), with what "*"
// stood for.
func (c *TSConfig) match(mod string) (TSPath, string, bool) {
	var best TSPath
	star, bestLen, found := "", -1, false
	for _, p := range c.Paths {
		pre, suf, wild := strings.Cut(p.Pattern, "*")
		switch {
		case !wild && p.Pattern == mod:
			return p, "", true
		case wild && len(mod) >= len(pre)+len(suf) && strings.HasPrefix(mod, pre) && strings.HasSuffix(mod, suf) && len(pre) > bestLen:
			best, star, bestLen, found = p, mod[len(pre):len(mod)-len(suf)], len(pre), true
		}
	}
	return best, star, found
}

// stripJSONC removes what tsconfig files allow beyond JSON: // and /* */
// comments and trailing commas, leaving strings as they are.
func stripJSONC(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(data))
			out = append(out, data[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
			i++ // the newline stays
			if i < len(data) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				i++
			}
			i++
			out = append(out, ' ') // a comment parts tokens as a space does
		case c == '}' || c == ']':
			out = dropTrailingComma(out)
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// dropTrailingComma removes a comma (and the space after it) that ends out.
func dropTrailingComma(out []byte) []byte {
	k := len(out)
	for k > 0 && (out[k-1] == ' ' || out[k-1] == '\t' || out[k-1] == '\n' || out[k-1] == '\r') {
		k--
	}
	if k > 0 && out[k-1] == ',' {
		return out[:k-1]
	}
	return out
}
