package query

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestMessagePhrases(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg  string
		want []string
	}{
		{"<anonymous struct>.B: duplicate flag --x", []string{"duplicate flag"}},
		{"pool exhausted", []string{"pool exhausted"}},
		{"unknown field 'colour' in section [server], did you mean colors?",
			[]string{"you mean colors?", "unknown field", "did you mean"}},
		{"invalid value: 42", []string{"invalid value:"}},
		{"can't open /etc/app.conf: permission denied", []string{"permission denied"}},
		{"http: superfluous response.WriteHeader call from main.handler (main.go:12)",
			[]string{"superfluous response.WriteHeader", "response.WriteHeader call", "call from main.handler"}},
		{`failed to open "cfg.toml": EOF`, []string{"failed to open"}},
		{"1 2 3", nil},
		{"file not found, dir not found, file not found", []string{"file not found,", "dir not found,", "file not found"}},
		{"EOF", nil},
	} {
		if got := messagePhrases(tc.msg); !cmp.Equal(got, tc.want) {
			t.Errorf("messagePhrases(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

func TestFormatFit(t *testing.T) {
	t.Parallel()
	msg := "<anonymous struct>.B: duplicate flag --x"
	for _, tc := range []struct {
		line string
		want int
	}{
		{`return failField(v, ft, "duplicate flag --%s", value.Name)`, 17},
		{`return failField(v, ft, "duplicate flag %s", aliasFlag)`, 15},
		{`raise Error(f"duplicate flag --{name}")`, 17},
		{`assert.EqualError(t, err, "<anonymous struct>.Flag2: duplicate flag --flag")`, 0},
		{`fmt.Errorf("%(name)s: duplicate flag --%s", n)`, 19},
		{`"duplicate flag --" + name`, 17},
		{`errors.New("B: duplicate flag --x " + n)`, 21},           // printed without its trailing space
		{`fmt.Errorf("\"path\" type: duplicate flag --%s", n)`, 0}, // escaped quotes are the literal's
		{`fmt.Errorf("\"<anonymous struct>.B\": duplicate flag --%s", n)`, 0},
		{`raise ArgumentError, "#{owner}: duplicate flag --#{name}"`, 19},      // Ruby interpolation
		{`throw new \LogicException("$owner: duplicate flag --{$name}");`, 19}, // PHP interpolation
	} {
		if got := formatFit(tc.line, "duplicate flag", msg); got != tc.want {
			t.Errorf("formatFit(%s) = %d, want %d", tc.line, got, tc.want)
		}
	}
	if formatFit(`// duplicate flag names are refused`, "duplicate flag", msg) != 0 {
		t.Error("a comment is not where a message is made")
	}
	for line, want := range map[string]bool{
		` *       message: 'Invalid input: expected string'`: true, // zod's JSDoc example output
		`# raise ValueError("duplicate flag")`:               true,
		`return fmt.Errorf("duplicate flag --%s", n)`:        false,
	} {
		if commentLine(line) != want {
			t.Errorf("commentLine(%q) = %v, want %v", line, !want, want)
		}
	}
}

// A Go error returned far from the frame that panics with it
// (alecthomas/kong's Must): the trace names the place that made the
// message, the literal that spells more of it first.
func TestTraceRaisedAt(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"go.mod":  "module example.com/kong\n\ngo 1.22\n",
		"kong.go": "package kong\n\n// Must panics on a bad model.\nfunc Must(m any) {\n\tif err := build(m); err != nil {\n\t\tpanic(err)\n\t}\n}\n",
		"build.go": "package kong\n\nimport \"fmt\"\n\nfunc build(m any) error {\n\tif m == nil {\n\t\treturn fmt.Errorf(\"duplicate flag %s\", \"?\")\n\t}\n" +
			"\treturn checkFlags(m)\n}\n\n// checkFlags refuses a flag named twice.\nfunc checkFlags(m any) error {\n\treturn fmt.Errorf(\"%v: duplicate flag --%s\", m, \"x\")\n}\n",
		"kong_test.go": "package kong\n\nimport \"testing\"\n\nfunc TestDup(t *testing.T) {\n\tif build(1).Error() != \"1: duplicate flag --x\" {\n\t\tt.Fail()\n\t}\n}\n",
	})
	text := "panic: <anonymous struct>.B: duplicate flag --x\n\ngoroutine 1 [running]:\nexample.com/kong.Must(...)\n\t/src/kong/kong.go:6 +0x1d\n"
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": text})
	var got []string
	for _, o := range out["raised_at"].([]any) {
		m := o.(map[string]any)
		got = append(got, m["node_id"].(string))
	}
	// The test spells one error of its own: no format of it fits.
	want := []string{"file::build.go::checkFlags", "file::build.go::build"}
	if !cmp.Equal(got, want) {
		t.Errorf("raised_at = %q, want %q", got, want)
	}
	if fs := out["fix_scope"].(map[string]any)["files_to_inspect"].([]any); len(fs) == 0 || fs[0] != "build.go" {
		t.Errorf("files_to_inspect = %v, want build.go first", fs)
	}

	// The message alone, without a stack: the teaching error says where
	// it is made.
	res, isErr := tooltest.Call(t, d, "trace", map[string]any{"agent_id": "t", "error_text": "Error: duplicate flag --x"})
	if !isErr {
		t.Fatalf("a text without frames is refused: %v", res)
	}
	if step, _ := res["suggested_next_step"].(string); !strings.Contains(step, "build.go line 14 (build.go::checkFlags)") {
		t.Errorf("suggested_next_step = %q, want the place the message is made", step)
	}
}

// uvicorn's three protocol modules log the same "Exception in ASGI
// application"; the trace passes through one of them: that one made the
// line, whichever file is more central.
func TestTraceRaisedAtOnTheStackFirst(t *testing.T) {
	t.Parallel()
	logs := func(cls string) string {
		return "import logging\n\nlogger = logging.getLogger()\n\n\nclass " + cls + ":\n    async def run_asgi(self, app):\n        try:\n            await app()\n" +
			"        except BaseException as exc:\n            msg = \"Exception in ASGI application\\n\"\n            logger.error(msg, exc_info=exc)\n"
	}
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"pkg/__init__.py": "",
		"pkg/a_ws.py":     logs("WebSocketProtocol"),
		"pkg/b_tools.py":  logs("HttpToolsProtocol"),
		"pkg/h11.py":      logs("H11Protocol"),
		"pkg/main.py":     "from pkg.a_ws import WebSocketProtocol\nfrom pkg.b_tools import HttpToolsProtocol\nfrom pkg.h11 import H11Protocol\n",
	})
	text := "ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n" +
		"  File \"/venv/lib/python3.12/site-packages/pkg/h11.py\", line 9, in run_asgi\n    await app()\n" +
		"  File \"/home/app/main.py\", line 3, in homepage\n    raise ValueError(\"boom\")\nValueError: boom\n"
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": text})
	ra, _ := out["raised_at"].([]any)
	if len(ra) == 0 {
		t.Fatalf("no raised_at: %v", out)
	}
	if got := ra[0].(map[string]any)["node_id"]; got != "file::pkg/h11.py::H11Protocol::run_asgi" {
		t.Errorf("raised_at[0] = %v, want the run_asgi on the stack", got)
	}
}
