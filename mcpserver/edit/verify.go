package edit

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// Verdicts of a verified batch (docs/design.md#file-writes).
const (
	Safe   = "SAFE"
	Risky  = "RISKY"
	Broken = "BROKEN"
)

// Finding is one signal of layers A and E: where, what, and how much it
// weighs (severity "broken", "warning" or "info").
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Symbol   string `json:"symbol,omitempty"`
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Detail   string `json:"detail"`
}

// Layer A — trivial content. A function whose body was real logic and is
// now a stub (pass, ..., a constant return, panic("TODO"), todo!(),
// raise NotImplementedError, ...) is a stub replacing logic: the file
// compiles and does nothing. Every function of a file becoming trivial
// while the file had logic is the same, file-wide. A new file made of
// stubs only is reported as a warning (scaffolding is legitimate).

// trivialStmt matches one normalized statement that does nothing real.
var trivialStmt = regexp.MustCompile(`^(?:` + strings.Join([]string{
	`pass`, `\.\.\.`, `return;?`,
	`return\s+(?:None|nil|null|undefined|0|1|-1|0\.0|true|false|True|False|""|''|\[\]|\{\}|\(\)|self|this)\s*;?`,
	`return\s+(?:nil|0|""|false|None|null),\s*(?:nil|None|null)`,
	`return\s+(?:nil|0|""|false)?,?\s*(?:errors\.New|fmt\.Errorf)\("[^"]*"\)`,
	`raise\s+NotImplementedError(?:\(.*\))?`, `raise\s+Exception\(\s*["'](?i:todo|not implemented|unimplemented)[^"']*["']\s*\)`,
	`panic\(\s*"[^"]*"\s*\);?`, `panic!\(.*\);?`,
	`todo!\(.*\);?`, `unimplemented!\(.*\);?`, `unreachable!\(\s*\);?`,
	`throw\s+new\s+(?:Error|NotImplementedException|UnsupportedOperationException|NotImplementedError)\(.*\);?`,
	`Ok\(\(\)\)`, `None`, `0`, `\(\)`, `Default::default\(\)`, `Vec::new\(\)`, `String::new\(\)`, `true`, `false`,
	`return\s+(?:Ok\(\(\)\)|Default::default\(\));?`,
}, "|") + `)$`)

var (
	lineComment  = regexp.MustCompile(`^\s*(?://|#|--)`)
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	docString    = regexp.MustCompile(`(?s)^\s*(?:"""|''').*?(?:"""|''')\s*`)
)

// bodyOf returns the statements of a function's source (its lines as the
// extractor gave them), comments and docstrings removed, or ok false when
// the body cannot be told apart from the signature.
func bodyOf(src, lang string) (stmts []string, ok bool) {
	var body string
	switch lang {
	case "python":
		// The body starts after the line that ends the signature (":").
		ls := strings.Split(src, "\n")
		start := -1
		for i, l := range ls {
			if strings.HasSuffix(strings.TrimSpace(stripHash(l)), ":") {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, false
		}
		body = docString.ReplaceAllString(strings.Join(ls[start:], "\n"), "")
	case "ruby":
		ls := strings.Split(strings.TrimSpace(src), "\n")
		if len(ls) < 2 {
			return nil, false
		}
		body = strings.Join(ls[1:len(ls)-1], "\n")
	default:
		i, j := strings.IndexByte(src, '{'), strings.LastIndexByte(src, '}')
		if i < 0 || j <= i {
			return nil, false
		}
		body = src[i+1 : j]
	}
	body = blockComment.ReplaceAllString(body, "")
	for _, l := range strings.Split(body, "\n") {
		if lineComment.MatchString(l) {
			continue
		}
		for _, s := range strings.Split(l, ";") {
			if s = strings.TrimSpace(s); s != "" {
				stmts = append(stmts, s)
			}
		}
	}
	return stmts, true
}

func stripHash(l string) string {
	if i := strings.Index(l, "#"); i >= 0 {
		return l[:i]
	}
	return l
}

// trivial reports whether statements do nothing real.
func trivial(stmts []string) bool {
	switch len(stmts) {
	case 0:
		return true
	case 1:
		return trivialStmt.MatchString(stmts[0])
	}
	return false
}

type fn struct {
	id, label string
	line      int
	trivial   bool
	abstract  bool
}

// functions extracts the functions of a file with whether each is
// trivial; ok false for a file no extractor understands.
func functions(rel string, src []byte) ([]fn, bool) {
	r, err := extract.ExtractFile(rel, src)
	if r == nil || err != nil && len(r.Nodes) == 0 {
		return nil, false
	}
	lang := r.Language
	lines := strings.Split(string(src), "\n")
	var out []fn
	for _, n := range r.Nodes {
		if n.Type != graph.Function || n.Line == 0 || int(n.EndLine) > len(lines) || n.EndLine < n.Line {
			continue
		}
		text := strings.Join(lines[n.Line-1:n.EndLine], "\n")
		stmts, ok := bodyOf(text, lang)
		if !ok {
			continue
		}
		f := fn{id: n.ID, label: n.Label, line: int(n.Line), trivial: trivial(stmts)}
		if n.Line >= 2 {
			prev := strings.TrimSpace(lines[n.Line-2])
			f.abstract = strings.HasPrefix(prev, "@abstractmethod") || strings.HasPrefix(prev, "@abc.abstractmethod") || strings.HasPrefix(prev, "@overload") || strings.HasPrefix(prev, "@typing.overload")
		}
		out = append(out, f)
	}
	return out, true
}

// Stubs is layer A for one file (rel is its root-relative path; old is
// nil for a new file).
func Stubs(rel string, old, next []byte, existed bool) []Finding {
	nf, ok := functions(rel, next)
	if !ok || len(nf) == 0 {
		return nil
	}
	var of []fn
	if existed {
		of, _ = functions(rel, old)
	}
	real := map[string]bool{}
	oldLogic := false
	for _, f := range of {
		if !f.trivial {
			real[f.id], oldLogic = true, true
		}
	}
	var out []Finding
	allTrivial := true
	for _, f := range nf {
		if !f.trivial || f.abstract {
			allTrivial = allTrivial && f.abstract
			continue
		}
		if real[f.id] {
			out = append(out, Finding{File: rel, Line: f.line, Symbol: f.label, Kind: "stub_replaced_logic", Severity: "broken",
				Detail: f.label + " had real logic and is now a stub (its body does nothing but pass, return a constant, or raise/panic \"not implemented\")"})
		}
	}
	switch {
	case !allTrivial:
	case existed && oldLogic && len(out) == 0:
		out = append(out, Finding{File: rel, Kind: "trivial_only", Severity: "broken",
			Detail: "every function of the file is now trivial while it had real logic before"})
	case !existed:
		out = append(out, Finding{File: rel, Kind: "stub_file", Severity: "warning",
			Detail: "the new file's functions are all stubs"})
	}
	return out
}

// Layer E — anti-patterns the diff introduces: each pattern counts in
// the added lines only (so what was there before is not blamed on the
// edit), some only where the old file had none.

type antiPattern struct {
	kind, severity, detail string
	langs                  []string // extensions; nil for every file
	re                     *regexp.Regexp
	// newToFile: only when the old contents had no match at all.
	newToFile bool
	// nonTest: only outside test files.
	nonTest bool
	// testOnly: only in test files.
	testOnly bool
}

var antiPatterns = []antiPattern{
	{kind: "todo_macro", severity: "warning", detail: "todo!()/unimplemented!() inserted: a stub replacing logic", langs: []string{".rs"}, re: regexp.MustCompile(`\b(?:todo|unimplemented)!\(`)},
	{kind: "unwrap_added", severity: "warning", detail: ".unwrap() added where the file had none: error handling removed", langs: []string{".rs"}, re: regexp.MustCompile(`\.unwrap\(\)`), newToFile: true},
	{kind: "panic_added", severity: "warning", detail: "panic!/unreachable! in non-test code: a crash path", langs: []string{".rs"}, re: regexp.MustCompile(`\b(?:panic|unreachable)!\(`), nonTest: true},
	{kind: "panic_added", severity: "warning", detail: "panic(...) in non-test code: a crash path", langs: []string{".go"}, re: regexp.MustCompile(`(?:^|[^\w.])panic\(`), nonTest: true},
	{kind: "error_discarded", severity: "warning", detail: "an error assigned to _ : silently ignored", langs: []string{".go"}, re: regexp.MustCompile(`^\s*_\s*=\s*err\b|,\s*_\s*(?::=|=)\s*\w+\.\w+\(.*\)\s*$`)},
	{kind: "empty_error_branch", severity: "warning", detail: "if err != nil {} with an empty body: the error is swallowed", langs: []string{".go"}, re: regexp.MustCompile(`if\s+err\s*!=\s*nil\s*\{\s*\}`)},
	{kind: "bare_except", severity: "warning", detail: "bare except: catches everything, SystemExit and KeyboardInterrupt included", langs: []string{".py"}, re: regexp.MustCompile(`^\s*except\s*:`)},
	{kind: "empty_except", severity: "warning", detail: "except block that only passes: silent error swallowing", langs: []string{".py"}, re: regexp.MustCompile(`(?m)^\s*except\b[^:\n]*:\s*(?:pass|\.\.\.)?\s*\n\s*(?:pass|\.\.\.)\s*$|^\s*except\b[^:\n]*:\s*(?:pass|\.\.\.)\s*$`)},
	{kind: "not_implemented", severity: "warning", detail: "raise NotImplementedError inserted: a stub", langs: []string{".py"}, re: regexp.MustCompile(`raise\s+NotImplementedError`)},
	{kind: "empty_catch", severity: "warning", detail: "empty catch block: silent error swallowing", langs: []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".java", ".kt", ".cs", ".php", ".scala", ".swift", ".dart"}, re: regexp.MustCompile(`catch\s*(?:\([^)]*\))?\s*\{\s*\}`)},
	{kind: "test_disabled", severity: "warning", detail: "a test is skipped or focused", langs: []string{".py"}, re: regexp.MustCompile(`@pytest\.mark\.skip|pytest\.skip\(|@unittest\.skip|self\.skipTest\(`)},
	{kind: "test_disabled", severity: "warning", detail: "a test is skipped", langs: []string{".go"}, re: regexp.MustCompile(`\bt\.Skip(?:f|Now)?\(`), testOnly: true},
	{kind: "test_disabled", severity: "warning", detail: "a test is skipped or focused", langs: []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"}, re: regexp.MustCompile(`\b(?:it|describe|test)\.(?:skip|only)\(|\bx(?:it|describe)\(`)},
	{kind: "test_disabled", severity: "warning", detail: "a test is ignored", langs: []string{".java", ".kt", ".rs"}, re: regexp.MustCompile(`@Ignore\b|@Disabled\b|#\[ignore\]`)},
	{kind: "checker_silenced", severity: "info", detail: "a type checker or linter is silenced", re: regexp.MustCompile(`#\s*type:\s*ignore|@ts-ignore|@ts-nocheck|eslint-disable|//\s*nolint|#\s*noqa|#\[allow\(`)},
	{kind: "todo_marker", severity: "info", detail: "TODO/FIXME left in the code", re: regexp.MustCompile(`\b(?:TODO|FIXME|XXX|HACK)\b`)},
}

// errorHandling counts a language's error-handling constructs, to tell
// when an edit removed them (replaced a handler with a no-op).
var errorHandling = map[string]*regexp.Regexp{
	".go": regexp.MustCompile(`\berr\s*!=\s*nil`),
	".py": regexp.MustCompile(`(?m)^\s*except\b`),
	".js": regexp.MustCompile(`\bcatch\b`), ".ts": regexp.MustCompile(`\bcatch\b`), ".tsx": regexp.MustCompile(`\bcatch\b`), ".jsx": regexp.MustCompile(`\bcatch\b`),
	".java": regexp.MustCompile(`\bcatch\b`), ".kt": regexp.MustCompile(`\bcatch\b`), ".cs": regexp.MustCompile(`\bcatch\b`),
	".rs": regexp.MustCompile(`\?\s*;|\bmatch\b|\bif let Err\b|\.map_err\(`),
}

// IsTestFile reports whether a path names a test by the usual conventions.
func IsTestFile(rel string) bool {
	base := path.Base(rel)
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"), strings.HasSuffix(base, "_test.py"),
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."), strings.HasSuffix(base, "_spec.rb"):
		return true
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if d == "tests" || d == "__tests__" || d == "test" {
			return true
		}
	}
	return false
}

