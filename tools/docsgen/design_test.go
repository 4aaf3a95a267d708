package docsgen

import (
	"bufio"
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the directory holding go.work and docs/.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped
// (letters, digits, '-', '_' and spaces kept), each space a '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// designAnchors returns the anchors of docs/design.md's headings (a
// repeated heading gets GitHub's -1, -2 … suffix) and the text.
func designAnchors(t *testing.T) (map[string]bool, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if !strings.HasPrefix(text, " ") {
			continue
		}
		s := slug(text)
		if n := seen[s]; n > 0 {
			anchors[s+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[s] = true
		}
		seen[s]++
	}
	return anchors, string(data)
}

// goFiles calls f for every .go file of the repository but this one
// (testdata and hidden directories left out).
func goFiles(t *testing.T, f func(rel string, data []byte)) {
	t.Helper()
	root := repoRoot(t)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || d.Name() == "design_test.go" && filepath.Base(filepath.Dir(p)) == "docsgen" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		f(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var citation = regexp.MustCompile(`design\.md#([\p{L}\p{N}_-]+)`)

// TestDesignAnchorsExist fails when a .go file cites docs/design.md by an
// anchor no heading of docs/design.md has, or when the document links to
// one of its own anchors that does not exist.
func TestDesignAnchorsExist(t *testing.T) {
	t.Parallel()
	anchors, text := designAnchors(t)
	if !anchors["citing-this-document"] || !anchors["d1-structural"] {
		t.Fatalf("heading anchors not found in docs/design.md: %v", anchors)
	}
	cited := 0
	goFiles(t, func(rel string, data []byte) {
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range citation.FindAllStringSubmatch(line, -1) {
				cited++
				if !anchors[m[1]] {
					t.Errorf("%s:%d cites docs/design.md#%s: no such heading", rel, i+1, m[1])
				}
			}
		}
	})
	if cited == 0 {
		t.Error("no .go file cites docs/design.md#…: the scan found nothing")
	}
	for _, m := range regexp.MustCompile(`\]\(#([^)\s]*)\)`).FindAllStringSubmatch(text, -1) {
		if !anchors[m[1]] {
			t.Errorf("docs/design.md links to #%s: no such heading", m[1])
		}
	}
}

// specCitation matches a comment that cites an outside specification
// instead of docs/design.md ("the spec's defaults", "(spec: 0.55)",
// "numbered as in the specification", "FM-ING-002"). File names such as
// x.spec.ts and Go's type specs are not citations.
var specCitation = regexp.MustCompile(`(?i)\bthe spec(ification)?\b|\bspec's|\bper spec\b|\(spec\b|\bspec:|\bspec (constants|defaults|names?|tools?)\b|\bFM-[A-Z]+-\d+`)

// TestCommentsCiteTheDesign fails when a Go comment cites "the spec"
// instead of citing docs/design.md or stating the fact itself.
func TestCommentsCiteTheDesign(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	goFiles(t, func(rel string, data []byte) {
		f, err := parser.ParseFile(fset, rel, data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if loc := specCitation.FindStringIndex(c.Text); loc != nil {
					pos := fset.Position(c.Pos())
					line := pos.Line + strings.Count(c.Text[:loc[0]], "\n")
					t.Errorf("%s:%d: %q cites the spec: cite docs/design.md#… or state the fact", rel, line, c.Text[loc[0]:loc[1]])
				}
			}
		}
	})
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		" D1 structural":            "d1-structural",
		" XLR noise cancellation":   "xlr-noise-cancellation",
		" Start-up and recovery":    "start-up-and-recovery",
		" Memory and JSON adapters": "memory-and-json-adapters",
		" `Tool.Add` (typed), v2!":  "tooladd-typed-v2",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
