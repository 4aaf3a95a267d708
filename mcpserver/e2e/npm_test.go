package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// npmClient returns e2e/npm, where the node clients and their packages
// live, once node and the package module are there. Locally a missing one
// skips the test; under CI (.ci/run installs them) it fails.
func npmClient(t *testing.T, module string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "npm")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(module)))
	if nodeErr != nil || modErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run the node client: node %v, %s %v (run npm ci in %s)", nodeErr, module, modErr, dir)
		}
		t.Skipf("node or %s missing (npm ci in %s)", module, dir)
	}
	return dir
}

// runNode runs a node script in dir and returns its stdout; a failure
// ends the test with its stdout and stderr.
func runNode(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node %v: %v\n%s\n%s", args, err, out, stderr)
	}
	return out
}
