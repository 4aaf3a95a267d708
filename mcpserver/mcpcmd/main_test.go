package mcpcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets a test run this binary's main in a child process (the
// test binary re-executed), so the terminal line is checked on a real
// terminal without building m1nd-mcp separately.
func TestMain(m *testing.M) {
	if os.Getenv("M1ND_MCP_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestTerminalHintUsesTheFlagsGiven(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got := terminalHint([]string{"--runtime-dir", ".m1nd", "--ingest=repo", "--no-attach", "--allow-root", "/abs/other dir", "cfg.json"}, "/opt/m1nd/bin/m1nd-mcp")
	want := "npx @modelcontextprotocol/inspector -- /opt/m1nd/bin/m1nd-mcp --runtime-dir " + filepath.Join(wd, ".m1nd") +
		" --ingest=" + filepath.Join(wd, "repo") + " --no-attach --allow-root '/abs/other dir' " + filepath.Join(wd, "cfg.json")
	if !strings.HasSuffix(got, want) {
		t.Errorf("hint:\n%s\nwant it to end with:\n%s", got, want)
	}
	for _, s := range []string{"MCP server on stdio", "waits for an MCP client", "README: Client configuration"} {
		if !strings.Contains(got, s) {
			t.Errorf("hint lacks %q: %s", s, got)
		}
	}
	if strings.Contains(got, "\n") {
		t.Errorf("hint is more than one line: %q", got)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b-c_d.json": "/a/b-c_d.json",
		"":              "''",
		"a b":           "'a b'",
		"it's":          `'it'\''s'`,
		"$HOME":         "'$HOME'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestNoHintWithoutATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(r) {
		t.Error("a pipe (how clients connect) counted as a terminal")
	}
	if isTerminal(bytes.NewReader(nil)) {
		t.Error("a reader that is no file counted as a terminal")
	}
	if null, err := os.Open(os.DevNull); err == nil {
		defer null.Close()
		if isTerminal(null) {
			t.Error("/dev/null counted as a terminal")
		}
	}
	// The whole run: a client's stdin is a pipe, stderr gets no hint.
	t.Setenv("M1ND_RUNTIME_DIR", "")
	t.Setenv("M1ND_GRAPH_SOURCE", "")
	var stdout, stderr bytes.Buffer
	w.Close()
	if code := Main(nil, r, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "inspector") {
		t.Errorf("hint printed for a pipe:\n%s", stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout carries more than protocol: %q", stdout.String())
	}
}
