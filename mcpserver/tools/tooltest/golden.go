package tooltest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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

func CheckGolden(t *testing.T, name string, got map[string]any, root string) {
	t.Helper()
	norm := Stable(got, root)
	path := filepath.Join(goldenDir(), name+".json")
	if *UpdateGolden {
		os.MkdirAll(filepath.Dir(path), 0o755)
		b, _ := json.MarshalIndent(norm, "", "  ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update)", err)
	}
	var want any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, norm); diff != "" {
		t.Errorf("%s differs from %s (-want +got):\n%s", name, path, diff)
	}
}

// goldenDir is the one directory of golden answers, beside this file, so
// that every package's tests read and -update the same copy.
func goldenDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "golden")
}
