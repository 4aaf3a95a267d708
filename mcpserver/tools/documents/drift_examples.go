package documents

import (
	"regexp"
	"strings"
)

// Code examples in documentation are checked against the code they call
// (benchmarks/results/drift-examples.md): a call of the project's
// function or class with a keyword its current signature does not
// have, or with more positional arguments than it takes, fails for the
// reader who copies it. Only examples that are surely Python are read —
// fenced python/py/pycon blocks, reST code-block/doctest/testcode
// directives, and `>>>` doctest lines — and a called name counts only
// when the examples of the same page import it.

// exLine is one line of example code and the document line it is on.
type exLine struct {
	line int
	text string
}

var (
	fenceRe     = regexp.MustCompile("^\\s*(```+|~~~+)\\s*\\{?\\s*([\\w+-]*)")
	directiveRe = regexp.MustCompile(`^(\s*)\.\.\s+(code-block|code|sourcecode|doctest|testcode|testsetup|ipython)::\s*(\w*)`)
	promptRe    = regexp.MustCompile(`^\s*(>>>|\.\.\.)( |$)`)
)

// pythonInfo says whether a fence's or directive's language is Python
// source (python, py, python3) or a console session (pycon, doctest).
func pythonInfo(lang string) (source, console bool) {
	switch strings.ToLower(lang) {
	case "python", "py", "python3", "py3", "testcode", "testsetup":
		return true, false
	case "pycon", "doctest", "ipython", "python-console":
		return false, true
	}
	return false, false
}

// pyExamples cuts a document into blocks of Python example code, in
// page order; a console block keeps only its prompted lines, without the
// prompts.
func pyExamples(text string) [][]exLine {
	lines := strings.Split(text, "\n")
	var out [][]exLine
	for i := 0; i < len(lines); i++ {
		if m := fenceRe.FindStringSubmatch(lines[i]); m != nil {
			end := fenceEnd(lines, i, m[1])
			src, con := pythonInfo(m[2])
			out = appendBlock(out, lines, i+1, end, src, con)
			i = end
			continue
		}
		if m := directiveRe.FindStringSubmatch(lines[i]); m != nil {
			lang := m[3]
			if m[2] != "code-block" && m[2] != "code" && m[2] != "sourcecode" {
				lang = m[2]
			}
			end := indentedEnd(lines, i, len(m[1]))
			src, con := pythonInfo(lang)
			out = appendBlock(out, lines, i+1, end, src, con)
			i = end - 1
			continue
		}
		if literalRe.MatchString(lines[i]) && !directiveLineRe.MatchString(lines[i]) {
			// reST's "::" literal block: Python when it imports something
			// (structlog's performance.rst configures processors in one).
			indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " \t"))
			end := indentedEnd(lines, i, indent)
			if importsIn(lines[i+1:end]) || pythonStatements(lines[i+1:end]) {
				out = appendBlock(out, lines, i+1, end, true, false)
				i = end - 1
				continue
			}
		}
		if promptRe.MatchString(lines[i]) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">>>") {
			end := i + 1
			for end < len(lines) && strings.TrimSpace(lines[end]) != "" && !fenceRe.MatchString(lines[end]) {
				end++
			}
			out = appendBlock(out, lines, i, end, false, true)
			i = end - 1
		}
	}
	return out
}

var (
	literalRe       = regexp.MustCompile(`::\s*$`)
	directiveLineRe = regexp.MustCompile(`^\s*\.\.\s`)
	importLineRe    = regexp.MustCompile(`^\s*(import\s+[A-Za-z_]|from\s+[A-Za-z_][\w.]*\s+import\s)`)
)

