package session

import (
	"maps"
	"sync"
)

// Coverage records, per agent, what the agent has looked at in this
// process: the files it read (view, batch_view) and the nodes and files
// answers showed it. It has its own lock and bounded memory: at most
// MaxCoverageAgents agents (the least recently active is forgotten first)
// and per agent at most MaxCoverageRead files read and MaxCoverageSeen
// things seen; past a cap new entries are dropped and Capped is set. It is
// never persisted.
type Coverage struct {
	mu     sync.Mutex
	agents map[string]*agentCoverage
	seq    uint64
}

// Coverage limits.
const (
	MaxCoverageAgents = 32
	MaxCoverageRead   = 5_000
	MaxCoverageSeen   = 20_000
	// maxCoverageValue bounds one recorded path or node id.
	maxCoverageValue = 1024
)

// Visit is one file an agent read.
type Visit struct {
	// Reads counts the calls that showed the file's content.
	Reads int `json:"reads"`
	// First and Last order the visits among the agent's recorded calls
	// (1-based call numbers).
	First int    `json:"first_call"`
	Last  int    `json:"last_call"`
	Tool  string `json:"last_tool"`
}

type agentCoverage struct {
	read   map[string]*Visit
	seen   map[string]int
	tools  map[string]int
	calls  int
	capped bool
	last   uint64
}

// CoverageSnapshot is a copy of one agent's record.
type CoverageSnapshot struct {
	Read  map[string]Visit
	Seen  map[string]int // node id or path → answers that showed it
	Tools map[string]int // tool → recorded calls
	Calls int
	// Capped is set once an entry was dropped at a cap.
	Capped bool
}

// NewCoverage returns an empty record.
func NewCoverage() *Coverage { return &Coverage{agents: map[string]*agentCoverage{}} }

var coverageKey = NewKey[*Coverage]("coverage")

// Coverage is the session's coverage record.
func (s *State) Coverage() *Coverage {
	return Shared(s, coverageKey, NewCoverage)
}

// Record notes one call of tool by agent: read are files whose content it
// showed, seen the node ids and paths it named.
func (c *Coverage) Record(agent, tool string, read, seen []string) {
	if agent == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.agents[agent]
	if a == nil {
		if len(c.agents) >= MaxCoverageAgents {
			c.evictOldest()
		}
		a = &agentCoverage{read: map[string]*Visit{}, seen: map[string]int{}, tools: map[string]int{}}
		c.agents[agent] = a
	}
	c.seq++
	a.last = c.seq
	a.calls++
	if len(a.tools) < 256 || a.tools[tool] > 0 {
		a.tools[tool]++
	}
	for _, p := range read {
		if p == "" || len(p) > maxCoverageValue {
			continue
		}
		v := a.read[p]
		if v == nil {
			if len(a.read) >= MaxCoverageRead {
				a.capped = true
				continue
			}
			v = &Visit{First: a.calls}
			a.read[p] = v
		}
		v.Reads++
		v.Last, v.Tool = a.calls, tool
	}
	for _, p := range seen {
		if p == "" || len(p) > maxCoverageValue {
			continue
		}
		if _, ok := a.seen[p]; !ok && len(a.seen) >= MaxCoverageSeen {
			a.capped = true
			continue
		}
		a.seen[p]++
	}
}

func (c *Coverage) evictOldest() {
	var oldest string
	var at uint64
	for id, a := range c.agents {
		if oldest == "" || a.last < at || (a.last == at && id < oldest) {
			oldest, at = id, a.last
		}
	}
	delete(c.agents, oldest)
}

// Snapshot copies one agent's record (ok false when nothing is recorded).
func (c *Coverage) Snapshot(agent string) (CoverageSnapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.agents[agent]
	if a == nil {
		return CoverageSnapshot{Read: map[string]Visit{}, Seen: map[string]int{}, Tools: map[string]int{}}, false
	}
	s := CoverageSnapshot{Read: make(map[string]Visit, len(a.read)), Seen: maps.Clone(a.seen), Tools: maps.Clone(a.tools), Calls: a.calls, Capped: a.capped}
	for p, v := range a.read {
		s.Read[p] = *v
	}
	return s, true
}

// Readers returns, per agent, the files among paths it has read (in
// path order); agents that read none are left out.
func (c *Coverage) Readers(paths []string) map[string][]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]string{}
	for id, a := range c.agents {
		for _, p := range paths {
			if _, ok := a.read[p]; ok {
				out[id] = append(out[id], p)
			}
		}
	}
	return out
}
