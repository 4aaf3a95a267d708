package documents

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The edits held-out code dated as stale (benchmarks/results/
// drift-heldout2.md) and edits that must still count, as before → after
// texts of one module.
func TestSurfaceChanges(t *testing.T) {
	cases := []struct {
		name, qual, before, after string
		keepTypes                 bool
		want                      []string
		named                     []string // the section's words; nil: every change is relevant
	}{
		{"multi-line annotation rewritten", "Nested.__init__",
			"class Nested:\n    def __init__(\n        self,\n        nested: typing.Union[\n            A,\n            B,\n        ],\n    ):\n        self.nested = nested\n",
			"class Nested:\n    def __init__(\n        self,\n        nested: (\n            A\n            | B\n        ),\n    ):\n        self.nested = nested\n", false, nil, nil},
		{"annotation and body in one hunk: the body of a public method", "Schema",
			"class Schema:\n    @property\n    def dict_class(self) -> type:\n        return OrderedDict if self.ordered else dict\n",
			"class Schema:\n    @property\n    def dict_class(self) -> type[dict]:\n        if self.ordered:\n            return OrderedDict\n        return dict\n", false, nil, nil},
		{"docstring of a function", "add",
			"def add(sink, *, level=0):\n    \"\"\"Add a sink.\n\n    | a | b |\n    \"\"\"\n    return 1\n",
			"def add(sink, *, level=0):\n    \"\"\"Add a sink.\n\n    | a | c |\n    \"\"\"\n    return 1\n", false, nil, nil},
		{"docstring added to a class", "Record",
			"class Record:\n    x = 1\n", "class Record:\n    \"\"\"A record.\"\"\"\n\n    x = 1\n", false, nil, nil},
		{"class docstring rewritten", "AsyncBoundLogger",
			"class AsyncBoundLogger:\n    \"\"\"Runs in a thread pool.\"\"\"\n",
			"class AsyncBoundLogger:\n    \"\"\"A mistake: deprecated.\"\"\"\n", false, []string{"docstring changed"}, nil},
		{"parameter added, default changed", "Logger.add",
			"class Logger:\n    def add(self, sink, level=10):\n        pass\n",
			"class Logger:\n    def add(self, sink, level=20, *, enqueue=False):\n        pass\n", false,
			[]string{"parameter `level` changed (`level=10` → `level=20`)"}, nil},
		{"required parameter added, one removed, **kwargs renamed", "f",
			"def f(a, b=1, **options):\n    pass\n", "def f(a, c, **kwargs):\n    pass\n", false,
			[]string{"parameter `b` removed", "parameter `c` added"}, nil},
		{"*args added beside **kwargs, types rewrapped", "S.add_middleware",
			"class S:\n    def add_middleware(self, middleware_class: type, **options: typing.Any) -> None:\n        pass\n",
			"class S:\n    def add_middleware(\n        self,\n        middleware_class: _Factory[P],\n        *args: P.args,\n        **kwargs: P.kwargs,\n    ) -> None:\n        pass\n", false, nil, nil},
		{"function became a class: one change, no empty label", "TestClient",
			"def TestClient(app, base_url=\"http://testserver\"):\n    return Session(app)\n",
			"class TestClient(requests.Session):\n    def __init__(self, app, base_url=\"http://testserver\"):\n        pass\n", false,
			[]string{"became a class (a function at the document's date)"}, nil},
		{"method removed", "A", "class A:\n    def run(self):\n        pass\n", "class A:\n    pass\n", false, []string{"method `run` removed"}, nil},
		{"__call__ body and a new method", "FileResponse",
			"class FileResponse:\n    async def __call__(self, scope):\n        await self.simple(scope)\n",
			"class FileResponse:\n    async def __call__(self, scope):\n        if 'pathsend' in scope:\n            return\n        await self.simple(scope)\n\n    def stat(self):\n        pass\n", false,
			[]string{"`__call__`: body changed"}, nil},
		{"__call__ changed under a section that only names the class", "FileResponse",
			"class FileResponse:\n    def __call__(self, scope):\n        await self.simple(scope)\n",
			"class FileResponse:\n    async def __call__(self, scope):\n        await self.send(scope)\n", false,
			nil, []string{"FileResponse", "path"}},
		{"__call__ changed under a section that names it", "FileResponse",
			"class FileResponse:\n    async def __call__(self, scope):\n        await self.simple(scope)\n",
			"class FileResponse:\n    async def __call__(self, scope):\n        await self.send(scope)\n", false,
			[]string{"`__call__`: body changed"}, []string{"FileResponse", "__call__"}},
		{"a required parameter gained a default; another lost its default", "Mount.__init__",
			"class Mount:\n    def __init__(self, path, app, name=None):\n        pass\n",
			"class Mount:\n    def __init__(self, path, app=None, name):\n        pass\n", false,
			[]string{"parameter `name` changed (`name=None` → `name`)"}, nil},
		{"return type, on a page about types", "BoundLogger.bind",
			"class BoundLogger:\n    def bind(self, **kw) -> BoundLogger:\n        pass\n",
			"class BoundLogger:\n    def bind(self, **kw) -> Self:\n        pass\n", true,
			[]string{"return type changed (`BoundLogger` → `Self`)"}, nil},
		{"a quoted forward reference unquoted, on a page about types", "BoundLogger.bind",
			"class BoundLogger:\n    def bind(self, **kw: 'Any') -> \"BoundLogger\":\n        pass\n",
			"class BoundLogger:\n    def bind(self, **kw: Any) -> BoundLogger:\n        pass\n", true, nil, nil},
		{"return type elsewhere", "BoundLogger.bind",
			"class BoundLogger:\n    def bind(self, **kw) -> BoundLogger:\n        pass\n",
			"class BoundLogger:\n    def bind(self, **kw) -> Self:\n        pass\n", false, nil, nil},
		{"constructor body only", "Route",
			"class Route:\n    def __init__(self, path, endpoint):\n        self.path = path\n        self.endpoint = endpoint\n",
			"class Route:\n    def __init__(self, path, endpoint):\n        self.path = path\n        self.endpoint = wrap(endpoint)\n", false, nil, nil},
		{"docstring reworded", "Email",
			"class Email:\n    \"\"\"A validated email field. Validation occurs during both serialization and\n    deserialization.\"\"\"\n",
			"class Email:\n    \"\"\"An email field.\"\"\"\n", false, nil, nil},
		{"docstring announces a change", "ConsoleRenderer",
			"class ConsoleRenderer:\n    \"\"\"Render.\n\n    .. versionadded:: 16.0.0\n    \"\"\"\n",
			"class ConsoleRenderer:\n    \"\"\"Render.\n\n    .. versionadded:: 16.0.0\n    .. versionchanged:: 26.1.0\n       Monochrome if colors are disabled.\n    \"\"\"\n", false,
			[]string{"docstring changed"}, nil},
		{"docstring announces removing a parameter the section does not name", "HeaderSet",
			"class HeaderSet(MutableSet):\n    \"\"\"A set.\"\"\"\n",
			"class HeaderSet(cabc.MutableSet[str]):\n    \"\"\"A set.\n\n    .. versionchanged:: 3.2\n        The ``on_update`` parameter was removed.\n    \"\"\"\n", false,
			nil, []string{"HeaderSet", "add"}},
		{"docstring announces an addition", "Map",
			"class Map:\n    \"\"\"Routes.\"\"\"\n", "class Map:\n    \"\"\"Routes.\n\n    .. versionchanged:: 3.2\n        The ``subdomain_matching`` parameter was added.\n    \"\"\"\n", false,
			nil, []string{"Map", "subdomain_matching"}},
		{"a member the section does not name", "Logger",
			"class Logger:\n    def add(self, sink, level=10):\n        pass\n", "class Logger:\n    def add(self, sink, level=20):\n        pass\n", false,
			nil, []string{"Logger", "level"}},
		{"a member and parameter the section names", "Logger",
			"class Logger:\n    def add(self, sink, level=10):\n        pass\n", "class Logger:\n    def add(self, sink, level=20):\n        pass\n", false,
			[]string{"`add`: parameter `level` changed (`level=10` → `level=20`)"}, []string{"add", "level"}},
		{"a constructor parameter the section does not name", "Typer",
			"class Typer:\n    def __init__(self, *, show_locals=True):\n        pass\n", "class Typer:\n    def __init__(self, *, show_locals=False):\n        pass\n", false,
			nil, []string{"Typer"}},
		{"a required parameter, named or not", "f", "def f(a):\n    pass\n", "def f(a, b):\n    pass\n", false,
			[]string{"parameter `b` added"}, []string{"f"}},
		{"an alias became a method", "BoundLogger",
			"class BoundLogger:\n    afatal = aerror\n", "class BoundLogger:\n    async def afatal(self, event):\n        pass\n", false, nil, nil},
		{"overload stubs added before the implementation", "get_response",
			"def get_response(environ=None):\n    pass\n",
			"@t.overload\ndef get_response(environ: None = ...) -> R: ...\n@t.overload\ndef get_response(environ: E) -> R: ...\ndef get_response(environ=None):\n    pass\n", false, nil, nil},
		{"pyupgrade drops the object base (boltons' Table, URL)", "Table",
			"class Table(object):\n    pass\n", "class Table:\n    pass\n", false, nil, nil},
		{"object base dropped beside another, on a page about types", "URL",
			"class URL(Base, object):\n    pass\n", "class URL(Base):\n    pass\n", true, nil, nil},
		{"a mixin base added (rich's Text)", "Text",
			"class Text:\n    pass\n", "class Text(JupyterMixin):\n    pass\n", false, nil, nil},
		{"a base added beside the old one (cattrs)", "BaseValidationError",
			"class BaseValidationError(ExceptionGroup):\n    pass\n", "class BaseValidationError(ExceptionGroup, CattrsError):\n    pass\n", false, nil, nil},
		{"a base replaced", "StructureHandlerNotFoundError",
			"class StructureHandlerNotFoundError(Exception):\n    pass\n", "class StructureHandlerNotFoundError(CattrsError):\n    pass\n", false,
			[]string{"base classes changed"}, nil},
		{"a real base removed", "URL",
			"class URL(Base):\n    pass\n", "class URL:\n    pass\n", false, []string{"base classes removed"}, nil},
		{"decorator added", "f", "def f():\n    pass\n", "@deprecated('use g')\ndef f():\n    pass\n", false, []string{"decorators added"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, ok1 := surfaceOf(c.before, c.qual, c.keepTypes)
			now, ok2 := surfaceOf(c.after, c.qual, c.keepTypes)
			if !ok1 || !ok2 {
				t.Fatalf("%s not found (before %v, after %v)", c.qual, ok1, ok2)
			}
			var named func(string) bool
			if c.named != nil {
				named = func(w string) bool { return slices.Contains(c.named, w) }
			}
			if diff := cmp.Diff(c.want, surfaceChanges(old, now, named)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPyOutline(t *testing.T) {
	text := "import x\n\n@dec(\n    a=1,\n)\nclass A(B):\n    '''doc\n    def not_a_def():\n    '''\n    def m(\n        self,\n    ):\n        return 1\n\n    class Inner:\n        pass\n\n\nasync def f(): return 2\n"
	type row struct {
		Name                 string
		Start, Def, End, Ind int
	}
	var got []row
	for _, d := range pyOutline(pyLines(text)) {
		got = append(got, row{d.name, d.start, d.def, d.end, d.indent})
	}
	want := []row{{"A", 3, 6, 16, 0}, {"A.m", 10, 10, 13, 4}, {"A.Inner", 15, 15, 16, 4}, {"f", 19, 19, 19, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
}