// pythonStatements: a literal block without imports is still Python when
// each of its statements is a call or an assignment from one (anyio's
// basics.rst shows `run(main, backend="asyncio", debug=True)` under a
// paragraph ending "::", the page having imported run in an earlier
// block). Its calls count only when the page's imports name the callee,
// so a shell line that happens to look like a call costs nothing.
func pythonStatements(lines []string) bool {
	seen := false
	depth := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if depth == 0 {
			if !callStmtRe.MatchString(t) {
				return false
			}
			seen = true
		}
		depth += strings.Count(t, "(") + strings.Count(t, "[") + strings.Count(t, "{") -
			strings.Count(t, ")") - strings.Count(t, "]") - strings.Count(t, "}")
		if depth < 0 || depth == 0 && !strings.HasSuffix(t, ")") && !strings.HasSuffix(t, "]") {
			return false // "run(x) then see": prose that starts like a call
		}
	}
	return seen && depth == 0
}

// callStmtRe: a statement that calls a (dotted) name, maybe awaiting it
// or assigning what it returns.
var callStmtRe = regexp.MustCompile(`^(?:[A-Za-z_]\w*\s*=\s*)?(?:await\s+)?[A-Za-z_][\w.]*\(`)

// importsIn: some line is an import statement.
func importsIn(lines []string) bool {
	for _, l := range lines {
		if importLineRe.MatchString(l) {
			return true
		}
	}
	return false
}

// fenceEnd is the index of the line closing the fence opened at i.
func fenceEnd(lines []string, i int, fence string) int {
	for j := i + 1; j < len(lines); j++ {
		if strings.HasPrefix(strings.TrimSpace(lines[j]), fence) {
			return j
		}
	}
	return len(lines)
}

// indentedEnd is the index after a directive's body: the lines indented
// deeper than the directive (blank lines included).
func indentedEnd(lines []string, i, indent int) int {
	end := i + 1
	for j := i + 1; j < len(lines); j++ {
		t := lines[j]
		if strings.TrimSpace(t) == "" {
			continue
		}
		if len(t)-len(strings.TrimLeft(t, " \t")) <= indent {
			break
		}
		end = j + 1
	}
	return end
}

// appendBlock adds lines[lo:hi] as a block: source kept whole, a console
// session reduced to its prompted lines. A block that is neither (an
// unmarked fence, a shell session) is read for its prompted lines only
// when it has some.
func appendBlock(out [][]exLine, lines []string, lo, hi int, source, console bool) [][]exLine {
	hi = min(hi, len(lines))
	if !source {
		console = console || hasPrompt(lines[lo:hi])
	}
	var b []exLine
	open := 0 // brackets the session's statement leaves open
	for j := lo; j < hi; j++ {
		switch {
		case source && !hasPrompt(lines[lo:hi]):
			b = append(b, exLine{j + 1, lines[j]})
		case console || source:
			if m := promptRe.FindStringSubmatchIndex(lines[j]); m != nil {
				b = append(b, exLine{j + 1, lines[j][m[1]:]})
				open = max(0, open+bracketDelta(lines[j][m[1]:]))
			} else if open > 0 {
				// An open statement goes on over unprompted lines: no
				// output comes before it ends (pendulum's timezones.md
				// writes a call's argument lines without "...").
				b = append(b, exLine{j + 1, lines[j]})
				open = max(0, open+bracketDelta(lines[j]))
			}
		}
	}
	if len(b) == 0 {
		return out
	}
	return append(out, dedent(b))
}

func hasPrompt(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), ">>>") {
			return true
		}
	}
	return false
}

// dedent removes the indentation every line of a block shares.
func dedent(b []exLine) []exLine {
	common := -1
	for _, l := range b {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		n := len(l.text) - len(strings.TrimLeft(l.text, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	for i := range b {
		if len(b[i].text) >= common && common > 0 {
			b[i].text = b[i].text[common:]
		}
	}
	return b
}

// bracketDelta is how many brackets s opens and leaves open (negative:
// closes more); strings and a comment do not count.
func bracketDelta(s string) int {
	d := 0
	scanBrackets(s, 0, func(j, depth int) bool {
		d = depth
		return s[j] != '#'
	})
	return d
}