// AntiPatterns is layer E for one file: what the lines the edit added
// introduce, and error handling it removed.
func AntiPatterns(rel string, old, next []byte) []Finding {
	ext := strings.ToLower(path.Ext(rel))
	added, _ := Added(old, next)
	if len(added) == 0 {
		return nil
	}
	isTest := IsTestFile(rel)
	var text strings.Builder
	for _, l := range added {
		text.WriteString(l.Text + "\n")
	}
	var out []Finding
	for _, p := range antiPatterns {
		if (p.langs != nil && !slices.Contains(p.langs, ext)) || (p.nonTest && isTest) || (p.testOnly && !isTest) {
			continue
		}
		if p.newToFile && p.re.Match(old) {
			continue
		}
		if line := firstMatch(p.re, added, text.String()); line > 0 {
			out = append(out, Finding{File: rel, Line: line, Kind: p.kind, Severity: p.severity, Detail: p.detail})
		}
	}
	if re := errorHandling[ext]; re != nil {
		if o, n := len(re.FindAllIndex(old, -1)), len(re.FindAllIndex(next, -1)); n < o {
			out = append(out, Finding{File: rel, Kind: "error_handling_removed", Severity: "warning",
				Detail: "error handling removed: " + strconv.Itoa(o) + " handlers before, " + strconv.Itoa(n) + " after"})
		}
	}
	return out
}

// firstMatch returns the line of the first added line a pattern matches
// (patterns spanning lines are matched on the added text as a whole).
func firstMatch(re *regexp.Regexp, added []Line, joined string) int {
	for _, l := range added {
		if re.MatchString(l.Text) {
			return l.N
		}
	}
	if loc := re.FindStringIndex(joined); loc != nil {
		return added[strings.Count(joined[:loc[0]], "\n")].N
	}
	return 0
}

// Decide is Verdict without removed names: the layers A, B, D and E and
// the graph's shrinkage. Reasons say why, one sentence each, in layer
// order.
func Decide(stubs []Finding, compile []Check, tests []Check, anti []Finding, graphShrank string) (verdict string, reasons []string) {
	return Verdict(Evidence{Stubs: stubs, Compile: compile, Tests: tests, Anti: anti, GraphShrank: graphShrank})
}

// Removed names. A name the edit removes (or renames) from a file breaks
// every file that still uses it: RemovedSymbols compares what the file
// declares before and after, and NameUse confirms a user in its text (the
// graph says who depends on the file; the text says whether the name is
// still there).

// Symbol is a name a file declares: at its top level, or as a member
// (method, field) of a type it declares.
type Symbol struct {
	Name string `json:"name"`
	// Qualified is Name with its owner type: node.getValue.
	Qualified string `json:"qualified"`
	Line      int    `json:"line,omitempty"`
	// Member: a method or field of a type, used as x.Name.
	Member bool `json:"member,omitempty"`
	// RenamedTo is the name the edit added in the same place, when it
	// removed one and added one there (a rename, probably).
	RenamedTo string `json:"renamed_to,omitempty"`
	owner     string
	// params are a method's parameter types in a language with
	// overloads (Params); overload: the removal was of one of several
	// methods of its name.
	params                []string
	paramsKnown, overload bool
}

