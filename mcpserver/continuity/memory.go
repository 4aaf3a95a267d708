package continuity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"sync"
)

// Boot memory limits, per agent: hot state is small by design (trails
// hold investigations).
const (
	MaxMemoryKeys   = 256
	MaxMemoryValue  = 16 << 10
	MaxMemoryBytes  = 256 << 10
	MaxMemoryKey    = 128
	MaxMemoryAgents = 256
)

const memoryFormat = 1

// MemoryEntry is one stored value.
type MemoryEntry struct {
	Value     json.RawMessage `json:"value"`
	UpdatedMs int64           `json:"updated_at_ms"`
}

type memoryFile struct {
	Format  int                    `json:"format"`
	AgentID string                 `json:"agent_id"`
	Entries map[string]MemoryEntry `json:"entries"`
}

// Memory is the boot memory store: small JSON values by key, per agent.
type Memory struct {
	s      *Store
	mu     sync.Mutex // guards agents (the map, not the entries)
	agents map[string]*agentMemory
}

type agentMemory struct {
	mu sync.Mutex
	// entries are replaced, never modified in place, so a failed write
	// leaves the previous map served.
	entries map[string]MemoryEntry
	bytes   int
}

func newMemory(s *Store) *Memory {
	m := &Memory{s: s, agents: map[string]*agentMemory{}}
	s.loadDir(memoryDir, func(name string, data []byte) error {
		agent, am, err := parseMemory(name, data)
		if err != nil {
			return err
		}
		if len(m.agents) >= MaxMemoryAgents {
			return fmt.Errorf("over the limit of %d agents", MaxMemoryAgents)
		}
		m.agents[agent] = am
		return nil
	})
	return m
}

// parseMemory decodes and checks one agent's boot memory file.
func parseMemory(name string, data []byte) (string, *agentMemory, error) {
	var f memoryFile
	if err := decodeStrict(data, &f); err != nil {
		return "", nil, err
	}
	if f.Format != memoryFormat {
		return "", nil, fmt.Errorf("format %d, this server reads %d", f.Format, memoryFormat)
	}
	if err := ValidateAgentID(f.AgentID); err != nil || name != f.AgentID+".json" {
		return "", nil, fmt.Errorf("does not belong to a valid agent id (%q)", f.AgentID)
	}
	am := &agentMemory{entries: map[string]MemoryEntry{}}
	for k, e := range f.Entries {
		if err := ValidateMemoryKey(k); err != nil {
			return "", nil, err
		}
		if err := checkValue(e.Value); err != nil {
			return "", nil, err
		}
		am.entries[k] = e
		am.bytes += len(k) + len(e.Value)
	}
	if len(am.entries) > MaxMemoryKeys || am.bytes > MaxMemoryBytes {
		return "", nil, fmt.Errorf("over the boot memory limits")
	}
	return f.AgentID, am, nil
}

// ValidateMemoryKey accepts 1–128 letters, digits and . _ - : /.
func ValidateMemoryKey(k string) error {
	ok := k != "" && len(k) <= MaxMemoryKey
	for _, r := range k {
		if !(r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' || r == ':' || r == '/')) {
			ok = false
		}
	}
	if !ok {
		return errf(Invalid, fmt.Sprintf("key is 1–%d letters, digits and . _ - : /, e.g. \"doctrine/review-rules\".", MaxMemoryKey), "key %q is not a valid boot memory key", clip(k))
	}
	return nil
}

func checkValue(v json.RawMessage) error {
	if len(v) == 0 || !json.Valid(v) {
		return errf(Invalid, "value is any JSON value: a string, number, object or array, e.g. {\"owner\": \"jimi\"}.", "value is missing or not valid JSON")
	}
	if len(v) > MaxMemoryValue {
		return errf(Limit, fmt.Sprintf("A boot memory value is at most %d KiB; keep larger state in a trail.", MaxMemoryValue>>10), "value is %d bytes, over the limit of %d", len(v), MaxMemoryValue)
	}
	return nil
}

