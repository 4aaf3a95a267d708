package memory

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

var update = flag.Bool("update", false, "rewrite golden files")

const daily = `---
title: night shift
---
# Night Shift
- Decision: use m1nd first
- [ ] write tests for src/auth.py
- Status: in progress
- 2026-03-12: deployed ` + "`backend/pool.py`" + ` and ./web/app.ts
- Config lives in settings.py

## Table
| Time | Mode | Note |
| --- | --- | --- |
| 22:00-04:00 | Batman mode | Peak build window |

` + "```" + `
- not an entry (code block)
` + "```" + `

### Deeper
A plain memory line about graph perspective.
## Table
1. second table section, ordered item
`

func TestGolden(t *testing.T) {
	dir := t.TempDir()
	mt := time.Date(2026, 3, 13, 8, 0, 0, 0, time.UTC)
	for p, c := range map[string]string{
		"2026-03-12.md":   daily,
		"notes/ideas.txt": "TODO: implement the resolver cache\nshort\nChose go-git over a subprocess for portability.\n",
		"notes/img.md":    "x\x00y",
		"notes/latin.md":  "caf\xe9\n",
		"code.py":         "print('not a memory file')\n",
	} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
		os.Chtimes(full, mt, mt)
	}
	out, err := Adapter{}.Ingest(context.Background(), adapter.Request{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	out.Stats.ElapsedMs = 0
	got, _ := json.MarshalIndent(struct {
		Stats adapter.Stats
		Graph graphdump.Dump
	}{out.Stats, graphdump.Of(out.Graph)}, "", "  ")
	p := filepath.Join("testdata", "memory.golden.json")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(p, append(got, '\n'), 0o644)
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	var w, g any
	json.Unmarshal(want, &w)
	json.Unmarshal(got, &g)
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("golden (-want +got):\n%s", diff)
	}
}

func TestStructure(t *testing.T) {
	g := Build("2026-03-12.md", []byte(daily), "team", 0)
	d := graphdump.Of(g)
	doc := "memory::team::file::2026-03-12-md"
	sec := "memory::team::section::2026-03-12-md::night-shift-1"
	deeper := "memory::team::section::2026-03-12-md::deeper-1"
	table2 := "memory::team::section::2026-03-12-md::table-2"
	entry := func(line int, text string) string {
		return "memory::team::entry::2026-03-12-md::" + strconv.Itoa(line) + "::" + Slug(text)
	}
	decision, task := entry(5, "Decision: use m1nd first"), entry(6, "write tests for src/auth.py")
	for _, e := range []struct{ s, rel, t string }{
		{doc, "contains", sec},
		{sec, "contains", "memory::team::section::2026-03-12-md::table-1"},
		{"memory::team::section::2026-03-12-md::table-1", "contains", deeper},
		{sec, "contains", table2},
		{sec, "contains", decision},
		{task, "follows", decision},
		{task, "references", "memory::team::reference::src-auth-py"},
		{entry(8, "2026-03-12: deployed `backend/pool.py` and ./web/app.ts"), "references", "memory::team::reference::backend-pool-py"},
		{entry(8, "2026-03-12: deployed `backend/pool.py` and ./web/app.ts"), "references", "memory::team::reference::web-app-ts"},
		{entry(9, "Config lives in settings.py"), "references", "memory::team::reference::settings-py"},
	} {
		if !d.Has(e.s, e.rel, e.t) {
			t.Errorf("missing %s -%s-> %s", e.s, e.rel, e.t)
		}
	}
	classes := map[string]string{}
	for _, n := range d.Nodes {
		for _, tag := range n.Tags {
			if c, ok := strings.CutPrefix(tag, "memory:"); ok && c != "entry" && c != "section" && c != "reference" {
				classes[n.Label] = c
			}
		}
		if !n.Prov.Canonical || n.Prov.Namespace != "team" {
			t.Errorf("%s: provenance %+v (daily notes are canonical)", n.ID, n.Prov)
		}
		if strings.Contains(n.Label, "not an entry") || strings.Contains(n.Label, "title: night shift") {
			t.Errorf("code block or front matter became a node: %s", n.ID)
		}
	}
	want := map[string]string{
		"Decision: use m1nd first":                                ClassDecision,
		"write tests for src/auth.py":                             ClassTask,
		"Status: in progress":                                     ClassState,
		"Config lives in settings.py":                             ClassNote,
		"22:00-04:00 | Batman mode | Peak build window":           ClassNote,
		"Time | Mode | Note":                                      ClassNote,
		"A plain memory line about graph perspective.":            ClassNote,
		"second table section, ordered item":                      ClassNote,
		"2026-03-12: deployed `backend/pool.py` and ./web/app.ts": ClassEvent,
	}
	if diff := cmp.Diff(want, classes); diff != "" {
		t.Errorf("classes (-want +got):\n%s", diff)
	}
	if n, _ := d.Node(task); n.Type != graph.Process.String() {
		t.Errorf("entry type %s", n.Type)
	}
}

func TestClassifyAndCanonical(t *testing.T) {
	for text, want := range map[string]string{
		"FIXME flaky":              ClassTask,
		"pending review":           ClassTask,
		"We chose CSR":             ClassDecision,
		"decided: ship it":         ClassDecision,
		"current: refactoring":     ClassState,
		"met on 2025-01-02":        ClassEvent,
		"todo and 2025-01-02 both": ClassTask,
		"nothing special":          ClassNote,
	} {
		if got := Classify(text, false); got != want {
			t.Errorf("Classify(%q) = %s, want %s", text, got, want)
		}
	}
	for rel, want := range map[string]bool{
		"2026-03-12.md": true, "notes/MEMORY.md": true, "proj-active.md": true, "x-history.md": true,
		"weekly-briefing.md": true, "notes.md": false, "2026-03-12-notes.md": false,
	} {
		if got := Canonical(rel); got != want {
			t.Errorf("Canonical(%q) = %v", rel, got)
		}
	}
	g := Build("plain.md", []byte("---\ncanonical: true\n---\n# A\n- b entry\n"), "m", 0)
	if !g.Provenance(0).Canonical {
		t.Error("front matter canonical: true ignored")
	}
}

// FuzzBuild: any bytes yield a finalized graph, never a panic.
func FuzzBuild(f *testing.F) {
	f.Add([]byte(daily))
	f.Add([]byte("# \n#\n######## x\n- [x]\n|||\n```\n"))
	f.Add([]byte("---\n---\n- a/b.py:12 ./c.ts (d.go)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := Build("f.md", data, "fz", 0)
		if !g.Finalized() {
			t.Fatal("not finalized")
		}
	})
}
