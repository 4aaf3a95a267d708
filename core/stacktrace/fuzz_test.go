package stacktrace

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse: no input makes Parse or ParseAll panic, and every answer
// keeps its invariants: frames capped and never nil, lines and columns
// non-negative, every frame's exception an index of the chain and its
// TextLine a line of the text; ParseAll keeps only readings with frames.
func FuzzParse(f *testing.F) {
	for _, group := range allCases {
		for _, tc := range group {
			f.Add(tc.text, string(tc.want))
		}
	}
	f.Add("thread 'main' panicked at :1:1:\n", "rust")
	f.Add("goroutine 1 [running]:\n(\n\t.go:9\ncreated by \n\t/x.go:1 +0x1", "auto")
	f.Add("\tat a(b:)\nCaused by: \n\tat ...(:-1)", "java")
	f.Add("    at  (file://:1:)\n@:1\n  | File \"\", line 0", "")
	f.Add(" ---> X.YException: \n   at <>c.<>b__0() in :line 1\n   --- End of inner exception stack trace ---\n   at ..ctor(a b)", "cs")
	f.Add("main.f()\n\t.go:1\n\tx.go:2 +0x1", "go")
	f.Fuzz(func(t *testing.T, text, lang string) {
		l, err := ParseLanguage(lang)
		if err != nil {
			l = Auto
		}
		check(t, text, Parse(text, l))
		for _, tr := range ParseAll(text) {
			if len(tr.Frames) == 0 {
				t.Fatalf("ParseAll kept a %s reading without frames", tr.Language)
			}
			check(t, text, tr)
		}
	})
}

// check asserts the invariants of one reading.
func check(t *testing.T, text string, tr Trace) {
	t.Helper()
	lines := strings.Count(text, "\n") + 1
	if tr.Frames == nil || len(tr.Frames) > MaxFrames {
		t.Fatalf("frames %v", tr.Frames)
	}
	for _, fr := range tr.Frames {
		if fr.Line < 0 || fr.Column < 0 {
			t.Fatalf("negative position %+v", fr)
		}
		if fr.Exception < 0 || fr.Exception >= max(1, len(tr.Chain)) {
			t.Fatalf("exception %d of %d", fr.Exception, len(tr.Chain))
		}
		if len(fr.Raw) > maxRawBytes || (utf8.ValidString(text) && !utf8.ValidString(fr.Raw)) {
			t.Fatalf("raw %q", fr.Raw)
		}
		if fr.TextLine < 0 || fr.TextLine >= lines {
			t.Fatalf("text line %d of %d", fr.TextLine, lines)
		}
	}
	if tr.Error.Type == "" && len(tr.Chain) > 0 {
		t.Fatalf("chain without error: %+v", tr.Chain)
	}
}
