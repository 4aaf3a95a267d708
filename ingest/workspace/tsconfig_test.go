package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStripJSONC(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": 1, // one
"b": [1, 2,], /* two */ }`, "{\"a\": 1, \n\"b\": [1, 2]}"},
		{`{"url": "https://x.dev/*not*/", "q": "say \"//\""}`, `{"url": "https://x.dev/*not*/", "q": "say \"//\""}`},
		{`{"a": "unterminated`, `{"a": "unterminated`},
		{`/* only */`, ` `},
		{"[1 // end", "[1 "},
	} {
		if got := string(stripJSONC([]byte(c.in))); got != c.want {
			t.Errorf("stripJSONC(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzStripJSONC: JSON that is already valid reads the same after the
// strip (it only removes what JSON does not allow), and nothing panics.
func FuzzStripJSONC(f *testing.F) {
	for _, s := range []string{`{"a":[1,2]}`, `{"s":"//x/*y*/"}`, `{"a":{},}`, `// c`, `"\\"`, `["\"", ","]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := stripJSONC(data)
		var a, b any
		if json.Unmarshal(data, &a) != nil {
			return // not JSON, or a number no float64 holds (1E700)
		}
		if err := json.Unmarshal(out, &b); err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("valid JSON %q read differently after the strip: %q (%v)", data, out, err)
		}
	})
}

// TestTSConfigs: the configs Detect reads and what TSAlias makes of a
// module name — extends followed, baseUrl relative to the file setting
// it, "paths" targets relative to the effective baseUrl, a config without
// aliases left out, an unreadable one reported.
func TestTSConfigs(t *testing.T) {
	dir := t.TempDir()
	for p, c := range map[string]string{
		"configs/base.json":      `{"compilerOptions": {"baseUrl": "../src", "paths": {"#db": ["server/db/index"]}}}`,
		"web/tsconfig.json":      `{"extends": ["../configs/base"], "compilerOptions": {"strict": true}}`,
		"tools/tsconfig.json":    `{"compilerOptions": {"strict": true}}`,
		"broken/jsconfig.json":   `{"compilerOptions": `,
		"mobile/jsconfig.json":   `{"compilerOptions": {"paths": {"~/*": ["./src/*", "./gen/*"]}}}`,
		"web/sub/ignored.tsx":    ``,
		"mobile/src/app/main.js": ``,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	in := Detect(dir, []string{"broken/jsconfig.json", "mobile/jsconfig.json", "tools/tsconfig.json", "web/tsconfig.json"})
	if d := cmp.Diff([]string{"broken/jsconfig.json: not a JSON object (comments and trailing commas allowed)"}, in.Problems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
	for _, c := range []struct {
		from, mod string
		base      bool
		want      []string
	}{
		{"web/sub", "#db", true, []string{"src/server/db/index", "src/#db"}},
		{"web", "react", false, nil},
		{"web", "utils/date", true, []string{"src/utils/date"}},
		{"mobile/src/app", "~/app/main", false, []string{"mobile/src/app/main", "mobile/gen/app/main"}},
		{"tools", "~/x", true, nil},
		{"elsewhere", "#db", true, nil},
	} {
		if d := cmp.Diff(c.want, in.TSAlias(c.from, c.mod, c.base)); d != "" {
			t.Errorf("TSAlias(%q, %q, %v) (-want +got):\n%s", c.from, c.mod, c.base, d)
		}
	}
}
