package continuity

// Perspectives is the perspective store.
type Perspectives struct{ s *Store }

func newPerspectives(s *Store) *Perspectives { return &Perspectives{s: s} }

// Visited lists the nodes agent's open perspectives focused on or visited
// (anchors and foci first), at most n.
func (ps *Perspectives) Visited(agent string, n int) []string { return nil }

// Owns checks that perspective id exists and belongs to agent.
func (ps *Perspectives) Owns(agent, id string) error { return nil }