// agent returns agent's memory, creating it when create is set (nil when
// absent and not created).
func (m *Memory) agent(agent string, create bool) (*agentMemory, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	am, ok := m.agents[agent]
	if !ok && create {
		if len(m.agents) >= MaxMemoryAgents {
			return nil, errf(Limit, fmt.Sprintf("Boot memory is kept for at most %d agents.", MaxMemoryAgents), "boot memory already holds %d agents", len(m.agents))
		}
		am = &agentMemory{entries: map[string]MemoryEntry{}}
		m.agents[agent] = am
	}
	return am, nil
}

// Set stores value under key for agent; it reports whether the key
// existed. The value is kept compacted.
func (m *Memory) Set(agent, key string, value json.RawMessage) (existed bool, err error) {
	if err := ValidateAgentID(agent); err != nil {
		return false, err
	}
	if err := ValidateMemoryKey(key); err != nil {
		return false, err
	}
	var buf bytes.Buffer
	if err := checkValue(value); err != nil {
		return false, err
	}
	if err := json.Compact(&buf, value); err != nil {
		return false, checkValue(nil)
	}
	value = buf.Bytes()
	am, err := m.agent(agent, true)
	if err != nil {
		return false, err
	}
	am.mu.Lock()
	defer am.mu.Unlock()
	old, existed := am.entries[key]
	size := am.bytes + len(key) + len(value)
	if existed {
		size -= len(key) + len(old.Value)
	}
	if !existed && len(am.entries) >= MaxMemoryKeys {
		return false, errf(Limit, fmt.Sprintf("An agent keeps at most %d boot memory keys; delete stale ones (action \"delete\").", MaxMemoryKeys), "agent %q already has %d keys", agent, len(am.entries)).next("Call boot_memory with action \"list\" to see them.")
	}
	if size > MaxMemoryBytes {
		return false, errf(Limit, fmt.Sprintf("An agent's boot memory is at most %d KiB in all; delete stale keys or keep larger state in a trail.", MaxMemoryBytes>>10), "storing %q would bring agent %q's boot memory to %d bytes", key, agent, size)
	}
	next := maps.Clone(am.entries)
	next[key] = MemoryEntry{Value: value, UpdatedMs: m.s.nowMs()}
	if err := m.write(agent, next); err != nil {
		return false, err
	}
	am.entries, am.bytes = next, size
	return existed, nil
}

// Get returns the entry under key.
func (m *Memory) Get(agent, key string) (MemoryEntry, bool) {
	am, _ := m.agent(agent, false)
	if am == nil {
		return MemoryEntry{}, false
	}
	am.mu.Lock()
	defer am.mu.Unlock()
	e, ok := am.entries[key]
	return e, ok
}

// MemoryKey describes one stored key.
type MemoryKey struct {
	Key       string `json:"key"`
	Bytes     int    `json:"bytes"`
	UpdatedMs int64  `json:"updated_at_ms"`
}

// List returns agent's keys sorted, and the bytes they take.
func (m *Memory) List(agent string) ([]MemoryKey, int) {
	am, _ := m.agent(agent, false)
	if am == nil {
		return []MemoryKey{}, 0
	}
	am.mu.Lock()
	defer am.mu.Unlock()
	out := make([]MemoryKey, 0, len(am.entries))
	for k, e := range am.entries {
		out = append(out, MemoryKey{Key: k, Bytes: len(e.Value), UpdatedMs: e.UpdatedMs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, am.bytes
}

// Delete removes key; it reports whether it existed.
func (m *Memory) Delete(agent, key string) (bool, error) {
	am, _ := m.agent(agent, false)
	if am == nil {
		return false, nil
	}
	am.mu.Lock()
	defer am.mu.Unlock()
	old, ok := am.entries[key]
	if !ok {
		return false, nil
	}
	next := maps.Clone(am.entries)
	delete(next, key)
	if err := m.write(agent, next); err != nil {
		return false, err
	}
	am.entries, am.bytes = next, am.bytes-len(key)-len(old.Value)
	return true, nil
}

func (m *Memory) write(agent string, entries map[string]MemoryEntry) error {
	if len(entries) == 0 {
		return m.s.remove(memoryDir, agent+".json")
	}
	if err := m.s.writeJSON(memoryDir, agent+".json", memoryFile{Format: memoryFormat, AgentID: agent, Entries: entries}); err != nil {
		return fmt.Errorf("boot memory of %s not saved (unchanged): %w", agent, err)
	}
	return nil
}
