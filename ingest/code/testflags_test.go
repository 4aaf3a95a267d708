package code

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestImportLinksSkipFlags: a Python test no name pairs is linked to what
// it imports, except a module whose names it reads only as flags (attrs'
// tests import PY_3_13_PLUS from _compat.py for their skips); without a
// reader, or when the test cannot be read, every import links.
func TestImportLinksSkipFlags(t *testing.T) {
	files := []fileFacts{
		{path: "src/attr/__init__.py"},
		{path: "src/attr/_compat.py"},
		{path: "src/attr/_make.py"},
		{path: "tests/test_functional.py", lang: "python", imports: []string{"src/attr/__init__.py", "src/attr/_compat.py"}},
		{path: "tests/test_converters.py", lang: "python", imports: []string{"src/attr/_compat.py", "src/attr/_make.py"}},
	}
	src := map[string]string{
		"tests/test_functional.py": "import attr\nfrom attr._compat import PY_3_13_PLUS\n\n@pytest.mark.skipif(not PY_3_13_PLUS, reason='3.13')\ndef test_x():\n    attr.define(C)\n",
		"tests/test_converters.py": "from attr._compat import _AnnotationExtractor\nfrom attr._make import Factory\n\ndef test_y():\n    _AnnotationExtractor(f)\n    Factory(list)\n",
	}
	read := func(p string) ([]byte, error) {
		if s, ok := src[p]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	all := []derivedEdge{
		{"file::tests/test_converters.py", "file::src/attr/_compat.py", RelTests},
		{"file::tests/test_converters.py", "file::src/attr/_make.py", RelTests},
		{"file::tests/test_functional.py", "file::src/attr/__init__.py", RelTests},
		{"file::tests/test_functional.py", "file::src/attr/_compat.py", RelTests},
	}
	sorted := cmpopts.SortSlices(func(a, b derivedEdge) bool { return a.src+a.dst < b.src+b.dst })
	if d := cmp.Diff(all[:3], testEdges(files, read), cmp.AllowUnexported(derivedEdge{}), sorted); d != "" {
		t.Errorf("with the sources (-want +got):\n%s", d)
	}
	if d := cmp.Diff(all, testEdges(files, nil), cmp.AllowUnexported(derivedEdge{}), sorted); d != "" {
		t.Errorf("without a reader (-want +got):\n%s", d)
	}
}
