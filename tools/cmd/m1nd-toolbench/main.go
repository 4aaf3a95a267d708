// Command m1nd-toolbench measures per-tool latency through the real
// transport: it starts m1nd-mcp, ingests a corpus over stdio, then times
// round trips (client-side wall clock) for each query tool and reports
// p50/p90/p99. With -rg it also times ripgrep on the same tree for the
// literal searches.
//
//	m1nd-toolbench -server bin/m1nd-mcp -corpus /tmp/m1nd-corpora/py-335 -n 200
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
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
	args["agent_id"] = "bench"
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, false, err
	}
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	json.Unmarshal(raw, &res)
	var out map[string]any
	if len(res.Content) > 0 {
		json.Unmarshal([]byte(res.Content[0].Text), &out)
	}
	return out, res.IsError, nil
}

type stat struct {
	name    string
	samples []time.Duration
	errors  int
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

func main() {
	server := flag.String("server", "bin/m1nd-mcp", "m1nd-mcp binary")
	corpus := flag.String("corpus", "/tmp/m1nd-corpora/py-335", "tree to ingest")
	n := flag.Int("n", 200, "calls per tool")
	rg := flag.Bool("rg", true, "also time ripgrep for the literal searches")
	flag.Parse()

	cmd := exec.Command(*server, "--allow-root", *corpus)
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	c := &client{in: in, out: bufio.NewReaderSize(outp, 1<<20)}
	if _, err := c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "toolbench", "version": "1"}}); err != nil {
		fail(err)
	}
	in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))

	start := time.Now()
	ing, isErr, err := c.tool("ingest", map[string]any{"path": *corpus})
	if err != nil || isErr {
		fail(fmt.Errorf("ingest: %v %v", err, ing))
	}
	ingestWall := time.Since(start)
	g := ing["graph"].(map[string]any)
	fmt.Printf("corpus %s: %v nodes, %v edges, ingest %s ms (through stdio)\n", *corpus, g["node_count"], g["edge_count"], fmtMs(ingestWall))

	// Query material sampled deterministically from the graph itself.
	r := rand.New(rand.NewPCG(1, 2))
	words, files := sample(c, r)
	if len(words) == 0 || len(files) == 0 {
		fail(fmt.Errorf("no query material sampled from the graph"))
	}
	// Warm the per-graph indexes once (query engine, seek, search cache):
	// their build time is part of ingest follow-up, not of a query.
	c.tool("activate", map[string]any{"query": words[0]})
	c.tool("seek", map[string]any{"query": words[0]})
	c.tool("search", map[string]any{"query": "return"})

	var stats []*stat
	measure := func(name string, args func(i int) (string, map[string]any)) *stat {
		s := &stat{name: name}
		for i := 0; i < *n; i++ {
			tool, a := args(i)
			t0 := time.Now()
			_, isErr, err := c.tool(tool, a)
			s.samples = append(s.samples, time.Since(t0))
			if err != nil || isErr {
				s.errors++
			}
		}
		stats = append(stats, s)
		return s
	}
	pick := func(xs []string, i int) string { return xs[(i*7919)%len(xs)] }
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
	measure("learn", func(i int) (string, map[string]any) {
		return "learn", map[string]any{"query": pick(words, i), "feedback": "correct", "node_ids": []string{pick(files, i)}}
	})
	literals := []string{"return", "self", "import os", "def __init__", "raise ValueError", "TODO", "xyzzy_no_match"}
	if strings.Contains(*corpus, "go-std") {
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

	fmt.Printf("\n| tool | calls | errors | p50 ms | p90 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, s := range stats {
		fmt.Printf("| %s | %d | %d | %s | %s | %s |\n", s.name, len(s.samples), s.errors, fmtMs(pct(s.samples, 0.5)), fmtMs(pct(s.samples, 0.9)), fmtMs(pct(s.samples, 0.99)))
	}
	if *rg {
		if _, err := exec.LookPath("rg"); err != nil {
			fmt.Println("\nripgrep not installed; skipping the comparison")
			return
		}
		var rgT []time.Duration
		for i := 0; i < min(*n, 60); i++ {
			t0 := time.Now()
			exec.Command("rg", "-c", "-F", "--no-messages", literals[i%len(literals)], *corpus).Run()
			rgT = append(rgT, time.Since(t0))
		}
		fmt.Printf("\nripgrep `rg -c -F` over the same tree: p50 %s ms, p90 %s ms (process start included)\n", fmtMs(pct(rgT, 0.5)), fmtMs(pct(rgT, 0.9)))
		fmt.Printf("search literal / rg (p50): %.2f×\n", float64(pct(lit.samples, 0.5))/float64(pct(rgT, 0.5)))
	}
}

// sample takes words from node labels and file node ids via glob/search.
func sample(c *client, r *rand.Rand) (words, files []string) {
	out, _, _ := c.tool("glob", map[string]any{"pattern": "**/*", "top_k": 2000})
	for _, f := range out["files"].([]any) {
		files = append(files, f.(map[string]any)["node_id"].(string))
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
	return words, files
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "m1nd-toolbench:", err)
	os.Exit(1)
}
