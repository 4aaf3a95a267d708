package tools

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

type probeIn struct {
	Fail bool `json:"fail"`
}

type probeOut struct {
	NodeID string   `json:"node_id"`
	Files  []string `json:"file_path"`
}

// Every dispatched call is logged once, in order, with the JSON sizes the
// transports send and the files its answer named; failures too.
func TestDispatchLogsCalls(t *testing.T) {
	s := openMemory(t)
	defer s.Close()
	r := NewRegistry()
	Add(r, Tool{Name: "probe", Title: "probe", Description: "test", Class: Read, Example: map[string]any{"agent_id": "t"}},
		func(c *Call, in probeIn) (probeOut, error) {
			if in.Fail {
				return probeOut{}, errors.New("asked to fail")
			}
			return probeOut{NodeID: "file::a/b.py::C::m", Files: []string{"a/b.py", "c.go", "package::go::x"}}, nil
		})
	d := &Dispatcher{Registry: r, Session: s}
	args := []string{`{"agent_id":"one"}`, `{"agent_id":"two","fail":true}`, `{"agent_id":"one"}`}
	var texts []string
	for _, a := range args {
		texts = append(texts, d.Call(context.Background(), "probe", json.RawMessage(a), nil).Text())
	}
	recs := Calls(s).Records("")
	if len(recs) != 3 || Calls(s).Total() != 3 {
		t.Fatalf("records %+v", recs)
	}
	for i, rec := range recs {
		if rec.Seq != i+1 || rec.Tool != "probe" || rec.ArgBytes != len(args[i]) || rec.AnswerBytes != len(texts[i]) {
			t.Errorf("record %d: %+v (answer %d bytes)", i, rec, len(texts[i]))
		}
	}
	if want := []string{"a/b.py", "c.go"}; !slices.Equal(recs[0].Files, want) || recs[0].IsError {
		t.Errorf("files %v, want %v", recs[0].Files, want)
	}
	if !recs[1].IsError || recs[1].Agent != "two" || recs[1].Files != nil {
		t.Errorf("failed call: %+v", recs[1])
	}
	if got := Calls(s).Records("one"); len(got) != 2 || got[1].Seq != 3 {
		t.Errorf("agent one: %+v", got)
	}
}
