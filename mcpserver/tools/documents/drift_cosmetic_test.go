package documents

import "testing"

// The hunks are real edits from starlette and structlog (tune and
// held-out of benchmarks/results/drift-class.md) and edits that must
// still count.
func TestPythonCosmetic(t *testing.T) {
	cases := []struct {
		name     string
		path     string
		old, new []string
		want     bool
	}{
		{"return annotation to Self", "c.py",
			[]string{"    def __enter__(self) -> TestClient:"},
			[]string{"    def __enter__(self) -> Self:"}, true},
		{"typing qualifier dropped", "c.py",
			[]string{`        backend: typing.Literal["asyncio", "trio"] = "asyncio",`, "        app = typing.cast(ASGI2App, app)  # type: ignore[assignment]"},
			[]string{`        backend: Literal["asyncio", "trio"] = "asyncio",`, "        app = cast(ASGI2App, app)  # type: ignore[assignment]"}, true},
		{"parameter type on a def line", "c.py",
			[]string{"def f(self, names: list[str], n: int = 3) -> None:"},
			[]string{"def f(self, names: Collection[str], n: int = 3):"}, true},
		{"attribute annotation", "c.py",
			[]string{"        self.app_state: dict[str, typing.Any] = {}"},
			[]string{"        self.app_state: dict[str, Any] = {}"}, true},
		{"signature rewrapped", "c.py",
			[]string{"    def f(", "        self,", "        x: typing.Optional[int] = None,", "    ) -> typing.Optional[str]:"},
			[]string{"    def f(self, x: int | None = None) -> str | None:"}, true},
		{"comment only", "c.py",
			[]string{"    x = 1  # old note"},
			[]string{"    x = 1  # new note"}, true},
		{"assert message rewrapped by a formatter", "c.py",
			[]string{"        assert lifespan is None or (", "            on_startup is None and on_shutdown is None", `        ), "Use either 'lifespan' or 'on_startup'/'on_shutdown', not both."`},
			[]string{`        assert lifespan is None or (on_startup is None and on_shutdown is None), (`, `            "Use either 'lifespan' or 'on_startup'/'on_shutdown', not both."`, "        )"}, true},
		{"adjacent literals joined", "c.py",
			[]string{`                "generator function lifespans are deprecated, "`, `                "use an @contextlib.asynccontextmanager function instead",`},
			[]string{`                "generator function lifespans are deprecated, use an @contextlib.asynccontextmanager function instead",`}, true},
		{"parentheses around a value dropped", "c.py",
			[]string{"        ] = (on_error if on_error is not None else self.default_on_error)"},
			[]string{"        ] = on_error if on_error is not None else self.default_on_error"}, true},
		{"a call's argument is not a wrapped value", "c.py",
			[]string{"    x = f(a)"},
			[]string{"    x = (a)"}, false},
		{"condition regrouped", "c.py",
			[]string{"    if (a and b) or c:"},
			[]string{"    if a and (b or c):"}, false},
		{"default changed", "c.py",
			[]string{`        backend: str = "asyncio",`},
			[]string{`        backend: str = "trio",`}, false},
		{"parameter added", "c.py",
			[]string{"    async def _handle_simple(self, send: Send, send_header_only: bool) -> None:"},
			[]string{"    async def _handle_simple(self, send: Send, send_header_only: bool, send_pathsend: bool) -> None:"}, false},
		{"statement added", "c.py",
			nil,
			[]string{`        send_pathsend: bool = "http.response.pathsend" in scope.get("extensions", {})`}, false},
		{"docstring changed", "c.py",
			[]string{`    """Bind values."""`},
			[]string{`    """Bind values; returns a new logger."""`}, false},
		{"dict entry is not an annotation", "c.py",
			[]string{`    "level": debug,`},
			[]string{`    "level": info,`}, false},
		{"one-line else is not an annotation", "c.py",
			[]string{"    else: x = 1"},
			[]string{"    else: x = 2"}, false},
		{"hash inside a string is not a comment", "c.py",
			[]string{`    colour = "#fff"`},
			[]string{`    colour = "#000"`}, false},
		{"a Go type change is a change", "c.go",
			[]string{"func F() int {"},
			[]string{"func F() int64 {"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pythonCosmetic(c.path, c.old, c.new); got != c.want {
				t.Errorf("pythonCosmetic(%q, %q) = %v, want %v (typeless %q vs %q)", c.old, c.new, got, c.want, typeless(c.old), typeless(c.new))
			}
		})
	}
}
