package seek

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/stacktrace"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// TestFramesAgreeWithStacktrace feeds one paste per dialect to both
// ParseQuery and stacktrace.Parse: seek names the frames the trace
// parser reads — less those it leaves out on purpose (frames without a
// file, JavaScript runtime and node_modules frames) — in the same
// dialect, with depth 0 at the trace's innermost frame, and takes no line
// of a trace for a file mentioned in prose.
func TestFramesAgreeWithStacktrace(t *testing.T) {
	pastes := map[string]string{
		"python":  testcorpus.PythonTrace,
		"go":      testcorpus.GoTrace,
		"java":    testcorpus.JavaTrace,
		"js":      testcorpus.JSTrace,
		"csharp":  testcorpus.CSharpTrace,
		"rust":    rustTrace,
		"kotlin":  kotlinTrace,
		"go dump": goDump,
		"c":       "==1==ERROR: AddressSanitizer: heap-buffer-overflow\n    #0 0x4f1 in parse_string /src/cjson/cJSON.c:850:13\n    #1 0x4f2 in parse_value /src/cjson/cJSON.c:1396:16\n",
	}
	type place struct {
		Path string
		Line int
		Func string
	}
	for name, text := range pastes {
		t.Run(name, func(t *testing.T) {
			tr := stacktrace.Parse(text, stacktrace.Auto)
			lang := frameLangs[tr.Language]
			var want []place
			innermost := place{}
			for _, f := range tr.Frames {
				if f.File == "" || lang == "js" && f.External {
					continue
				}
				p := place{normPath(f.File), f.Line, funcName(f.Function)}
				if len(want) == 0 {
					innermost = p
				}
				if !slices.Contains(want, p) {
					want = append(want, p)
				}
			}
			var got []place
			for _, f := range ParseQuery(text).Frames {
				if f.Lang != lang {
					t.Errorf("frame %+v: lang %q, want %q", f, f.Lang, lang)
				}
				p := place{f.Path, f.Line, f.Func}
				if p == innermost && f.Depth != 0 {
					t.Errorf("innermost frame %+v: depth %d", f, f.Depth)
				}
				got = append(got, p)
			}
			less := func(a, b place) int {
				if a.Path != b.Path {
					return strings.Compare(a.Path, b.Path)
				}
				return a.Line - b.Line
			}
			slices.SortFunc(want, less)
			slices.SortFunc(got, less)
			if len(want) == 0 {
				t.Fatal("the paste has no frames")
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("seek's frames differ from stacktrace.Parse's (-parse +seek):\n%s", d)
			}
		})
	}
}

const rustTrace = `thread 'main' panicked at src/parser.rs:88:14:
called ` + "`Option::unwrap()`" + ` on a ` + "`None`" + ` value
stack backtrace:
   0: rust_begin_unwind
             at /rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/std/src/panicking.rs:645:5
   1: mycli::parser::Parser::expect_ident
             at ./src/parser.rs:88:14
   2: mycli::main
             at ./src/main.rs:12:5
`

const kotlinTrace = `com.acme.app.ConfigException: missing port
	at com.acme.app.ConfigKt.loadConfig(Config.kt:14)
	at com.acme.app.MainKt.main(Main.kt:6)
	at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	Suppressed: java.io.IOException: close failed
		at com.acme.app.Res.close(Res.kt:3)
`

const goDump = `panic: boom

goroutine 7 [running]:
github.com/acme/svc/server.(*Server).Start.func1()
	/src/svc/server/server.go:57 +0x45

goroutine 1 [chan receive]:
main.main()
	/src/svc/main.go:14 +0x8c
`

// A C or C++ frame says its language, as other dialects' frames do.
func TestNativeFramesSayTheirLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"    #0 0x4f1 in parse_string /src/cjson/cJSON.c:850:13\n":           "c",
		"#0  0x5555 in acme::Parser::next (this=0x0) at src/parser.cpp:42\n": "cpp",
	} {
		fs := ParseQuery(text).Frames
		if len(fs) == 0 || fs[0].Lang != want {
			t.Errorf("%q: frames %+v, want lang %q", text, fs, want)
		}
	}
}
