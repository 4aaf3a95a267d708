package mcpserver

import (
	"slices"
	"testing"
)

// Every binary shares one flag set and naming; the older names are
// aliases.
func TestSharedFlags(t *testing.T) {
	var o Options
	args := map[string]string{
		"--config": "c.json", "--runtime-dir": "rt", "--graph": "g.bin", "--plasticity": "p.json",
		"--domain": "docs", "--ingest": "repo",
	}
	for name, v := range args {
		if known, ok := o.SetFlag(name, func() (string, bool) { return v, true }); !known || !ok {
			t.Fatalf("%s not taken", name)
		}
	}
	o.SetFlag("--allow-root", func() (string, bool) { return "/a", true })
	o.SetFlag("--allow-root", func() (string, bool) { return "/b", true })
	want := Options{ConfigFile: "c.json", RuntimeDir: "rt", GraphSource: "g.bin", PlasticityState: "p.json", Domain: "docs", IngestOnStart: "repo", AllowRoots: []string{"/a", "/b"}}
	if o.ConfigFile != want.ConfigFile || o.RuntimeDir != want.RuntimeDir || o.GraphSource != want.GraphSource ||
		o.PlasticityState != want.PlasticityState || o.Domain != want.Domain || o.IngestOnStart != want.IngestOnStart || !slices.Equal(o.AllowRoots, want.AllowRoots) {
		t.Fatalf("options %+v, want %+v", o, want)
	}
	for _, name := range []string{"--graph-source", "--plasticity-state"} {
		if known, _ := o.SetFlag(name, func() (string, bool) { return "x", true }); !known {
			t.Errorf("%s is not a shared flag", name)
		}
	}
	if known, _ := o.SetFlag("--socket", func() (string, bool) { return "x", true }); known {
		t.Error("--socket is m1nd-openclaw's own flag, not a shared one")
	}
	if _, ok := o.SetFlag("--ingest", func() (string, bool) { return "", false }); ok {
		t.Error("a missing value was accepted")
	}
}
