package daemon

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/snapshot"
)

// Alert is one drift or proactive alert.
type Alert struct {
	ID       string    `json:"alert_id"`
	Kind     string    `json:"kind"`
	Severity string    `json:"severity"`
	Message  string    `json:"message"`
	NodeIDs  []string  `json:"node_ids,omitempty"`
	Root     string    `json:"root,omitempty"`
	At       time.Time `json:"created_at"`
	Acked    bool      `json:"acked"`
	AckedBy  string    `json:"acked_by,omitempty"`
}

// Alert kinds.
const (
	KindHubDeleted   = "hub_deleted"
	KindHeadMoved    = "head_moved"
	KindIngestFailed = "ingest_failed"
	// KindHotChanged: files an agent has read in this session changed on
	// disk (its view of them is stale).
	KindHotChanged = "hot_region_changed"
	// KindRegionLocked: files in a lock's region changed on disk.
	KindRegionLocked = "locked_region_changed"
	// KindWatchDegraded: kernel watches could not be had; the daemon polls.
	KindWatchDegraded = "watch_degraded"
)

// MaxAlerts bounds the alerts kept: the oldest acknowledged go first, then
// the oldest.
const MaxAlerts = 1000

// Alerts is the persisted alert list. Safe for concurrent use.
type Alerts struct {
	mu   sync.Mutex
	path string
	next int
	list []Alert
	logf func(string, ...any)
}

type alertsFile struct {
	Next   int     `json:"next"`
	Alerts []Alert `json:"alerts"`
}

// openAlerts loads path ("" keeps alerts in memory only). An unreadable
// file is moved aside, never fatal.
func openAlerts(path string, logf func(string, ...any)) *Alerts {
	a := &Alerts{path: path, logf: logf}
	if path == "" {
		return a
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return a
	}
	var f alertsFile
	if err := json.Unmarshal(data, &f); err != nil {
		aside := fmt.Sprintf("%s.corrupt-%d", path, time.Now().UnixNano())
		_ = os.Rename(path, aside)
		logf("daemon: alerts file %s unreadable (%v); moved aside to %s", path, err, aside)
		return a
	}
	a.next, a.list = f.Next, f.Alerts
	return a
}

// Add records alerts and persists them; it returns their IDs.
func (a *Alerts) Add(now time.Time, al ...Alert) []string {
	if len(al) == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.add(now, al)
}

func (a *Alerts) add(now time.Time, al []Alert) []string {
	var ids []string
	for _, x := range al {
		a.next++
		x.ID = fmt.Sprintf("alert-%d", a.next)
		x.At = now.UTC()
		x.Acked, x.AckedBy = false, ""
		a.list = append(a.list, x)
		ids = append(ids, x.ID)
	}
	a.trim()
	a.save()
	return ids
}

// AddNew is Add without the alerts an unacknowledged one already says
// (same kind and message); it returns the IDs of those it added.
func (a *Alerts) AddNew(now time.Time, al ...Alert) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var fresh []Alert
	for _, x := range al {
		if !slices.ContainsFunc(a.list, func(y Alert) bool { return !y.Acked && y.Kind == x.Kind && y.Message == x.Message }) &&
			!slices.ContainsFunc(fresh, func(y Alert) bool { return y.Kind == x.Kind && y.Message == x.Message }) {
			fresh = append(fresh, x)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	return a.add(now, fresh)
}

func (a *Alerts) trim() {
	for len(a.list) > MaxAlerts {
		i := slices.IndexFunc(a.list, func(x Alert) bool { return x.Acked })
		if i < 0 {
			i = 0
		}
		a.list = slices.Delete(a.list, i, i+1)
	}
}

// List returns alerts newest first (acknowledged ones only when asked),
// at most limit (0: all), and the number unacknowledged.
func (a *Alerts) List(includeAcked bool, limit int) (out []Alert, unacked int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.list) - 1; i >= 0; i-- {
		x := a.list[i]
		if !x.Acked {
			unacked++
		}
		if (includeAcked || !x.Acked) && (limit <= 0 || len(out) < limit) {
			x.NodeIDs = slices.Clone(x.NodeIDs)
			out = append(out, x)
		}
	}
	return out, unacked
}

// Ack acknowledges ids; it returns those acknowledged now and those not
// found.
func (a *Alerts) Ack(agent string, ids []string) (acked, unknown []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, id := range ids {
		i := slices.IndexFunc(a.list, func(x Alert) bool { return x.ID == id })
		switch {
		case i < 0:
			unknown = append(unknown, id)
		case !a.list[i].Acked:
			a.list[i].Acked, a.list[i].AckedBy = true, agent
			acked = append(acked, id)
		}
	}
	if len(acked) > 0 {
		a.save()
	}
	return acked, unknown
}

// save writes the list atomically. Caller holds mu.
func (a *Alerts) save() {
	if a.path == "" {
		return
	}
	err := snapshot.WriteFileAtomic(a.path, 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(alertsFile{Next: a.next, Alerts: a.list})
	})
	if err != nil {
		a.logf("daemon: alerts not saved: %v", err)
	}
}
