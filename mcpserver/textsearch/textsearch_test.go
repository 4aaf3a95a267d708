package textsearch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// lines returns the matching line numbers (and end lines when they
// differ) of q over content.
func lines(t *testing.T, q Query, content string) []string {
	t.Helper()
	m, err := Compile(q)
	if err != nil {
		t.Fatalf("Compile(%+v): %v", q, err)
	}
	total, kept := m.Scan([]byte(content), 1000)
	if total != len(kept) {
		t.Fatalf("total %d != kept %d", total, len(kept))
	}
	var out []string
	for _, mt := range kept {
		if mt.EndLine != mt.Line {
			out = append(out, fmt.Sprintf("%d-%d", mt.Line, mt.EndLine))
		} else {
			out = append(out, fmt.Sprint(mt.Line))
		}
	}
	return out
}

func TestScanCases(t *testing.T) {
	const py = "import os\nclass Auth:\n    def login(self, user):\n        return os.getenv('USER') == user\n\ndef logout():  # LOGIN again\n    pass\n"
	crlf := strings.ReplaceAll(py, "\n", "\r\n")
	cases := []struct {
		name    string
		q       Query
		content string
		want    []string
	}{
		{"literal case-insensitive (default)", Query{Pattern: "login"}, py, []string{"3", "6"}},
		{"literal case-sensitive", Query{Pattern: "login", CaseSensitive: true}, py, []string{"3"}},
		{"literal counts lines once", Query{Pattern: "user"}, py, []string{"3", "4"}},
		{"literal regex metachars", Query{Pattern: "getenv('USER')", CaseSensitive: true}, py, []string{"4"}},
		{"literal dot is a dot", Query{Pattern: "s.g"}, py, []string{"4"}},
		{"literal parens unbalanced", Query{Pattern: "login("}, py, []string{"3"}},
		{"literal first and last byte", Query{Pattern: "import"}, py, []string{"1"}},
		{"literal at end without newline", Query{Pattern: "pass"}, "a\npass", []string{"2"}},
		{"literal one byte", Query{Pattern: ":", CaseSensitive: true}, py, []string{"2", "3", "6"}},
		{"literal spanning newline", Query{Pattern: "user\n\ndef"}, py, []string{"4-6"}},
		{"literal no match", Query{Pattern: "zebra"}, py, nil},
		{"literal in CRLF", Query{Pattern: "pass"}, crlf, []string{"7"}},
		{"regex simple", Query{Pattern: `def \w+\(`, Regex: true}, py, []string{"3", "6"}},
		{"regex anchored start", Query{Pattern: `^def`, Regex: true}, py, []string{"6"}},
		{"regex anchored end", Query{Pattern: `:$`, Regex: true}, py, []string{"2", "3"}},
		{"regex anchored end in CRLF", Query{Pattern: `:$`, Regex: true}, crlf, []string{"2", "3"}},
		{"regex anchored both in CRLF", Query{Pattern: `^\s+pass$`, Regex: true}, crlf, []string{"7"}},
		{"regex case-insensitive", Query{Pattern: `LOG(IN|OUT)`, Regex: true}, py, []string{"3", "6"}},
		{"regex case-sensitive", Query{Pattern: `LOG(IN|OUT)`, Regex: true, CaseSensitive: true}, py, []string{"6"}},
		{"regex \\s does not cross lines", Query{Pattern: `user\s+def`, Regex: true}, py, nil},
		{"regex empty-width matches every line", Query{Pattern: `^`, Regex: true}, "a\nb\n", []string{"1", "2"}},
		{"regex empty line", Query{Pattern: `^$`, Regex: true}, py, []string{"5"}},
		{"regex word boundary", Query{Pattern: `\bos\b`, Regex: true}, py, []string{"1", "4"}},
		{"regex prefiltered but rejected", Query{Pattern: `return\s+x`, Regex: true}, py, nil},
		{"regex alternation without literal", Query{Pattern: `pass|class`, Regex: true}, py, []string{"2", "7"}},
		{"multiline regex", Query{Pattern: `def logout\(\):.*\n\s+pass`, Regex: true, Multiline: true}, py, []string{"6-7"}},
		{"multiline dot matches newline", Query{Pattern: `class.*?def`, Regex: true, Multiline: true}, py, []string{"2-3"}},
		{"multiline anchors are per line", Query{Pattern: `^\s+pass$`, Regex: true, Multiline: true}, py, []string{"7"}},
		{"unicode literal case-insensitive", Query{Pattern: "ÉCOLE"}, "x\nl'école\nECOLE\n", []string{"2"}},
		{"unicode literal case-sensitive", Query{Pattern: "école", CaseSensitive: true}, "x\nl'école\nÉcole\n", []string{"2"}},
		{"unicode regex", Query{Pattern: `[αβγ]+\d`, Regex: true}, "a1\nβγ2\n", []string{"2"}},
		{"kelvin sign folds to k", Query{Pattern: "\u212aelvin"}, "kelvin\n", []string{"1"}},
		{"empty file", Query{Pattern: "x"}, "", nil},
		{"no trailing newline, regex $", Query{Pattern: `b$`, Regex: true}, "a\nb", []string{"2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := lines(t, tc.q, tc.content); !slices.Equal(got, tc.want) {
				t.Errorf("got lines %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		q      Query
		reason string // substring of the error
		hint   string // substring of the hint
	}{
		{Query{Pattern: "foo(", Regex: true}, "missing closing )", "escape"},
		{Query{Pattern: "a[b", Regex: true}, "missing closing ]", "escape"},
		{Query{Pattern: "*x", Regex: true}, "missing argument to repetition operator", "escape"},
		{Query{Pattern: `foo(?=bar)`, Regex: true}, "lookahead and lookbehind", "lookaround"},
		{Query{Pattern: `(a)\1`, Regex: true}, "backreferences", "backreferences"},
		{Query{Pattern: `a\nb`, Regex: true}, "newline", "multiline: true"},
	}
	for _, tc := range cases {
		_, err := Compile(tc.q)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Fatalf("Compile(%q) = %v, want *PatternError", tc.q.Pattern, err)
		}
		if !strings.Contains(pe.Error(), tc.reason) {
			t.Errorf("%q: error %q does not say %q", tc.q.Pattern, pe.Error(), tc.reason)
		}
		if !strings.Contains(strings.ToLower(pe.Hint), tc.hint) {
			t.Errorf("%q: hint %q does not mention %q", tc.q.Pattern, pe.Hint, tc.hint)
		}
		if pe.Escaped != regexp.QuoteMeta(tc.q.Pattern) {
			t.Errorf("%q: escaped %q", tc.q.Pattern, pe.Escaped)
		}
	}
	for _, p := range []string{"", "   ", "\t\n"} {
		if _, err := Compile(Query{Pattern: p}); !errors.Is(err, ErrEmptyPattern) {
			t.Errorf("Compile(%q) = %v, want ErrEmptyPattern", p, err)
		}
	}
	// \s and [^x] include '\n' but are fine line by line.
	for _, p := range []string{`a\s+b`, `[^x]+`, `[\s\S]x`} {
		if _, err := Compile(Query{Pattern: p, Regex: true}); err != nil {
			t.Errorf("Compile(%q): %v", p, err)
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	cases := map[string]string{
		`def \w+\(`:      "def ",
		`foo(bar)+baz`:   "bar", // "foo" and "baz" are 3 too; the first longest wins
		`(hello|world)x`: "x",
		`a*b*`:           "",
		`x{2,}yz`:        "yz",
		`getUser(Name)?`: "getUser",
	}
	for p, want := range cases {
		re, err := regexpSyntax(p)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := requiredLiteral(re)
		if len(got) != len(want) {
			t.Errorf("requiredLiteral(%q) = %q, want length of %q", p, got, want)
		}
	}
}

// TestFindersAgainstReference checks the literal finders against a naive
// line-by-line reference on random text.
func TestFindersAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("aAbBeE \n\r_xX.(")
	needleAlphabet := []byte("aAbBeE \r_xX.(")
	for iter := 0; iter < 3000; iter++ {
		content := make([]byte, r.IntN(200))
		for i := range content {
			content[i] = alphabet[r.IntN(len(alphabet))]
		}
		needle := make([]byte, 1+r.IntN(4))
		for i := range needle {
			needle[i] = needleAlphabet[r.IntN(len(needleAlphabet))]
		}
		if strings.TrimSpace(string(needle)) == "" {
			continue
		}
		for _, cs := range []bool{true, false} {
			q := Query{Pattern: string(needle), CaseSensitive: cs}
			got := lines(t, q, string(content))
			var want []string
			for i, ln := range strings.Split(string(content), "\n") {
				hay, nd := ln, string(needle)
				if !cs {
					hay, nd = strings.ToLower(hay), strings.ToLower(nd)
				}
				if strings.Contains(hay, nd) {
					want = append(want, fmt.Sprint(i+1))
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("needle %q cs=%v content %q: got %v want %v", needle, cs, content, got, want)
			}
		}
	}
}

func TestContextAndClip(t *testing.T) {
	c := []byte("l1\r\nl2\r\nMATCH\r\nl4\r\nl5\r\n")
	m, _ := Compile(Query{Pattern: "match"})
	_, kept := m.Scan(c, 1)
	if len(kept) != 1 || kept[0].Line != 3 {
		t.Fatalf("kept %+v", kept)
	}
	before, after := Context(c, kept[0].LineStart, kept[0].End, 2)
	if fmt.Sprintf("%q %q", before, after) != `["l1" "l2"] ["l4" "l5"]` {
		t.Errorf("context %q %q", before, after)
	}
	if got := string(LineText(c, kept[0].LineStart)); got != "MATCH" {
		t.Errorf("LineText = %q", got)
	}
	if b, a := Context(c, 0, 2, 3); len(b) != 0 || len(a) != 3 {
		t.Errorf("context at the top: %q %q", b, a)
	}
	long := []byte(strings.Repeat("x", 5000) + "NEEDLE" + strings.Repeat("é", 3000))
	s := strings.Index(string(long), "NEEDLE")
	out, clipped := Clip(long, s, s+6, 200)
	if !clipped || !strings.Contains(out, "NEEDLE") || len(out) > 200+2*len("…") || !strings.HasPrefix(out, "…") || !strings.HasSuffix(out, "…") {
		t.Errorf("Clip = %q (%v)", out, clipped)
	}
	if !utf8Valid(out) {
		t.Errorf("Clip split a rune: %q", out)
	}
	if out, clipped := Clip([]byte("short"), 0, 1, 200); clipped || out != "short" {
		t.Errorf("Clip(short) = %q %v", out, clipped)
	}
	if col := Column([]byte("éé x"), 0, len("éé ")); col != 4 {
		t.Errorf("Column = %d, want 4", col)
	}
}

func TestSearchParallelCacheAndSkips(t *testing.T) {
	dir := t.TempDir()
	var files []File
	for i := 0; i < 40; i++ {
		p := filepath.Join(dir, fmt.Sprintf("f%02d.txt", i))
		body := strings.Repeat("nothing here\n", i) + "target line\n"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Path: filepath.Base(p), Abs: p})
	}
	bin := filepath.Join(dir, "bin.dat")
	os.WriteFile(bin, []byte("target\x00\x01"), 0o644)
	files = append(files, File{Path: "bin.dat", Abs: bin}, File{Path: "gone.txt", Abs: filepath.Join(dir, "gone.txt")})
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("target\n", 1000)), 0o644)
	files = append(files, File{Path: "big.txt", Abs: big})

	m, _ := Compile(Query{Pattern: "target"})
	cache := NewCache(1 << 20)
	for round := 0; round < 2; round++ {
		res := Search(context.Background(), files, m, Options{Workers: 4, Keep: 1, Cache: cache, MaxFileSize: 4000})
		if res.Total != 40 || res.FilesMatched != 40 || res.FilesScanned != 40 || res.Binary != 1 || res.Unreadable != 1 || res.TooLarge != 1 || res.Stopped {
			t.Fatalf("round %d: %+v", round, res)
		}
		for i := 0; i < 40; i++ {
			if fr := res.Files[i]; fr.Total != 1 || fr.Matches[0].Line != i+1 {
				t.Fatalf("file %d: %+v", i, fr)
			}
		}
	}
	st := cache.Stats()
	if st.Hits < 40 || st.Files != 41 { // 40 text files + the binary one
		t.Errorf("cache stats %+v", st)
	}
	// An edit is seen despite the cache (size changes).
	os.WriteFile(files[0].Abs, []byte("edited\nno match\n"), 0o644)
	res := Search(context.Background(), files[:1], m, Options{Cache: cache})
	if res.Total != 0 {
		t.Errorf("stale cache: %+v", res.Files[0])
	}
	// Same size, newer mtime: seen too.
	os.WriteFile(files[1].Abs, []byte("TARGET line\nzzzzzzzzzzzz\n"), 0o644)
	future := time.Now().Add(time.Hour)
	os.Chtimes(files[1].Abs, future, future)
	res = Search(context.Background(), files[1:2], m, Options{Cache: cache})
	if res.Total != 1 || res.Files[0].Matches[0].Line != 1 {
		t.Errorf("same-size edit not seen: %+v", res.Files[0])
	}
	// A full cache still answers (reads from disk).
	tiny := NewCache(10)
	res = Search(context.Background(), files[2:5], m, Options{Cache: tiny})
	if res.Total != 3 || tiny.Stats().Files != 0 {
		t.Errorf("tiny cache: %+v %+v", res, tiny.Stats())
	}
	// Early stop: counts become lower bounds.
	res = Search(context.Background(), files, m, Options{Workers: 1, StopAfter: 5})
	if !res.Stopped || res.Total < 5 || res.Total >= 40 {
		t.Errorf("early stop: total %d stopped %v", res.Total, res.Stopped)
	}
	// A cancelled context stops too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := Search(ctx, files, m, Options{}); !res.Stopped || res.FilesScanned != 0 {
		t.Errorf("cancelled: %+v", res)
	}
}

