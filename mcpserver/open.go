package mcpserver

import (
	"context"
	"encoding/json"
	"time"

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
}

// Open resolves the configuration (file, then environment, then opts),
// opens the session (loading the graph and taking the runtime directory's
// lock), and returns the dispatcher every transport uses. When
// IngestOnStart is set and the loaded graph is empty it is ingested first.
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
	st, err := session.Open(cfg, logf)
	if err != nil {
		return nil, err
	}
	d := &tools.Dispatcher{Registry: tools.Builtin(), Session: st}
	if p := st.Config().IngestOnStart; p != "" && st.Current().Graph.NumNodes() == 0 {
		args, _ := json.Marshal(map[string]any{"agent_id": "m1nd-startup", "path": p})
		start := time.Now()
		res := d.Call(ctx, "ingest", args, nil)
		if res.IsError {
			logf("startup ingest of %s failed: %s", p, res.Text())
		} else {
			g := st.Current().Graph
			logf("ingested %s: %d nodes, %d edges in %s", p, g.NumNodes(), g.NumEdges(), time.Since(start).Round(time.Millisecond))
		}
	}
	return d, nil
}
