package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
)

// Config is the server configuration. Precedence: a JSON config file (the
// first command-line argument), then environment variables, then defaults.
type Config struct {
	// GraphSource is the graph snapshot path; ".json" selects the JSON
	// format, anything else the binary format (docs/design.md#persistence).
	// Empty: memory only.
	GraphSource string `json:"graph_source"`
	// PlasticityState is the learned-weights sidecar path. Empty: memory
	// only.
	PlasticityState string `json:"plasticity_state"`
	// RuntimeDir holds the graph, plasticity and every sidecar (trails,
	// manifests, caches). Setting it alone enables persistence with default
	// file names inside it.
	RuntimeDir          string  `json:"runtime_dir"`
	AutoPersistInterval int     `json:"auto_persist_interval"`
	LearningRate        float32 `json:"learning_rate"`
	DecayRate           float32 `json:"decay_rate"`
	XLREnabled          bool    `json:"xlr_enabled"`
	MaxConcurrentReads  int     `json:"max_concurrent_reads"`
	WriteQueueSize      int     `json:"write_queue_size"`
	Domain              string  `json:"domain"`
	// IngestOnStart is ingested when the loaded graph is empty.
	IngestOnStart string `json:"ingest_on_start,omitempty"`
	// AllowRoots are directories ingest may read besides IngestOnStart and
	// the roots already ingested (see State.AllowedRoots).
	AllowRoots []string `json:"allow_roots,omitempty"`
	// Toolsets are the tool families tools/list offers ("all", "default"
	// or family names; empty: the default set). Every tool stays callable.
	Toolsets []string `json:"toolsets,omitempty"`
	// OutputSchemas publishes each tool's output schema in tools/list and
	// answers with structuredContent beside the text (off: the list stays
	// small and each answer is sent once).
	OutputSchemas bool `json:"output_schemas,omitempty"`
	// ActivateMaxFired and XLRPulseBudget override activate's work budgets
	// (the nodes its wavefront fires, the pulses XLR sends); 0 keeps the
	// engine's defaults. They exist so a benchmark can tune them without
	// a rebuild (docs/design.md#configuration).
	ActivateMaxFired int `json:"activate_max_fired,omitempty"`
	XLRPulseBudget   int `json:"xlr_pulse_budget,omitempty"`
	// IngestMaxNodes and IngestTimeoutS are the budgets of one ingest
	// call (nodes, seconds) when the call sets none; 0 keeps the
	// adapter's defaults (500,000 nodes, 300 s). A tree larger than the
	// defaults goes in as one root only with them raised.
	IngestMaxNodes int `json:"ingest_max_nodes,omitempty"`
	IngestTimeoutS int `json:"ingest_timeout_s,omitempty"`
}

// Default file names inside the runtime directory.
const (
	DefaultGraphFile      = "graph.bin"
	DefaultPlasticityFile = "plasticity.json"
)

// DefaultConfig returns the defaults of docs/design.md#configuration.
func DefaultConfig() Config {
	return Config{
		AutoPersistInterval: 50,
		LearningRate:        0.08,
		DecayRate:           0.005,
		XLREnabled:          true,
		MaxConcurrentReads:  32,
		WriteQueueSize:      64,
		Domain:              "code",
	}
}

// LoadConfig resolves the configuration from an optional JSON file and the
// environment (getenv is os.Getenv in production).
func LoadConfig(file string, getenv func(string) string) (Config, error) {
	cfg := DefaultConfig()
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return cfg, fmt.Errorf("read config file: %w", err)
		}
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cfg); err != nil {
			return cfg, fmt.Errorf("config file %s is not valid: %v (fields: graph_source, plasticity_state, runtime_dir, auto_persist_interval, learning_rate, decay_rate, xlr_enabled, max_concurrent_reads, write_queue_size, domain, ingest_on_start, allow_roots, toolsets, output_schemas, activate_max_fired, xlr_pulse_budget, ingest_max_nodes, ingest_timeout_s)", file, err)
		}
	}
	if v := getenv("M1ND_GRAPH_SOURCE"); v != "" {
		cfg.GraphSource = v
	}
	if v := getenv("M1ND_PLASTICITY_STATE"); v != "" {
		cfg.PlasticityState = v
	}
	if v := getenv("M1ND_RUNTIME_DIR"); v != "" {
		cfg.RuntimeDir = v
	}
	if v := getenv("M1ND_DOMAIN"); v != "" {
		cfg.Domain = v
	}
	if v := getenv("M1ND_XLR_ENABLED"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return cfg, fmt.Errorf("M1ND_XLR_ENABLED=%q is not a boolean (use true or false)", v)
		}
		cfg.XLREnabled = b
	}
	if v := getenv("M1ND_ALLOW_ROOTS"); v != "" {
		for _, p := range filepath.SplitList(v) {
			if strings.TrimSpace(p) != "" {
				cfg.AllowRoots = append(cfg.AllowRoots, p)
			}
		}
	}
	if v := getenv("M1ND_TOOLSETS"); v != "" {
		cfg.Toolsets = SplitList(v)
	}
	if v := getenv("M1ND_OUTPUT_SCHEMAS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return cfg, fmt.Errorf("M1ND_OUTPUT_SCHEMAS=%q is not a boolean (use true or false)", v)
		}
		cfg.OutputSchemas = b
	}
	if v := getenv("M1ND_AUTO_PERSIST_INTERVAL"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return cfg, fmt.Errorf("M1ND_AUTO_PERSIST_INTERVAL=%q is not an integer", v)
		}
		cfg.AutoPersistInterval = n
	}
	for _, b := range []struct {
		env string
		dst *int
	}{{"M1ND_ACTIVATE_MAX_FIRED", &cfg.ActivateMaxFired}, {"M1ND_XLR_PULSE_BUDGET", &cfg.XLRPulseBudget},
		{"M1ND_INGEST_MAX_NODES", &cfg.IngestMaxNodes}, {"M1ND_INGEST_TIMEOUT_S", &cfg.IngestTimeoutS}} {
		if v := getenv(b.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return cfg, fmt.Errorf("%s=%q is not an integer (e.g. %s=2500; 0 or unset keeps the default)", b.env, v, b.env)
			}
			*b.dst = n
		}
	}
	return cfg, cfg.Normalize()
}

