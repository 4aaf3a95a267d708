package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// check is one line of doctor's checklist.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, info, attention
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

const (
	statusOK        = "ok"
	statusInfo      = "info"
	statusAttention = "attention"
)

// runDoctor checks what m1nd needs, from the toolchain to the freshness
// of the graph, and exits 1 when something needs attention.
func runDoctor(ctx context.Context, e *env, inv *invocation) int {
	rt := resolveRuntimeDir(inv.Opts.RuntimeDir, e.Cwd, e.Getenv)
	checks := []check{checkToolchain(ctx), checkGrammars(), checkServerBinary()}
	dirOK, dirChecks := checkRuntimeDir(rt, repoRoot(e.Cwd))
	checks = append(checks, dirChecks...)
	if dirOK {
		checks = append(checks, checkGraph(ctx, e, inv, rt)...)
	}
	ok := !slices.ContainsFunc(checks, func(c check) bool { return c.Status == statusAttention })
	if inv.Opts.JSON {
		b, _ := json.MarshalIndent(map[string]any{"ok": ok, "runtime_dir": rt.Path, "checks": checks}, "", "  ")
		fmt.Fprintln(e.Stdout, string(b))
	} else {
		printChecks(e, rt, checks, ok)
	}
	if !ok {
		return ExitError
	}
	return ExitOK
}

func printChecks(e *env, rt runtimeDir, checks []check, ok bool) {
	st, w := e.out, e.Stdout
	fmt.Fprintf(w, "%s runtime dir %s (%s)\n", st.bold("m1nd doctor:"), rt.Path, rt.Source)
	n := 0
	for _, c := range checks {
		mark := map[string]string{statusOK: st.green("✓"), statusInfo: st.dim("·"), statusAttention: st.yellow("!")}[c.Status]
		fmt.Fprintf(w, "%s %s: %s\n", mark, c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(w, "    → %s\n", c.Fix)
		}
		if c.Status == statusAttention {
			n++
		}
	}
	if ok {
		fmt.Fprintln(w, st.green("all good"))
	} else {
		fmt.Fprintln(w, st.yellow(plural(n, "thing needs", "things need")+" attention"))
	}
}

// checkToolchain reports the Go and cgo this binary was built with (the
// tree-sitter grammars are C: without cgo there is no extraction), and
// the go on PATH, which a rebuild would use.
func checkToolchain(ctx context.Context) check {
	cgo := "?"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "CGO_ENABLED" {
				cgo = s.Value
			}
		}
	}
	c := check{Name: "toolchain", Status: statusOK,
		Detail: fmt.Sprintf("built with %s for %s/%s, cgo %s", runtime.Version(), runtime.GOOS, runtime.GOARCH, map[string]string{"1": "on", "0": "off"}[cgo])}
	if cgo == "0" {
		c.Status, c.Fix = statusAttention, "rebuild with CGO_ENABLED=1 and a C compiler (gcc): the tree-sitter grammars are C"
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "version")
	cmd.Dir = os.TempDir() // outside any module: no toolchain switch
	if out, err := cmd.Output(); err == nil {
		c.Detail += "; on PATH: " + strings.TrimPrefix(strings.TrimSpace(string(out)), "go version ")
	} else {
		c.Detail += "; no go on PATH (needed only to rebuild)"
	}
	return c
}

// checkGrammars parses a blank file with every syntax-aware extractor, so
// a grammar that does not load shows up here rather than as files that
// quietly became bare file nodes.
func checkGrammars() check {
	var ok, bad []string
	for _, x := range extract.Extractors() {
		name := ""
		if exts := x.Extensions(); len(exts) > 0 {
			name = "doctor/probe" + exts[0]
		} else if b, isB := x.(interface{ BaseNames() []string }); isB && len(b.BaseNames()) > 0 {
			name = "doctor/" + b.BaseNames()[0]
		} else {
			continue
		}
		if err := probe(x, name); err != nil {
			bad = append(bad, fmt.Sprintf("%s (%v)", x.Language(), err))
		} else if !slices.Contains(ok, x.Language()) {
			ok = append(ok, x.Language())
		}
	}
	slices.Sort(ok)
	c := check{Name: "grammars", Status: statusOK, Detail: fmt.Sprintf("%d languages parse: %s", len(ok), strings.Join(ok, ", "))}
	if len(bad) > 0 {
		c.Status = statusAttention
		c.Detail = fmt.Sprintf("%d fail: %s; %s", len(bad), strings.Join(bad, "; "), c.Detail)
		c.Fix = "rebuild m1nd (make build): a grammar that fails to load is a build problem"
	}
	return c
}

func probe(x extract.Extractor, name string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	res, err := x.Extract(name, []byte("\n"))
	if err == nil && res == nil {
		err = fmt.Errorf("no result")
	}
	return err
}

func checkServerBinary() check {
	p, err := findServer()
	if err != nil {
		return check{Name: "m1nd-mcp", Status: statusAttention, Detail: err.Error(), Fix: "make build (MCP clients are configured with bin/m1nd-mcp)"}
	}
	return check{Name: "m1nd-mcp", Status: statusOK, Detail: p}
}

// checkRuntimeDir reports whether rt exists and is writable (dirOK: go on
// and look at the graph in it).
func checkRuntimeDir(rt runtimeDir, repo string) (dirOK bool, out []check) {
	fi, err := os.Stat(rt.Path)
	switch {
	case os.IsNotExist(err):
		return false, []check{{Name: "runtime dir", Status: statusAttention, Detail: rt.Path + " does not exist yet: there is no graph", Fix: "m1nd ingest " + repo}}
	case err != nil:
		return false, []check{{Name: "runtime dir", Status: statusAttention, Detail: err.Error()}}
	case !fi.IsDir():
		return false, []check{{Name: "runtime dir", Status: statusAttention, Detail: rt.Path + " is not a directory", Fix: "remove it, or pass another --runtime-dir"}}
	}
	f, err := os.CreateTemp(rt.Path, ".doctor-*")
	if err != nil {
		return false, []check{{Name: "runtime dir", Status: statusAttention, Detail: fmt.Sprintf("%s is not writable: %v", rt.Path, err), Fix: "fix its permissions, or pass another --runtime-dir"}}
	}
	f.Close()
	os.Remove(f.Name())
	return true, []check{{Name: "runtime dir", Status: statusOK, Detail: rt.Path + " exists and is writable"}}
}
