package continuity

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"
)

// Perspective limits: per agent, in all, and per perspective.
const (
	MaxPerspectivesPerAgent = 16
	MaxPerspectives         = 256
	MaxRoutes               = 60
	MaxHistory              = 32
	MaxVisitedFoci          = 200
	// MaxActivation bounds the query activation a perspective caches.
	MaxActivation = 100
	MaxBranchName = 64
)

// Modes of a perspective.
const (
	ModeAnchored = "anchored"
	ModeLocal    = "local"
)

const perspectiveFormat = 1

// Act is a node's cached activation for a perspective's query: the final
// score and the four dimensions (structural, semantic, temporal, causal).
type Act struct {
	Score float64    `json:"score"`
	Dims  [4]float64 `json:"dims"`
}

// Lens narrows what a perspective's routes may lead to.
type Lens struct {
	// Dimensions used by the query's activation (empty: all four).
	Dimensions []string `json:"dimensions,omitempty"`
	// NodeTypes the route targets may have ("file", "function", ...).
	NodeTypes []string `json:"node_types,omitempty"`
	// Families of route kept (empty: all).
	Families []string `json:"families,omitempty"`
}

// NavEvent is one entry of a perspective's history: a focus left by a
// follow, restored by back.
type NavEvent struct {
	Focus   string `json:"focus"`
	Mode    string `json:"mode"`
	RouteID string `json:"route_id"`
	AtMs    int64  `json:"at_ms"`
}

// Perspective is one agent's navigable view of the graph: a focus, the
// routes from it, the history of moves, and the query activation the
// routes are scored with.
type Perspective struct {
	Format       int            `json:"format"`
	ID           string         `json:"perspective_id"`
	AgentID      string         `json:"agent_id"`
	BranchName   string         `json:"branch_name,omitempty"`
	BranchedFrom string         `json:"branched_from,omitempty"`
	Query        string         `json:"query"`
	Anchor       string         `json:"anchor_node,omitempty"`
	Lens         Lens           `json:"lens"`
	Mode         string         `json:"mode"`
	Focus        string         `json:"focus_node"`
	History      []NavEvent     `json:"history"`
	Visited      []string       `json:"visited"`
	Activation   map[string]Act `json:"activation"`
	Routes       []Route        `json:"routes"`
	Version      uint64         `json:"route_set_version"`
	RouteHash    string         `json:"route_hash"`
	// CacheGen and Epoch say which graph and learned state the routes
	// were computed on (Epoch: the server process).
	CacheGen   uint64 `json:"cache_generation"`
	Epoch      string `json:"epoch"`
	CreatedMs  int64  `json:"created_at_ms"`
	AccessedMs int64  `json:"last_accessed_ms"`
	NavCount   int    `json:"nav_event_count"`
}

// Clone copies p deeply enough that changing the copy's lists never
// touches p (the activation map and routes are replaced, never changed).
func (p *Perspective) Clone() *Perspective {
	np := *p
	np.History = slices.Clone(p.History)
	np.Visited = slices.Clone(p.Visited)
	np.Routes = slices.Clone(p.Routes)
	np.Lens = Lens{Dimensions: slices.Clone(p.Lens.Dimensions), NodeTypes: slices.Clone(p.Lens.NodeTypes), Families: slices.Clone(p.Lens.Families)}
	return &np
}

// Push records a move away from the current focus (bounded history).
func (p *Perspective) Push(routeID string, atMs int64) {
	p.History = append(p.History, NavEvent{Focus: p.Focus, Mode: p.Mode, RouteID: routeID, AtMs: atMs})
	if len(p.History) > MaxHistory {
		p.History = slices.Clone(p.History[len(p.History)-MaxHistory:])
	}
	p.NavCount++
}

// Stale reports whether the routes were computed on another graph or
// learned state than (cacheGen, epoch).
func (p *Perspective) Stale(cacheGen uint64, epoch string) bool {
	return p.Epoch != epoch || p.CacheGen != cacheGen
}

// SetRoutes installs a route set. The version moves only when the set
// of routes changes: a recomputation that finds the same routes (the
// graph or learned weights moved a little) keeps their order and indexes
// with the new scores, so the indexes an agent holds stay valid.
func (p *Perspective) SetRoutes(routes []Route) {
	if p.Version > 0 && len(routes) == len(p.Routes) {
		at := make(map[string]int, len(routes))
		for i, r := range routes {
			at[r.ID] = i
		}
		same := true
		kept := make([]Route, len(p.Routes))
		for i, old := range p.Routes {
			j, ok := at[old.ID]
			if !ok {
				same = false
				break
			}
			kept[i] = routes[j]
			kept[i].Index = old.Index
		}
		if same {
			p.Routes = kept
			return
		}
	}
	h := RouteSetHash(routes)
	if h != p.RouteHash || p.Version == 0 {
		p.Version++
	}
	p.Routes, p.RouteHash = routes, h
}

