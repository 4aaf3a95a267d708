package patterns

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The planted-copies truth check (docs/design.md#patterns): five
// functions of a real repository (the py-335 corpus, a slice of CPython's
// standard library) are copied into new files under new names, each copy
// changed a different way; twins must name each copy's original among
// the copy's three most similar partners.
func TestTwinsFindsPlantedCopies(t *testing.T) {
	src := tooltest.CorpusPath("py-335")
	if other := os.Getenv("M1ND_PATTERNS_PLANT_IN"); other != "" {
		src = other // another Python repository, for the benchmark's record
	}
	if _, err := os.Stat(src); err != nil || testing.Short() {
		t.Skip("the py-335 corpus is not built (python3 benchmarks/corpora/corpora.py)")
	}
	root := filepath.Join(t.TempDir(), "py-335")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil && !errors.Is(err, fs.ErrExist) {
		t.Fatal(err)
	}
	originals := pickFunctions(t, root, 5)
	mutations := []func(string) string{
		func(s string) string { return s },
		insertStatement,
		deleteStatement,
		changeLiterals,
		swapStatements,
	}
	type plant struct{ orig, copy, how string }
	var plants []plant
	for i, o := range originals {
		name := fmt.Sprintf("planted_%d", i)
		renamed := renameIdentifiers(o.body)
		body := mutations[i](renamed)
		how := []string{"renamed", "renamed + a statement added", "renamed + a statement removed", "renamed + literals changed", "renamed + two statements swapped"}[i]
		if body == renamed && i > 0 {
			how += " (no place for it: renamed only)"
		}
		fn := regexp.MustCompile(`^def (\w+)`).FindStringSubmatch(body)[1]
		if err := os.WriteFile(filepath.Join(root, name+".py"), []byte(body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		plants = append(plants, plant{o.id, "file::" + name + ".py::" + fn, how})
	}
	cfg := tooltest.TestConfig()
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": root})
	found := 0
	for _, p := range plants {
		out := tooltest.MustCall(t, d, "twins", map[string]any{"agent_id": "t", "scope": strings.TrimPrefix(strings.SplitN(p.copy, "::", 3)[1], ""), "similarity_threshold": 0.3, "top_k": 200})
		var partners []string
		sim := map[string]float64{}
		for _, tw := range out["twins"].([]any) {
			tw := tw.(map[string]any)
			a := tw["a"].(map[string]any)["node_id"].(string)
			b := tw["b"].(map[string]any)["node_id"].(string)
			switch p.copy {
			case a:
				partners = append(partners, b)
			case b:
				partners = append(partners, a)
			}
			sim[a+b] = tw["similarity"].(float64)
			sim[b+a] = tw["similarity"].(float64)
		}
		rank := slices.Index(partners, p.orig) + 1
		if rank >= 1 && rank <= 3 {
			found++
		}
		t.Logf("%-50s %-60s rank %d of %d partners, similarity %.3f", p.how, p.orig, rank, len(partners), sim[p.orig+p.copy])
	}
	t.Logf("planted copies found in the top 3: %d of %d", found, len(plants))
	if found < 4 {
		t.Errorf("twins found %d of %d planted copies in the top 3, want at least 4", found, len(plants))
	}
}

type pyFunc struct{ id, body string }

// pickFunctions chooses n top-level functions of 12 to 40 lines from n
// different files, spread over the sorted file list.
func pickFunctions(t *testing.T, root string, n int) []pyFunc {
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var out []pyFunc
	for i := 0; i < len(files) && len(out) < n; i += max(1, len(files)/(3*n)) {
		data, _ := os.ReadFile(files[i])
		lines := strings.Split(string(data), "\n")
		for s := 0; s < len(lines); s++ {
			m := regexp.MustCompile(`^def (\w+)\(`).FindStringSubmatch(lines[s])
			if m == nil {
				continue
			}
			e := s + 1
			for e < len(lines) && (strings.TrimSpace(lines[e]) == "" || strings.HasPrefix(lines[e], " ") || strings.HasPrefix(lines[e], "\t")) {
				e++
			}
			for e > s && strings.TrimSpace(lines[e-1]) == "" {
				e--
			}
			if e-s < 12 || e-s > 40 {
				continue
			}
			rel, _ := filepath.Rel(root, files[i])
			out = append(out, pyFunc{"file::" + filepath.ToSlash(rel) + "::" + m[1], strings.Join(lines[s:e], "\n")})
			break
		}
	}
	if len(out) < n {
		t.Fatalf("found %d functions to copy, want %d", len(out), n)
	}
	return out
}

var (
	identRe   = regexp.MustCompile(`[A-Za-z_]\w*`)
	pyReserve = map[string]bool{}
)

func init() {
	for _, w := range strings.Fields(`False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield
		self cls len str int float list dict set tuple range print isinstance open super type object bytes bool min max sorted enumerate zip iter next any all getattr setattr hasattr ValueError TypeError KeyError IndexError OSError Exception RuntimeError AttributeError NotImplementedError StopIteration`) {
		pyReserve[w] = true
	}
}

// definedRe finds the names a Python function defines: itself, its
// parameters, assignment targets, loop and with/except variables.
var definedRe = []*regexp.Regexp{
	regexp.MustCompile(`def (\w+)`),
	regexp.MustCompile(`^\s*([\w, ]+?)\s*[-+*/]?=[^=]`),
	regexp.MustCompile(`for ([\w, ]+) in `),
	regexp.MustCompile(` as (\w+)`),
}

// renameIdentifiers renames what the copy defines (the function, its
// parameters and locals), as a person copying it under new names would;
// the functions and modules it uses keep their names.
func renameIdentifiers(body string) string {
	names := map[string]bool{}
	lines := strings.Split(body, "\n")
	if open, close := strings.Index(lines[0], "("), strings.LastIndex(lines[0], ")"); open > 0 && close > open {
		for _, p := range strings.Split(lines[0][open+1:close], ",") {
			if m := identRe.FindString(p); m != "" {
				names[m] = true
			}
		}
	}
	for _, l := range lines {
		for _, re := range definedRe {
			if m := re.FindStringSubmatch(l); m != nil {
				for _, w := range identRe.FindAllString(m[1], -1) {
					names[w] = true
				}
			}
		}
	}
	locs := identRe.FindAllStringIndex(body, -1)
	var b strings.Builder
	last := 0
	for _, l := range locs {
		w := body[l[0]:l[1]]
		b.WriteString(body[last:l[0]])
		if names[w] && !pyReserve[w] && (l[0] == 0 || body[l[0]-1] != '.') {
			b.WriteString("q_" + w + "_2")
		} else {
			b.WriteString(w)
		}
		last = l[1]
	}
	b.WriteString(body[last:])
	return b.String()
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// simple reports whether line i is a one-line statement at the body's
// first level that opens no block.
func simple(lines []string, i int) bool {
	l := strings.TrimSpace(lines[i])
	return l != "" && !strings.HasSuffix(l, ":") && !strings.HasSuffix(l, "(") && !strings.HasSuffix(l, ",") && !strings.HasSuffix(l, "\\") &&
		!strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "return") && !strings.HasPrefix(l, `"""`) && !strings.HasPrefix(l, "'''") &&
		indentOf(lines[i]) == indentOf(lines[1]) && (i+1 >= len(lines) || len(indentOf(lines[i+1])) <= len(indentOf(lines[i])))
}

func insertStatement(body string) string {
	lines := strings.Split(body, "\n")
	ind := indentOf(lines[1])
	extra := []string{ind + "q_trace_2 = None", ind + "q_count_2 = 0"}
	at := len(lines) / 2
	for at < len(lines) && !simple(lines, at) {
		at++
	}
	if at == len(lines) {
		at = 1
	}
	return strings.Join(slices.Concat(lines[:at], extra, lines[at:]), "\n")
}

func deleteStatement(body string) string {
	lines := strings.Split(body, "\n")
	for i := 2; i+1 < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		prev := strings.TrimSpace(lines[i-1])
		if l == "" || strings.HasSuffix(l, ":") || strings.HasSuffix(l, "(") || strings.HasSuffix(l, ",") || strings.HasSuffix(l, "\\") ||
			strings.HasPrefix(l, "#") || strings.HasPrefix(l, "return") || strings.HasPrefix(l, `"""`) || strings.HasSuffix(prev, ":") ||
			strings.HasSuffix(prev, ",") || strings.HasSuffix(prev, "(") || len(indentOf(lines[i+1])) > len(indentOf(lines[i])) || inDocstring(lines[:i]) {
			continue
		}
		return strings.Join(slices.Delete(lines, i, i+1), "\n")
	}
	return body
}

// inDocstring reports whether the lines before open a triple-quoted
// string they do not close.
func inDocstring(before []string) bool {
	text := strings.Join(before, "\n")
	return (strings.Count(text, `"""`)+strings.Count(text, "'''"))%2 == 1
}

var literalRe = regexp.MustCompile(`"[^"\n]*"|'[^'\n]*'|\b\d+\b`)

func changeLiterals(body string) string {
	return literalRe.ReplaceAllStringFunc(body, func(s string) string {
		if isDigitByte(s[0]) {
			return s + "7"
		}
		return s[:1] + "changed" + s[1:]
	})
}

func swapStatements(body string) string {
	lines := strings.Split(body, "\n")
	for i := 1; i+1 < len(lines); i++ {
		if simple(lines, i) && simple(lines, i+1) {
			lines[i], lines[i+1] = lines[i+1], lines[i]
			return strings.Join(lines, "\n")
		}
	}
	return body
}
