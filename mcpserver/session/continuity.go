package session

import "github.com/m1nd-go/m1nd/mcpserver/continuity"

var continuityKey = NewKey[*continuity.Store]("continuity")

// openContinuity loads the perspectives, locks, trails and boot memory
// kept in the runtime directory and subscribes them to graph and learning
// events. A directory that cannot be used leaves the session with a
// memory-only store and a warning: continuity never keeps the graph from
// being served.
func (s *State) openContinuity() {
	st, err := continuity.Open(s.cfg.RuntimeDir, s.logf)
	if err != nil {
		s.logf("WARNING: continuity state kept in memory only: %v", err)
		st, _ = continuity.Open("", s.logf)
	}
	Shared(s, continuityKey, func() *continuity.Store { return st })
	s.OnEvent(func(ev Event) { st.Observe(ev.Kind, ev.Gen, ev.PlasGen) })
}

// Continuity returns the session's continuity store (perspectives, locks,
// trails, boot memory).
func (s *State) Continuity() *continuity.Store {
	return Shared(s, continuityKey, func() *continuity.Store {
		st, _ := continuity.Open("", s.logf)
		return st
	})
}