// Declared lists the symbols a file declares, by node ID; ok false when no
// extractor understands the file. Nested functions are left out (no other
// file can name them), and so are names used implicitly (__init__, init,
// main).
func Declared(rel string, src []byte) (syms map[string]Symbol, pkg string, ok bool) {
	r, err := extract.ExtractFile(rel, src)
	if r == nil || err != nil && len(r.Nodes) == 0 {
		return nil, "", false
	}
	fileID := extract.FileID(r.Path)
	if r.Path == "" {
		fileID = extract.FileID(rel)
	}
	nodes := map[string]extract.Node{}
	for _, n := range r.Nodes {
		nodes[n.ID] = n
	}
	parent := map[string]string{}
	for _, e := range r.Edges {
		if e.Relation == extract.RelContains {
			parent[e.Target] = e.Source
		}
	}
	syms = map[string]Symbol{}
	for _, n := range r.Nodes {
		switch n.Type {
		case graph.File, graph.Directory, graph.Module, graph.Reference:
			continue
		}
		if implicitName(n.Label) || !strings.HasPrefix(n.ID, fileID+"::") {
			continue
		}
		p, ok := parent[n.ID]
		if !ok {
			p = n.ID[:strings.LastIndex(n.ID, "::")]
		}
		s := Symbol{Name: n.Label, Qualified: n.Label, Line: int(n.Line)}
		if p != fileID {
			// A member of a type (or of a type declared in another file
			// of the package: Go methods), the type at the top level or
			// inside namespaces and modules (Ruby's Sinatra::Base, C#'s
			// Acme.Shop): its innermost owner names it.
			rest := strings.TrimPrefix(p, fileID+"::")
			if !ownedByTypes(nodes, fileID, p) {
				continue // nested in a function
			}
			owner := rest
			if i := strings.LastIndex(rest, "::"); i >= 0 {
				owner = rest[i+len("::"):]
			}
			s.Member, s.owner, s.Qualified = true, owner, owner+"."+n.Label
		}
		syms[n.ID] = s
	}
	withParams(rel, src, syms)
	return syms, r.Package, true
}

// ownedByTypes reports whether every entity from p up to the file is a
// type or a module (an unknown one counts: a type of another file).
func ownedByTypes(nodes map[string]extract.Node, fileID, p string) bool {
	for ; p != fileID && strings.HasPrefix(p, fileID+"::"); p = p[:strings.LastIndex(p, "::")] {
		if n, known := nodes[p]; known && !isTypeNode(n.Type) && n.Type != graph.Module {
			return false
		}
	}
	return true
}

func isTypeNode(t graph.NodeType) bool {
	return t == graph.Class || t == graph.Struct || t == graph.Type || t == graph.Enum
}

// implicitName: names the language calls by itself, never by name from
// another file.
func implicitName(n string) bool {
	return len(n) < 2 || strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__") || n == "init" || n == "main" || n == "constructor"
}

// RemovedSymbols lists the symbols old declares and next no longer does
// (a rename shows as one removed and one added in the same place: the
// removed one says what it became).
func RemovedSymbols(rel string, old, next []byte) []Symbol {
	before, _, ok := Declared(rel, old)
	if !ok {
		return nil
	}
	after, _, _ := Declared(rel, next)
	still := map[string][]Symbol{}
	for _, s := range after {
		still[s.Qualified] = append(still[s.Qualified], s)
	}
	count := map[string]int{}
	for _, s := range before {
		count[s.Qualified]++
	}
	added := map[string][]string{} // owner → names added there
	for id, s := range after {
		if _, ok := before[id]; !ok {
			added[s.owner] = append(added[s.owner], s.Name)
		}
	}
	removedAt := map[string]int{}
	var out []Symbol
	for id, s := range before {
		if _, ok := after[id]; ok && count[s.Qualified] < 2 || len(still[s.Qualified]) > 0 && !overloadGone(s, count[s.Qualified], still[s.Qualified]) {
			continue
		}
		s.overload = len(still[s.Qualified]) > 0
		removedAt[s.owner]++
		out = append(out, s)
	}
	for i := range out {
		if a := added[out[i].owner]; len(a) == 1 && removedAt[out[i].owner] == 1 {
			out[i].RenamedTo = a[0]
		}
	}
	slices.SortFunc(out, func(a, b Symbol) int { return strings.Compare(a.Signature(), b.Signature()) })
	return out
}

// overloadGone: s was one of several methods of its name (n before the
// edit, or several after it) and none of those left (kept) declares its
// parameter types. Overload IDs are given in order of declaration, so
// they move when one goes: parameters, not IDs, tell which one went.
func overloadGone(s Symbol, n int, kept []Symbol) bool {
	if !s.paramsKnown || n < 2 && len(kept) < 2 {
		return false
	}
	for _, k := range kept {
		if k.paramsKnown && slices.Equal(k.params, s.params) {
			return false
		}
	}
	return true
}

