package testcorpus

import (
	"os"
	"testing"
)

// OptIn returns the value of the environment variable env, or skips tb
// with "set env to what" when it is empty: the measurements on real
// trees that run only by hand start with it.
func OptIn(tb testing.TB, env, what string) string {
	tb.Helper()
	v := os.Getenv(env)
	if v == "" {
		tb.Skipf("set %s to %s", env, what)
	}
	return v
}
