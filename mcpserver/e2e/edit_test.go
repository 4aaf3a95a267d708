package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// The write tools through the real binary, on a Go module and a Python
// package: verdicts, restores byte for byte, refusals that write nothing,
// formats kept, two-phase edits, progress notifications; and kill -9
// during batches.

var editRepo = map[string]string{
	"go.mod":              "module example.com/shop\n\ngo 1.22\n",
	"price/price.go":      "package price\n\n// Net removes the discount.\nfunc Net(gross, discount int) int { return gross - discount }\n\n// Total adds the lines.\nfunc Total(lines []int) int {\n\tt := 0\n\tfor _, l := range lines {\n\t\tt += l\n\t}\n\treturn t\n}\n",
	"price/price_test.go": "package price\n\nimport \"testing\"\n\nfunc TestNet(t *testing.T) {\n\tif Net(10, 3) != 7 {\n\t\tt.Fatal(\"Net(10, 3)\")\n\t}\n}\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"Total\")\n\t}\n}\n",
	"cart/cart.go":        "package cart\n\nimport \"example.com/shop/price\"\n\n// Pay is what the cart costs.\nfunc Pay(lines []int, discount int) int { return price.Net(price.Total(lines), discount) }\n",
	"shop/__init__.py":    "",
	"shop/tax.py":         "RATE = 0.2\n\n\ndef with_tax(amount):\n    tax = amount * RATE\n    return amount + tax\n",
	"tests/test_tax.py":   "import unittest\n\nfrom shop.tax import with_tax\n\n\nclass TaxTest(unittest.TestCase):\n    def test_with_tax(self):\n        self.assertEqual(with_tax(10), 12)\n",
	"scripts/run.sh":      "#!/bin/sh\r\necho run\r\n",
	"docs/notes.md":       "notes\n",
}

func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(dir, "scripts", "run.sh"), 0o755)
	return dir
}

// snapshotTree maps each file under dir to its mode and contents.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		fi, _ := de.Info()
		rel, _ := filepath.Rel(dir, p)
		if !fi.Mode().IsRegular() {
			out[rel] = fi.Mode().String()
			return nil
		}
		data, _ := os.ReadFile(p)
		out[rel] = fmt.Sprintf("%v %q", fi.Mode(), data)
		return nil
	})
	return out
}

func edits(pairs ...string) []any {
	var out []any
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]any{"file_path": pairs[i], "new_content": pairs[i+1]})
	}
	return out
}

func verdict(t *testing.T, out map[string]any) string {
	t.Helper()
	v, ok := out["verification"].(map[string]any)
	if !ok {
		t.Fatalf("no verification: %v", out)
	}
	return v["verdict"].(string)
}

