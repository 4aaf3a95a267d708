package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain turns the test binary into a fake m1nd-mcp when asked, so the
// harness's failure paths are exercised through a real child process and
// real stdio without building the server.
func TestMain(m *testing.M) {
	if os.Getenv("M1ND_TOOLBENCH_FAKE_SERVER") != "" {
		fakeServer(os.Getenv("M1ND_TOOLBENCH_FAKE_SERVER"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer answers line-framed JSON-RPC; the tool named by fail (or
// none, "ok") answers with a tool error as m1nd-mcp does.
func fakeServer(fail string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var req struct {
			ID     *int   `json:"id"`
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result any = map[string]any{}
		if req.Method == "tools/call" {
			body := map[string]any{}
			isErr := req.Params.Name == fail
			switch {
			case isErr:
				body = map[string]any{"error": "fake " + fail + " failure", "hint": "the fake says why", "example": map[string]any{}}
			case req.Params.Name == "ingest":
				body = map[string]any{"graph": map[string]any{"node_count": 3, "edge_count": 2}}
			case req.Params.Name == "glob":
				body = map[string]any{"files": []any{
					map[string]any{"node_id": "file::pkg/alpha_parser.py"},
					map[string]any{"node_id": "file::pkg/beta_lexer.py"},
				}}
			}
			text, _ := json.Marshal(body)
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": string(text)}}, "isError": isErr}
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": *req.ID, "result": result})
		fmt.Println(string(b))
	}
}

func runBench(t *testing.T, fail string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("M1ND_TOOLBENCH_FAKE_SERVER", "")
	if fail != "" {
		// Only the child must see it: run() itself never reads it.
		t.Setenv("M1ND_TOOLBENCH_FAKE_SERVER", fail)
	}
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestMissingCorpusExits2AndSaysHowToBuildIt(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "py-335")
	code, _, stderr := runBench(t, "", "-server", os.Args[0], "-corpus", corpus, "-n", "1", "-rg=false")
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, corpus) || !strings.Contains(stderr, "benchmarks/corpora/corpora.py py-335") {
		t.Errorf("stderr does not name the corpus and how to build it: %s", stderr)
	}
}

func TestMissingCorpusOfAnotherNameSaysWhatTheRecipeBuilds(t *testing.T) {
	code, _, stderr := runBench(t, "", "-corpus", filepath.Join(t.TempDir(), "mine"), "-rg=false")
	if code != 2 || !strings.Contains(stderr, "(py-335, py-std, go-std, js-npm, mixed) are built with") {
		t.Errorf("exit %d; stderr: %s", code, stderr)
	}
}

func TestBadFlagsExit2(t *testing.T) {
	for _, args := range [][]string{{"-no-such-flag"}, {"-n", "0", "-corpus", t.TempDir()}} {
		if code, _, stderr := runBench(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2; stderr: %s", args, code, stderr)
		}
	}
}

func TestServerThatDoesNotStartExits1(t *testing.T) {
	code, _, stderr := runBench(t, "", "-server", filepath.Join(t.TempDir(), "no-m1nd-mcp"), "-corpus", t.TempDir(), "-n", "1", "-rg=false")
	if code != 1 || !strings.Contains(stderr, "start the server") {
		t.Errorf("exit %d, want 1 with a reason; stderr: %s", code, stderr)
	}
}

func TestFailures(t *testing.T) {
	for _, tc := range []struct {
		fail string
		code int
		want string
	}{
		{"ingest", 1, "ingest failed: fake ingest failure (hint: the fake says why)"},
		{"glob", 1, "glob failed: fake glob failure"},
		{"impact", 1, "2 of 30 measured calls failed; first: impact: impact failed: fake impact failure"},
		{"ok", 0, ""},
	} {
		t.Run(tc.fail, func(t *testing.T) {
			code, stdout, stderr := runBench(t, tc.fail, "-server", os.Args[0], "-corpus", t.TempDir(), "-n", "2", "-rg=false")
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			if strings.Contains(stderr, "map[") {
				t.Errorf("stderr prints a Go map:\n%s", stderr)
			}
			if tc.code == 0 && !strings.Contains(stdout, "| impact | 2 | 0 |") {
				t.Errorf("no result table on success:\n%s", stdout)
			}
		})
	}
}

func TestParseCall(t *testing.T) {
	for _, tc := range []struct {
		in      string
		name    string
		args    int
		wantErr bool
	}{
		{"layers", "layers", 0, false},
		{`impact {"node_id":"file::a.py","top_k":3}`, "impact", 2, false},
		{"  twins   {}  ", "twins", 0, false},
		{"", "", 0, true},
		{"impact {node_id}", "impact", 0, true},
	} {
		c, err := parseCall(tc.in)
		if (err != nil) != tc.wantErr || c.name != tc.name || len(c.args) != tc.args {
			t.Errorf("parseCall(%q) = %+v, %v", tc.in, c, err)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-call", "impact {x"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not a JSON object") {
		t.Errorf("a bad -call: exit %d, %q", code, errb.String())
	}
}
