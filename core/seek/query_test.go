package seek

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/testcorpus"
)

func TestParseQueryFrames(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Frame
	}{
		{"python", testcorpus.PythonTrace, []Frame{
			{Path: "/srv/app/web/views.py", Line: 88, Func: "post", Lang: "python", Depth: 2},
			{Path: "/srv/app/backend/auth.py", Line: 18, Func: "login", Lang: "python", Depth: 1},
			{Path: "/srv/app/backend/auth.py", Line: 14, Func: "validate_credentials", Lang: "python", Depth: 0},
		}},
		{"go", testcorpus.GoTrace, []Frame{
			{Path: "/home/ci/app/web/server.go", Line: 18, Func: "parseHeaderToken", Lang: "go", Depth: 0},
			{Path: "/home/ci/app/web/router.go", Line: 8, Func: "ServeHTTP", Lang: "go", Depth: 1},
			{Path: "/home/ci/app/web/start.go", Line: 12, Func: "Start", Lang: "go", Depth: 2},
		}},
		{"java", testcorpus.JavaTrace, []Frame{
			{Path: "com/acme/auth/SessionStore.java", Line: 42, Func: "lookup", Lang: "java", Depth: 0},
			{Path: "com/acme/auth/AuthService.java", Line: 17, Func: "login", Lang: "java", Depth: 1},
			{Path: "java/lang/Thread.java", Line: 833, Func: "run", Lang: "java", Depth: 2},
		}},
		{"js", testcorpus.JSTrace, []Frame{
			{Path: "/srv/app/src/session.js", Line: 11, Func: "create", Lang: "js", Depth: 0},
			{Path: "/srv/app/src/server.ts", Line: 40, Func: "handleLogin", Lang: "js", Depth: 1},
			{Path: "/srv/app/src/index.js", Line: 3, Lang: "js", Depth: 2},
		}},
		{"csharp", testcorpus.CSharpTrace, []Frame{
			{Path: "C:/src/Acme/Auth.cs", Line: 42, Func: "Validate", Lang: "csharp"},
		}},
		{"prose mentions", "The bug is in backend/auth.py:14 and maybe ./web/server.go, not in os.path or e.g. foo.", []Frame{
			{Path: "backend/auth.py", Line: 14, Lang: "path"},
			{Path: "web/server.go", Lang: "path"},
		}},
		// The panic's location is a frame of a Rust trace, not a file
		// mentioned in prose.
		{"rust panic", "thread 'main' panicked at src/parser.rs:120:9:\nattempt to subtract with overflow", []Frame{
			{Path: "src/parser.rs", Line: 120, Lang: "rust"},
		}},
		{"no frames", "code that validates user credentials", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := ParseQuery(tt.in)
			if d := cmp.Diff(tt.want, q.Frames); d != "" {
				t.Errorf("frames (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseQueryTermsAndSymbols(t *testing.T) {
	q := ParseQuery(testcorpus.PythonTrace)
	terms := map[string]QueryTerm{}
	for _, qt := range q.Terms {
		if _, dup := terms[qt.Term]; dup {
			t.Errorf("term %q listed twice", qt.Term)
		}
		terms[qt.Term] = qt
	}
	// Frame function and file names are boosted; trace boilerplate and
	// bug-report noise are gone.
	for _, w := range []string{"validatecredentials", "auth", "login"} {
		if terms[w].Boost != frameBoost {
			t.Errorf("term %q: boost %v, want %v (terms %v)", w, terms[w].Boost, frameBoost, q.Terms)
		}
	}
	for _, w := range []string{"traceback", "srv", "fail", "recent"} {
		if _, ok := terms[w]; ok {
			t.Errorf("noise term %q kept", w)
		}
	}
	if terms["unicod"].Count != 2 || terms["unicod"].Boost != 1 {
		t.Errorf("unicod = %+v, want count 2 boost 1", terms["unicod"])
	}
	wantSyms := []string{"post", "login", "validatecredentials", "hashpassword", "unicodeencodeerror"}
	if d := cmp.Diff(wantSyms, q.Symbols); d != "" {
		t.Errorf("symbols (-want +got):\n%s", d)
	}

	q = ParseQuery("where does parseHeaderToken() read os.path.join or the user_id?")
	if d := cmp.Diff([]string{"parseheadertoken", "userid"}, q.Symbols); d != "" {
		t.Errorf("prose symbols (-want +got):\n%s", d)
	}
}

func TestParseQueryBounds(t *testing.T) {
	// A huge paste is cut at MaxQueryBytes on a rune boundary and keeps
	// at most maxFrames frames.
	var b strings.Builder
	for i := 0; b.Len() < 3*MaxQueryBytes; i++ {
		b.WriteString("  File \"/srv/app/mod")
		b.WriteString(strings.Repeat("é", i%7))
		b.WriteString(".py\", line 1, in f\n")
	}
	q := ParseQuery(b.String())
	if len(q.Text) > MaxQueryBytes || !utf8.ValidString(q.Text) {
		t.Errorf("text not cut: %d bytes, valid UTF-8 %v", len(q.Text), utf8.ValidString(q.Text))
	}
	if len(q.Frames) > maxFrames || len(q.Frames) == 0 {
		t.Errorf("%d frames, want 1..%d", len(q.Frames), maxFrames)
	}
}

// FuzzParseQuery checks that any text parses without panicking into a
// bounded, well-formed query.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{testcorpus.PythonTrace, testcorpus.GoTrace, testcorpus.JavaTrace, testcorpus.JSTrace, testcorpus.CSharpTrace, "", "a.py:1", "at (x.js:1:1)", "File \"\", line 99999999999, in <module>", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := ParseQuery(s)
		if len(q.Text) > MaxQueryBytes {
			t.Fatalf("text %d bytes", len(q.Text))
		}
		if len(q.Frames) > maxFrames || len(q.Symbols) > maxSymbols {
			t.Fatalf("%d frames, %d symbols", len(q.Frames), len(q.Symbols))
		}
		for _, fr := range q.Frames {
			if fr.Path == "" || fr.Line < 0 || fr.Depth < 0 || fr.Lang == "" {
				t.Fatalf("bad frame %+v", fr)
			}
		}
		seen := map[string]bool{}
		for _, qt := range q.Terms {
			if qt.Term == "" || qt.Count < 1 || qt.Boost < 1 || seen[qt.Term] {
				t.Fatalf("bad term %+v", qt)
			}
			seen[qt.Term] = true
		}
	})
}

func TestParseQueryComponents(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"net/http: Transport leaks idle connections", []string{"net/http"}},
		{"core/xlr, core/seed: dedupe pulses", []string{"core/xlr", "core/seed"}},
		{"fix(auth): reject empty passwords", []string{"auth"}},
		{"feat(api/v2)!: drop the legacy route", []string{"api/v2"}},
		{"[session] tokens never expire", []string{"session"}},
		{"snapshot: plasticity file carries state\n\nbody: not a title", []string{"snapshot"}},
		{"panic: runtime error: index out of range", nil},
		{"TypeError: Cannot read properties of undefined", nil},
		{"java.lang.NullPointerException: token", nil},
		{"fix: reject empty passwords", nil},
		{"see https://example.com: it breaks", nil},
		{"code that validates user credentials", nil},
	}
	for _, tt := range tests {
		if got := ParseQuery(tt.in).Components; !cmp.Equal(got, tt.want) {
			t.Errorf("components of %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}