func TestEditToolsThroughTheBinary(t *testing.T) {
	repo := writeRepo(t, editRepo)
	p := start(t, nil, "--runtime-dir", t.TempDir(), "--ingest", repo)
	p.initialize(transport.Line)
	tool := func(name string, args map[string]any) (map[string]any, bool) {
		t.Helper()
		args["agent_id"] = "e2e"
		return p.tool(transport.Line, name, args)
	}
	must := func(name string, args map[string]any) map[string]any {
		t.Helper()
		out, isErr := tool(name, args)
		if isErr {
			t.Fatalf("%s: %v", name, out)
		}
		return out
	}
	priceGo := editRepo["price/price.go"]

	// SAFE: a function and its caller change together, build and pass.
	out := must("apply_batch", map[string]any{"verify": true, "edits": edits(
		"price/price.go", priceGo+"\n// Double doubles.\nfunc Double(x int) int { return 2 * x }\n",
		"cart/cart.go", strings.Replace(editRepo["cart/cart.go"], "return price.Net(", "return price.Double(0) + price.Net(", 1))})
	if v := verdict(t, out); v != "SAFE" || out["tests_run"] != 2.0 {
		t.Fatalf("SAFE batch: %s, %v tests: %v", v, out["tests_run"], out["verification"])
	}
	// The graph sees it at once.
	if s := must("surgical_context", map[string]any{"file_path": "price/price.go"}); !strings.Contains(toJSON(s["symbols"]), "Double") {
		t.Errorf("surgical_context after the write lacks Double: %v", s["symbols"])
	}

	// BROKEN (build) and BROKEN (stub): every file restored byte for byte.
	cur := snapshotTree(t, repo)
	priceNow := mustRead(t, filepath.Join(repo, "price", "price.go"))
	for name, content := range map[string]string{
		"build": strings.Replace(priceNow, "return gross - discount", "return gross -", 1),
		"stub":  strings.Replace(priceNow, "\tt := 0\n\tfor _, l := range lines {\n\t\tt += l\n\t}\n\treturn t\n", "\treturn 0\n", 1),
	} {
		out := must("apply_batch", map[string]any{"verify": true, "edits": edits("price/price.go", content, "shop/tax.py", "def with_tax(amount):\n    return amount\n", "docs/new.md", "new\n")})
		if v := verdict(t, out); v != "BROKEN" || out["status"] != "restored" {
			t.Fatalf("%s: verdict %s, status %v", name, v, out["status"])
		}
		if d := cmp.Diff(cur, snapshotTree(t, repo)); d != "" {
			t.Fatalf("%s: not restored byte for byte:\n%s", name, d)
		}
	}

	// RISKY: the tests fail; the write is kept.
	out = must("apply_batch", map[string]any{"verify": true, "edits": edits("price/price.go", strings.Replace(priceNow, "return gross - discount", "return gross + discount", 1))})
	if v := verdict(t, out); v != "RISKY" || out["tests_failed"] != 1.0 || !strings.Contains(mustRead(t, filepath.Join(repo, "price", "price.go")), "gross + discount") {
		t.Fatalf("RISKY: %s, %v failed", v, out["tests_failed"])
	}

	// The Python package alone: a syntax error is BROKEN (py_compile) and
	// restored byte for byte; a change its test catches (pytest, or
	// unittest without it) is RISKY and kept.
	cur = snapshotTree(t, repo)
	out = must("apply_batch", map[string]any{"verify": true, "edits": edits("shop/tax.py", "def with_tax(amount:\n    return amount\n")})
	if v := verdict(t, out); v != "BROKEN" || out["status"] != "restored" {
		t.Fatalf("python syntax error: verdict %s, status %v: %v", v, out["status"], out["verification"])
	}
	if d := cmp.Diff(cur, snapshotTree(t, repo)); d != "" {
		t.Fatalf("python syntax error: not restored byte for byte:\n%s", d)
	}
	taxed := strings.Replace(editRepo["shop/tax.py"], "amount + tax", "amount - tax", 1)
	out = must("apply_batch", map[string]any{"verify": true, "edits": edits("shop/tax.py", taxed)})
	if v := verdict(t, out); v != "RISKY" || out["tests_failed"] != 1.0 || mustRead(t, filepath.Join(repo, "shop", "tax.py")) != taxed {
		t.Fatalf("python failing test: verdict %s, %v failed: %v", v, out["tests_failed"], out["verification"])
	}

	// Refusals write nothing.
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(repo, "link"))
	cur = snapshotTree(t, repo)
	for _, bad := range []struct{ path, want string }{
		{filepath.Join(outside, "x.go"), "outside every ingest root"},
		{"link/x.go", "symlink"},
		{"price", "is a directory"},
	} {
		out, isErr := tool("apply_batch", map[string]any{"edits": edits("docs/ok.md", "ok\n", bad.path, "x")})
		if !isErr || !strings.Contains(out["error"].(string), bad.want) {
			t.Errorf("%s: %v", bad.path, out)
		}
	}
	if d := cmp.Diff(cur, snapshotTree(t, repo)); d != "" {
		t.Fatalf("refused batches wrote:\n%s", d)
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Fatal("wrote outside the roots")
	}

	// CRLF and the executable bit stay.
	must("apply", map[string]any{"file_path": "scripts/run.sh", "new_content": "#!/bin/sh\necho ran\n"})
	fi, _ := os.Stat(filepath.Join(repo, "scripts", "run.sh"))
	if got := mustRead(t, filepath.Join(repo, "scripts", "run.sh")); got != "#!/bin/sh\r\necho ran\r\n" || fi.Mode().Perm() != 0o755 {
		t.Errorf("run.sh: %q %v", got, fi.Mode())
	}

	// Two-phase: a stale commit is refused and names the change.
	pv := must("edit_preview", map[string]any{"file_path": "docs/notes.md", "new_content": "notes v2\n"})
	os.WriteFile(filepath.Join(repo, "docs", "notes.md"), []byte("notes\nedited by hand\n"), 0o644)
	out, isErr := tool("edit_commit", map[string]any{"preview_id": pv["preview_id"], "confirm": true})
	if !isErr || !strings.Contains(out["error"].(string), "changed since preview") {
		t.Fatalf("stale commit: %v", out)
	}
	if mustRead(t, filepath.Join(repo, "docs", "notes.md")) != "notes\nedited by hand\n" {
		t.Fatal("a stale commit wrote")
	}
	pv = must("edit_preview", map[string]any{"file_path": "docs/notes.md", "new_content": "notes v3\n"})
	must("edit_commit", map[string]any{"preview_id": pv["preview_id"], "confirm": true})
	if mustRead(t, filepath.Join(repo, "docs", "notes.md")) != "notes v3\n" {
		t.Fatal("commit did not write")
	}
	p.closeAndWait()
}

