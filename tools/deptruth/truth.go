// Package deptruth is the dependency-truth benchmark: it computes
// file-level dependencies of a repository with each language's own tools
// (Python's ast, go/packages, the TypeScript compiler API, javac), asks a running
// m1nd-mcp server's impact tool what depends on every file, and scores the
// answers against the truth. See benchmarks/deptruth/README.md.
package deptruth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Languages the benchmark knows, as written in repos.tsv.
const (
	Python = "python"
	Go     = "go"
	JS     = "js"
)

// Truth is a repository's file-level dependency graph.
type Truth struct {
	Lang string `json:"lang"`
	// Files are the files the language tool analysed (sorted,
	// slash-separated, relative to the repository root): the universe of
	// the benchmark. Tracked files of the language it could not analyse
	// are in Skipped with the reason.
	Files   []string          `json:"files"`
	Skipped map[string]string `json:"skipped,omitempty"`
	// Deps[a] are the files a depends on directly (sorted, no self edge).
	Deps map[string][]string `json:"deps"`
	// Stats and Notes say how the tool got there (imports seen, resolved,
	// external, load errors…).
	Stats map[string]any `json:"stats,omitempty"`
	Notes []string       `json:"notes,omitempty"`

	rdeps map[string][]string
	files map[string]bool
}

// Judgeable splits names into the files of the universe, which the truth
// can judge, and the others (order kept).
func (t *Truth) Judgeable(names []string) (in, out []string) {
	if t.files == nil {
		t.files = make(map[string]bool, len(t.Files))
		for _, f := range t.Files {
			t.files[f] = true
		}
	}
	for _, n := range names {
		if t.files[n] {
			in = append(in, n)
		} else {
			out = append(out, n)
		}
	}
	return in, out
}

// NewTruth builds a Truth from an edge list, dropping self edges, edges
// leaving files and duplicates.
func NewTruth(lang string, files []string, deps map[string][]string) *Truth {
	t := &Truth{Lang: lang, Deps: map[string][]string{}}
	in := map[string]bool{}
	for _, f := range files {
		if !in[f] {
			in[f] = true
			t.Files = append(t.Files, f)
		}
	}
	sort.Strings(t.Files)
	for a, bs := range deps {
		if !in[a] {
			continue
		}
		seen := map[string]bool{}
		var keep []string
		for _, b := range bs {
			if b != a && in[b] && !seen[b] {
				seen[b] = true
				keep = append(keep, b)
			}
		}
		if len(keep) > 0 {
			sort.Strings(keep)
			t.Deps[a] = keep
		}
	}
	return t
}

// Edges counts the dependency edges.
func (t *Truth) Edges() int {
	n := 0
	for _, bs := range t.Deps {
		n += len(bs)
	}
	return n
}

// Dependents are the files with an edge into x (sorted).
func (t *Truth) Dependents(x string) []string {
	if t.rdeps == nil {
		t.rdeps = map[string][]string{}
		for a, bs := range t.Deps {
			for _, b := range bs {
				t.rdeps[b] = append(t.rdeps[b], a)
			}
		}
		for _, as := range t.rdeps {
			sort.Strings(as)
		}
	}
	return t.rdeps[x]
}

// BlastRadius is the transitive closure of x's dependents (x itself not
// included, even on a cycle).
func (t *Truth) BlastRadius(x string) map[string]bool {
	out := map[string]bool{}
	queue := []string{x}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, d := range t.Dependents(f) {
			if d != x && !out[d] {
				out[d] = true
				queue = append(queue, d)
			}
		}
	}
	return out
}

// Options tune ground-truth extraction.
type Options struct {
	// ScriptsDir holds pydeps.py, jsdeps.cjs, javadeps.java and npm/ (benchmarks/deptruth).
	ScriptsDir string
	// Python, Node and Java are the interpreters (default python3, node,
	// java).
	Python, Node, Java string
	// GOOS lists the target systems the Go truth is the union over
	// (default linux, darwin, windows).
	GOOS []string
	// Runtime leaves out what only a type checker reads (Python: imports
	// under `if TYPE_CHECKING:`; see pydeps.py): the run-time truth.
	// Go and JavaScript ignore it.
	Runtime bool
	// Log receives progress lines (nil: discarded).
	Log func(format string, a ...any)
}

func (o Options) logf(format string, a ...any) {
	if o.Log != nil {
		o.Log(format, a...)
	}
}

// Compute extracts the ground truth of the repository at root in lang.
func Compute(ctx context.Context, root, lang string, o Options) (*Truth, error) {
	tracked, err := TrackedFiles(root)
	if err != nil {
		return nil, err
	}
	switch lang {
	case Python:
		return PythonTruth(ctx, root, tracked, o)
	case Go:
		return GoTruth(ctx, root, tracked, o)
	case JS:
		return JSTruth(ctx, root, tracked, o)
	case Java:
		return JavaTruth(ctx, root, o)
	}
	return nil, fmt.Errorf("unknown language %q (want python, go, js or java)", lang)
}

