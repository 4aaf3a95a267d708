// Package slug makes the URL-style identifiers ingest gives notes and
// document sections.
package slug

import "strings"

// Make lower-cases s and turns every run of other characters than a–z and
// 0–9 into one dash (at most 64 bytes); fallback when nothing is left.
func Make(s, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 64 {
			break
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if out == "" {
		return fallback
	}
	return out
}
