package walk

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"strings"
)

// ignorePattern is one line of a .gitignore (or info/exclude) file.
//
// go-git ships a matcher (plumbing/format/gitignore), but it lets a
// slash-free pattern match any component of the path, so "!docs" would
// re-include "docs/a.txt" after "*.txt" excluded it — git does not. The walker
// asks about every directory on the way down anyway, so matching a slash-free
// pattern against the last component only is both simpler and exact.
type ignorePattern struct {
	base     string   // directory of the ignore file, repo-relative ("" = repo root)
	segs     []string // pattern split on "/" (anchored patterns only)
	name     string   // the pattern of a slash-free (basename) pattern
	anchored bool     // contains a slash before its end: relative to base
	dirOnly  bool     // trailing slash: matches directories only
	negate   bool     // leading "!": re-includes
}

// parseIgnore parses the lines of an ignore file located in directory base
// (repo-relative, "" for the root). Malformed lines are skipped the way git
// skips them.
func parseIgnore(data []byte, base string) []ignorePattern {
	var out []ignorePattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if p, ok := parseIgnoreLine(sc.Text(), base); ok {
			out = append(out, p)
		}
	}
	return out
}

func parseIgnoreLine(line, base string) (ignorePattern, bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return ignorePattern{}, false
	}
	// Trailing spaces are ignored unless escaped with a backslash.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	if strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-2] + " "
	}
	p := ignorePattern{base: base}
	switch {
	case strings.HasPrefix(line, "!"):
		p.negate = true
		line = line[1:]
	case strings.HasPrefix(line, "\\!"), strings.HasPrefix(line, "\\#"):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignorePattern{}, false
	}
	if strings.Contains(line, "/") {
		p.anchored = true
		p.segs = strings.Split(strings.TrimPrefix(line, "/"), "/")
	} else {
		p.name = line
	}
	return p, true
}

// match reports whether the pattern matches rel (repo-relative, forward
// slashes).
func (p *ignorePattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false
		}
		rel = rel[len(p.base)+1:]
	}
	if !p.anchored {
		return globMatch(p.name, path.Base(rel))
	}
	return matchSegs(p.segs, strings.Split(rel, "/"))
}

// matchSegs matches a slash-separated pattern against path components with
// git's "**" rules: a leading "**/" matches in every directory, a trailing
// "/**" matches everything inside, and "/**/" matches zero or more
// directories.
func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				// "x/**" matches everything inside x, not x itself.
				return len(segs) > 0
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegs(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !globMatch(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// globMatch is path.Match with a malformed pattern treated as "no match"
// (git silently ignores such lines too).
func globMatch(pattern, name string) bool {
	if !strings.ContainsAny(pattern, "*?[\\") {
		return pattern == name
	}
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}

// ignoreSet is the ordered list of patterns in effect in one directory:
// info/exclude first, then each .gitignore from the repository root down.
// The last matching pattern decides, as in git.
type ignoreSet []ignorePattern

func (s ignoreSet) ignored(rel string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].match(rel, isDir) {
			return !s[i].negate
		}
	}
	return false
}

// with returns s extended by the patterns of the ignore file at file,
// without disturbing s (which sibling directories still use).
func (s ignoreSet) with(file, base string) ignoreSet {
	data, err := os.ReadFile(file)
	if err != nil || len(data) == 0 {
		return s
	}
	ps := parseIgnore(data, base)
	if len(ps) == 0 {
		return s
	}
	out := make(ignoreSet, 0, len(s)+len(ps))
	out = append(out, s...)
	return append(out, ps...)
}
