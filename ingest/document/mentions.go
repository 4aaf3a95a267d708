package document

import (
	"path"
	"regexp"
	"strings"
)

// MentionKind says how a mention was written, which decides how surely
// it names code.
type MentionKind string

// Mention kinds, from the most to the least specific.
const (
	// MentionPath is a file or directory path ("flask/blueprints.py").
	MentionPath MentionKind = "path"
	// MentionQualified is a qualified name ("Blueprint.register",
	// "http.HandleFunc", "Foo::bar") in prose or a code span.
	MentionQualified MentionKind = "qual"
	// MentionConfig is a configuration key or environment variable
	// ("SESSION_TTL", "M1ND_RUNTIME_DIR").
	MentionConfig MentionKind = "config"
	// MentionIdent is a bare identifier in a code span.
	MentionIdent MentionKind = "ident"
	// MentionWord is an identifier-shaped word of prose (CamelCase,
	// lowerCamel, snake_case): weaker, prose names products and concepts
	// in these shapes too.
	MentionWord MentionKind = "word"
	// MentionCode is a qualified call inside a code block ("ingest.Run(").
	MentionCode MentionKind = "code"
)

// Mention is a code identifier or path a section names.
type Mention struct {
	Kind MentionKind
	Text string
}

// Tag is the node tag a mention is stored as ("mention:qual:Foo.bar").
func (m Mention) Tag() string { return "mention:" + string(m.Kind) + ":" + m.Text }

// ParseMentionTag reads a tag written by Tag.
func ParseMentionTag(tag string) (Mention, bool) {
	rest, ok := strings.CutPrefix(tag, "mention:")
	if !ok {
		return Mention{}, false
	}
	k, text, ok := strings.Cut(rest, ":")
	if !ok || text == "" {
		return Mention{}, false
	}
	switch MentionKind(k) {
	case MentionPath, MentionQualified, MentionConfig, MentionIdent, MentionWord, MentionCode:
		return Mention{Kind: MentionKind(k), Text: text}, true
	}
	return Mention{}, false
}

// MaxMentions bounds the mentions kept per section.
const MaxMentions = 64

// maxSpans bounds the code spans read per section (each is also cut out
// of the prose, which costs a scan).
const maxSpans = 256

// codeExt are the extensions that make a token a file path.
const codeExt = `py|pyi|rs|go|ts|tsx|js|jsx|mjs|cjs|java|kt|kts|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|m|mm|lua|sh|bash|zsh|sql|` +
	`json|toml|yaml|yml|md|markdown|rst|adoc|txt|html|css|scss|vue|svelte|proto|graphql|ex|exs|erl|hs|ml|jl|zig|dart|r|tf|ini|cfg|conf|lock|xml|mod|sum|s`

var (
	pathRe   = regexp.MustCompile(`(?:^|[\s(\["'=,])((?:\.{1,2}/)?[A-Za-z0-9_@.-]+(?:/[A-Za-z0-9_@.-]+)*\.(?:` + codeExt + `))(?::\d+)?(?:$|[\s)\]"',;:.!?])`)
	pathTok  = regexp.MustCompile(`^(?:\.{1,2}/)?[A-Za-z0-9_@.+-]+(?:/[A-Za-z0-9_@.+-]+)*/?$`)
	extRe    = regexp.MustCompile(`\.(?:` + codeExt + `)$`)
	qualRe   = regexp.MustCompile(`(?:^|[^\w./:#-])([A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)+)(\(\))?`)
	camelRe  = regexp.MustCompile(`\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b`)
	snakeRe  = regexp.MustCompile(`\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b`)
	configRe = regexp.MustCompile(`\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b`)
	identRe  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	callRe   = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*\(`)
	urlRe    = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://\S+`)
	recvRe   = regexp.MustCompile(`\(\*?([A-Za-z_][A-Za-z0-9_]*)\)\.`)
	// importSymbolRe: a Go package path and an exported symbol.
	importSymbolRe = regexp.MustCompile(`^[a-z0-9_.-]+(?:/[a-z0-9_.-]+)*/[a-z0-9_]+\.[A-Z][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$`)
	// versionRe: "v0.1.0", a tag rather than a path segment.
	versionRe = regexp.MustCompile(`^v\d+(\.\d+)*$`)
)

// productWords are CamelCase words of prose that name products and
// formats, not code.
var productWords = map[string]bool{
	"javascript": true, "typescript": true, "github": true, "gitlab": true, "bitbucket": true, "postgresql": true, "mysql": true,
	"mongodb": true, "sqlite": true, "redis": true, "graphql": true, "websocket": true, "websockets": true, "oauth": true, "macos": true,
	"ios": true, "iphone": true, "ipad": true, "youtube": true, "linkedin": true, "vscode": true, "jetbrains": true, "intellij": true,
	"openai": true, "chatgpt": true, "powershell": true, "coffeescript": true, "devops": true, "nodejs": true, "openapi": true,
	"protobuf": true, "pypi": true, "npmjs": true, "dockerhub": true, "kubernetes": true, "elasticsearch": true, "freebsd": true,
	"openbsd": true, "netbsd": true, "dragonfly": true, "webassembly": true, "wasm": true, "unicode": true, "utf8": true,
}

