package testlink

import (
	"strings"
	"testing"
)

// TestPyFlagsOnly: a test that reads what it imports from a module only
// in skip conditions, if tests, conditional expressions, decorator
// arguments or module level constants does not test that module; one
// that calls it, applies it as a decorator, subclasses it, or passes or
// asserts on it in a test body does.
func TestPyFlagsOnly(t *testing.T) {
	const test, compat = "tests/test_slots.py", "src/attr/_compat.py"
	tests := []struct {
		name, src, subject string
		want               bool
		subjectSrc         string
	}{
		{"skipif argument", `import pytest
from attr._compat import PY_3_14_PLUS, PYPY

@pytest.mark.skipif(PYPY, reason="CPython only")
def test_weakref():
    assert make() is not None

@pytest.mark.skipif(
    not PYPY, reason="PyPy only"
)
def test_other():
    pass
`, compat, true, ""},
		{"module constant and f-string ternary", `from attr._compat import PY_3_13_PLUS

indent = "" if PY_3_13_PLUS else " " * 8

def test_doc():
    assert f"{'' if PY_3_13_PLUS else ' '}x" == doc()
`, compat, true, ""},
		{"if test in a body", `from attr._compat import PY_3_11_PLUS

def test_fields():
    if PY_3_11_PLUS:
        expected = 1
    elif isinstance(expected, Mapping):
        expected = 2
    x = 3 if PY_3_11_PLUS else 4
`, compat, true, ""},
		{"isinstance in a condition", `from attr._compat import Mapping, Sequence

def test_asdict():
    def assert_proper(obj):
        if isinstance(obj, Sequence):
            return
        elif isinstance(obj, Mapping):
            return
`, compat, true, ""},
		{"parametrized data", `from uvicorn.supervisors.statreload import StatReload

class TestBaseReload:
    @pytest.mark.parametrize("reloader_class", [StatReload, pytest.param(Other, marks=skip)])
    def test_reload(self, reloader_class):
        reloader_class(config).run()
`, "uvicorn/supervisors/statreload.py", false, ""},
		{"fixture params", `import attr
import attrs

@pytest.fixture(name="mod", params=(attr, attrs))
def _mod(request):
    return request.param
`, "src/attrs/__init__.py", false, ""},
		{"module level data", `from app.protocols import H11

PROTOCOLS = [H11]
`, "app/protocols.py", false, ""},
		{"skip condition with operators", `from pkg.compat import PYPY, WIN

pytestmark = pytest.mark.skipif(sys.platform == "x" or not (PYPY or WIN), reason="x")
`, "pkg/compat.py", true, ""},
		{"the package's re-export of the subject's own name", `from typeguard import install_import_hook
from typeguard._importhook import OPTIMIZATION

cached = cache_from_source(path, optimization=OPTIMIZATION)

def test_hook():
    with install_import_hook(["dummymodule"]):
        pass
`, "src/typeguard/_importhook.py", false, "OPTIMIZATION = 'typeguard'\n\ndef install_import_hook(packages):\n    pass\n"},
		{"the package's re-export of another module's name", `from typeguard import suppress_type_checks
from typeguard._importhook import OPTIMIZATION

cached = cache_from_source(path, optimization=OPTIMIZATION)

def test_suppress():
    with suppress_type_checks():
        pass
`, "src/typeguard/_importhook.py", true, "OPTIMIZATION = 'typeguard'\n\ndef install_import_hook(packages):\n    pass\n"},
		{"imported, never used", "from attr._compat import PYPY\n\ndef test_x():\n    pass\n", compat, true, ""},
		{"called in a body", `from attr._compat import _AnnotationExtractor

def test_extract():
    assert conv() is _AnnotationExtractor(fn).get_first_param_type()
`, compat, false, ""},
		{"passed in a body", `from uvicorn.protocols.http.h11_impl import H11Protocol

async def test_fragmentation():
    protocol = get_connected_protocol(app, H11Protocol)
`, "uvicorn/protocols/http/h11_impl.py", false, ""},
		{"asserted on", `from attr import _compat

def test_flag():
    assert _compat.PYPY is False
`, compat, false, ""},
		{"a decorator", `import attr

@attr.s
class C:
    x = attr.ib()
`, "src/attr/__init__.py", false, ""},
		{"a base class", `from app.models import Base

class Fake(Base):
    pass
`, "app/models.py", false, ""},
		{"an annotation", `if TYPE_CHECKING:
    from uvicorn.protocols.http.h11_impl import H11Protocol

def test_proxy(http_protocol_cls: type[H11Protocol]):
    pass
`, "uvicorn/protocols/http/h11_impl.py", false, ""},
		{"relative import, flag", `from ..compat import IS_WINDOWS

@pytest.mark.skipif(IS_WINDOWS, reason="posix")
def test_socket():
    serve()
`, "compat.py", true, ""},
		{"no statement names the subject", `from attr import define

def test_define():
    define(C)
`, "src/attr/_next_gen.py", false, ""},
		{"a name in a string is no use", `from attr._compat import PYPY
"""PYPY(docs) in a docstring."""

def test_x():
    s = "PYPY(x)"
`, compat, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var subj []byte
			if tt.subjectSrc != "" {
				subj = []byte(tt.subjectSrc)
			}
			if got := PyFlagsOnly([]byte(tt.src), subj, test, tt.subject); got != tt.want {
				t.Errorf("PyFlagsOnly = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzPyFlagsOnly: any source is read without a panic, and the answer is
// false when no import names the subject.
func FuzzPyFlagsOnly(f *testing.F) {
	f.Add([]byte("from a.b import c\n@d(not c)\ndef t():\n    c()\n"))
	f.Add([]byte("import a.b as x\nx = '''\n(\n'''\nif x: pass\\\n"))
	f.Add([]byte("from . import (b,\n  c as d)\n\"unterminated\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		PyFlagsOnly(src, src, "tests/test_b.py", "a/b.py")
		if PyFlagsOnly(src, src, "tests/test_b.py", "zz/none.py") && !strings.Contains(string(src), "none") {
			t.Errorf("flags-only for a subject no import names")
		}
	})
}
