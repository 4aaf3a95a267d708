package tooltest

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// UpdateGolden is the one -update flag of every package whose tests
// import tooltest: it rewrites every golden file those tests compare with.
var UpdateGolden = flag.Bool("update", false, "rewrite every golden file this package's tests compare with")

// volatile keys vary between runs (timings, wall-clock times, memory).
var volatile = map[string]bool{
	"elapsed_ms": true, "uptime_seconds": true, "memory": true, "memory_usage_bytes": true,
	"first_seen": true, "last_active": true, "ingested_at": true, "taken": true,
	"last_persist_time": true, "phase_ms": true, "timings": true, "build_ms": true,
}

// stable removes volatile fields and replaces the fixture's temporary
// path, so responses compare across runs and machines.
func Stable(v any, root string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if volatile[k] {
				continue
			}
			out[k] = Stable(val, root)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = Stable(val, root)
		}
		return out
	case string:
		return strings.ReplaceAll(x, root, "$FIXTURE")
	}
	return v
}

// CheckGolden compares a tool's answer, made Stable, with the golden file
// name in tooltest's testdata/golden (see CheckGoldenFile).
func CheckGolden(t *testing.T, name string, got map[string]any, root string) {
	t.Helper()
	CheckGoldenFile(t, filepath.Join(goldenDir(), name+".json"), Stable(got, root))
}

// CheckGoldenFile compares got, marshalled as indented JSON, with the
// golden file at path (as JSON values: key order and spacing do not
// count); with -update it rewrites the file instead.
func CheckGoldenFile(t testing.TB, path string, got any) {
	t.Helper()
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if *UpdateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden (run go test with -update): %v", err)
	}
	var want, norm any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := json.Unmarshal(b, &norm); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, norm); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// goldenDir is the one directory of golden answers, beside this file, so
// that every package's tests read and -update the same copy.
func goldenDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "golden")
}