// Route finds a route by id or by its 1-based index.
func (p *Perspective) Route(id string, index int) (Route, bool) {
	for _, r := range p.Routes {
		if (id != "" && r.ID == id) || (id == "" && r.Index == index) {
			return r, true
		}
	}
	return Route{}, false
}

// AddVisited records a focus (bounded; the oldest are forgotten).
func (p *Perspective) AddVisited(x string) {
	if slices.Contains(p.Visited, x) {
		return
	}
	p.Visited = append(p.Visited, x)
	if len(p.Visited) > MaxVisitedFoci {
		p.Visited = slices.Clone(p.Visited[len(p.Visited)-MaxVisitedFoci:])
	}
}

// Validate checks a perspective read from disk.
func (p *Perspective) Validate() error {
	if err := ValidateAgentID(p.AgentID); err != nil {
		return err
	}
	if p.Mode != ModeAnchored && p.Mode != ModeLocal || p.Focus == "" {
		return fmt.Errorf("mode %q or focus %q invalid", p.Mode, p.Focus)
	}
	if len(p.Routes) > MaxRoutes || len(p.History) > MaxHistory || len(p.Visited) > MaxVisitedFoci || len(p.Activation) > MaxActivation {
		return fmt.Errorf("over the perspective limits")
	}
	for _, r := range p.Routes {
		if !unit(r.Score) {
			return fmt.Errorf("route %s score %v invalid", r.ID, r.Score)
		}
	}
	for _, a := range p.Activation {
		if !unit(a.Score) {
			return fmt.Errorf("activation score %v invalid", a.Score)
		}
	}
	return nil
}

// Perspectives is the perspective store. Navigation changes a perspective
// often, so files are written behind the calls by one flusher (coalesced,
// atomic each); Flush waits for it. Creating and closing are durable when
// they return... closing synchronously, creating with the next flush.
type Perspectives struct {
	s       *Store
	mu      sync.RWMutex
	items   map[string]*perspEntry
	pending map[string]int

	flushMu sync.Mutex
	dirty   map[string]*perspEntry
	metaDue bool
	kick    chan struct{}
	idle    *sync.Cond
	busy    bool
}

type perspEntry struct {
	agent string // never changes
	mu    sync.Mutex
	p     *Perspective
	// wmu orders file writes and the removal of a closed perspective.
	wmu    sync.Mutex
	closed bool
}

func newPerspectives(s *Store) *Perspectives {
	ps := &Perspectives{s: s, items: map[string]*perspEntry{}, pending: map[string]int{}, dirty: map[string]*perspEntry{}, kick: make(chan struct{}, 1)}
	ps.idle = sync.NewCond(&ps.flushMu)
	loadRecords(s, perspectivesDir, "persp", "perspectives", MaxPerspectives, parsePerspective, func(p *Perspective) {
		ps.items[p.ID] = &perspEntry{agent: p.AgentID, p: p}
	})
	if s.root != "" {
		go ps.flusher()
	}
	return ps
}

// parsePerspective decodes and checks a perspective file named name.
func parsePerspective(name string, data []byte) (*Perspective, error) {
	return parseRecord[Perspective]("perspective", name, data, perspectiveFormat)
}

// Own lists agent's perspective ids, sorted.
func (ps *Perspectives) Own(agent string) []string {
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	return ownedIDs(ps.items, agent)
}

// Start stores a new perspective for p.AgentID (id, format and times set
// here).
func (ps *Perspectives) Start(p Perspective) (*Perspective, error) {
	if err := ValidateAgentID(p.AgentID); err != nil {
		return nil, err
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	mine, total := 0, len(ps.items)
	for _, e := range ps.items {
		if e.agent == p.AgentID {
			mine++
		}
	}
	if mine >= MaxPerspectivesPerAgent {
		return nil, errf(Limit, fmt.Sprintf("An agent keeps at most %d perspectives open. Close the ones you are done with (perspective_close); perspective_list shows them.", MaxPerspectivesPerAgent),
			"agent %q already has %d perspectives open", p.AgentID, mine).with("your_perspectives", ownedIDs(ps.items, p.AgentID))
	}
	if total >= MaxPerspectives {
		return nil, errf(Limit, fmt.Sprintf("The server keeps at most %d perspectives open in all.", MaxPerspectives), "the server already holds %d perspectives", total)
	}
	now := ps.s.nowMs()
	p.Format, p.CreatedMs, p.AccessedMs = perspectiveFormat, now, now
	p.ID = fmt.Sprintf("persp_%s_%03d", p.AgentID, ps.s.nextSeqLazy("persp", p.AgentID))
	if err := p.Validate(); err != nil {
		return nil, err
	}
	e := &perspEntry{agent: p.AgentID, p: &p}
	ps.items[p.ID] = e
	ps.markDirty(e, true)
	return &p, nil
}

func (ps *Perspectives) entry(agent, id string) (*perspEntry, error) {
	return ownEntry(&ps.mu, ps.items, "perspective", agent, id, "Start one with perspective_start.")
}

// Owns checks that id is one of agent's perspectives.
func (ps *Perspectives) Owns(agent, id string) error {
	_, err := ps.entry(agent, id)
	return err
}

// With runs fn on agent's perspective under its own mutex; fn returns the
// perspective to keep (nil: unchanged). Changes are written behind.
func (ps *Perspectives) With(agent, id string, fn func(p *Perspective) (*Perspective, error)) error {
	e, err := ps.entry(agent, id)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return notFound("perspective", id, ps.Own(agent))
	}
	np, err := fn(e.p)
	if err != nil || np == nil {
		return err
	}
	if err := np.Validate(); err != nil {
		return err
	}
	np.AccessedMs = ps.s.nowMs()
	e.p = np
	ps.markDirty(e, false)
	return nil
}

