package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary serve as the harness's measurement child
// (best re-executes os.Args[0] with -child).
func TestMain(m *testing.M) {
	if os.Getenv("M1ND_INGEST_BENCH_CHILD") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func runBench(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("M1ND_INGEST_BENCH_CHILD", "1") // for the children only
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestMissingCorpusExits2NamingIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "py-335"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBench(t, "-corpora", dir, "-names", "py-335,go-std", "-runs", "1")
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "corpus go-std missing") || !strings.Contains(stderr, "benchmarks/corpora/corpora.py go-std") {
		t.Errorf("stderr does not name the missing corpus and how to build it: %s", stderr)
	}
	if stdout != "" {
		t.Errorf("a report was printed although a corpus is missing:\n%s", stdout)
	}
}

func TestBadUsageExits2(t *testing.T) {
	for _, args := range [][]string{{"-runs", "0"}, {"-names", ","}, {"-bogus"}} {
		if code, _, stderr := runBench(t, append(args, "-corpora", t.TempDir())...); code != 2 {
			t.Errorf("%v: exit %d, want 2; stderr: %s", args, code, stderr)
		}
	}
}

func TestEmptyCorpusFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runBench(t, "-corpora", dir, "-names", "empty", "-runs", "1", "-j", "1")
	if code != 1 || !strings.Contains(stderr, "parsed no file") {
		t.Errorf("exit %d, want 1 saying the corpus is empty; stderr: %s", code, stderr)
	}
}

func TestTinyCorpusIsMeasured(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "tiny", "pkg")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"a.py": "from pkg.b import helper\n\ndef main():\n    return helper()\n",
		"b.py": "def helper():\n    return 1\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(dir, "report.md")
	code, stdout, stderr := runBench(t, "-corpora", dir, "-names", "tiny", "-runs", "1", "-j", "1", "-o", report)
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	if !strings.Contains(stdout, "| tiny | 2 |") {
		t.Errorf("no row for the corpus:\n%s", stdout)
	}
	if b, err := os.ReadFile(report); err != nil || !strings.Contains(string(b), "| tiny | 2 |") {
		t.Errorf("report file: %v\n%s", err, b)
	}
}

func TestCorpusRecipe(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		missing []string
		want    string
	}{
		{"/tmp/m1nd-corpora", []string{"py-335", "mixed"}, "build with: python3 benchmarks/corpora/corpora.py py-335 mixed"},
		{"/data/c", []string{"go-std"}, "build with: M1ND_CORPORA=/data/c python3 benchmarks/corpora/corpora.py go-std"},
		{"/tmp/m1nd-corpora", []string{"go-std", "mine"}, "other names are directories you provide"},
	} {
		if got := corpusRecipe(tc.dir, tc.missing); !strings.Contains(got, tc.want) {
			t.Errorf("corpusRecipe(%s, %v) = %q, want it to contain %q", tc.dir, tc.missing, got, tc.want)
		}
	}
}
