// Command m1nd-toolbench measures per-tool latency through the real
// transport: it starts m1nd-mcp, ingests a corpus over stdio, then times
// round trips (client-side wall clock) for each query tool and reports
// p50/p90/p99. With -rg it also times ripgrep on the same tree for the
// literal searches.
//
//	m1nd-toolbench -server bin/m1nd-mcp -corpus /tmp/m1nd-corpora/py-335 -n 200
//
// -call adds a tool with fixed arguments (repeatable), -only measures just
// those; the table gives each tool's median answer size beside its
// latencies:
//
//	m1nd-toolbench -only -call 'layers {}' -call 'twins {"top_k":10}'
//
// It exits 0 only when every call succeeded: 1 when the server fails to
// start, to ingest, or answers any measured call with an error; 2 for bad
// flags or a missing corpus (python3 benchmarks/corpora/corpora.py builds
// the corpora).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

type client struct {
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func (c *client) call(method string, params any) (json.RawMessage, error) {
	c.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID != c.id {
			continue // a notification
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error)
		}
		return m.Result, nil
	}
}

// tool calls a tool and returns its decoded text and whether it failed.
func (c *client) tool(name string, args map[string]any) (map[string]any, bool, error) {
	out, isErr, _, err := c.toolSized(name, args)
	return out, isErr, err
}

// toolSized is tool that also returns the size of the answer's text: what
// an agent reads.
func (c *client) toolSized(name string, args map[string]any) (map[string]any, bool, int, error) {
	args["agent_id"] = "bench"
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, false, 0, err
	}
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	json.Unmarshal(raw, &res)
	var out map[string]any
	size := 0
	if len(res.Content) > 0 {
		json.Unmarshal([]byte(res.Content[0].Text), &out)
		size = len(res.Content[0].Text)
	}
	return out, res.IsError, size, nil
}

type stat struct {
	name     string
	samples  []time.Duration
	sizes    []int
	errors   int
	firstErr error
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func fmtMs(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000) }

// Exit codes: 0 every call succeeded; 1 the server failed (start, ingest,
// any measured call); 2 bad usage or a missing corpus.
func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// benchError is a failure with the exit code it deserves.
type benchError struct {
	code int
	msg  string
}

func (e *benchError) Error() string { return e.msg }

func failf(code int, format string, a ...any) error {
	return &benchError{code: code, msg: fmt.Sprintf(format, a...)}
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("m1nd-toolbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "bin/m1nd-mcp", "m1nd-mcp binary")
	corpus := fs.String("corpus", "/tmp/m1nd-corpora/py-335", "tree to ingest (benchmarks/corpora/corpora.py builds the corpora)")
	n := fs.Int("n", 200, "calls per tool")
	rg := fs.Bool("rg", true, "also time ripgrep for the literal searches")
	var extra []call
	fs.Func("call", "a tool and its JSON arguments, e.g. 'layers {}' (repeatable)", func(v string) error {
		c, err := parseCall(v)
		extra = append(extra, c)
		return err
	})
	only := fs.Bool("only", false, "measure only the -call tools")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	err := bench(*server, *corpus, *n, *rg, extra, *only, stdout, stderr)
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "m1nd-toolbench:", err)
	var be *benchError
	if errors.As(err, &be) {
		return be.code
	}
	return 1
}

// toolFailure turns a tool's error answer into one readable line: its
// error and hint, not a dump of the decoded JSON.
func toolFailure(name string, out map[string]any) error {
	msg, _ := out["error"].(string)
	if msg == "" {
		b, _ := json.Marshal(out)
		msg = string(b)
	}
	if hint, _ := out["hint"].(string); hint != "" {
		msg += " (hint: " + hint + ")"
	}
	return failf(1, "%s failed: %s", name, msg)
}

// call is a tool measured with fixed arguments (-call).
type call struct {
	name string
	args map[string]any
}

// parseCall reads "name {json}" (the arguments may be omitted).
func parseCall(v string) (call, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(v), " ")
	c := call{name: name, args: map[string]any{}}
	if name == "" {
		return c, errors.New(`want a tool name and its JSON arguments, e.g. 'impact {"node_id":"file::a.py"}'`)
	}
	if strings.TrimSpace(rest) != "" {
		if err := json.Unmarshal([]byte(rest), &c.args); err != nil {
			return c, fmt.Errorf("the arguments of %s are not a JSON object: %v (e.g. '%s {\"top_k\":10}')", name, err, name)
		}
	}
	return c, nil
}

