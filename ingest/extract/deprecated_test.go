package extract

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeprecated checks each language's marker, and the near misses that
// must stay unmarked (a mid-paragraph Go "Deprecated:", a blank line after
// the doc, @deprecatedSince, a line comment in TS, a warning after the
// first statement in Python).
func TestDeprecated(t *testing.T) {
	tests := []struct {
		path, src string
		want      []string
	}{
		{"a.go", `package a

// Old does X.
//
// Deprecated: use New.
func Old() {}

// New does X.
// Deprecated: not a paragraph start.
func New() {}

// Gap is not adjacent.
//
// Deprecated: use New.

func Gap() {}

type T struct {
	// Deprecated: use B.
	A int
	B int
}

// Old modes.
//
// Deprecated: use T.
const (
	ModeA = 1
	ModeB = 2
)
`, []string{"file::a.go::Old", "file::a.go::ModeA", "file::a.go::ModeB"}},
		{"a.ts", `/**
 * Old thing.
 * @deprecated use newThing
 */
export function oldThing() {}

/** @deprecated */
export class Legacy {
  /** @deprecatedSince 2 */
  keep() {}
  /**
   * @deprecated
   */
  @log
  gone() {}
}

// @deprecated a line comment is no JSDoc
export function stays() {}
`, []string{"file::a.ts::oldThing", "file::a.ts::Legacy", "file::a.ts::Legacy::gone"}},
		{"a.rs", `#[deprecated(
    since = "1.0",
    note = "use new"
)]
pub fn old() {}

/// Doc.
#[deprecated = "use new"]
#[inline]
pub fn old2() {}

pub struct S {
    #[deprecated]
    pub a: u32,
    pub b: u32,
}

pub fn new() {}
`, []string{"file::a.rs::old", "file::a.rs::old2"}},
		{"a.py", `import warnings
from typing_extensions import deprecated


class A:
    @deprecated("use b")
    def a(self):
        pass

    @property
    def p(self):
        """Doc.

        More.
        """
        warnings.warn("p is deprecated", DeprecationWarning, stacklevel=2)
        return 1

    def late(self):
        x = 1
        warnings.warn("late", DeprecationWarning)


def f(x,
      y):
    # note
    warnings.warn(
        "f is deprecated",
        DeprecationWarning,
    )


@typing_extensions.deprecated("x")
@other
def g():
    pass
`, []string{"file::a.py::A::a", "file::a.py::A::p", "file::a.py::f", "file::a.py::g"}},
		{"A.java", `package a;

/**
 * Old.
 * @deprecated use B
 */
public class A {
    @Override
    @Deprecated
    public String toString() { return ""; }

    @SuppressWarnings("x")
    @Deprecated(since = "9",
        forRemoval = true)
    void old() {}

    void keep() {}
}
`, []string{"file::A.java::A", "file::A.java::A::toString", "file::A.java::A::old"}},
		{"A.cs", `namespace N {
  [Obsolete("use B")]
  public class A {
    [Serializable, Obsolete]
    public void M() {}
    public void K() {}
  }
}
`, []string{"file::A.cs::N::A", "file::A.cs::N::A::M"}},
		{"A.kt", `package a

@Deprecated("use b", ReplaceWith("b()"))
fun a() {}

fun b() {}
`, []string{"file::A.kt::a"}},
		// An overloaded function (one node), werkzeug's multi-line signature,
		// docstring and import; a warning under an if is no deprecation.
		{"b.py", `import typing as t


@t.overload
def parse(v: str) -> int: ...
@t.overload
def parse(v: None) -> None: ...
def parse(
    v,
) -> X:
    """Doc

    >>> parse("a")
    """
    import warnings

    warnings.warn(
        "x",
        DeprecationWarning,
    )
    return 1


def kept(v):
    if v:
        warnings.warn("x", DeprecationWarning)
`, []string{"file::b.py::parse"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, err := ExtractFile(tt.path, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range r.Nodes {
				if slices.Contains(n.Tags, TagDeprecated) {
					got = append(got, n.ID)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("deprecated nodes (-want +got):\n%s", d)
			}
		})
	}
}

// TestDeprecatedModule: a DeprecationWarning at a module's top level,
// before any definition, marks the module.
func TestDeprecatedModule(t *testing.T) {
	src := "import warnings\nwarnings.warn(\"old\", DeprecationWarning)\n\ndef f():\n    pass\n"
	r, err := ExtractFile("old.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Nodes[0].Tags, TagDeprecated) || slices.Contains(r.Nodes[1].Tags, TagDeprecated) {
		t.Errorf("want the module alone deprecated, got %v and %v", r.Nodes[0].Tags, r.Nodes[1].Tags)
	}
}
