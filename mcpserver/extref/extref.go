// Package extref finds what source and configuration files point at outside
// their repository: URLs, absolute paths, "../" paths that climb out of the
// root, paths under environment variables or the home directory, and
// imports of packages the repository does not hold. It works on file text
// with a bounded line scanner (no parser), so it is fast and never fails;
// it is a heuristic, tuned to report what a reader would call a reference
// and to stay quiet on web routes, format strings and prose.
package extref

import (
	"bytes"
	"path"
	"regexp"
	"strings"
)

// Kinds of reference.
const (
	URL          = "url"
	AbsolutePath = "absolute_path"
	ParentEscape = "parent_escape"
	EnvPath      = "env_path"
	HomePath     = "home_path"
	Import       = "import"
)

// Kinds lists every kind, in report order.
var Kinds = []string{AbsolutePath, ParentEscape, URL, EnvPath, HomePath, Import}

// Ref is one reference found in a file.
type Ref struct {
	Line  int    // 1-based
	Kind  string // one of the kind constants
	Value string // as written (an import: the module as written)
	// Key groups references: scheme://host of a URL, the top directory of
	// an absolute path ("/etc", "C:"), the first directory past the root of
	// an escape ("../sibling"), the variable of an env path ("$HOME"), "~",
	// or the package of an import ("github.com/x/y", "numpy", "@scope/pkg").
	Key string
	// Ecosystem of an import: python, go, npm, cargo, jvm, c, ruby.
	Ecosystem string
	// Stdlib marks imports of the language's standard library.
	Stdlib bool
}

// Limits of one scan: lines longer than MaxLineBytes are scanned up to
// that length (minified code), values longer than maxValue are ignored,
// and a file yields at most MaxRefs references.
const (
	MaxLineBytes = 4096
	MaxRefs      = 1000
	maxValue     = 512
)

// Scan finds the references in one file. rel is the file's path relative
// to its root (forward slashes): it picks the language and is what a "../"
// path is resolved against. References are in line order; within a line,
// in the order they appear.
func Scan(rel string, data []byte) []Ref {
	s := scanner{rel: rel, dir: path.Dir(rel), lang: languageOf(rel)}
	s.tokens = s.lang == langText
	line := 0
	for len(data) > 0 && len(s.out) < MaxRefs {
		line++
		var text []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			text, data = data, nil
		}
		if len(text) > MaxLineBytes {
			text = text[:MaxLineBytes]
		}
		s.line(line, bytes.TrimSuffix(text, []byte{'\r'}))
	}
	if len(s.out) > MaxRefs {
		s.out = s.out[:MaxRefs]
	}
	return s.out
}

type scanner struct {
	rel, dir string
	lang     lang
	tokens   bool // split lines into words (docs, config, shell), not literals
	goBlock  bool // inside a Go import ( ... ) block
	out      []Ref
}

func (s *scanner) add(r Ref) { s.out = append(s.out, r) }

func (s *scanner) line(n int, text []byte) {
	if len(bytes.TrimSpace(text)) == 0 {
		return
	}
	str := string(text)
	for _, u := range findURLs(str) {
		s.add(Ref{Line: n, Kind: URL, Value: u, Key: urlKey(u)})
	}
	if imp := s.imports(str); len(imp) > 0 {
		for _, r := range imp {
			r.Line = n
			s.add(r)
		}
		return // an import line holds no other path worth reporting
	}
	var cands []string
	if s.tokens {
		cands = words(str)
	} else {
		cands = literals(str)
	}
	for _, v := range cands {
		if r, ok := s.classify(v); ok {
			r.Line = n
			s.add(r)
		}
	}
}

// urlPattern finds URLs of the schemes code points at (web, git, object
// stores, databases, message queues) and scp-like git remotes.
var urlPattern = regexp.MustCompile(`\b(?:(?:https?|git|ssh|s3|s3a|gs|ftp|ftps|sftp|file|wss?|postgres(?:ql)?|mysql|mariadb|redis|rediss|mongodb(?:\+srv)?|amqps?|sqlite|hdfs|abfss?|jdbc:[a-z]+)://[^\s"'<>()\[\]{}` + "`" + `\\|^]*|git@[A-Za-z0-9.-]+:[A-Za-z0-9._/~-]+)`)

func findURLs(s string) []string {
	if !strings.Contains(s, "://") && !strings.Contains(s, "git@") {
		return nil
	}
	var out []string
	for _, u := range urlPattern.FindAllString(s, -1) {
		u = strings.TrimRight(u, ".,;:!?*")
		if len(u) <= maxValue && !strings.HasSuffix(u, "://") {
			out = append(out, redact(u))
		}
	}
	return out
}

