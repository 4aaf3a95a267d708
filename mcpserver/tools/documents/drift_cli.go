package documents

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A page that runs the project's command with a long option its parser
// never declares sends the reader to "unrecognized arguments" (pyjwt's
// CLI usage fixes on split5's held-out were of this family). The claim is
// checked only when the command is the project's own (a console script
// of its metadata, or `python -m` of its package) and every option
// declaration in that package is static: add_argument / click.option
// calls whose names are string literals. Typer (names from parameters),
// a computed name, or click.Option([...]) leave the command unknown.
// argparse takes unique prefixes (--verb for --verbose), so a prefix of
// a declared option is accepted too. A parser that hands the rest of
// the line to another program (REMAINDER, nargs="...",
// allow_extra_args, ignore_unknown_options, parse_known_args) is
// checked only up to the first word after its subcommands.

// maxCLIFindings bounds the findings per page.
const maxCLIFindings = 3

var (
	scriptCfgRe   = regexp.MustCompile(`^\s*([A-Za-z0-9][\w.-]*)\s*=\s*["']?([A-Za-z_][\w.]*)\s*:\s*[\w.]+["']?\s*$`)
	scriptPyRe    = regexp.MustCompile(`["']\s*([A-Za-z0-9][\w.-]*)\s*=\s*([A-Za-z_][\w.]*)\s*:\s*[\w.]+\s*["']`)
	declCallRe    = regexp.MustCompile(`\b(add_argument|option|Option)\s*\(`)
	subParserRe   = regexp.MustCompile(`\badd_parser\(\s*["']([\w-]+)["']`)
	clickCmdRe    = regexp.MustCompile(`@[\w.]*\.?(?:command|group)\(\s*(?:["']([\w-]+)["']|name\s*=\s*["']([\w-]+)["'])?[^\n]*\n(?:\s*@[^\n]*\n)*\s*(?:async\s+)?def\s+(\w+)`)
	passOnRe      = regexp.MustCompile(`REMAINDER|nargs\s*=\s*["']\.\.\.["']|allow_extra_args|ignore_unknown_options|parse_known_args|nargs\s*=\s*-1`)
	pyStrLitRe    = regexp.MustCompile(`^[rbuRBU]?(?:"([^"\\]*)"|'([^'\\]*)')$`)
	usageFlagRe   = regexp.MustCompile(`^--[A-Za-z0-9][\w.-]*$`)
	shellPromptRe = regexp.MustCompile(`^\s*(?:[$%>]\s+)?`)
	inlineCmdRe   = regexp.MustCompile("``([^`]+)``|`([^`]+)`")
	shellStopsRe  = regexp.MustCompile(`\s(?:\||;|&&|\|\||>|<|#)\s|` + "`")
)

// cliDecl is what one command of the project declares.
type cliDecl struct {
	prog    string          // as typed: "pipx", "python -m kit"
	flags   map[string]bool // long options, "--python"
	subs    map[string]bool // subcommand names
	passOn  bool            // the rest of a line may belong to another program
	files   []string
	unknown bool // some declaration is not static: nothing is said
}

// projectCommands lists the project's commands: console scripts from
// pyproject, setup.cfg or a literal setup.py, and `python -m pkg` for a
// package with a __main__.py; each with its package's declarations.
func projectCommands(g *graph.Graph, x *document.Index, src *driftSources) []cliDecl {
	var out []cliDecl
	seen := map[string]bool{}
	add := func(prog, mod string) {
		if seen[prog] {
			return
		}
		seen[prog] = true
		if d, ok := commandDecl(g, x, src, prog, mod); ok {
			out = append(out, d)
		}
	}
	for _, s := range consoleScripts(src) {
		add(s[0], s[1])
	}
	for id := 0; id < g.NumNodes(); id++ {
		p := g.SourcePath(graph.NodeID(id))
		if g.Type(graph.NodeID(id)) == graph.File && path.Base(p) == "__main__.py" && strings.Count(strings.TrimPrefix(p, "src/"), "/") == 1 {
			pkg := path.Base(path.Dir(p))
			add("python -m "+pkg, pkg)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].prog < out[j].prog })
	return out
}

