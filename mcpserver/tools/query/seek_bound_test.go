package query

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSeekWordSaladBounded: a 1 MB query of short random words on a
// session that has learned (the case that ran for minutes: the feedback
// comparison read the whole paste) answers with results and says what it
// read — the first 64 KB and of them the first seek.MaxQueryTerms distinct
// words.
func TestSeekWordSaladBounded(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "validate credentials", "feedback": "correct", "node_ids": []string{"file::backend/auth.py"}})
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	b.WriteString("validate user credentials ")
	for b.Len() < seekMaxQueryBytes-8 {
		for n := 2 + r.Intn(5); n > 0; n-- {
			b.WriteByte(byte('a' + r.Intn(26)))
		}
		b.WriteByte(' ')
	}
	out := tooltest.HeldWithin(t, "seek with a 1 MB word salad", func() tools.Result {
		return tooltest.HeldCall(d, "seek", map[string]any{"agent_id": "t", "query": b.String()}, nil)
	})
	if out.IsError {
		t.Fatalf("seek: %s", out.Text())
	}
	m := tooltest.HeldDecode(t, out)
	note, _ := m["query_note"].(string)
	if m["query_truncated"] != true || !strings.Contains(note, "64 KB") || !strings.Contains(note, "first 256 distinct words") || !strings.Contains(note, "more were left out") {
		t.Errorf("no bound reported: truncated %v, note %q", m["query_truncated"], note)
	}
	if seek.MaxQueryTerms != 256 {
		t.Errorf("the note's figure is out of date: MaxQueryTerms %d", seek.MaxQueryTerms)
	}
	if res, _ := m["results"].([]any); len(res) == 0 {
		t.Errorf("no results for a salad that starts with the fixture's words: %v", m)
	}
	// An ordinary query carries no note.
	plain := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "validate user credentials"})
	if _, ok := plain["query_note"]; ok || plain["query_truncated"] != nil {
		t.Errorf("plain query noted: %v", plain["query_note"])
	}
}