func TestMatchLabel(t *testing.T) {
	cases := []struct {
		q     Query
		label string
		want  bool
	}{
		{Query{Pattern: "auth"}, "AuthService", true},
		{Query{Pattern: "auth", CaseSensitive: true}, "AuthService", false},
		{Query{Pattern: "Ser", CaseSensitive: true}, "AuthService", true},
		{Query{Pattern: `^Auth\w+$`, Regex: true, CaseSensitive: true}, "AuthService", true},
		{Query{Pattern: `^auth$`, Regex: true}, "AuthService", false},
		{Query{Pattern: "ÉCOLE"}, "école.py", true},
	}
	for _, tc := range cases {
		m, err := Compile(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.MatchLabel(tc.label); got != tc.want {
			t.Errorf("%+v MatchLabel(%q) = %v", tc.q, tc.label, got)
		}
	}
}

func regexpSyntax(p string) (*syntax.Regexp, error) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return re.Simplify(), nil
}

func utf8Valid(s string) bool { return utf8.ValidString(s) }

func TestMatchFits(t *testing.T) {
	data := []byte("abc\ndef\n")
	for _, c := range []struct {
		m    Match
		want bool
	}{
		{Match{LineStart: 4, Start: 4, End: 7}, true},
		{Match{LineStart: 4, Start: 6, End: 12}, false}, // the file shrank since the scan
		{Match{LineStart: 5, Start: 4, End: 7}, false},
		{Match{LineStart: 0, Start: 3, End: 2}, false},
	} {
		if got := c.m.Fits(data); got != c.want {
			t.Errorf("%+v.Fits = %v, want %v", c.m, got, c.want)
		}
	}
}
