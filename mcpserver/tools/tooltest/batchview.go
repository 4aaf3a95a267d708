package tooltest

import "testing"

// batchFiles returns the files of a batch_view answer.
func BatchFiles(t *testing.T, out map[string]any) []map[string]any {
	t.Helper()
	raw, _ := out["files"].([]any)
	var fs []map[string]any
	for _, f := range raw {
		fs = append(fs, f.(map[string]any))
	}
	return fs
}