// consoleScripts are [name, module] pairs of the metadata's console
// scripts.
func consoleScripts(src *driftSources) [][2]string {
	var out [][2]string
	if t, ok := src.source("pyproject.toml"); ok {
		tables := tomlTables(string(t))
		for _, k := range []string{"project.scripts", "tool.poetry.scripts"} {
			for _, l := range tables[k] {
				if m := scriptCfgRe.FindStringSubmatch(strings.ReplaceAll(l, `"`, "")); m != nil {
					out = append(out, [2]string{m[1], m[2]})
				}
			}
		}
	}
	if t, ok := src.source("setup.cfg"); ok {
		in := false
		for _, l := range strings.Split(string(t), "\n") {
			switch {
			case strings.HasPrefix(strings.TrimSpace(l), "console_scripts"):
				in = true
			case in && (strings.TrimSpace(l) == "" || !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t")):
				in = false
			case in:
				if m := scriptCfgRe.FindStringSubmatch(l); m != nil {
					out = append(out, [2]string{m[1], m[2]})
				}
			}
		}
	}
	if t, ok := src.source("setup.py"); ok && strings.Contains(string(t), "console_scripts") {
		for _, m := range scriptPyRe.FindAllStringSubmatch(string(t), -1) {
			out = append(out, [2]string{m[1], m[2]})
		}
		// An entry_points string in ini form (sqlite-utils' setup.py):
		// "[console_scripts]\n    sqlite-utils=sqlite_utils.cli:cli".
		for _, l := range strings.Split(string(t), "\n") {
			if m := scriptCfgRe.FindStringSubmatch(l); m != nil && !strings.ContainsAny(l, `"'`) {
				out = append(out, [2]string{m[1], m[2]})
			}
		}
	}
	return out
}

// commandDecl reads the declarations of the package a command's module
// belongs to; false when the module is not the project's.
func commandDecl(g *graph.Graph, x *document.Index, src *driftSources, prog, mod string) (cliDecl, bool) {
	top, _, _ := strings.Cut(mod, ".")
	p, ok := oneModuleFile(x, top)
	if !ok {
		return cliDecl{}, false
	}
	dir := p // a one-file module: itself
	if path.Base(p) == "__init__.py" {
		dir = path.Dir(p) + "/"
	}
	d := cliDecl{prog: prog, flags: map[string]bool{"--help": true, "--version": true}, subs: map[string]bool{}}
	for id := 0; id < g.NumNodes(); id++ {
		f := g.SourcePath(graph.NodeID(id))
		if g.Type(graph.NodeID(id)) != graph.File || !strings.HasSuffix(f, ".py") || !(f == dir || strings.HasSuffix(dir, "/") && strings.HasPrefix(f, dir)) {
			continue
		}
		text, ok := src.source(f)
		if !ok {
			return cliDecl{}, false
		}
		if readDecls(string(text), &d) {
			d.files = append(d.files, f)
		}
	}
	sort.Strings(d.files)
	return d, len(d.files) > 0 && !d.unknown
}

// readDecls adds one file's option declarations to d; true when it has
// some. Typer, or a declaration whose names are not all literal, makes
// d unknown.
func readDecls(text string, d *cliDecl) bool {
	if strings.Contains(text, "import typer") || strings.Contains(text, "from typer") {
		d.unknown = true
		return true
	}
	found := false
	for _, ll := range pyLines(text) {
		st := ll.text
		if bindHeadRe.MatchString(st) {
			continue // "def option(self, name):" declares no option
		}
		for _, at := range declCallRe.FindAllStringSubmatchIndex(st, -1) {
			if at[0] > 0 && st[at[0]-1] == '.' && st[at[2]:at[3]] == "Option" && !strings.HasSuffix(st[:at[0]], "click.") {
				continue // some other library's Option class
			}
			open := at[1] - 1
			args := splitTop(st[open+1:max(closeOf(st, open), open+1)], ',')
			found = true
			if !literalNames(args, st[at[2]:at[3]] == "Option", d) {
				d.unknown = true
			}
		}
		for _, m := range subParserRe.FindAllStringSubmatch(st, -1) {
			d.subs[m[1]] = true
		}
	}
	if !found {
		return false
	}
	for _, m := range clickCmdRe.FindAllStringSubmatch(text, -1) {
		if n := m[1] + m[2]; n != "" {
			d.subs[n] = true
		} else {
			d.subs[strings.ReplaceAll(m[3], "_", "-")] = true
			d.subs[m[3]] = true
		}
	}
	d.passOn = d.passOn || passOnRe.MatchString(text)
	return true
}

// literalNames adds a declaration call's option names; false when its
// names are not string literals. An Option(…) call's first argument may
// be its default (typer) and a positional argument's name has no dash.
func literalNames(args []string, option bool, d *cliDecl) bool {
	named := false
	for i, a := range args {
		a = strings.TrimSpace(a)
		if kwArgRe.MatchString(a) {
			break
		}
		m := pyStrLitRe.FindStringSubmatch(a)
		if m == nil {
			if i == 0 && option {
				continue
			}
			return named // names end at the first non-literal
		}
		s := m[1] + m[2]
		named = true
		for _, n := range strings.Split(s, "/") { // click: --shout/--no-shout
			if n = strings.TrimSpace(n); strings.HasPrefix(n, "--") {
				d.flags[n] = true
			}
		}
	}
	return named
}

// undeclaredFlags lists the long options a line passes to the command
// that it does not declare (nor any it abbreviates).
func undeclaredFlags(d cliDecl, cmd string) []string {
	var out []string
	subsDone := false
	for _, tok := range shellWords(cmd) {
		switch {
		case tok == "--":
			return out
		case strings.HasPrefix(tok, "-"):
			name, _, _ := strings.Cut(tok, "=")
			name = strings.TrimRight(name, ".,;:)") // the end of a sentence
			if usageFlagRe.MatchString(name) && !declaresPrefix(d.flags, name) {
				out = append(out, name)
			}
		case d.subs[tok] && !subsDone:
		default:
			subsDone = true
			if d.passOn {
				return out
			}
		}
	}
	return out
}

// declaresPrefix: name is declared, or abbreviates a declared option.
func declaresPrefix(flags map[string]bool, name string) bool {
	if flags[name] {
		return true
	}
	for f := range flags {
		if strings.HasPrefix(f, name) {
			return true
		}
	}
	return false
}

// shellWords splits a command line into words; a quoted word is a value,
// never an option, so it comes back as "'…'".
func shellWords(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, `"`) || strings.HasPrefix(w, `'`) {
			out = append(out, "'…'")
			continue
		}
		if strings.ContainsAny(w, `<>{}[]$`) {
			out = append(out, "<placeholder>")
			continue
		}
		out = append(out, w)
	}
	return out
}

