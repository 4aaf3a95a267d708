package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/live"
	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Options are the command-line overrides shared by every m1nd server
// binary; empty fields leave the configuration file and environment in
// charge.
type Options struct {
	ConfigFile      string
	RuntimeDir      string
	GraphSource     string
	PlasticityState string
	Domain          string
	IngestOnStart   string
	// AllowRoots are added to the configuration's allowed roots.
	AllowRoots []string
	// Toolsets ("query,change" …) replace the configuration's toolsets.
	Toolsets string
	// OutputSchemas turns on output schemas and structuredContent.
	OutputSchemas bool
	// IngestMaxNodes and IngestTimeoutS (whole numbers, as typed)
	// replace the configuration's ingest budgets.
	IngestMaxNodes, IngestTimeoutS string
}

// SetFlag sets the option a command-line flag names: the flags every m1nd
// binary shares, under one naming — --config, --runtime-dir,
// --graph-source (or --graph), --plasticity-state (or --plasticity),
// --domain, --ingest and --allow-root (repeatable). known reports whether
// name is one of them; value yields its argument (false when missing).
func (o *Options) SetFlag(name string, value func() (string, bool)) (known, ok bool) {
	var dst *string
	switch name {
	case "--config":
		dst = &o.ConfigFile
	case "--runtime-dir":
		dst = &o.RuntimeDir
	case "--graph-source", "--graph":
		dst = &o.GraphSource
	case "--plasticity-state", "--plasticity":
		dst = &o.PlasticityState
	case "--domain":
		dst = &o.Domain
	case "--ingest":
		dst = &o.IngestOnStart
	case "--allow-root":
		v, ok := value()
		if ok {
			o.AllowRoots = append(o.AllowRoots, v)
		}
		return true, ok
	case "--toolsets":
		dst = &o.Toolsets
	case "--ingest-max-nodes":
		dst = &o.IngestMaxNodes
	case "--ingest-timeout-s":
		dst = &o.IngestTimeoutS
	case "--output-schemas":
		o.OutputSchemas = true
		return true, true
	default:
		return false, true
	}
	v, ok := value()
	if ok {
		*dst = v
	}
	return true, ok
}

// FlagsUsage documents the shared flags (SetFlag) for a command's help.
const FlagsUsage = `  --config FILE          JSON configuration file (m1nd-mcp also takes it as
                         its first argument)
  --runtime-dir DIR      keep the graph, plasticity and sidecars in DIR (enables persistence)
  --graph-source PATH    graph snapshot path (.json = JSON v3, otherwise binary);
                         --graph is the same
  --plasticity-state P   learned-weights file path; --plasticity is the same
  --domain NAME          domain (default "code")
  --ingest PATH          serve PATH: ingest it at start when the saved graph is
                         empty or of other roots, else refresh it incrementally
                         (files changed while the server was down)
  --allow-root DIR       let the ingest tool read DIR (repeatable; besides the
                         --ingest path, the client's roots and roots ingested
                         before; with none of these the working directory)
  --toolsets LIST        tool families tools/list offers, comma-separated: "all",
                         "default" or names (system, query, change, edit,
                         continuity, live, audit, documents, structure,
                         patterns, immune, dynamics, report, federation); default: the
                         default set; every tool stays callable, and the
                         toolsets tool changes the list while serving
  --ingest-max-nodes N   one ingest call stops at N nodes (default 500000; 0: the
                         default) with a partial graph; raise it to ingest a
                         tree of more than ≈ 7 M lines as one root
  --ingest-timeout-s S   one ingest call stops after S seconds (default 300, at
                         most 1800)
  --output-schemas       publish output schemas in tools/list and answer with
                         structuredContent too (off: a smaller list, each answer
                         sent once, as text)
`