// Normalize fills derived paths and validates values.
func (c *Config) Normalize() error {
	if c.RuntimeDir == "" && c.GraphSource != "" {
		c.RuntimeDir = filepath.Dir(c.GraphSource)
	}
	if c.RuntimeDir != "" {
		abs, err := filepath.Abs(c.RuntimeDir)
		if err != nil {
			return err
		}
		c.RuntimeDir = abs
		if c.GraphSource == "" {
			c.GraphSource = filepath.Join(abs, DefaultGraphFile)
		}
		if c.PlasticityState == "" {
			c.PlasticityState = filepath.Join(abs, DefaultPlasticityFile)
		}
	}
	if c.AutoPersistInterval < 0 {
		return fmt.Errorf("auto_persist_interval must be >= 0 (0 disables auto-persist), got %d", c.AutoPersistInterval)
	}
	if !(c.LearningRate > 0 && c.LearningRate <= 1) {
		return fmt.Errorf("learning_rate must be in (0, 1], got %v", c.LearningRate)
	}
	if !(c.DecayRate > 0 && c.DecayRate <= 1) {
		return fmt.Errorf("decay_rate must be in (0, 1], got %v", c.DecayRate)
	}
	if c.ActivateMaxFired < 0 || c.XLRPulseBudget < 0 || c.XLRPulseBudget == 1 {
		return fmt.Errorf("activate_max_fired must be >= 0 and xlr_pulse_budget 0 or >= 2 (0 keeps the default), got %d and %d", c.ActivateMaxFired, c.XLRPulseBudget)
	}
	if err := CheckIngestBudgets("ingest_max_nodes", c.IngestMaxNodes, "ingest_timeout_s", c.IngestTimeoutS); err != nil {
		return err
	}
	if c.MaxConcurrentReads <= 0 {
		c.MaxConcurrentReads = 32
	}
	if c.Domain == "" {
		c.Domain = "code"
	}
	return nil
}

// Persistent reports whether the graph is saved to disk.
func (c *Config) Persistent() bool { return c.GraphSource != "" }

// SplitList splits a comma-separated list (toolsets), dropping blanks.
func SplitList(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Bounds of the ingest budgets a user may set. Past MaxIngestNodes a
// value is a typo, not a budget (50 M nodes is ≈ 150 GB of memory at the
// ≈ 650 bytes per node+edge measured on a 12 M-line tree:
// benchmarks/results/scaling2.md); MaxIngestTimeout is the ingest call's
// own budget (tools.IngestBudget), which ends the call then anyway.
const (
	MaxIngestNodes   = 50_000_000
	MaxIngestTimeout = 30 * time.Minute
)

// CheckIngestBudgets refuses an ingest node budget or timeout (seconds)
// outside 0 (the default) … MaxIngestNodes / MaxIngestTimeout; the names
// are the setting's as the caller spells it (a config key, a flag), so
// the error points at what to fix.
func CheckIngestBudgets(nodesName string, maxNodes int, timeoutName string, timeoutS int) error {
	if maxNodes < 0 || maxNodes > MaxIngestNodes {
		return fmt.Errorf("%s must be 0 (the default, %d nodes) or a node count up to %d, got %d; e.g. %s 2000000 lets one ingest build 2 M nodes (≈ 30 M lines)",
			nodesName, adapter.DefaultMaxNodes, MaxIngestNodes, maxNodes, nodesName)
	}
	if maxT := int(MaxIngestTimeout / time.Second); timeoutS < 0 || timeoutS > maxT {
		return fmt.Errorf("%s must be 0 (the default, %d s) or seconds up to %d (an ingest call's own limit), got %d; e.g. %s 1800. A tree that needs longer goes in as several roots, one ingest call each (mode \"merge\")",
			timeoutName, int(adapter.DefaultTimeout/time.Second), maxT, timeoutS, timeoutName)
	}
	return nil
}
