package tools

import (
	"encoding/json"
	"slices"
	"testing"
)

// eachString sees every string of an answer, keys and escaped ones
// included, as the answer's reader would decode it.
func TestEachString(t *testing.T) {
	v := map[string]any{"a&b.go": []any{"x\"y", `c\d`, 3, "file::<p>.go", ""}, "n": map[string]any{"k": "é"}}
	data, _ := json.Marshal(v)
	var got []string
	eachString(data, func(b []byte) { got = append(got, string(b)) })
	want := []string{"a&b.go", "x\"y", `c\d`, "file::<p>.go", "", "n", "k", "é"}
	if !slices.Equal(got, want) {
		t.Fatalf("strings of %s:\n got %q\nwant %q", data, got, want)
	}
}