// TestApplyBatchProgressNotifications: with a progress token, the client
// receives notifications naming the batch and its phase before the answer.
func TestApplyBatchProgressNotifications(t *testing.T) {
	repo := writeRepo(t, editRepo)
	p := start(t, nil, "--ingest", repo)
	p.initialize(transport.Line)
	p.nextID++
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": "tools/call", "params": map[string]any{
		"name": "apply_batch", "_meta": map[string]any{"progressToken": "tok-1"},
		"arguments": map[string]any{"agent_id": "e2e", "verify": true, "detail": "full", "edits": edits("shop/tax.py", "RATE = 0.25\n\n\ndef with_tax(amount):\n    tax = amount * RATE\n    return amount + tax\n")},
	}})
	var notes []string
	var result map[string]any
	for result == nil {
		m, _ := p.recv()
		switch {
		case m["method"] == "notifications/progress":
			params := m["params"].(map[string]any)
			if params["progressToken"] != "tok-1" {
				t.Fatalf("notification for another token: %v", params)
			}
			notes = append(notes, params["message"].(string))
		case m["id"] == float64(p.nextID):
			result = m["result"].(map[string]any)
		}
	}
	text := result["content"].([]any)[0].(map[string]any)["text"].(string)
	var out map[string]any
	json.Unmarshal([]byte(text), &out)
	id := out["batch_id"].(string)
	if len(notes) < 2 || !strings.Contains(notes[0], id) || !strings.Contains(notes[len(notes)-1], "done") {
		t.Fatalf("notifications %q for batch %s", notes, id)
	}
	if len(out["progress_events"].([]any)) < 8 {
		t.Errorf("progress_events: %v", out["progress_events"])
	}
	t.Logf("%d progress notifications, %d progress_events", len(notes), len(out["progress_events"].([]any)))
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// killFiles are the five files the kill trials rewrite: version v of each
// defines v<v>_<name>, so disk and graph both tell the version.
var killFiles = []string{"shop/a.py", "shop/b.py", "shop/c.py", "lib/d.py", "lib/e.py"}

func killVersion(rel string, v int) string {
	name := strings.TrimSuffix(filepath.Base(rel), ".py")
	body := fmt.Sprintf("\"\"\"Version %d of %s.\"\"\"\n\n\ndef v%d_%s(x):\n    return x + %d\n", v, name, v, name, v)
	return body + strings.Repeat(fmt.Sprintf("# padding line of version %d to make the write take a little longer\n", v), 200)
}

// diskVersion returns the version every kill file holds, failing on a mix.
func diskVersion(t *testing.T, repo string, trial int) int {
	t.Helper()
	vs := map[int][]string{}
	for _, f := range killFiles {
		data := mustRead(t, filepath.Join(repo, f))
		var v int
		fmt.Sscanf(data, "\"\"\"Version %d", &v)
		if data != killVersion(f, v) {
			t.Fatalf("trial %d: %s is torn (%d bytes)", trial, f, len(data))
		}
		vs[v] = append(vs[v], f)
	}
	if len(vs) != 1 {
		t.Fatalf("trial %d: the batch is a mix of versions on disk: %v", trial, vs)
	}
	for v := range vs {
		return v
	}
	return -1
}

