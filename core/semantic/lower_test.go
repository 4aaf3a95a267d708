package semantic

import (
	"strings"
	"testing"
	"unicode"
)

var lowerCases = []string{"", "abc", "ABC", "aBc_Def.go", "Session-Pool", "ÄÖÜ", "İstanbul", "ΣΑΣ", "\xff\xfeA", "x\u212a"}

// appendLower and AppendCompact must give what strings.ToLower and the
// rune-by-rune Compact gave: the seed finder and the n-gram index key on
// them.
func TestAppendLowerAndCompact(t *testing.T) {
	for _, s := range lowerCases {
		if got := string(appendLower([]byte("pre"), s)); got != "pre"+strings.ToLower(s) {
			t.Errorf("appendLower(%q) = %q, want %q", s, got[3:], strings.ToLower(s))
		}
		if got, want := Compact(s), compactRunes(s); got != want {
			t.Errorf("Compact(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzAppendLower(f *testing.F) {
	for _, s := range lowerCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := string(appendLower(nil, s)); got != strings.ToLower(s) {
			t.Fatalf("appendLower(%q) = %q, want %q", s, got, strings.ToLower(s))
		}
		if got, want := Compact(s), compactRunes(s); got != want {
			t.Fatalf("Compact(%q) = %q, want %q", s, got, want)
		}
	})
}

// compactRunes is Compact as it was written first, for the comparison.
func compactRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