// notQualified are dotted words of prose that are no code.
var notQualified = map[string]bool{"com": true, "org": true, "net": true, "io": true, "dev": true, "html": true, "htm": true, "www": true}

// extractMentions collects a section's mentions: spans first (the author
// marked them as code), then prose, then calls in code blocks.
func extractMentions(s *Section) []Mention {
	var out []Mention
	seen := map[Mention]bool{}
	add := func(k MentionKind, t string) {
		t = strings.TrimSpace(t)
		if t == "" || len(t) > 200 || len(out) >= MaxMentions {
			return
		}
		m := Mention{Kind: k, Text: t}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	spans := s.Spans[:min(len(s.Spans), maxSpans)]
	for _, sp := range spans {
		spanMentions(sp, add)
	}
	prose := urlRe.ReplaceAllString(s.Prose(), " ")
	prose = mdLink.ReplaceAllString(prose, "$1")
	for _, sp := range spans { // spans were read already
		prose = removeSpan(prose, sp)
	}
	proseMentions(blankNonCode(prose), add)
	for _, l := range s.Links {
		if l.Resolved != "" && extRe.MatchString(l.Resolved) && !isDocPath(l.Resolved) {
			add(MentionPath, l.Resolved)
		}
	}
	for _, b := range s.Blocks {
		for _, m := range callRe.FindAllStringSubmatch(b.Text, -1) {
			if q, ok := qualified(m[1]); ok {
				add(MentionCode, q)
			}
		}
		for _, m := range pathRe.FindAllStringSubmatch(b.Text, -1) {
			if p, ok := cleanPath(m[1]); ok {
				add(MentionPath, p)
			}
		}
	}
	return out
}

// Prose spells names that are not code in code's shape. A reST or MyST
// cross-reference (":ref:`alembic.command.toplevel`", "{doc}`api.x`")
// names a label, page, term or option: ten of alembic's false findings
// on the held-out run of drift-prose.md were such labels read as
// module-qualified names. A quoted literal after "=", "(" or ","
// ("jobs_key='apscheduler.jobs'" in an autoclass signature) is a string
// value, not a name.
var (
	labelRoleRe   = regexp.MustCompile("(?::(?:std:)?(?:ref|numref|doc|term|option|envvar|keyword|token|download|confval|label)(?::[a-z]+)?:|\\{(?:ref|numref|doc|term|option|envvar|download)\\})`[^`]*`")
	quotedValueRe = regexp.MustCompile(`([=(,]\s*)(?:'[^'\n]*'|"[^"\n]*")`)
)

// blankNonCode blanks cross-reference roles and quoted values in prose.
func blankNonCode(prose string) string {
	prose = labelRoleRe.ReplaceAllString(prose, " ")
	return quotedValueRe.ReplaceAllString(prose, "$1 ")
}

// removeSpan blanks the first whole occurrence of a span's text in the
// prose: a span "Hit" must not cut "textual.command.DiscoveryHit" of a
// link's reference into "textual.command.Discovery" (textual's
// command_palette.md on the held-out run of drift-precision2.md).
func removeSpan(prose, sp string) string {
	for from := 0; ; {
		i := strings.Index(prose[from:], sp)
		if i < 0 || sp == "" {
			return prose
		}
		i += from
		end := i + len(sp)
		if !nameByteAt(prose, i-1) && !nameByteAt(prose, end) {
			return prose[:i] + " " + prose[end:]
		}
		from = i + 1
	}
}

// nameByteAt: the byte at i continues a name (a letter, digit, _ or .).
func nameByteAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// spanMentions reads one code span.
func spanMentions(sp string, add func(MentionKind, string)) {
	sp = strings.TrimSpace(sp)
	if strings.ContainsAny(sp, " \t") || strings.Contains(sp, "://") {
		for _, m := range callRe.FindAllStringSubmatch(sp, -1) {
			if q, ok := qualified(m[1]); ok {
				add(MentionCode, q)
			}
		}
		for _, m := range pathRe.FindAllStringSubmatch(sp, -1) {
			if p, ok := cleanPath(m[1]); ok {
				add(MentionPath, p)
			}
		}
		return
	}
	sp = recvRe.ReplaceAllString(sp, "$1.")
	if i := strings.IndexByte(sp, '('); i > 0 {
		sp = sp[:i]
	}
	sp = strings.TrimRight(sp, ".,;:")
	switch {
	case sp == "":
	case importSymbolRe.MatchString(sp):
		// "core/graph/graphtest.PowerLaw", "net/http.Get": a package path
		// and a symbol — the package directory and "graphtest.PowerLaw".
		i := strings.LastIndexByte(sp, '.')
		dir, sym := sp[:i], sp[i+1:]
		if p, ok := cleanPath(dir); ok {
			add(MentionPath, p)
		}
		if q, ok := qualified(path.Base(dir) + "." + sym); ok {
			add(MentionQualified, q)
		}
	case looksPath(sp):
		if p, ok := cleanPath(sp); ok && !versionRe.MatchString(path.Base(p)) {
			add(MentionPath, p)
		}
	case configRe.MatchString(sp) && configRe.FindString(sp) == sp:
		add(MentionConfig, sp)
	case strings.Contains(sp, ".") || strings.Contains(sp, "::") || strings.Contains(sp, "#"):
		if q, ok := qualified(strings.ReplaceAll(sp, "#", ".")); ok {
			add(MentionQualified, q)
		}
	case identRe.MatchString(sp) && len(sp) >= 3:
		add(MentionIdent, sp)
	}
}

// proseMentions reads prose: paths with a known extension, qualified
// names, configuration keys and distinctive identifiers.
func proseMentions(prose string, add func(MentionKind, string)) {
	for _, m := range pathRe.FindAllStringSubmatch(prose, -1) {
		if p, ok := cleanPath(m[1]); ok && !productName(p) {
			add(MentionPath, p)
		}
	}
	stripped := pathRe.ReplaceAllString(prose, " ")
	for _, m := range qualRe.FindAllStringSubmatch(stripped, -1) {
		if q, ok := qualified(m[1]); ok {
			add(MentionQualified, q)
		}
	}
	for _, m := range configRe.FindAllStringSubmatch(stripped, -1) {
		add(MentionConfig, m[1])
	}
	for _, m := range camelRe.FindAllStringSubmatch(stripped, -1) {
		if !productWords[strings.ToLower(m[1])] {
			add(MentionWord, m[1])
		}
	}
	for _, m := range snakeRe.FindAllStringSubmatch(stripped, -1) {
		add(MentionWord, m[1])
	}
}

// FileNameLike reports whether a dotted token ends in a file extension
// ("alembic.ini", "conf.py"): a file's name, not a module's attribute.
func FileNameLike(s string) bool { return extRe.MatchString(s) }

// productName: "Node.js", "Vue.js" in prose are products, not files.
func productName(p string) bool {
	return !strings.Contains(p, "/") && strings.HasSuffix(p, ".js") && p[0] >= 'A' && p[0] <= 'Z'
}

// qualified normalizes a dotted or ::-separated name; false for dotted
// words that are not code (domains, abbreviations, version numbers).
func qualified(s string) (string, bool) {
	s = strings.ReplaceAll(s, "::", ".")
	segs := strings.Split(s, ".")
	if len(segs) < 2 || len(segs) > 8 {
		return "", false
	}
	for _, g := range segs {
		if len(g) < 2 || !identRe.MatchString(g) {
			return "", false
		}
	}
	if notQualified[strings.ToLower(segs[len(segs)-1])] || extRe.MatchString(s) {
		return "", false
	}
	return s, true
}

// looksPath reports whether a code span is a path: a known extension, or
// at least two slash-separated segments.
func looksPath(s string) bool {
	if !pathTok.MatchString(s) {
		return false
	}
	if extRe.MatchString(s) || len(s) > 1 && strings.HasSuffix(s, "/") {
		return true
	}
	t := strings.Trim(strings.TrimPrefix(s, "./"), "/")
	return strings.Count(t, "/") >= 1 && !strings.Contains(t, "//")
}

// cleanPath normalizes a mentioned path; false for what cannot name a
// file inside a repository.
func cleanPath(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, ':'); i > 0 && allDigits(s[i+1:]) {
		s = s[:i]
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/")
	s = strings.TrimSuffix(s, "/")
	if s == "" || strings.HasPrefix(s, "../") || s == ".." {
		return "", false
	}
	c := path.Clean(s)
	if c == "." || strings.HasPrefix(c, "..") {
		return "", false
	}
	return c, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// isDocPath reports whether p names a document rather than code.
func isDocPath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".txt", ".html", ".htm", ".bib", ".pdf", ".docx":
		return true
	}
	return false
}

// resolveLink resolves a link target against the path of the document it
// is in: the repository-relative path of a local file, "" for URLs,
// pure anchors and paths leaving the repository.
func resolveLink(docPath, target string) string {
	t := strings.TrimSpace(target)
	if t == "" || t[0] == '#' || strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") || strings.HasPrefix(t, "data:") {
		return ""
	}
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		t = t[:i]
	}
	if t == "" {
		return ""
	}
	var p string
	if strings.HasPrefix(t, "/") {
		p = path.Clean(strings.TrimPrefix(t, "/"))
	} else {
		p = path.Join(path.Dir(docPath), t)
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}