var (
	pyFromImport  = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)`)
	jsNamedImport = regexp.MustCompile(`(?s)(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]` +
		`|\{([^}]*)\}\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)`)
)

// NameUse looks for sym, which the edit removed from the file written
// (writtenRel; pkg its Go package), in a user's text: the first line that
// names it, and whether that use surely means the removed symbol (an
// import of it from the written module, a qualified use, a Go use from the
// same package) rather than something of the same name.
func NameUse(userRel string, src []byte, writtenRel, pkg string, sym Symbol) (line int, sure bool, text string) {
	word := regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(sym.Name) + `(?:[^\w$]|$)`)
	if sym.Member {
		// x.m, and PHP's and C++'s x->m, and static Foo::m (PHP, Rust, C++).
		word = regexp.MustCompile(`(?:\.|->|::)` + regexp.QuoteMeta(sym.Name) + `(?:[^\w$]|$)`)
	}
	s := string(src)
	lineAt := func(off int) (int, string) {
		n := strings.Count(s[:off], "\n") + 1
		start := strings.LastIndexByte(s[:off], '\n') + 1
		end := strings.IndexByte(s[off:], '\n')
		if end < 0 {
			end = len(s) - off
		}
		return n, strings.TrimSpace(s[start : off+end])
	}
	stem := strings.TrimSuffix(path.Base(writtenRel), path.Ext(writtenRel))
	if stem == "__init__" || stem == "index" {
		stem = path.Base(path.Dir(writtenRel))
	}
	ext := strings.ToLower(path.Ext(userRel))
	if !sym.Member {
		switch {
		case ext == ".py":
			for _, m := range pyFromImport.FindAllStringSubmatchIndex(s, -1) {
				mod := s[m[2]:m[3]]
				last := mod[strings.LastIndexByte(mod, '.')+1:]
				if (last == stem || last == "" && path.Base(writtenRel) == "__init__.py") && importsName(s[m[4]:m[5]], sym.Name) {
					l, t := lineAt(m[0])
					return l, true, t
				}
			}
		case slices.Contains([]string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"}, ext):
			for _, m := range jsNamedImport.FindAllStringSubmatchIndex(s, -1) {
				names, from := "", ""
				if m[2] >= 0 {
					names, from = s[m[2]:m[3]], s[m[4]:m[5]]
				} else {
					names, from = s[m[6]:m[7]], s[m[8]:m[9]]
				}
				base := path.Base(from)
				base = strings.TrimSuffix(base, path.Ext(base))
				if (base == stem || base == "index" && path.Base(path.Dir(from)) == stem) && importsName(names, sym.Name) {
					l, t := lineAt(m[0])
					return l, true, t
				}
			}
		case ext == ".go" && path.Dir(userRel) == path.Dir(writtenRel):
			if l, t := firstCodeMatch(s, word, lineAt); l > 0 {
				return l, true, t
			}
		}
		q := stem
		if ext == ".go" && pkg != "" {
			q = pkg
		}
		qual := regexp.MustCompile(`\b` + regexp.QuoteMeta(q) + `(?:\.|::)` + regexp.QuoteMeta(sym.Name) + `\b`)
		if l, t := firstCodeMatch(s, qual, lineAt); l > 0 {
			return l, true, t
		}
	}
	l, t := firstCodeMatch(s, word, lineAt)
	return l, false, t
}

// importsName reports whether an import list ("a, b as c", "(a,\n b)",
// "{ a, type b }") names name.
func importsName(list, name string) bool {
	list = strings.NewReplacer("(", " ", ")", " ", "{", " ", "}", " ", "\n", " ", "\\", " ").Replace(list)
	for _, part := range strings.Split(list, ",") {
		f := strings.Fields(part)
		if len(f) > 1 && f[0] == "type" {
			f = f[1:]
		}
		if len(f) > 0 && f[0] == name {
			return true
		}
	}
	return false
}

// firstCodeMatch is the first match of re on a line that is not a comment.
func firstCodeMatch(s string, re *regexp.Regexp, lineAt func(int) (int, string)) (int, string) {
	for _, m := range re.FindAllStringIndex(s, -1) {
		l, t := lineAt(m[0])
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*") {
			continue
		}
		return l, t
	}
	return 0, ""
}

// Evidence is what the layers found, for the verdict.
type Evidence struct {
	Stubs   []Finding
	Compile []Check
	// Removed are the uses of names the edit removed (layer C's users of
	// the written files, confirmed in their text).
	Removed     []Finding
	Tests       []Check
	Anti        []Finding
	GraphShrank string
}

// Verdict is Decide over every layer, removed names included:
//
//   - BROKEN: a blocking check failed (build, compile, import of the
//     written files and their importers, type check, tests that could not
//     even be collected or built), layer A found a stub replacing logic,
//     or a file outside the batch still imports or uses by name a symbol
//     the edit removed — the batch is restored;
//   - RISKY: accepted with warnings — tests failed or timed out, go vet
//     complained, a removed name may still be used (a method name, a test
//     file, a match by name only), anti-patterns appeared, a check could
//     not finish, or the graph lost symbols of the files written;
//   - SAFE otherwise.
//
// Failures that happen without the edit too (status pre_existing) weigh
// nothing: they are the baseline's, not the edit's.
func Verdict(e Evidence) (verdict string, reasons []string) {
	broken, risky := false, false
	for _, f := range e.Stubs {
		reasons = append(reasons, "A: "+f.File+": "+f.Detail)
		broken = broken || f.Severity == "broken"
		risky = risky || f.Severity == "warning"
	}
	for _, c := range e.Compile {
		switch {
		case c.Status == "failed" && c.Blocking:
			broken = true
			reasons = append(reasons, "B: "+c.Command+" failed (exit "+strconv.Itoa(c.ExitCode)+")"+firstLine(c.Reason, ": "))
		case c.Status == "failed", c.Status == "timeout", c.Status == "error":
			risky = true
			reasons = append(reasons, "B: "+c.Command+" "+c.Status)
		}
	}
	for _, f := range e.Removed {
		switch f.Severity {
		case "broken":
			broken = true
		case "warning":
			risky = true
		default:
			continue
		}
		reasons = append(reasons, "C: "+f.File+":"+strconv.Itoa(f.Line)+": "+f.Detail)
	}
	for _, c := range e.Tests {
		switch {
		case c.Status == "failed" && c.Blocking:
			broken = true
			reasons = append(reasons, "D: tests could not run ("+c.Command+")"+firstLine(c.Reason, ": "))
		case c.Status == "failed":
			risky = true
			reasons = append(reasons, "D: "+strconv.Itoa(c.TestsFailed)+" of "+strconv.Itoa(c.TestsRun)+" tests failed ("+c.Command+")")
		case c.Status == "timeout", c.Status == "error":
			risky = true
			reasons = append(reasons, "D: "+c.Command+" "+c.Status)
		}
	}
	for _, f := range e.Anti {
		if f.Severity == "warning" {
			risky = true
			reasons = append(reasons, "E: "+f.File+":"+strconv.Itoa(f.Line)+": "+f.Detail)
		}
	}
	if e.GraphShrank != "" {
		risky = true
		reasons = append(reasons, "graph: "+e.GraphShrank)
	}
	if !broken && !risky && unexercised(e) {
		risky = true
		reasons = append(reasons, "B/D: nothing beyond syntax ran the written code: its imports and tests fail without the edit too (pre_existing_failures says why, e.g. a missing dependency); read the change by hand or fix the environment and verify again")
	}
	switch {
	case broken:
		return Broken, reasons
	case risky:
		return Risky, reasons
	}
	return Safe, reasons
}

// unexercised: the checks that would have run the written code (imports,
// tests) all failed without the edit too, and nothing but a syntax check
// passed — a SAFE there would claim what no check saw (a renamed Python
// function still called in its own file was SAFE while a missing
// dependency stopped every import). A compiler's pre-existing failure
// is evidence still: its errors were compared, and the edit added none.
func unexercised(e Evidence) bool {
	pre, ran := false, false
	for _, c := range slices.Concat(e.Compile, e.Tests) {
		compiler := c.Layer == "B" && c.Language != "python" && c.Language != "javascript"
		switch {
		case c.Status == "pre_existing" && compiler:
			ran = true
		case c.Status == "pre_existing":
			pre = true
		case c.Status == "passed" && !c.Syntax:
			ran = true
		}
	}
	return pre && !ran
}

func firstLine(s, sep string) string {
	if s == "" {
		return ""
	}
	s, _, _ = strings.Cut(s, "\n")
	return sep + s
}

// The baseline. A failure the edit did not cause is not the edit's: a
// check that fails is run again on the code as it was, and what fails
// there too is reported as pre-existing (PreExisting), not blamed. The
// previous contents are never put back on disk for that (other agents
// read the tree meanwhile): they go to a temporary directory that Go's
// -overlay and a Python import hook read instead of the written files.

// Old is a written file's previous contents.
type Old struct {
	Abs     string // real absolute path
	Data    []byte
	Existed bool
}

// Baseline is the batch's previous contents, ready for the checks.
type Baseline struct {
	dir       string
	goOverlay string // go build -overlay file
	pyTable   string // the Python import hook's table
	hasGo     bool
	hasPy     bool
}

// NewBaseline writes the previous contents to a temporary directory (nil
// and the error when it cannot: the checks then run without baseline).
func NewBaseline(olds []Old) (*Baseline, error) {
	dir, err := os.MkdirTemp("", "m1nd-baseline-")
	if err != nil {
		return nil, err
	}
	b := &Baseline{dir: dir}
	goRep := map[string]string{}
	pyRep := map[string]*string{}
	for i, o := range olds {
		alt := ""
		if o.Existed {
			alt = filepath.Join(dir, strconv.Itoa(i)+filepath.Ext(o.Abs))
			if err := os.WriteFile(alt, o.Data, 0o600); err != nil {
				b.Close()
				return nil, err
			}
		}
		switch strings.ToLower(filepath.Ext(o.Abs)) {
		case ".go":
			goRep[o.Abs] = alt // "" deletes the file
			b.hasGo = true
		case ".py":
			if alt == "" {
				pyRep[o.Abs] = nil
			} else {
				a := alt
				pyRep[o.Abs] = &a
			}
			b.hasPy = true
		}
	}
	write := func(name string, v any) (string, error) {
		data, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		p := filepath.Join(dir, name)
		return p, os.WriteFile(p, data, 0o600)
	}
	if b.goOverlay, err = write("overlay.json", map[string]any{"Replace": goRep}); err == nil {
		b.pyTable, err = write("python.json", pyRep)
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// Close removes the temporary directory.
func (b *Baseline) Close() {
	if b != nil {
		os.RemoveAll(b.dir)
	}
}

// PreExisting is a failure that happens without the edit too: the
// baseline run of the same check fails the same way.
type PreExisting struct {
	Layer    string   `json:"layer" jsonschema:"B (build, import) or D (tests)."`
	Language string   `json:"language"`
	Command  string   `json:"command"`
	Failures []string `json:"failures" jsonschema:"What fails with and without the edit: test names, modules that do not import, compiler messages."`
	Detail   string   `json:"detail"`
}

// Layer B, Python: import the written modules and their importers.
// Compiling a file finds its syntax errors, not that it imports a name the
// edit removed; importing it does. Each module is imported in one Python
// process (the package's parent, the root and root/src on sys.path, no
// bytecode written); a file that is in no package cannot be imported
// without running it as a script and is only compiled. What fails is
// imported again on the baseline: a module that fails the same way
// without the edit (a missing third-party package) is pre-existing.

// pyBoot installs, when M1ND_BASELINE names a table {real path: previous
// contents' file, or null for a file the edit created}, an import hook
// that loads the previous contents of those files (and no bytecode).
const pyBoot = `import importlib, importlib.machinery, importlib.util, json, os, sys
def _m1nd_baseline():
    p = os.environ.get("M1ND_BASELINE")
    if not p:
        return
    with open(p) as h:
        table = {os.path.realpath(k): v for k, v in json.load(h).items()}
    class Loader(importlib.machinery.SourceFileLoader):
        def get_data(self, path):
            alt = table.get(os.path.realpath(path))
            if alt:
                with open(alt, "rb") as h:
                    return h.read()
            return super().get_data(path)
        def path_stats(self, path):
            if os.path.realpath(path) in table:
                raise OSError("baseline: no bytecode")
            return super().path_stats(path)
    class Finder:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            spec = importlib.machinery.PathFinder.find_spec(name, path, target)
            if spec is None or not spec.origin:
                return spec
            real = os.path.realpath(spec.origin)
            if real not in table:
                return spec
            if table[real] is None:
                raise ModuleNotFoundError("No module named %r (the edit creates it)" % name, name=name)
            return importlib.util.spec_from_file_location(name, spec.origin, loader=Loader(name, spec.origin),
                submodule_search_locations=spec.submodule_search_locations)
        @classmethod
        def invalidate_caches(cls):
            pass
    sys.meta_path.insert(0, Finder)