// Get returns a copy-safe snapshot of agent's perspective (not to be
// modified).
func (ps *Perspectives) Get(agent, id string) (*Perspective, error) {
	e, err := ps.entry(agent, id)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.p, nil
}

// List returns agent's perspectives, by id.
func (ps *Perspectives) List(agent string) []*Perspective {
	var out []*Perspective
	for _, id := range ps.Own(agent) {
		if p, err := ps.Get(agent, id); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Close removes agent's perspective (durably before it returns).
func (ps *Perspectives) Close(agent, id string) error {
	e, err := ps.entry(agent, id)
	if err != nil {
		return err
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	ps.mu.Lock()
	delete(ps.items, id)
	ps.mu.Unlock()
	ps.flushMu.Lock()
	delete(ps.dirty, id)
	ps.flushMu.Unlock()
	if err := ps.s.remove(perspectivesDir, id+".json"); err != nil {
		return fmt.Errorf("perspective %s closed but its file remains: %w", id, err)
	}
	return nil
}

// Visited lists the anchors, foci and visited nodes of agent's open
// perspectives, at most n, in perspective order.
func (ps *Perspectives) Visited(agent string, n int) []string {
	var out []string
	for _, p := range ps.List(agent) {
		for _, x := range append([]string{p.Anchor, p.Focus}, p.Visited...) {
			if x != "" && !slices.Contains(out, x) && len(out) < n {
				out = append(out, x)
			}
		}
	}
	return out
}

// Len is the number of open perspectives.
func (ps *Perspectives) Len() int {
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	return len(ps.items)
}

// markDirty queues e for the flusher (meta too when an id was handed out).
func (ps *Perspectives) markDirty(e *perspEntry, meta bool) {
	if ps.s.root == "" {
		return
	}
	ps.flushMu.Lock()
	ps.dirty[e.p.ID] = e
	ps.metaDue = ps.metaDue || meta
	ps.flushMu.Unlock()
	select {
	case ps.kick <- struct{}{}:
	default:
	}
}

// flusher writes dirty perspectives, the meta file (id counters) first.
func (ps *Perspectives) flusher() {
	for range ps.kick {
		ps.flushMu.Lock()
		dirty, meta := ps.dirty, ps.metaDue
		ps.dirty, ps.metaDue, ps.busy = map[string]*perspEntry{}, false, true
		ps.flushMu.Unlock()
		if meta {
			ps.s.metaMu.Lock()
			ps.s.saveMetaLocked()
			ps.s.metaMu.Unlock()
		}
		ids := make([]string, 0, len(dirty))
		for id := range dirty {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			ps.write(dirty[id])
		}
		ps.flushMu.Lock()
		ps.busy = false
		ps.idle.Broadcast()
		ps.flushMu.Unlock()
	}
}

func (ps *Perspectives) write(e *perspEntry) {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.mu.Lock()
	closed, p := e.closed, e.p
	data, err := json.Marshal(p)
	e.mu.Unlock()
	if closed || err != nil {
		return
	}
	if err := ps.s.writeRaw(perspectivesDir, p.ID+".json", data); err != nil {
		ps.s.logf("WARNING: continuity: perspective %s not written: %v", p.ID, err)
	}
}

// Flush waits until every change made before the call is on disk.
func (ps *Perspectives) Flush() {
	if ps.s.root == "" {
		return
	}
	ps.flushMu.Lock()
	defer ps.flushMu.Unlock()
	for len(ps.dirty) > 0 || ps.metaDue || ps.busy {
		if !ps.busy {
			select {
			case ps.kick <- struct{}{}:
			default:
			}
		}
		ps.idle.Wait()
	}
}