func bench(server, corpus string, n int, rg bool, extra []call, only bool, stdout, stderr io.Writer) error {
	if n <= 0 {
		return failf(2, "-n must be at least 1, got %d", n)
	}
	if st, err := os.Stat(corpus); err != nil || !st.IsDir() {
		return failf(2, "corpus %s is missing (not a directory); %s", corpus, corpusRecipe(filepath.Base(corpus)))
	}
	cmd := exec.Command(server, "--allow-root", corpus)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return failf(1, "start the server %s: %v (make build puts it in bin/)", server, err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	c := &client{in: in, out: bufio.NewReaderSize(outp, 1<<20)}
	if _, err := c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "toolbench", "version": "1"}}); err != nil {
		return failf(1, "initialize: %v (the server's stderr above says why)", err)
	}
	in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))

	start := time.Now()
	ing, isErr, err := c.tool("ingest", map[string]any{"path": corpus})
	if err != nil {
		return failf(1, "ingest: %v", err)
	}
	if isErr {
		return toolFailure("ingest", ing)
	}
	ingestWall := time.Since(start)
	g, ok := ing["graph"].(map[string]any)
	if !ok {
		return failf(1, "ingest answered without a graph summary: %s", jsonText(ing))
	}
	fmt.Fprintf(stdout, "corpus %s: %v nodes, %v edges, ingest %s ms (through stdio)\n", corpus, g["node_count"], g["edge_count"], fmtMs(ingestWall))

	// Query material sampled deterministically from the graph itself.
	r := rand.New(rand.NewPCG(1, 2))
	words, files, err := sample(c, r)
	if err != nil {
		return err
	}
	if len(words) == 0 || len(files) == 0 {
		return failf(1, "no query material sampled from the graph (%d words, %d files): is the corpus empty?", len(words), len(files))
	}
	// Warm the per-graph indexes once (query engine, seek, search cache):
	// their build time is part of ingest follow-up, not of a query.
	c.tool("activate", map[string]any{"query": words[0]})
	c.tool("seek", map[string]any{"query": words[0]})
	c.tool("search", map[string]any{"query": "return"})

	var stats []*stat
	measure := func(name string, args func(i int) (string, map[string]any)) *stat {
		s := &stat{name: name}
		for i := 0; i < n; i++ {
			tool, a := args(i)
			t0 := time.Now()
			out, isErr, size, err := c.toolSized(tool, a)
			s.samples = append(s.samples, time.Since(t0))
			s.sizes = append(s.sizes, size)
			if err != nil || isErr {
				s.errors++
				if s.firstErr == nil {
					s.firstErr = err
					if err == nil {
						s.firstErr = toolFailure(tool, out)
					}
				}
			}
		}
		stats = append(stats, s)
		return s
	}
	pick := func(xs []string, i int) string { return xs[(i*7919)%len(xs)] }
	for _, x := range extra {
		measure(x.name, func(int) (string, map[string]any) { return x.name, maps.Clone(x.args) })
	}
	if only {
		return report(stdout, stats)
	}
	measure("activate", func(i int) (string, map[string]any) {
		return "activate", map[string]any{"query": pick(words, i) + " " + pick(words, i+1), "top_k": 20}
	})
	measure("seek", func(i int) (string, map[string]any) {
		return "seek", map[string]any{"query": "code that handles " + pick(words, i) + " " + pick(words, i+3), "top_k": 20}
	})
	measure("impact", func(i int) (string, map[string]any) {
		return "impact", map[string]any{"node_id": pick(files, i)}
	})
	measure("why", func(i int) (string, map[string]any) {
		return "why", map[string]any{"source": pick(files, i), "target": pick(files, i+1), "max_hops": 4}
	})
	measure("missing", func(i int) (string, map[string]any) {
		return "missing", map[string]any{"query": pick(words, i)}
	})
	measure("predict", func(i int) (string, map[string]any) {
		return "predict", map[string]any{"changed_node": pick(files, i), "top_k": 10}
	})
	measure("validate_plan", func(i int) (string, map[string]any) {
		return "validate_plan", map[string]any{"actions": []any{
			map[string]any{"action_type": "modify", "file_path": strings.TrimPrefix(pick(files, i), "file::")},
			map[string]any{"action_type": "modify", "file_path": strings.TrimPrefix(pick(files, i+1), "file::")},
		}}
	})
	measure("timeline", func(i int) (string, map[string]any) {
		return "timeline", map[string]any{"node": pick(files, i), "depth": "all", "include_churn": false}
	})
	measure("trace", func(i int) (string, map[string]any) {
		a, b := strings.TrimPrefix(pick(files, i), "file::"), strings.TrimPrefix(pick(files, i+1), "file::")
		return "trace", map[string]any{"error_text": "Traceback (most recent call last):\n  File \"/srv/app/" + a + "\", line 10, in run\n    go()\n  File \"/srv/app/" + b + "\", line 20, in go\n    fail()\nValueError: bad value\n"}
	})
	measure("hypothesize", func(i int) (string, map[string]any) {
		return "hypothesize", map[string]any{"claim": strings.TrimPrefix(pick(files, i), "file::") + " depends on " + strings.TrimPrefix(pick(files, i+1), "file::")}
	})
	measure("counterfactual", func(i int) (string, map[string]any) {
		return "counterfactual", map[string]any{"node_ids": []string{pick(files, i)}}
	})
	measure("learn", func(i int) (string, map[string]any) {
		return "learn", map[string]any{"query": pick(words, i), "feedback": "correct", "node_ids": []string{pick(files, i)}}
	})
	literals := []string{"return", "self", "import os", "def __init__", "raise ValueError", "TODO", "xyzzy_no_match"}
	if strings.Contains(corpus, "go-std") {
		literals = []string{"return", "func (", "ParseDuration", "errors.New", "TODO", "xyzzy_no_match"}
	}
	// Whole-tree literal search with exact counts: every file is scanned,
	// like rg -c.
	lit := measure("search literal (exact counts)", func(i int) (string, map[string]any) {
		return "search", map[string]any{"query": literals[i%len(literals)], "mode": "literal", "case_sensitive": true, "exact_counts": true, "top_k": 50}
	})
	measure("glob", func(i int) (string, map[string]any) {
		return "glob", map[string]any{"pattern": "**/*" + pick(words, i) + "*"}
	})
	measure("health", func(int) (string, map[string]any) { return "health", map[string]any{} })

	tableErr := report(stdout, stats)
	if rg {
		if _, err := exec.LookPath("rg"); err != nil {
			fmt.Fprintln(stdout, "\nripgrep not installed; skipping the comparison")
		} else {
			var rgT []time.Duration
			for i := 0; i < min(n, 60); i++ {
				t0 := time.Now()
				exec.Command("rg", "-c", "-F", "--no-messages", literals[i%len(literals)], corpus).Run()
				rgT = append(rgT, time.Since(t0))
			}
			fmt.Fprintf(stdout, "\nripgrep `rg -c -F` over the same tree: p50 %s ms, p90 %s ms (process start included)\n", fmtMs(pct(rgT, 0.5)), fmtMs(pct(rgT, 0.9)))
			fmt.Fprintf(stdout, "search literal / rg (p50): %.2f×\n", float64(pct(lit.samples, 0.5))/float64(pct(rgT, 0.5)))
		}
	}
	return tableErr
}

