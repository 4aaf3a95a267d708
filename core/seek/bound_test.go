package seek

import (
	"strings"
	"testing"
)

// wordSalad is n distinct short words ("wa", "wb", … in base 26).
func wordSalad(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("zq")
		for x := i; ; x /= 26 {
			b.WriteByte(byte('a' + x%26))
			if x < 26 {
				break
			}
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// TestQueryTermsBounded: a paste of thousands of distinct words keeps its
// first MaxQueryTerms and counts the rest; the terms of a stack trace
// pasted after such prose are all kept.
func TestQueryTermsBounded(t *testing.T) {
	q := ParseQuery(wordSalad(5000))
	// (Stemming folds a few of the words together: "zqas" is "zqa".)
	if len(q.Terms) != MaxQueryTerms || q.TermsDropped < 3000 || q.Truncated {
		t.Fatalf("salad of 5000 words: %d terms, %d dropped, truncated %v; want %d, thousands, false", len(q.Terms), q.TermsDropped, q.Truncated, MaxQueryTerms)
	}
	trace := "\nTraceback (most recent call last):\n  File \"/srv/app/auth_handler.py\", line 42, in validate_credentials\n    raise PermissionError\nPermissionError\n"
	q = ParseQuery(wordSalad(1000) + trace)
	have := map[string]bool{}
	for _, term := range q.Terms {
		have[term.Term] = true
	}
	for _, want := range []string{"auth", "handler", "validat", "credential", "validatecredentials"} {
		if !have[want] {
			t.Errorf("frame term %q lost behind the prose (frames %v)", want, q.Frames)
		}
	}
	if len(q.Frames) != 1 {
		t.Errorf("frames: %v", q.Frames)
	}
	// A megabyte is cut at MaxQueryBytes first.
	big := ParseQuery(strings.Repeat(wordSalad(300), 200))
	if !big.Truncated || len(big.Text) > MaxQueryBytes || len(big.Terms) != MaxQueryTerms {
		t.Errorf("1 MB: truncated %v, %d bytes read, %d terms", big.Truncated, len(big.Text), len(big.Terms))
	}
	// An ordinary query is untouched.
	small := ParseQuery("code that validates user credentials")
	if small.Truncated || small.TermsDropped != 0 {
		t.Errorf("small query marked: %+v", small)
	}
}
