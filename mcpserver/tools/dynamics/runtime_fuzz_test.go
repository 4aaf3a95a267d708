package dynamics

import (
	"encoding/json"
	"testing"
)

// parseSpans reads outside input: whatever JSON objects arrive, it
// returns spans or an error, never panics, and never a negative duration.
func FuzzParseSpans(f *testing.F) {
	f.Add(`[{"name":"a","startTimeUnixNano":"10","endTimeUnixNano":"25","status":{"code":2}}]`, "")
	f.Add(`[{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"s"}}]},"scopeSpans":[{"spans":[{"name":"b","attributes":[{"key":"n","value":{"intValue":3}}]}]}]}]}]`, "s")
	f.Add(`[{"scopeSpans":[{"spans":[{"name":"c","endTimeUnixNano":1e30,"status":{"code":"STATUS_CODE_ERROR"}}]}]}]`, "x")
	f.Fuzz(func(t *testing.T, data, service string) {
		var items []map[string]any
		if json.Unmarshal([]byte(data), &items) != nil {
			return
		}
		spans, _, err := parseSpans(items, service)
		if err != nil {
			return
		}
		for _, s := range spans {
			if s.DurationNs < 0 {
				t.Fatalf("negative duration: %+v", s)
			}
		}
	})
}