// commandLines finds the command lines of a page that run prog: a line
// (after an optional shell prompt) or an inline literal that starts with
// it. The line is cut at a pipe, a list operator or a comment.
func commandLines(line, prog string) []string {
	var cands []string
	cands = append(cands, shellPromptRe.ReplaceAllString(line, ""))
	for _, m := range inlineCmdRe.FindAllStringSubmatch(line, -1) {
		cands = append(cands, shellPromptRe.ReplaceAllString(m[1]+m[2], ""))
	}
	var out []string
	for _, c := range cands {
		rest, ok := strings.CutPrefix(c, prog+" ")
		if !ok {
			continue
		}
		if loc := shellStopsRe.FindStringIndex(" " + rest); loc != nil {
			rest = rest[:max(loc[0]-1, 0)]
		}
		out = append(out, rest)
	}
	return out
}

// cliFindings lists a page's command lines that pass the project's
// command an option it does not declare.
func cliFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) []document.Finding {
	src.cliOnce.Do(func() { src.cli = projectCommands(b.Graph, docIndex(b), src) })
	cmds := src.cli
	if len(cmds) == 0 {
		return nil
	}
	var fs []document.Finding
	seen := map[string]bool{}
	for i, l := range strings.Split(string(text), "\n") {
		for _, c := range cmds {
			for _, rest := range commandLines(l, c.prog) {
				for _, f := range undeclaredFlags(c, rest) {
					if seen[c.prog+" "+f] || len(fs) == maxCLIFindings {
						continue
					}
					seen[c.prog+" "+f] = true
					fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, i+1),
						Mention: document.Mention{Kind: document.MentionCode, Text: c.prog + " " + f}, Line: i + 1,
						Detail: fmt.Sprintf("the page runs %s with %s, which its parser (%s) does not declare (%d options declared)", c.prog, f, strings.Join(c.files, ", "), len(c.flags))})
				}
			}
		}
	}
	return fs
}
