package code

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// TestPythonOwnPackageImport: "from . import x" and "from pkg import x"
// inside pkg name a package whose __init__.py is already running when
// the importer runs, so a submodule x links x.py only; a name defined in
// __init__.py links it, and another package's __init__.py (which Python
// does run) stays linked. On python-attrs/attrs every submodule's
// "from . import setters" linked attr/__init__.py as well: a 7-file
// import cycle where Python has 2.
func TestPythonOwnPackageImport(t *testing.T) {
	d := ingestFiles(t, t.TempDir(), map[string]string{
		"pkg/__init__.py":     "from . import a, b\nfrom .sub import helper\n\ndef version():\n    return 1\n",
		"pkg/a.py":            "from . import b\n\ndef fa():\n    return b.fb()\n",
		"pkg/b.py":            "from pkg import c\n\ndef fb():\n    return c.fc()\n",
		"pkg/c.py":            "from . import version\n\ndef fc():\n    return version()\n",
		"pkg/sub/__init__.py": "from .. import c\n\ndef helper():\n    return c.fc()\n",
		"pkg/sub/d.py":        "from pkg import a\nfrom pkg.sub import helper\n",
		"pkg/e.py":            "import pkg\n\ndef fe():\n    return pkg.__version__\n",
		"other/__init__.py":   "",
		"other/e.py":          "from pkg import a\nfrom pkg.sub import helper\n",
	})
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"pkg/a.py", "pkg/b.py", true},
		{"pkg/a.py", "pkg/__init__.py", false}, // from . import b: own package
		{"pkg/b.py", "pkg/c.py", true},
		{"pkg/b.py", "pkg/__init__.py", false}, // from pkg import c in pkg
		{"pkg/c.py", "pkg/__init__.py", true},  // version is defined there
		{"pkg/sub/__init__.py", "pkg/c.py", true},
		{"pkg/sub/__init__.py", "pkg/__init__.py", false}, // an ancestor
		{"pkg/sub/d.py", "pkg/a.py", true},
		{"pkg/sub/d.py", "pkg/__init__.py", false},
		{"pkg/sub/d.py", "pkg/sub/__init__.py", true}, // helper is defined there
		{"pkg/e.py", "pkg/__init__.py", true},         // import pkg; pkg.__version__: a name of __init__.py
		{"other/e.py", "pkg/a.py", true},
		{"other/e.py", "pkg/__init__.py", true}, // another package: Python runs it
	} {
		if got := importsFile(d, c.from, c.to); got != c.want {
			t.Errorf("%s -imports-> %s: %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// importsFile reports whether file from has an imports edge to file to or
// to a symbol inside it.
func importsFile(d graphdump.Dump, from, to string) bool {
	src, dst := "file::"+from, "file::"+to
	for _, e := range d.Edges {
		if e.Source == src && e.Relation == "imports" && (e.Target == dst || strings.HasPrefix(e.Target, dst+"::")) {
			return true
		}
	}
	return false
}