// TestApplyBatchKillTrials kills the server with SIGKILL at random moments
// of 60 apply_batch calls of five files (from before the request is read
// to after it is answered), restarts it, and checks every time that the
// five files are all the old version or all the new one — never a mix,
// never torn — and that the graph the restarted server serves agrees with
// the disk (health: nothing stale; each file's function of the version on
// disk, not the other one).
func TestApplyBatchKillTrials(t *testing.T) {
	if testing.Short() {
		t.Skip("60 kill -9 trials")
	}
	files := map[string]string{"README.md": "kill trials\n", "shop/__init__.py": "", "lib/__init__.py": ""}
	for _, f := range killFiles {
		files[f] = killVersion(f, 0)
	}
	repo := writeRepo(t, files)
	rt := t.TempDir()
	rng := rand.New(rand.NewPCG(15, 9))
	version := 0
	// How long an uninterrupted batch takes, to spread the kills over it.
	window := 40 * time.Millisecond
	stats := map[string]int{}
	const trials = 60
	for trial := range trials {
		p := start(t, nil, "--runtime-dir", rt, "--ingest", repo)
		p.initialize(transport.Line)
		next := version + 1
		var es []string
		for _, f := range killFiles {
			es = append(es, f, killVersion(f, next))
		}
		p.nextID++
		sent := time.Now()
		p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": "tools/call", "params": map[string]any{
			"name": "apply_batch", "arguments": map[string]any{"agent_id": "k", "edits": edits(es...)}}})
		if trial < 2 {
			p.recv() // the first batches run to the end: the second times the window
			window = time.Since(sent)
			stats["answered"]++
		} else {
			// Half the kills fall in the first 40 ms (reading, validating,
			// the journaled write), half anywhere in the call.
			span := window * 3 / 2
			if trial%2 == 0 {
				span = min(span, 40*time.Millisecond)
			}
			time.Sleep(time.Duration(rng.Int64N(int64(span))))
		}
		p.killNow()

		r := start(t, nil, "--runtime-dir", rt, "--ingest", repo)
		r.initialize(transport.Line)
		v := diskVersion(t, repo, trial)
		switch v {
		case version:
			stats["old"]++
		case next:
			stats["new"]++
		default:
			t.Fatalf("trial %d: disk holds version %d, want %d or %d", trial, v, version, next)
		}
		if strings.Contains(r.stderr.String(), "rolled back") {
			stats["rolled back at start"]++
		}
		version = v
		checkGraphVersion(t, r, trial, v)
		r.killNow()
	}
	t.Logf("kill -9 during %d apply_batch calls of %d files (window %v): %v — never a mix", trials, len(killFiles), window, stats)
	if stats["old"] == 0 || stats["new"] == 0 {
		t.Errorf("the kills never fell both before and after the write: %v", stats)
	}
}

// checkGraphVersion: the graph is fresh and knows each file's function of
// version v only.
func checkGraphVersion(t *testing.T, p *proc, trial, v int) {
	t.Helper()
	h, _ := p.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
	if disk, _ := h["files_on_disk"].(map[string]any); disk == nil || disk["stale"] != false {
		t.Fatalf("trial %d: the graph disagrees with the disk: %v", trial, h["files_on_disk"])
	}
	for _, f := range killFiles {
		out, isErr := p.tool(transport.Line, "view", map[string]any{"agent_id": "check", "file_path": f, "auto_ingest": false, "limit": 5})
		if isErr {
			t.Fatalf("trial %d: view %s: %v", trial, f, out)
		}
		var labels []string
		for _, n := range out["nodes"].([]any) {
			labels = append(labels, n.(map[string]any)["label"].(string))
		}
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		if want := fmt.Sprintf("v%d_%s", v, name); !slices.Equal(labels, []string{want}) {
			t.Fatalf("trial %d: graph nodes of %s are %v, want [%s]", trial, f, labels, want)
		}
	}
}
