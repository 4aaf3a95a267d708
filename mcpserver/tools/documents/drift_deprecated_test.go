package documents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The marks that make a def deprecated, and those that do not: a
// warning inside an if (one parameter deprecated), a warning of another
// category, a note in another def.
func TestDeprecationMark(t *testing.T) {
	src := `import warnings
from typing_extensions import deprecated


@deprecated("use run_sync")
def run_in_thread(f):
    pass


def old_run(f):
    """Run f.

    .. deprecated:: 3.0
       Use run_sync instead.
    """
    return f()


def older_run(f):
    warnings.warn(
        "older_run is deprecated", DeprecationWarning, stacklevel=2)
    return f()


def decode(jwt, verify=None):
    """Decode."""
    if verify is not None:
        warnings.warn("verify is deprecated", DeprecationWarning)
    return jwt


def noisy(x):
    warnings.warn("slow", RuntimeWarning)
    return x


class Formatter:
    """Format.

    .. deprecated:: 21.3.0
       *processor* (singular) in favor of *processors*.
    """


class AsyncLogger:
    """Async.

    .. deprecated:: 23.1.0
       Use the regular Logger with its a-prefixed methods.

    Takes the same arguments as Logger.
    """


class Pool:
    def submit(self, f):
        """Submit.

        .. deprecated:: 2.0
        """
`
	tests := map[string]string{
		"run_in_thread": `@deprecated("use run_sync")`,
		"old_run":       ".. deprecated:: 3.0 Use run_sync instead. \"\"\"",
		"older_run":     `warnings.warn( "older_run is deprecated", DeprecationWarning, stacklevel=2)`,
		"decode":        "",
		"noisy":         "",
		"Pool":          "",
		"Formatter":     "",
		"AsyncLogger":   ".. deprecated:: 23.1.0 Use the regular Logger with its a-prefixed methods. Takes the same arguments as Logger. \"\"\"",
		"Pool.submit":   ".. deprecated:: 2.0 \"\"\"",
	}
	for qual, want := range tests {
		if got := deprecationMark(src, qual); got != want {
			t.Errorf("%s: mark %q, want %q", qual, got, want)
		}
	}
}

// Through the tool: a page handing out a deprecated function is a
// missing_target; a line saying it is deprecated, a function deprecated
// only for a parameter and an upgrading guide are left alone.
func TestDocumentDriftFindsDeprecatedNamesRecommended(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "",
		"src/kit/threads.py": "import warnings\n\n\ndef run_sync_in_worker_thread(f):\n    warnings.warn(\"use to_thread\", DeprecationWarning)\n    return f()\n\n\n" +
			"def to_thread(f):\n    return f()\n\n\ndef errors():\n    \"\"\"Errors.\n\n    .. deprecated:: 1.0\n    \"\"\"\n\n\ndef decode(x, verify=None):\n    if verify:\n        warnings.warn(\"verify\", DeprecationWarning)\n    return x\n",
		"docs/threads.rst":     "Threads\n=======\n\nRun blocking code with ``run_sync_in_worker_thread()``.\n\nDecode with ``decode()``; read ``errors`` of the result.\n",
		"docs/legacy.rst":      "Legacy\n======\n\n``run_sync_in_worker_thread()`` is deprecated; use ``to_thread()``.\n",
		"docs/threadlocal.rst": "Thread-local\n============\n\nThe ``kit.threads`` module is deprecated.\n\nRun it with ``run_sync_in_worker_thread()``.\n",
		"docs/upgrading.rst":   "Upgrading\n=========\n\nReplace ``run_sync_in_worker_thread()`` with ``to_thread()``.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"4 missing_target | the page gives run_sync_in_worker_thread, which the code marks deprecated (src/kit/threads.py: warnings.warn(\"use to_thread\", DeprecationWarning)): name its replacement"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
