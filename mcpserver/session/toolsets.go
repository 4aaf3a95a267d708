package session

import (
	"slices"
	"sync"
)

// toolsets are the tool families tools/list offers, and who wants to know
// when they change (each MCP server of the process lists its tools again).
type toolsets struct {
	mu        sync.Mutex
	enabled   []string
	listeners map[int]func([]string)
	next      int
}

// Toolsets returns the tool families tools/list offers (nil: every
// family — nothing has restricted the list).
func (s *State) Toolsets() []string {
	s.ts.mu.Lock()
	defer s.ts.mu.Unlock()
	return slices.Clone(s.ts.enabled)
}

// SetToolsets changes the families tools/list offers and tells the
// listeners; it reports whether anything changed.
func (s *State) SetToolsets(names []string) bool {
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	s.ts.mu.Lock()
	if slices.Equal(s.ts.enabled, names) && s.ts.enabled != nil {
		s.ts.mu.Unlock()
		return false
	}
	s.ts.enabled = names
	ls := make([]func([]string), 0, len(s.ts.listeners))
	for _, f := range s.ts.listeners {
		ls = append(ls, f)
	}
	s.ts.mu.Unlock()
	for _, f := range ls {
		f(slices.Clone(names))
	}
	return true
}

// OnToolsetsChange calls f with the new toolsets after every change until
// the returned cancel is called.
func (s *State) OnToolsetsChange(f func([]string)) (cancel func()) {
	s.ts.mu.Lock()
	defer s.ts.mu.Unlock()
	if s.ts.listeners == nil {
		s.ts.listeners = map[int]func([]string){}
	}
	id := s.ts.next
	s.ts.next++
	s.ts.listeners[id] = f
	return func() {
		s.ts.mu.Lock()
		defer s.ts.mu.Unlock()
		delete(s.ts.listeners, id)
	}
}
