package continuity

import (
	"fmt"
	"sort"
	"sync"
)

// record is a file the store keeps, one per lock, perspective or trail.
type record interface {
	Validate() error
	// head is what every record holds besides its own fields.
	head() (id, agent string, format int)
}

func (l *Lock) head() (string, string, int)        { return l.ID, l.AgentID, l.Format }
func (p *Perspective) head() (string, string, int) { return p.ID, p.AgentID, p.Format }
func (tr *Trail) head() (string, string, int)      { return tr.ID, tr.AgentID, tr.Format }

// parseRecord decodes and checks a record file named name: strict JSON,
// format want, valid, and named after the id it holds.
func parseRecord[T any, P interface {
	*T
	record
}](kind, name string, data []byte, want int) (P, error) {
	r := P(new(T))
	if err := decodeStrict(data, r); err != nil {
		return nil, err
	}
	id, _, format := r.head()
	if format != want {
		return nil, fmt.Errorf("format %d, this server reads %d", format, want)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if name != id+".json" {
		return nil, fmt.Errorf("holds %s %q", kind, id)
	}
	return r, nil
}

// loadRecords hands add each record of dir that parse accepts, at most
// limit of them (plural names them in the refusal), and raises the
// store's counter seq for the record's agent past the id's number, so
// that a lost meta file never reissues an id.
func loadRecords[P record](s *Store, dir, seq, plural string, limit int, parse func(name string, data []byte) (P, error), add func(P)) {
	n := 0
	s.loadDir(dir, func(name string, data []byte) error {
		r, err := parse(name, data)
		if err != nil {
			return err
		}
		if n >= limit {
			return fmt.Errorf("over the limit of %d %s", limit, plural)
		}
		n++
		add(r)
		id, agent, _ := r.head()
		s.seenSeq(seq, agent, idSeq(id, seq+"_"+agent+"_"))
		return nil
	})
}

// owned is what an agent's entries tell: the agent that owns them.
type owned interface{ owner() string }

func (e *lockEntry) owner() string  { return e.agent }
func (e *perspEntry) owner() string { return e.agent }

// ownedIDs lists the ids of agent's items, sorted (never nil); the caller
// holds the items' lock.
func ownedIDs[E owned](items map[string]E, agent string) []string {
	out := []string{}
	for id, e := range items {
		if e.owner() == agent {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// ownEntry finds agent's item id (read under mu): one that does not exist
// is refused with the agent's own ids and next, another agent's as not
// theirs.
func ownEntry[E owned](mu *sync.RWMutex, items map[string]E, kind, agent, id, next string) (E, error) {
	mu.RLock()
	e, ok := items[id]
	mu.RUnlock()
	mine := func() []string {
		mu.RLock()
		defer mu.RUnlock()
		return ownedIDs(items, agent)
	}
	var none E
	if !ok {
		return none, notFound(kind, id, mine()).next(next)
	}
	if e.owner() != agent {
		return none, notOwner(kind, id, e.owner(), agent, mine())
	}
	return e, nil
}
