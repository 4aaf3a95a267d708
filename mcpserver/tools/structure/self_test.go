package structure

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestLayersOnThisRepository: layers on m1nd's own code must put core
// below ingest below mcpserver (ARCHITECTURE.md: core ← ingest ←
// mcpserver) with no violation between them: every package dependency
// between two of the three modules points down, none inside a cycle, and
// each module's top package sits above the one below's.
func TestLayersOnThisRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests the whole repository")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, root)
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": root})
	tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t"})
	var L *core.Layering
	d.Session.Read(context.Background(), func(b *session.Bundle) error {
		L, _, err = layering(b, unitKey{gran: core.Module, excludeTests: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{"core": 0, "ingest": 1, "mcpserver": 2}
	module := func(unit string) (int, bool) {
		top, _, _ := strings.Cut(unit, "/")
		r, ok := rank[top]
		return r, ok && !strings.Contains(unit, ".") // packages, not stray files
	}
	u := L.Units
	top := []int{-1, -1, -1}
	cross := 0
	for v := range u.Len() {
		mv, ok := module(u.Names[v])
		if !ok {
			continue
		}
		top[mv] = max(top[mv], L.Level[v])
		for _, l := range u.Out[v] {
			mt, ok := module(u.Names[l.To])
			if !ok || mt == mv {
				continue
			}
			cross++
			if mt > mv || L.Level[l.To] > L.Level[v] {
				t.Errorf("%s (L%d) depends on %s (L%d): not down the stack", u.Names[v], L.Level[v], u.Names[l.To], L.Level[l.To])
			}
		}
	}
	var skips []string
	for _, vi := range L.Violations {
		mf, ok1 := module(u.Names[vi.From])
		mt, ok2 := module(u.Names[vi.To])
		if ok1 && ok2 && mf != mt && vi.Kind == core.SkipLayer {
			skips = append(skips, u.Names[vi.From]+" → "+u.Names[vi.To])
		} else if ok1 && ok2 && mf != mt {
			t.Errorf("violation between modules: %s %s → %s", vi.Kind, u.Names[vi.From], u.Names[vi.To])
		}
	}
	if !(top[0] < top[1] && top[1] < top[2]) {
		t.Errorf("top levels core %d, ingest %d, mcpserver %d: want core < ingest < mcpserver", top[0], top[1], top[2])
	}
	if cross < 50 {
		t.Errorf("only %d package dependencies between the modules: the check saw too little", cross)
	}
	t.Logf("skip-layer links between the modules (not cross-cutting targets): %q", skips)
	t.Logf("%d cross-module package dependencies, none up; top levels core %d, ingest %d, mcpserver %d; %d layers", cross, top[0], top[1], top[2], len(L.Layers))
}