// Open resolves the configuration (file, then environment, then opts),
// opens the session (loading the graph and taking the runtime directory's
// lock), and returns the dispatcher every transport uses. When
// IngestOnStart is set, the graph served is made to describe it first
// (startupIngest).
func Open(ctx context.Context, opts Options, getenv func(string) string, logf func(string, ...any)) (*tools.Dispatcher, error) {
	cfg, err := session.LoadConfig(opts.ConfigFile, getenv)
	if err != nil {
		return nil, err
	}
	for dst, v := range map[*string]string{
		&cfg.RuntimeDir: opts.RuntimeDir, &cfg.GraphSource: opts.GraphSource,
		&cfg.PlasticityState: opts.PlasticityState, &cfg.Domain: opts.Domain, &cfg.IngestOnStart: opts.IngestOnStart,
	} {
		if v != "" {
			*dst = v
		}
	}
	cfg.AllowRoots = append(cfg.AllowRoots, opts.AllowRoots...)
	if opts.Toolsets != "" {
		cfg.Toolsets = session.SplitList(opts.Toolsets)
	}
	cfg.OutputSchemas = cfg.OutputSchemas || opts.OutputSchemas
	if err := opts.ingestBudgets(&cfg); err != nil {
		return nil, err
	}
	reg := toolset.Builtin()
	enabled, err := toolset.Resolve(reg, cfg.Toolsets)
	if err != nil {
		return nil, err
	}
	// The saved seek documents are read beside the graph's load (one
	// core decodes the snapshot).
	var pre *tools.SeekBodiesPreload
	if nc := cfg; nc.Normalize() == nil && nc.RuntimeDir != "" {
		pre = tools.PreloadSeekBodies(filepath.Join(nc.RuntimeDir, tools.SeekBodiesFile))
	}
	st, err := session.Open(cfg, logf)
	if err != nil {
		return nil, err
	}
	pre.Adopt(st)
	st.SetToolsets(enabled)
	d := &tools.Dispatcher{Registry: reg, Session: st}
	// Ingests answered on their journal record and not saved before the
	// last stop are built again before anything is served.
	tools.RecoverJournal(d)
	if p := st.Config().IngestOnStart; p == "" || !startupIngest(ctx, d, p, logf) {
		tools.BuildLoadedIndexes(d) // an ingest builds its graph's own
	}
	live.ResumeDaemon(d) // after the start-up ingest: it reconciles what that left
	live.ResumeAutoIngest(d)
	return d, nil
}

// ingestBudgets sets the ingest budgets the flags give (session.Open
// checks their range).
func (o Options) ingestBudgets(cfg *session.Config) error {
	for _, f := range []struct {
		flag, v string
		dst     *int
	}{{"--ingest-max-nodes", o.IngestMaxNodes, &cfg.IngestMaxNodes}, {"--ingest-timeout-s", o.IngestTimeoutS, &cfg.IngestTimeoutS}} {
		if f.v == "" {
			continue
		}
		n, err := strconv.Atoi(f.v)
		if err != nil {
			return fmt.Errorf("%s %q is not a whole number: e.g. --ingest-max-nodes 2000000 --ingest-timeout-s 1800 (0 keeps the default)", f.flag, f.v)
		}
		*f.dst = n
	}
	return session.CheckIngestBudgets("--ingest-max-nodes", cfg.IngestMaxNodes, "--ingest-timeout-s", cfg.IngestTimeoutS)
}

// startupIngest makes the served graph the one --ingest names: a fresh
// ingest when the graph is empty or describes other roots (never serve
// another repository's graph), otherwise an incremental one that picks up
// what changed on disk while the server was down. It reports whether the
// ingest answered.
func startupIngest(ctx context.Context, d *tools.Dispatcher, p string, logf func(string, ...any)) bool {
	st := d.Session
	abs, err := filepath.Abs(p)
	if err != nil {
		logf("--ingest %s: %v", p, err)
		return false
	}
	b := st.Current()
	args := map[string]any{"agent_id": "m1nd-startup", "path": abs}
	switch {
	case b.Graph.NumNodes() == 0:
	case !servesRoot(b.Roots, abs):
		logf("the saved graph describes %s, not %s (--ingest): ingesting %s instead (learned weights carry over only where node ids match)", rootList(b.Roots), abs, abs)
	default:
		args["incremental"] = true
		if len(b.Roots) > 1 {
			args["mode"] = "merge"
		}
	}
	raw, _ := json.Marshal(args)
	start := time.Now()
	res := d.Call(ctx, "ingest", raw, nil)
	if res.IsError {
		logf("startup ingest of %s failed: %s", abs, res.Text())
		return false
	}
	g := st.Current().Graph
	logf("ingested %s: %d nodes, %d edges in %s", abs, g.NumNodes(), g.NumEdges(), time.Since(start).Round(time.Millisecond))
	return true
}

// servesRoot reports whether path is one of roots (symlinks resolved).
func servesRoot(roots []session.Root, path string) bool {
	want := realPath(path)
	for _, r := range roots {
		if realPath(r.Path) == want {
			return true
		}
	}
	return false
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

func rootList(roots []session.Root) string {
	var names []string
	for _, r := range roots {
		names = append(names, r.Path)
	}
	if len(names) == 0 {
		return "no recorded root"
	}
	return strings.Join(names, ", ")
}