// redact hides the password of a URL's credentials (user:secret@host →
// user:***@host): a report must not spread secrets the code holds.
func redact(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	auth := rest
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return u
	}
	user, _, hasPw := strings.Cut(auth[:at], ":")
	if !hasPw {
		return u
	}
	return scheme + "://" + user + ":***" + rest[at:]
}

// urlKey is scheme://host (lower case), or git@host for scp-like remotes.
func urlKey(u string) string {
	if rest, ok := strings.CutPrefix(u, "git@"); ok {
		host, _, _ := strings.Cut(rest, ":")
		return "git@" + strings.ToLower(host)
	}
	scheme, rest, _ := strings.Cut(u, "://")
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:] // drop credentials
	}
	return strings.ToLower(scheme) + "://" + strings.ToLower(host)
}

// literals returns the contents of the quoted strings of a line (", ', `),
// escapes left as written. A quote without its closing partner ends the
// scan (an apostrophe in prose).
func literals(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != q {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			break
		}
		if v := s[i+1 : j]; v != "" {
			out = append(out, v)
		}
		i = j
	}
	return out
}

// words splits a line of prose, configuration or shell into path-like
// words.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case ' ', '\t', '"', '\'', '`', '(', ')', '[', ']', '<', '>', '{', '}', ',', ';', '=', '|':
			return true
		}
		return false
	})
}

// fsRoots are the top directories an absolute path must start with to be
// taken for a file system path ("/api/users" is a route, "/etc/hosts" a
// file).
var fsRoots = setOf("etc usr var tmp opt home Users dev proc sys mnt srv root bin sbin lib lib32 lib64 " +
	"private Volumes nix run media Library System Applications snap data workspace workspaces code src " +
	"net afs scratch shared export gpfs cluster")

var (
	envPathPattern = regexp.MustCompile(`^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?[/\\]`)
	winEnvPattern  = regexp.MustCompile(`^%([A-Za-z_][A-Za-z0-9_]*)%[/\\]`)
	drivePattern   = regexp.MustCompile(`^[A-Za-z]:[\\/]+[^\\/]`)
)

// classify judges one literal or word.
func (s *scanner) classify(v string) (Ref, bool) {
	v = strings.TrimSpace(v)
	v = strings.TrimRight(v, ".,:;!?")
	if len(v) < 2 || len(v) > maxValue || strings.Contains(v, "://") || strings.ContainsAny(v, "\n\r\t") {
		return Ref{}, false
	}
	switch {
	case strings.HasPrefix(v, "~/"):
		return Ref{Kind: HomePath, Value: v, Key: "~"}, true
	case strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%"):
		if m := envPathPattern.FindStringSubmatch(v); m != nil {
			return Ref{Kind: EnvPath, Value: v, Key: "$" + m[1]}, true
		}
		if m := winEnvPattern.FindStringSubmatch(v); m != nil {
			return Ref{Kind: EnvPath, Value: v, Key: "%" + m[1] + "%"}, true
		}
	case v[1] == ':' && drivePattern.MatchString(v):
		return Ref{Kind: AbsolutePath, Value: v, Key: strings.ToUpper(v[:2])}, true
	case strings.HasPrefix(v, `\\`) && len(v) > 3 && v[2] != '\\':
		host, _, _ := strings.Cut(v[2:], `\`)
		return Ref{Kind: AbsolutePath, Value: v, Key: `\\` + host}, true
	case strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//"):
		top, _, _ := strings.Cut(v[1:], "/")
		if fsRoots[top] && !strings.ContainsAny(v, " %{}*<>?") {
			return Ref{Kind: AbsolutePath, Value: v, Key: "/" + top}, true
		}
	case strings.HasPrefix(v, "../") || strings.HasPrefix(v, "./../") || strings.HasPrefix(v, `..\`):
		if strings.ContainsAny(v, " %{}*<>?") {
			return Ref{}, false
		}
		p := path.Join(s.dir, strings.ReplaceAll(v, `\`, "/"))
		if p == ".." || strings.HasPrefix(p, "../") {
			return Ref{Kind: ParentEscape, Value: v, Key: escapeKey(p)}, true
		}
	}
	return Ref{}, false
}

// escapeKey is the escaped path up to its first directory past the root:
// "../../x/y" → "../../x".
func escapeKey(p string) string {
	segs := strings.Split(p, "/")
	i := 0
	for i < len(segs) && segs[i] == ".." {
		i++
	}
	if i < len(segs) {
		i++
	}
	return strings.Join(segs[:i], "/")
}

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
