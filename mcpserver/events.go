package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Event is one thing serve mode streams at GET /api/events: a tool call's
// result summary or a long call's progress, from any transport.
type Event struct {
	ID          uint64 `json:"id"`
	Type        string `json:"event_type"` // tool_call or progress
	TimestampMs int64  `json:"timestamp_ms"`
	Data        any    `json:"data"`
}

// CallEvent is a tool call's summary: who called what, how it went, and
// the start of the answer (bounded; the answer itself went to the caller).
type CallEvent struct {
	Tool      string `json:"tool"`
	AgentID   string `json:"agent_id,omitempty"`
	Transport string `json:"transport"`
	IsError   bool   `json:"is_error"`
	ElapsedMs int64  `json:"elapsed_ms"`
	Bytes     int    `json:"bytes"`
	Summary   string `json:"summary"`
}

// ProgressEvent is a long call's progress (ingest, apply_batch).
type ProgressEvent struct {
	Tool    string  `json:"tool"`
	Done    float64 `json:"done"`
	Total   float64 `json:"total"`
	Message string  `json:"message,omitempty"`
}

// Replay and summary bounds: a client that reconnects with Last-Event-ID
// gets what it missed from the last eventReplay events; a summary holds
// the first summaryBytes of an answer.
const (
	eventReplay  = 1024
	summaryBytes = 240
)

// Events is the session's event stream: a bounded replay buffer and the
// subscribers it fans out to. Publishing never blocks: a subscriber that
// does not keep up loses events (and sees the gap in the ids).
type Events struct {
	mu   sync.Mutex
	next uint64
	ring []Event
	subs map[chan Event]struct{}
}

var eventsKey = session.NewKey[*Events]("serve: events")

// EventsOf returns the event stream of d's session, shared by every
// transport serving it.
func EventsOf(d *tools.Dispatcher) *Events {
	return session.Shared(d.Session, eventsKey, func() *Events { return &Events{subs: map[chan Event]struct{}{}} })
}

// Publish adds an event of type typ.
func (e *Events) Publish(typ string, data any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.next++
	ev := Event{ID: e.next, Type: typ, TimestampMs: time.Now().UnixMilli(), Data: data}
	if len(e.ring) == 2*eventReplay { // keep the last eventReplay, copying once per eventReplay events
		e.ring = append(e.ring[:0], e.ring[eventReplay:]...)
	}
	e.ring = append(e.ring, ev)
	for ch := range e.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

// Subscribe returns the events after id still in the replay buffer and a
// channel of the ones to come; cancel ends the subscription.
func (e *Events) Subscribe(after uint64) (missed []Event, ch chan Event, cancel func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ev := range e.ring[max(0, len(e.ring)-eventReplay):] {
		if ev.ID > after {
			missed = append(missed, ev)
		}
	}
	ch = make(chan Event, 256)
	e.subs[ch] = struct{}{}
	return missed, ch, func() {
		e.mu.Lock()
		delete(e.subs, ch)
		e.mu.Unlock()
	}
}

// callEvent summarises a finished call for the stream.
func callEvent(name, transport string, args json.RawMessage, res tools.Result, elapsed time.Duration) CallEvent {
	var a struct {
		AgentID string `json:"agent_id"`
	}
	json.Unmarshal(args, &a)
	text := res.Text()
	// A copy either way: the event outlives the answer's buffer
	// (tools.Result.Release).
	var sum string
	if len(text) > summaryBytes {
		sum = text[:summaryBytes] + "…"
	} else {
		sum = strings.Clone(text)
	}
	return CallEvent{Tool: name, AgentID: a.AgentID, Transport: transport, IsError: res.IsError, ElapsedMs: elapsed.Milliseconds(), Bytes: len(text), Summary: sum}
}

// Observe runs a tool call (run, given the progress reporter to use) and
// publishes its progress — at most every 100 ms, and its end — and its
// result summary. transport says where the call came from: "mcp" (stdio,
// attached clients, /mcp) or "rest".
func (e *Events) Observe(name, transport string, args json.RawMessage, progress tools.Progress, run func(tools.Progress) tools.Result) tools.Result {
	var mu sync.Mutex
	var last time.Time
	start := time.Now()
	res := run(func(done, total float64, msg string) {
		mu.Lock()
		now := time.Now()
		due := now.Sub(last) >= 100*time.Millisecond || done >= total
		if due {
			last = now
		}
		mu.Unlock()
		if due {
			e.Publish("progress", ProgressEvent{Tool: name, Done: done, Total: total, Message: msg})
		}
		if progress != nil {
			progress(done, total, msg)
		}
	})
	e.Publish("tool_call", callEvent(name, transport, args, res, time.Since(start)))
	return res
}

// LogEvents appends every event of d's session to the file at path, one
// JSON object per line (--event-log), until ctx ends.
func LogEvents(ctx context.Context, d *tools.Dispatcher, path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("--event-log %s: %v (a writable file path, e.g. /tmp/m1nd-events.jsonl)", path, err)
	}
	_, ch, cancel := EventsOf(d).Subscribe(math.MaxUint64)
	go func() {
		defer f.Close()
		defer cancel()
		enc := json.NewEncoder(f)
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-ch:
				if err := enc.Encode(ev); err != nil {
					d.Session.Logf("--event-log %s: %v; no more events are written there", path, err)
					return
				}
			}
		}
	}()
	return nil
}