_m1nd_baseline()
`

const pyImportScript = pyBoot + `import traceback
mods = json.loads(sys.argv[1])
root = sys.argv[2]
for mod, f in mods:
    res = {"module": mod, "file": f, "ok": True}
    try:
        importlib.import_module(mod)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        where = ""
        if isinstance(e, SyntaxError) and e.filename:
            where = "%s:%s" % (e.filename, e.lineno)
        else:
            for fr in reversed(traceback.extract_tb(e.__traceback__)):
                if fr.filename.startswith(root):
                    where = "%s:%s" % (fr.filename, fr.lineno)
                    break
        res = {"module": mod, "file": f, "ok": False, "error": "%s: %s" % (type(e).__name__, e), "where": where}
    sys.__stdout__.write("\n@@m1nd-import@@ " + json.dumps(res) + "\n")
    sys.__stdout__.flush()
`

// pyRunModule runs a module as python -m would, after the hook.
const pyRunModule = pyBoot + `import runpy
mod = sys.argv[1]
sys.argv = [mod] + sys.argv[2:]
runpy.run_module(mod, run_name="__main__", alter_sys=True)
`

var pyIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// pyScripts are files meant to be run, not imported.
var pyScripts = []string{"setup.py", "conftest.py", "__main__.py", "manage.py", "noxfile.py", "fabfile.py", "wsgi.py", "asgi.py"}

// PyModule is the module a Python file is imported as, and the sys.path
// entry it is imported from: the parent of its outermost regular package
// (a directory with __init__.py), else root/src for files under it; ok
// false for a file in no package (a script), or whose path is no dotted
// name.
func PyModule(root, abs string) (entry, module string, ok bool) {
	if !within(root, abs) || slices.Contains(pyScripts, filepath.Base(abs)) {
		return "", "", false
	}
	top := ""
	for d := filepath.Dir(abs); within(root, d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "__init__.py")); err == nil {
			top = d
		}
		if d == root || filepath.Dir(d) == d {
			break
		}
	}
	switch src := filepath.Join(root, "src"); {
	case top != "":
		entry = filepath.Dir(top)
	case within(src, abs):
		entry = src
	default:
		return "", "", false
	}
	rel, err := filepath.Rel(entry, abs)
	if err != nil {
		return "", "", false
	}
	rel = strings.TrimSuffix(filepath.ToSlash(rel), ".py")
	rel = strings.TrimSuffix(rel, "/__init__")
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if !pyIdent.MatchString(p) {
			return "", "", false
		}
	}
	return entry, strings.Join(parts, "."), true
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// pyPath is the sys.path for a set of files: their modules' entries, then
// each root's src and the root.
func pyPath(files []File) []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, f := range files {
		if entry, _, ok := PyModule(f.Root, f.Abs); ok {
			add(entry)
		}
	}
	for _, f := range files {
		if fi, err := os.Stat(filepath.Join(f.Root, "src")); err == nil && fi.IsDir() {
			add(filepath.Join(f.Root, "src"))
		}
		add(f.Root)
	}
	return out
}

func pyEnvFor(paths []string, base *Baseline) []string {
	env := slices.Clone(pyEnv)
	pp := strings.Join(paths, string(os.PathListSeparator))
	if old := os.Getenv("PYTHONPATH"); old != "" {
		pp += string(os.PathListSeparator) + old
	}
	env = append(env, "PYTHONPATH="+pp)
	if base != nil && base.hasPy {
		env = append(env, "M1ND_BASELINE="+base.pyTable)
	}
	return env
}

// full is the runner keeping whole outputs (the caller parses, then clips).
func (r *Runner) full() *Runner {
	f := *r
	f.MaxOutput = 8 << 20
	return &f
}

type pyImport struct {
	Module string `json:"module"`
	File   string `json:"file"`
	OK     bool   `json:"ok"`
	Error  string `json:"error"`
	Where  string `json:"where"`
}

// PyImports is layer B's import check of Python files (the written ones
// and their importers), one check per root; files that cannot be
// imported are compiled instead (compile: those not compiled already).
func (r *Runner) PyImports(ctx context.Context, files []File, compile []File, base *Baseline) ([]Check, []PreExisting) {
	var out []Check
	var pre []PreExisting
	roots := map[string][]File{}
	var order []string
	var scripts []File
	for _, f := range groupByLang(files)["python"] {
		if IsTestFile(strings.TrimPrefix(f.Abs[len(f.Root):], string(filepath.Separator))) {
			continue // layer D runs the tests
		}
		if _, _, ok := PyModule(f.Root, f.Abs); !ok {
			if slices.ContainsFunc(compile, func(c File) bool { return c.Abs == f.Abs }) {
				scripts = append(scripts, f)
			}
			continue
		}
		if roots[f.Root] == nil {
			order = append(order, f.Root)
		}
		roots[f.Root] = append(roots[f.Root], f)
	}
	if len(scripts) > 0 {
		c := r.pyCompile(ctx, scripts)
		c.Command += " (importers in no package: compiled, not imported)"
		out = append(out, c)
	}
	py, ok := r.python()
	if !ok {
		if len(order) > 0 {
			out = append(out, Check{Layer: "B", Language: "python", Command: "python -c 'import …'", Status: "skipped", Reason: "python is not installed"})
		}
		return out, pre
	}
	for _, root := range order {
		fs := roots[root]
		c, bad := r.pyImportRun(ctx, py, root, fs, nil)
		if c.Status != "failed" || base == nil || !base.hasPy {
			out = append(out, c)
			continue
		}
		// Import the failing modules again on the baseline.
		var again []File
		for _, f := range fs {
			if _, ok := bad[f.Abs]; ok {
				again = append(again, f)
			}
		}
		bc, bbad := r.pyImportRun(ctx, py, root, again, base)
		if bc.Status == "timeout" || bc.Status == "error" {
			out = append(out, c)
			continue
		}
		var still, before []string
		for _, f := range fs {
			e, ok := bad[f.Abs]
			if !ok {
				continue
			}
			if be, ok := bbad[f.Abs]; ok && be.Error == e.Error {
				before = append(before, e.Module+": "+e.Error)
			} else {
				still = append(still, importLine(e))
			}
		}
		if len(before) > 0 {
			pre = append(pre, PreExisting{Layer: "B", Language: "python", Command: c.Command, Failures: before,
				Detail: fmt.Sprintf("%d modules fail to import without the edit too (a missing dependency or an older break): not blamed on the edit", len(before))})
		}
		if len(still) == 0 {
			c.Status, c.ExitCode = "pre_existing", 0
			c.Reason = "every failing import fails the same way without the edit (see pre_existing_failures)"
		} else {
			c.Output = clipOut(strings.Join(still, "\n"), r.maxOut())
			c.Reason = still[0]
		}
		out = append(out, c)
	}
	return out, pre
}

func importLine(e pyImport) string {
	s := e.Module + " (" + e.File + "): " + e.Error
	if e.Where != "" {
		s += " at " + e.Where
	}
	return s
}

// pyImportRun imports files' modules under root (the baseline's contents
// when base is set) and returns the check and the failures by file.
func (r *Runner) pyImportRun(ctx context.Context, py, root string, files []File, base *Baseline) (Check, map[string]pyImport) {
	var mods [][2]string
	for _, f := range files[:min(len(files), 60)] {
		_, m, _ := PyModule(f.Root, f.Abs)
		mods = append(mods, [2]string{m, f.Abs})
	}
	arg, _ := json.Marshal(mods)
	c := r.full().run(ctx, "B", "python", root, pyEnvFor(pyPath(files), base), py, "-c", pyImportScript, string(arg), root)
	c.Command = fmt.Sprintf("python -c 'import …' of %d modules (the written files and their importers)", len(mods))
	if base != nil {
		c.Command += " on the baseline"
	}
	c.Blocking = true
	bad := map[string]pyImport{}
	var lines []string
	seen := 0
	for _, l := range strings.Split(c.Output, "\n") {
		js, ok := strings.CutPrefix(l, "@@m1nd-import@@ ")
		if !ok {
			continue
		}
		var e pyImport
		if json.Unmarshal([]byte(js), &e) != nil {
			continue
		}
		seen++
		if !e.OK {
			bad[e.File] = e
			lines = append(lines, importLine(e))
		}
	}
	switch {
	case c.Status == "timeout" || c.Status == "error":
	case len(bad) > 0:
		c.Status = "failed"
		c.ExitCode = max(c.ExitCode, 1)
		c.Output = clipOut(strings.Join(lines, "\n"), r.maxOut())
		c.Reason = lines[0]
	case seen < len(mods):
		// The process ended before every module was imported (a module
		// exited it): say so, as a warning.
		c.Status, c.Blocking = "error", false
		c.Reason = fmt.Sprintf("the import check stopped after %d of %d modules", seen, len(mods))
	default:
		c.Status, c.Output = "passed", ""
	}
	c.Output = clipOut(c.Output, r.maxOut())
	return c, bad
}

// Layer B, Go: go build ./... of the written files' modules already builds
// every package depending on them in those modules; GoDependents vets
// them (go vet compiles their tests too) and builds and vets the
// dependent packages of other modules (a go.work workspace).
func (r *Runner) GoDependents(ctx context.Context, written, deps []File) []Check {
	goBin, ok := r.look("go")
	if !ok {
		return nil
	}
	own := map[string][]string{}
	for _, m := range goModules(groupByLang(written)["go"]) {
		own[m.dir] = m.pkgs
	}
	var out []Check
	for _, m := range goModules(groupByLang(deps)["go"]) {
		var pkgs []string
		for _, p := range m.pkgs {
			if !slices.Contains(own[m.dir], p) {
				pkgs = append(pkgs, p)
			}
		}
		if len(pkgs) == 0 {
			continue
		}
		pkgs = pkgs[:min(len(pkgs), 40)]
		if _, same := own[m.dir]; !same {
			build := r.run(ctx, "B", "go", m.dir, nil, goBin, append([]string{"build"}, pkgs...)...)
			build.Blocking = true
			out = append(out, build)
			if build.Status != "passed" {
				continue
			}
		}
		vet := r.run(ctx, "B", "go", m.dir, nil, goBin, append([]string{"vet"}, pkgs...)...)
		vet.Reason = strings.TrimSpace(vet.Reason + " packages that depend on the written files")
		out = append(out, vet)
	}
	return out
}

// goMessage is a compiler or vet message without its line and column, so
// a message of the edit and the same one on the baseline compare equal.
var goMessage = regexp.MustCompile(`^(?:\./)?(\S+\.go):\d+(?::\d+)?: (.*)$`)

func goMessages(out string) []string {
	var ms []string
	for _, l := range strings.Split(out, "\n") {
		if m := goMessage.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			ms = append(ms, m[1]+": "+m[2])
		}
	}
	return ms
}

// Rebase runs the failing Go checks of layer B again on the baseline: a
// check whose every message also appears without the edit is
// pre-existing (status pre_existing, listed), not the edit's.
func (r *Runner) Rebase(ctx context.Context, checks []Check, base *Baseline) []PreExisting {
	if base == nil || !base.hasGo {
		return nil
	}
	goBin, ok := r.look("go")
	if !ok {
		return nil
	}
	var pre []PreExisting
	for i := range checks {
		c := &checks[i]
		args := strings.Fields(c.Command)
		if c.Language != "go" || c.Status != "failed" || len(args) < 2 || args[0] != "go" || (args[1] != "build" && args[1] != "vet") {
			continue
		}
		now := goMessages(c.Output)
		if len(now) == 0 {
			continue
		}
		bc := r.run(ctx, "B", "go", c.Dir, nil, goBin, append([]string{args[1], "-overlay", base.goOverlay}, args[2:]...)...)
		if bc.Status != "failed" {
			continue
		}
		before := goMessages(bc.Output)
		var fresh []string
		for _, m := range now {
			if !slices.Contains(before, m) {
				fresh = append(fresh, m)
			}
		}
		if len(fresh) > 0 {
			continue
		}
		pre = append(pre, PreExisting{Layer: "B", Language: "go", Command: c.Command, Failures: now,
			Detail: "fails the same way without the edit: not blamed on it"})
		c.Status, c.ExitCode = "pre_existing", 0
		c.Reason = "fails the same way without the edit (see pre_existing_failures)"
	}
	return pre
}

// Layer D with a baseline. TestsAgainst runs what Tests runs — the Go
// packages' tests, the Python test files, a Rust crate's tests — with the
// Python modules importable (the packages' parents on sys.path), and
// tells apart:
//
//   - tests that could not run at all (a test module does not import, a
//     collection error, a test binary that does not build): a blocking
//     failure, unless they cannot run without the edit either;
//   - failing tests: run again on the baseline, those failing there too
//     are pre-existing and not counted against the edit.
func (r *Runner) TestsAgainst(ctx context.Context, files, tests []File, base *Baseline) ([]Check, []PreExisting) {
	var out []Check
	var pre []PreExisting
	all := append(slices.Clone(files), tests...)
	byLang := groupByLang(all)
	for _, mod := range goModules(byLang["go"]) {
		c, p := r.goTestsAgainst(ctx, mod, base)
		out = append(out, c)
		pre = append(pre, p...)
	}
	var py []File
	for _, f := range byLang["python"] {
		if IsTestFile(f.Abs[len(f.Root):]) {
			py = append(py, f)
		}
	}
	if len(py) > 0 {
		c, p := r.pyTestsAgainst(ctx, py, pyPath(append(slices.Clone(byLang["python"]), files...)), base)
		out = append(out, c)
		pre = append(pre, p...)
	}
	for _, dir := range cargoDirs(byLang["rust"]) {
		c := r.cargo(ctx, dir, "D", "test", "--quiet")
		c.Blocking = false
		out = append(out, c)
	}
	return out, pre
}

// testRun is what one run of a test command found.
type testRun struct {
	check   Check
	failed  []string // failing tests
	noRun   []string // what could not run (a package, a test module)
	noRunAt string   // the first reason
}

func (r *Runner) goTestRun(ctx context.Context, goBin string, m goModule, base *Baseline, runRe string, pkgs []string) testRun {
	args := []string{"test", "-count=1", "-json"}
	if base != nil {
		args = append(args, "-overlay", base.goOverlay)
	}
	if runRe != "" {
		args = append(args, "-run", runRe)
	}
	c := r.run(ctx, "D", "go", m.dir, nil, goBin, append(args, pkgs...)...)
	var tr testRun
	type event struct {
		Action, Package, Test, Output, ImportPath, FailedBuild string
	}
	var build strings.Builder
	sc := bufio.NewScanner(strings.NewReader(c.Output))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			if t := strings.TrimSpace(sc.Text()); t != "" && build.Len() < 4096 {
				build.WriteString(t + "\n")
			}
			continue
		}
		switch {
		case e.Action == "build-output" && build.Len() < 4096:
			build.WriteString(e.Output)
		case e.Action == "fail" && e.Test == "" && (e.FailedBuild != "" || strings.Contains(c.Output, e.Package+" [setup failed]")):
			if !slices.Contains(tr.noRun, e.Package) {
				tr.noRun = append(tr.noRun, e.Package)
			}
		case e.Action == "fail" && e.Test != "" && !strings.Contains(e.Test, "/"):
			tr.failed = append(tr.failed, e.Package+" "+e.Test)
		}
	}
	parseGoTest(&c, r.maxOut())
	if len(tr.noRun) > 0 {
		msgs := strings.TrimSpace(build.String())
		tr.noRunAt = "the tests of " + strings.Join(tr.noRun, ", ") + " do not build"
		if ms := goMessages(msgs); len(ms) > 0 {
			tr.noRunAt += ": " + ms[0]
		}
		c.Output = clipOut(msgs+"\n"+c.Output, r.maxOut())
	}
	tr.check = c
	return tr
}

func (r *Runner) goTestsAgainst(ctx context.Context, m goModule, base *Baseline) (Check, []PreExisting) {
	goBin, ok := r.look("go")
	if !ok {
		return Check{Layer: "D", Language: "go", Command: "go test", Dir: m.dir, Status: "skipped", Reason: "the go toolchain is not installed"}, nil
	}
	now := r.goTestRun(ctx, goBin, m, nil, "", m.pkgs)
	c := now.check
	if len(now.noRun) > 0 {
		c.Status, c.Blocking, c.Reason = "failed", true, now.noRunAt
	}
	if c.Status != "failed" || base == nil || !base.hasGo {
		return c, nil
	}
	// The baseline: the packages that could not run, and the failing
	// tests, again without the edit.
	pkgs := slices.Clone(now.noRun)
	names := map[string]bool{}
	for _, f := range now.failed {
		pkg, name, _ := strings.Cut(f, " ")
		names[regexp.QuoteMeta(name)] = true
		if !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
	}
	runRe := ""
	if len(now.noRun) == 0 && len(names) > 0 {
		runRe = "^(" + strings.Join(slices.Sorted(mapKeys(names)), "|") + ")$"
	}
	if len(pkgs) == 0 {
		return c, nil
	}
	was := r.goTestRun(ctx, goBin, m, base, runRe, pkgs)
	if was.check.Status == "timeout" || was.check.Status == "error" {
		return c, nil
	}
	return settle(c, now, was, "go")
}

// settle compares a run with its baseline run: what fails (or cannot
// run) in both is pre-existing; the check keeps only what the edit broke.
func settle(c Check, now, was testRun, lang string) (Check, []PreExisting) {
	var pre []PreExisting
	var freshNoRun []string
	var oldNoRun []string
	for _, p := range now.noRun {
		if slices.Contains(was.noRun, p) {
			oldNoRun = append(oldNoRun, p)
		} else {
			freshNoRun = append(freshNoRun, p)
		}
	}
	var fresh, old []string
	for _, f := range now.failed {
		if slices.Contains(was.failed, f) {
			old = append(old, f)
		} else {
			fresh = append(fresh, f)
		}
	}
	if len(oldNoRun) > 0 {
		pre = append(pre, PreExisting{Layer: "D", Language: lang, Command: c.Command, Failures: oldNoRun,
			Detail: "these tests cannot run without the edit either (" + firstLine(was.noRunAt, "") + "): not blamed on the edit"})
	}
	if len(old) > 0 {
		pre = append(pre, PreExisting{Layer: "D", Language: lang, Command: c.Command, Failures: old,
			Detail: fmt.Sprintf("%d tests fail without the edit too: not blamed on it", len(old))})
	}
	switch {
	case len(freshNoRun) > 0:
		c.Status, c.Blocking = "failed", true
	case len(fresh) > 0:
		c.Status, c.Blocking = "failed", false
		c.TestsFailed = len(fresh)
		c.TestsPassed = max(0, c.TestsRun-len(fresh)-len(old))
		c.Reason = ""
		if len(old)+len(oldNoRun) > 0 {
			c.Reason = "other failures happen without the edit too (see pre_existing_failures)"
		}
	case c.TestsRun-len(old) > 0:
		c.Status, c.Blocking = "passed", false
		c.TestsFailed = 0
		c.TestsPassed = c.TestsRun - len(old)
		c.Reason = "every failure happens without the edit too (see pre_existing_failures)"
	default:
		// Nothing ran and passed, with or without the edit: no evidence
		// either way.
		c.Status, c.Blocking = "pre_existing", false
		c.Reason = "the tests cannot run without the edit either (see pre_existing_failures)"
	}
	return c, pre
}

var (
	pytestFailed   = regexp.MustCompile(`(?m)^(FAILED|ERROR) (\S+)`)
	unittestFailed = regexp.MustCompile(`(?m)^(?:FAIL|ERROR): (.+)$`)
)

// pyTestRun runs the Python test files with pytest (unittest when pytest
// is not installed), the baseline's contents when base is set.
func (r *Runner) pyTestRun(ctx context.Context, py string, files []File, paths []string, base *Baseline, pytest bool) testRun {
	root := files[0].Root
	var rels []string
	for _, f := range files {
		if rel, err := filepath.Rel(root, f.Abs); err == nil && !strings.HasPrefix(rel, "..") {
			rels = append(rels, rel)
		}
	}
	env := pyEnvFor(paths, base)
	var tr testRun
	if pytest {
		args := []string{"-c", pyRunModule, "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "--continue-on-collection-errors"}
		if base != nil {
			args = append(args, "--assert=plain") // the rewriting hook would load the written test files
		}
		c := r.full().run(ctx, "D", "python", root, env, py, append(args, rels...)...)
		c.Command = "pytest " + strings.Join(rels, " ")
		for _, m := range pytestCount.FindAllStringSubmatch(c.Output, -1) {
			n, _ := strconv.Atoi(m[1])
			if m[2] == "passed" {
				c.TestsPassed += n
			} else {
				c.TestsFailed += n
			}
		}
		// FAILED a.py::test and ERROR a.py::test (a fixture) are failing
		// tests; ERROR a.py is a file that could not be collected.
		for _, m := range pytestFailed.FindAllStringSubmatch(c.Output, -1) {
			if m[1] == "ERROR" && !strings.Contains(m[2], "::") {
				tr.noRun = append(tr.noRun, m[2])
			} else {
				tr.failed = append(tr.failed, m[2])
			}
		}
		c.TestsFailed = max(0, c.TestsFailed-len(tr.noRun))
		c.TestsRun = c.TestsPassed + c.TestsFailed
		switch {
		case c.Status != "failed":
		case c.ExitCode == 5: // no tests collected
			c.Status = "no_tests"
		case c.ExitCode >= 2 && c.ExitCode <= 4 && len(tr.noRun) == 0 && len(tr.failed) == 0:
			tr.noRun = rels // interrupted, an internal or a usage error
		}
		if len(tr.noRun) > 0 {
			tr.noRunAt = "pytest could not collect the tests" + firstLine(pyErrorLine(c.Output), ": ")
		}
		c.Output = clipOut(c.Output, r.maxOut())
		tr.check = c
		return tr
	}
	c := r.full().run(ctx, "D", "python", root, env, py, append([]string{"-c", pyRunModule, "unittest"}, rels...)...)
	c.Command = "python -m unittest " + strings.Join(rels, " ")
	c.Reason = "pytest is not installed: ran unittest"
	countUnittest(&c)
	for _, m := range unittestFailed.FindAllStringSubmatch(c.Output, -1) {
		id := strings.TrimSpace(m[1])
		if strings.Contains(id, "unittest.loader._FailedTest") || strings.Contains(id, "unittest.loader.ModuleImportFailure") {
			tr.noRun = append(tr.noRun, id)
		} else {
			tr.failed = append(tr.failed, id)
		}
	}
	switch {
	case c.Status == "timeout" || c.Status == "error":
	case len(tr.noRun) > 0:
		tr.noRunAt = "a test module does not import" + firstLine(pyErrorLine(c.Output), ": ")
		c.TestsFailed = max(0, c.TestsFailed-len(tr.noRun))
		c.TestsRun = max(0, c.TestsRun-len(tr.noRun))
	case c.Status == "failed" && c.TestsRun == 0:
		tr.noRun = rels
		tr.noRunAt = "unittest could not load the tests" + firstLine(pyErrorLine(c.Output), ": ")
	case c.TestsRun == 0:
		c.Status = "no_tests"
	}
	c.Output = clipOut(c.Output, r.maxOut())
	tr.check = c
	return tr
}

// pyErrorLine is the error that kept the tests from loading: the first
// "SomethingError: message" line after the first collection or import
// failure of an output.
var pyErrorRe = regexp.MustCompile(`(?m)^E?\s*(\w+(?:Error|Exception): .*)$`)

func pyErrorLine(out string) string {
	for _, mark := range []string{"_FailedTest", "ModuleImportFailure", "ERROR collecting", "Failed to import"} {
		if i := strings.Index(out, mark); i >= 0 {
			out = out[i:]
			break
		}
	}
	for _, m := range pyErrorRe.FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "ImportError: Failed to import test module") {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

func (r *Runner) pyTestsAgainst(ctx context.Context, files []File, paths []string, base *Baseline) (Check, []PreExisting) {
	py, ok := r.python()
	if !ok {
		return Check{Layer: "D", Language: "python", Command: "pytest", Status: "skipped", Reason: "python is not installed"}, nil
	}
	probe := r.run(ctx, "D", "python", files[0].Root, pyEnv, py, "-c", "import pytest")
	pytest := probe.Status == "passed"
	now := r.pyTestRun(ctx, py, files, paths, nil, pytest)
	c := now.check
	if len(now.noRun) > 0 {
		c.Status, c.Blocking, c.Reason = "failed", true, strings.TrimSpace(now.noRunAt+"; "+c.Reason)
		c.Reason = strings.TrimSuffix(c.Reason, "; ")
	}
	if c.Status != "failed" || base == nil || !base.hasPy {
		return c, nil
	}
	was := r.pyTestRun(ctx, py, files, paths, base, pytest)
	if was.check.Status == "timeout" || was.check.Status == "error" {
		return c, nil
	}
	if len(now.noRun) == 0 && len(now.failed) == 0 {
		// Failed without naming a test: compare the whole outcome.
		if was.check.Status == "failed" {
			now.noRun, was.noRun = []string{c.Command}, []string{c.Command}
		} else {
			return c, nil
		}
	}
	return settle(c, now, was, "python")
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// DeclaredNames are the names of the symbols src declares (Declared);
// false when it cannot be read.
func DeclaredNames(rel string, src []byte) (map[string]bool, bool) {
	syms, _, ok := Declared(rel, src)
	names := make(map[string]bool, len(syms))
	for _, s := range syms {
		names[s.Name] = true
	}
	return names, ok
}

// ownCall finds a call of sym — a method, or a function of a language
// with no build check here (Ruby, PHP, C#, Kotlin, …) — that the written
// file still makes of itself: a method through its own object (self.x(),
// this.x(), $this->x(), Ruby's bare x), a function by its bare name.
// When the file still declares anything of that name, which one a use
// means cannot be told: nothing is said.
func ownCall(rel string, next []byte, sym Symbol, py, js bool, declared func() (map[string]bool, bool)) (int, bool, string) {
	if names, ok := declared(); !ok || names[sym.Name] {
		return 0, false, ""
	}
	name := regexp.QuoteMeta(sym.Name)
	if regexp.MustCompile(`(?m)^[ \t]*` + name + `[ \t]*=[^=]`).Match(next) {
		return 0, false, "" // a local of that name
	}
	var use string
	switch ext := path.Ext(rel); {
	case py:
		use = `\b(?:self|cls)\.` + name + `[ \t]*\(`
	case js:
		use = `\bthis\.` + name + `[ \t]*\(`
	case ext == ".rb" || ext == ".rake":
		// A bare identifier that is no local is a call in Ruby.
		use = `(?:^|[^\w.:@$])(?:self\.)?` + name + `(?:[^\w!?=:]|$)`
	case ext == ".php":
		use = `(?:\$this->|\bself::|\bstatic::)` + name + `[ \t]*\(`
		if !sym.Member {
			use += `|(?:^|[^\w$>:\\])` + name + `[ \t]*\(`
		}
	default:
		use = `\bthis\.` + name + `[ \t]*\(|(?:^|[^\w.$>:])` + name + `[ \t]*\(`
	}
	re := regexp.MustCompile(use)
	for i, l := range strings.Split(string(next), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*") {
			continue
		}
		if re.MatchString(codeOf(l)) {
			return i + 1, true, t
		}
	}
	return 0, false, ""
}

// quoted matches a one-line string literal.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)

// codeOf is a line with its string literals emptied and a trailing
// comment cut: a name in a message or a remark is no call (sinatra's
// it 'does not call #to_ary …').
func codeOf(l string) string {
	l = quoted.ReplaceAllString(l, `""`)
	for _, c := range []string{" #", "\t#", "//"} {
		if i := strings.Index(l, c); i >= 0 {
			l = l[:i]
		}
	}
	return l
}

// TSDependents type-checks the TypeScript projects of the files depending
// on the written ones that Compile did not check (another tsconfig.json
// than the written files').
func (r *Runner) TSDependents(ctx context.Context, written, deps []File) []Check {
	done := map[string]bool{}
	for _, f := range groupByLang(written)["typescript"] {
		done[findUp(filepath.Dir(f.Abs), "tsconfig.json", f.Root)] = true
	}
	var todo []File
	for _, f := range groupByLang(deps)["typescript"] {
		dir := findUp(filepath.Dir(f.Abs), "tsconfig.json", f.Root)
		if dir != "" && !done[dir] {
			done[dir] = true
			todo = append(todo, f)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	return r.tsc(ctx, todo)
}

// SelfUse looks for sym, which the edit removed, in the file's own new
// text. A Python or JavaScript/TypeScript top-level name the module no
// longer defines, imports or assigns fails when that line runs
// (NameError, ReferenceError); a method still called on the file's own
// object, or a function of a language no build check here runs (Ruby,
// PHP, C#, Kotlin, …), is found by ownCall. No compiler says so and, when
// imports cannot run, no check does. call says the use is a call
// (name(…)); comment lines are passed over. Go and Rust files: the build
// says it.
func SelfUse(rel string, next []byte, sym Symbol) (line int, call bool, text string) {
	return SelfUseWith(rel, next, sym, func() (map[string]bool, bool) { return DeclaredNames(rel, next) })
}

// SelfUseWith is SelfUse reading the names the new text declares from
// declared, which a caller checking several removed symbols of one file
// memoises (the file is extracted once).
func SelfUseWith(rel string, next []byte, sym Symbol, declared func() (map[string]bool, bool)) (line int, call bool, text string) {
	ext := path.Ext(rel)
	py := ext == ".py" || ext == ".pyi"
	js := slices.Contains([]string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}, ext)
	if ext == ".go" || ext == ".rs" {
		return 0, false, "" // the build says it
	}
	if sym.Member || (!py && !js) {
		return ownCall(rel, next, sym, py, js, declared)
	}
	name := regexp.QuoteMeta(sym.Name)
	rebound := `(?m)^[ \t]*(?:(?:async[ \t]+)?def|class|function|const|let|var|export[ \t]+(?:default[ \t]+)?(?:async[ \t]+)?(?:function|class|const|let|var))[ \t]+` + name + `\b` +
		`|(?m)^[ \t]*` + name + `[ \t]*(?::[^=\n]*)?=[^=]`
	// Imports, each bounded by its own statement: an unbounded
	// "import … name … from" spanned a whole Python file (no semicolons)
	// from its first import to a later "from" and found every name
	// rebound — uvicorn's renamed _parse_raw_hosts, still called twice.
	if py {
		rebound += `|(?m)^[ \t]*(?:from[ \t]+\S+[ \t]+)?import\b[^\n(]*\b` + name + `\b` +
			`|(?m)^[ \t]*from[ \t]+\S+[ \t]+import[ \t]*\([^)]*\b` + name + `\b[^)]*\)`
	} else {
		rebound += `|\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{[^}]*\b` + name + `\b[^}]*\}\s*from\b` +
			`|\bimport\s+(?:type\s+)?` + name + `\b\s*(?:,|from\b)` +
			`|\bimport\s+\*\s+as\s+` + name + `\b`
	}
	if regexp.MustCompile(rebound).Match(next) {
		return 0, false, ""
	}
	word := regexp.MustCompile(`(?:^|[^\w$.])` + name + `(?:[ \t]*(\()|[^\w$]|$)`)
	for i, l := range strings.Split(string(next), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") {
			continue
		}
		if m := word.FindStringSubmatch(l); m != nil {
			return i + 1, m[1] != "", t
		}
	}
	return 0, false, ""
}