// TrackedFiles lists the files git tracks in the work tree at root
// (slash-separated, relative). Build output, installed dependencies and
// virtual environments are not tracked, so they are not in the benchmark.
func TrackedFiles(root string) ([]string, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files, nil
}

// IsLangFile reports whether rel is a source file of lang.
func IsLangFile(lang, rel string) bool {
	if inNodeModules(rel) {
		return false
	}
	switch lang {
	case Python:
		return strings.HasSuffix(rel, ".py") || strings.HasSuffix(rel, ".pyi")
	case Go:
		return strings.HasSuffix(rel, ".go")
	case Java:
		return strings.HasSuffix(rel, ".java")
	case JS:
		switch path.Ext(rel) {
		case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
			return true
		}
	}
	return false
}

func inNodeModules(rel string) bool {
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "node_modules" {
			return true
		}
	}
	return false
}

func langFiles(lang string, tracked []string) []string {
	var out []string
	for _, f := range tracked {
		if IsLangFile(lang, f) {
			out = append(out, f)
		}
	}
	return out
}

// scriptOutput is what pydeps.py and jsdeps.cjs print.
type scriptOutput struct {
	Files      []string            `json:"files"`
	Edges      map[string][]string `json:"edges"`
	Skipped    map[string]string   `json:"skipped"`
	Stats      map[string]any      `json:"stats"`
	Unresolved map[string]int      `json:"unresolved"`
	Notes      []string            `json:"notes"`
	Workspace  map[string]string   `json:"workspace_packages"`
}

// runScript runs interpreter script with the JSON request on stdin.
func runScript(ctx context.Context, interpreter, script string, req any) (*scriptOutput, error) {
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("ground-truth script: %w (pass the directory holding repos.tsv and the scripts)", err)
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, interpreter, script)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", interpreter, filepath.Base(script), err, strings.TrimSpace(stderr.String()))
	}
	var out scriptOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("%s: output is not JSON: %w", filepath.Base(script), err)
	}
	return &out, nil
}

func (o Options) script(name string) string { return filepath.Join(o.ScriptsDir, name) }

// PythonTruth runs pydeps.py over the tracked .py and .pyi files.
func PythonTruth(ctx context.Context, root string, tracked []string, o Options) (*Truth, error) {
	py := o.Python
	if py == "" {
		py = "python3"
	}
	files := langFiles(Python, tracked)
	out, err := runScript(ctx, py, o.script("pydeps.py"), map[string]any{"root": root, "files": files, "runtime": o.Runtime})
	if err != nil {
		return nil, err
	}
	t := NewTruth(Python, out.Files, out.Edges)
	t.Skipped, t.Stats = out.Skipped, out.Stats
	return t, nil
}

// JSTruth runs jsdeps.cjs over the tracked JavaScript and TypeScript files.
func JSTruth(ctx context.Context, root string, tracked []string, o Options) (*Truth, error) {
	node := o.Node
	if node == "" {
		node = "node"
	}
	files := langFiles(JS, tracked)
	var pkgs []string
	for _, f := range tracked {
		if path.Base(f) == "package.json" && !inNodeModules(f) {
			pkgs = append(pkgs, f)
		}
	}
	out, err := runScript(ctx, node, o.script("jsdeps.cjs"), map[string]any{"root": root, "files": files, "packages": pkgs})
	if err != nil {
		return nil, err
	}
	t := NewTruth(JS, out.Files, out.Edges)
	t.Stats = out.Stats
	t.Notes = out.Notes
	if len(out.Workspace) > 0 {
		var names []string
		for n, d := range out.Workspace {
			names = append(names, n+" → "+d)
		}
		sort.Strings(names)
		t.Notes = append(t.Notes, "workspace packages: "+strings.Join(names, ", "))
	}
	if len(out.Unresolved) > 0 {
		type kv struct {
			k string
			v int
		}
		var u []kv
		for k, v := range out.Unresolved {
			u = append(u, kv{k, v})
		}
		sort.Slice(u, func(i, j int) bool { return u[i].v > u[j].v || u[i].v == u[j].v && u[i].k < u[j].k })
		var parts []string
		for _, e := range u[:min(len(u), 8)] {
			parts = append(parts, fmt.Sprintf("%q ×%d", e.k, e.v))
		}
		t.Notes = append(t.Notes, "unresolved relative or workspace specifiers: "+strings.Join(parts, ", "))
	}
	return t, nil
}
