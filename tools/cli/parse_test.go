package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	reg := toolset.Builtin()
	tests := []struct {
		name string
		args []string
		cmd  string
		tool string
		want map[string]any
		opts options
		rest []string
	}{
		{"no args is help", nil, "help", "", nil, options{Wait: defaultWait}, nil},
		{"seek positional", []string{"seek", "validate user"}, "seek", "seek",
			map[string]any{"query": "validate user"}, options{Wait: defaultWait}, nil},
		{"flags after, typed", []string{"seek", "auth", "--top_k", "5", "--graph_rerank=false", "--min-score", "0.2"}, "seek", "seek",
			map[string]any{"query": "auth", "top_k": int64(5), "graph_rerank": false, "min_score": 0.2}, options{Wait: defaultWait}, nil},
		{"options before and after the command", []string{"--json", "impact", "--runtime-dir", "/rt", "a.go", "--hops", "2"}, "impact", "impact",
			map[string]any{"node_id": "a.go", "max_hops": int64(2)}, options{JSON: true, RuntimeDir: "/rt", Wait: defaultWait}, nil},
		{"why takes two", []string{"why", "a.go", "--top", "3", "b.go"}, "why", "why",
			map[string]any{"source": "a.go", "target": "b.go", "top_k": int64(3)}, options{Wait: defaultWait}, nil},
		{"dash dash ends flags", []string{"search", "--", "--not-a-flag"}, "search", "search",
			map[string]any{"query": "--not-a-flag"}, options{Wait: defaultWait}, nil},
		{"ingest path optional", []string{"ingest", "--incremental"}, "ingest", "ingest",
			map[string]any{"incremental": true}, options{Wait: defaultWait}, nil},
		{"repeatable allow-root and wait", []string{"ingest", "src", "--allow-root", "/a", "--allow-root", "/b", "--wait", "2s"}, "ingest", "ingest",
			map[string]any{"path": "src"}, options{AllowRoots: []string{"/a", "/b"}, Wait: 2 * time.Second}, nil},
		{"call with JSON, flags win", []string{"call", "impact", `{"node_id": "x", "top_k": 3}`, "--top_k", "4"}, "call", "impact",
			map[string]any{"node_id": "x", "top_k": int64(4)}, options{Wait: defaultWait}, nil},
		{"call alias name", []string{"call", "m1nd.seek", "--query", "q"}, "call", "seek",
			map[string]any{"query": "q"}, options{Wait: defaultWait}, nil},
		{"string array repeats", []string{"call", "learn", "--query", "q", "--feedback", "correct", "--node_ids", "a", "--node_ids", "b"}, "call", "learn",
			map[string]any{"query": "q", "feedback": "correct", "node_ids": []string{"a", "b"}}, options{Wait: defaultWait}, nil},
		{"string array as JSON", []string{"call", "learn", "--node_ids", `["a","b"]`}, "call", "learn",
			map[string]any{"node_ids": []string{"a", "b"}}, options{Wait: defaultWait}, nil},
		{"help topic", []string{"help", "impact"}, "help", "", nil, options{Wait: defaultWait}, []string{"impact"}},
		{"command help", []string{"seek", "--help"}, "seek", "seek", nil, options{Help: true, Wait: defaultWait}, nil},
		{"serve passes flags through", []string{"--runtime-dir", "/rt", "serve", "--no-gui", "--allow-root", "/x"}, "serve", "", nil,
			options{RuntimeDir: "/rt", Wait: defaultWait}, []string{"--no-gui", "--allow-root", "/x"}},
		{"doctor json", []string{"doctor", "--json"}, "doctor", "", nil, options{JSON: true, Wait: defaultWait}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := parse(tc.args, reg)
			if err != nil {
				t.Fatalf("parse(%q): %v", tc.args, err)
			}
			if inv.Cmd.Name != tc.cmd {
				t.Errorf("command %q, want %q", inv.Cmd.Name, tc.cmd)
			}
			if got := toolName(inv); got != tc.tool {
				t.Errorf("tool %q, want %q", got, tc.tool)
			}
			if diff := cmp.Diff(tc.want, inv.Args); tc.want != nil && diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.opts, inv.Opts); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.rest, inv.Rest); diff != "" {
				t.Errorf("rest (-want +got):\n%s", diff)
			}
		})
	}
}

func toolName(inv *invocation) string {
	if inv.Tool == nil {
		return ""
	}
	return inv.Tool.Name
}

func TestParseUsageErrors(t *testing.T) {
	reg := toolset.Builtin()
	tests := []struct {
		args []string
		want string // in the message
	}{
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"activate", "x"}, "activate is a tool: m1nd call activate"},
		{[]string{"seek"}, "seek needs QUERY"},
		{[]string{"why", "a"}, "why needs TARGET"},
		{[]string{"why", "a", "b", "c"}, "takes 2 argument(s), got 3"},
		{[]string{"seek", "q", "--top_k", "many"}, "top_k must be an integer"},
		{[]string{"seek", "q", "--no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"seek", "q", "--query", "r"}, "query given both as an argument and as --query"},
		{[]string{"call"}, "call needs a tool name"},
		{[]string{"call", "sek"}, `no tool named "sek"; did you mean seek`},
		{[]string{"call", "seek", "not json"}, "is not a JSON object"},
		{[]string{"call", "seek", "{}", "{}"}, "takes one JSON object"},
		{[]string{"doctor", "extra"}, `doctor takes no argument "extra"`},
		{[]string{"--wait", "soon", "seek", "q"}, "invalid value"},
	}
	for _, tc := range tests {
		_, err := parse(tc.args, reg)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("parse(%q) = %v, want a usage error", tc.args, err)
			continue
		}
		if !strings.Contains(ue.msg, tc.want) {
			t.Errorf("parse(%q) = %q, want it to say %q", tc.args, ue.msg, tc.want)
		}
	}
}

// Every tool parameter is reachable as a flag, and no parameter collides
// with an option of the CLI (it would then be reachable only as JSON).
func TestEveryParameterIsAFlag(t *testing.T) {
	for _, tl := range toolset.Builtin().All() {
		fs := newFlagSet("t")
		var o options
		bindOptions(fs, &o)
		for _, p := range tl.AllParams() {
			if fs.Lookup(p.Name) != nil {
				t.Errorf("%s: parameter %s collides with an option of the CLI", tl.Name, p.Name)
			}
		}
		bindParams(fs, tl, map[string]any{})
		for _, p := range tl.AllParams() {
			if fs.Lookup(p.Name) == nil {
				t.Errorf("%s: no flag for parameter %s", tl.Name, p.Name)
			}
		}
	}
}

func TestCommandsCallRegisteredTools(t *testing.T) {
	reg := toolset.Builtin()
	for _, c := range commands {
		if c.Tool == "" {
			continue
		}
		tl, ok := reg.Lookup(c.Tool)
		if !ok {
			t.Errorf("command %s calls unregistered tool %s", c.Name, c.Tool)
			continue
		}
		for _, p := range c.Positional {
			if _, ok := tl.Param(p); !ok {
				t.Errorf("command %s fills %s, which %s does not declare", c.Name, p, tl.Name)
			}
		}
	}
}
