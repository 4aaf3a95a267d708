package edit

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"time"
)

// Preview is a validated edit kept for a later commit (edit_preview →
// edit_commit): the target as it was read (its old contents are the base
// the commit must still find) and the new contents.
type Preview struct {
	ID          string
	Agent       string
	Description string
	Edit        Edit    // as requested (Raw, Path)
	Target      *Target // as validated at preview time
	Created     time.Time
	Expires     time.Time
}

// BaseSHA is the hash the file must still have at commit ("absent" when
// the preview creates it).
func (p *Preview) BaseSHA() string {
	if !p.Target.Existed {
		return "absent"
	}
	return p.Target.OldSHA
}

func (p *Preview) size() int { return len(p.Target.Old) + len(p.Target.New) }

// Previews holds previews for a while, bounded in count and bytes (the
// oldest go first). Safe for concurrent use.
type Previews struct {
	mu       sync.Mutex
	ttl      time.Duration
	maxCount int
	maxBytes int
	now      func() time.Time
	byID     map[string]*Preview
	order    []string // oldest first
}

// Errors of Take.
var (
	ErrNoPreview      = errors.New("unknown preview")
	ErrPreviewExpired = errors.New("preview expired")
)

// NewPreviews keeps previews for ttl, at most maxCount of them holding at
// most maxBytes of contents.
func NewPreviews(ttl time.Duration, maxCount, maxBytes int) *Previews {
	return &Previews{ttl: ttl, maxCount: maxCount, maxBytes: maxBytes, now: time.Now, byID: map[string]*Preview{}}
}

// TTL is how long a preview lives.
func (ps *Previews) TTL() time.Duration { return ps.ttl }

// Put stores p under a fresh ID (set on p) and returns it.
func (ps *Previews) Put(p *Preview) string {
	var b [8]byte
	rand.Read(b[:])
	ps.mu.Lock()
	defer ps.mu.Unlock()
	now := ps.now()
	p.ID, p.Created, p.Expires = "preview-"+hex.EncodeToString(b[:]), now, now.Add(ps.ttl)
	ps.expire(now)
	ps.byID[p.ID] = p
	ps.order = append(ps.order, p.ID)
	total := 0
	for _, id := range ps.order {
		total += ps.byID[id].size()
	}
	for len(ps.order) > 1 && (len(ps.order) > ps.maxCount || total > ps.maxBytes) {
		total -= ps.byID[ps.order[0]].size()
		delete(ps.byID, ps.order[0])
		ps.order = ps.order[1:]
	}
	return p.ID
}

// Take removes and returns a preview: ErrNoPreview when there is none by
// that ID (never made, already committed, or evicted), ErrPreviewExpired
// when it outlived the TTL.
func (ps *Previews) Take(id string) (*Preview, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.byID[id]
	if !ok {
		return nil, ErrNoPreview
	}
	ps.remove(id)
	if ps.now().After(p.Expires) {
		return p, ErrPreviewExpired
	}
	return p, nil
}

// Restore puts back a preview whose commit was refused for a reason the
// caller can fix (confirm false), so it can be retried.
func (ps *Previews) Restore(p *Preview) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if _, ok := ps.byID[p.ID]; !ok {
		ps.byID[p.ID] = p
		ps.order = append(ps.order, p.ID)
	}
}

// Len is the number of previews held.
func (ps *Previews) Len() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return len(ps.order)
}

func (ps *Previews) expire(now time.Time) {
	ps.order = slices.DeleteFunc(ps.order, func(id string) bool {
		if now.After(ps.byID[id].Expires.Add(ps.ttl)) { // kept one TTL more, to say "expired"
			delete(ps.byID, id)
			return true
		}
		return false
	})
}

func (ps *Previews) remove(id string) {
	delete(ps.byID, id)
	ps.order = slices.DeleteFunc(ps.order, func(x string) bool { return x == id })
}

// SetClock (tests) fixes the store's notion of now.
func (ps *Previews) SetClock(now func() time.Time) { ps.now = now }