// report prints the table: latencies and the median answer size per tool.
// Latencies of failed calls are not latencies of the tool: the table is
// printed for diagnosis, but the run does not count as a result.
func report(stdout io.Writer, stats []*stat) error {
	fmt.Fprintf(stdout, "\n| tool | calls | errors | p50 ms | p90 ms | p99 ms | answer p50 bytes |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	failed, calls := 0, 0
	var firstErr error
	for _, s := range stats {
		sizes := slices.Clone(s.sizes)
		slices.Sort(sizes)
		fmt.Fprintf(stdout, "| %s | %d | %d | %s | %s | %s | %d |\n", s.name, len(s.samples), s.errors, fmtMs(pct(s.samples, 0.5)), fmtMs(pct(s.samples, 0.9)), fmtMs(pct(s.samples, 0.99)), sizes[len(sizes)/2])
		failed += s.errors
		calls += len(s.samples)
		if firstErr == nil && s.firstErr != nil {
			firstErr = fmt.Errorf("%s: %w", s.name, s.firstErr)
		}
	}
	if failed > 0 {
		return failf(1, "%d of %d measured calls failed; first: %v", failed, calls, firstErr)
	}
	return nil
}

// sample takes words from file names and file node ids via glob.
func sample(c *client, r *rand.Rand) (words, files []string, err error) {
	out, isErr, err := c.tool("glob", map[string]any{"pattern": "**/*", "top_k": 2000})
	if err != nil {
		return nil, nil, failf(1, "glob: %v", err)
	}
	if isErr {
		return nil, nil, toolFailure("glob", out)
	}
	list, _ := out["files"].([]any)
	for _, f := range list {
		if id, ok := f.(map[string]any)["node_id"].(string); ok {
			files = append(files, id)
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		base := f[strings.LastIndex(f, "/")+1:]
		base = strings.TrimSuffix(base, ".py")
		base = strings.TrimSuffix(base, ".go")
		for _, w := range strings.FieldsFunc(base, func(r rune) bool { return r == '_' || r == '.' || r == '-' }) {
			if len(w) >= 4 && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	return words, files, nil
}

// corpusRecipe says how to make a missing corpus.
func corpusRecipe(name string) string {
	if slices.Contains([]string{"py-335", "py-std", "go-std", "js-npm", "mixed"}, name) {
		return "build it with: python3 benchmarks/corpora/corpora.py " + name
	}
	return "the benchmark corpora (py-335, py-std, go-std, js-npm, mixed) are built with: python3 benchmarks/corpora/corpora.py"
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
