package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// stdTruth is the package import graph of the Go tree (std and cmd) as
// `go list` gives it, once per GOOS, restricted to the directories the
// corpus holds: edges between package directories relative to GOROOT/src
// (non-test imports, as exclude_tests layers them).
func stdTruth(corpus string) (map[[2]string]bool, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	edges := map[[2]string]bool{}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .Imports \" \"}}", "std", "cmd")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOFLAGS=", "GOWORK=off")
		text, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list (GOOS=%s): %v", goos, err)
		}
		dirOf := map[string]string{}
		type pkg struct{ dir, imports string }
		var pkgs []pkg
		for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
			f := strings.SplitN(line, "|", 3)
			if len(f) != 3 {
				continue
			}
			rel, err := filepath.Rel(src, f[1])
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			dirOf[f[0]] = filepath.ToSlash(rel)
			pkgs = append(pkgs, pkg{filepath.ToSlash(rel), f[2]})
		}
		for _, p := range pkgs {
			for _, imp := range strings.Fields(p.imports) {
				d, ok := dirOf[imp]
				if !ok {
					d, ok = dirOf["vendor/"+imp]
				}
				if ok && d != p.dir && inCorpus(corpus, p.dir) && inCorpus(corpus, d) {
					edges[[2]string{p.dir, d}] = true
				}
			}
		}
	}
	return edges, nil
}

// inCorpus reports whether the corpus holds Go files in dir.
func inCorpus(corpus, dir string) bool {
	m, _ := filepath.Glob(filepath.Join(corpus, filepath.FromSlash(dir), "*.go"))
	return len(m) > 0
}

// runStd measures layers on the Go tree corpus against stdTruth.
func runStd(bin, corpus string) (*result, []string, error) {
	truth, err := stdTruth(corpus)
	if err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	rt, err := os.MkdirTemp("", "m1nd-layertruth-*")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(rt)
	c, err := localize.StartFor(bin, corpus, "--runtime-dir", rt)
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return nil, nil, err
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "layertruth", "path": corpus}, nil); err != nil {
		return nil, nil, err
	}
	level, cycle, lo, ms, err := layering(ctx, c, map[string]any{"agent_id": "layertruth"})
	if err != nil {
		return nil, nil, err
	}
	var ups []string
	orph := map[string]int{}
	res := &result{orphans: &orph, name: filepath.Base(corpus), lang: "go (std, cmd)", truthEdges: len(truth), layers: len(lo.Layers), units: lo.Units,
		layered: lo.Layered, cycles: lo.Cycles, layersMs: ms, ups: &ups}
	for e := range truth {
		res.judge(level, cycle, e[0], e[1])
	}
	top := make([]string, 0, len(orph))
	for u := range orph {
		top = append(top, u)
	}
	slices.SortFunc(top, func(a, b string) int { return cmp.Or(orph[b]-orph[a], strings.Compare(a, b)) })
	for _, u := range top[:min(15, len(top))] {
		ups = append(ups, fmt.Sprintf("not placed: %s (%d true edges)", u, orph[u]))
	}
	return res, ups, nil
}

// layering calls layers, then layer_inspect for every level: each unit's
// level and cycle number.
func layering(ctx context.Context, c *localize.Client, args map[string]any) (level, cycle map[string]int, lo layersOut, ms float64, err error) {
	t0 := time.Now()
	if err = c.CallTool(ctx, "layers", args, &lo); err != nil {
		return
	}
	ms = float64(time.Since(t0).Microseconds()) / 1000
	level, cycle = map[string]int{}, map[string]int{}
	for _, ly := range lo.Layers {
		a := map[string]any{"level": ly.Level, "top_k": 500}
		for k, v := range args {
			a[k] = v
		}
		var io inspectOut
		if err = c.CallTool(ctx, "layer_inspect", a, &io); err != nil {
			return
		}
		if io.UnitsTotal > len(io.Units) {
			err = fmt.Errorf("level %d lists %d of %d units", ly.Level, len(io.Units), io.UnitsTotal)
			return
		}
		for _, u := range io.Units {
			level[u.Unit], cycle[u.Unit] = ly.Level, u.Cycle
		}
	}
	return
}
