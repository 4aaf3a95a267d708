package extract

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// span is a node's first and last line.
type span struct{ Line, EndLine uint32 }

// checkSpans fails for each node of want that r lacks or places elsewhere.
func checkSpans(t *testing.T, r *Result, want map[string]span) {
	t.Helper()
	got := map[string]span{}
	for _, n := range r.Nodes {
		got[n.ID] = span{n.Line, n.EndLine}
	}
	for id, w := range want {
		if g, ok := got[id]; !ok || g != w {
			t.Errorf("%s: %+v (present %v), want %+v", id, g, ok, w)
		}
	}
}

// TestKotlinCtorOnNextLine: a nested class whose primary constructor
// starts the next line (ktfmt's style for a long header) parsed as ERROR
// in tree-sitter-kotlin v1.1.0, and the class, its members and the rest
// of the file were lost (kotlinpoet's TypeSpec.Builder had no
// addFunction). The file is parsed again with that line break as a
// space; lines stay the file's own.
func TestKotlinCtorOnNextLine(t *testing.T) {
	src := `package p

public class TypeSpec
private constructor(builder: Builder) : Taggable {
  public val kind: Int = builder.kind

  public class Builder
  internal constructor(
    internal var kind: Int,
  ) : Taggable.Builder<Builder> {
    public fun addFunction(f: String): Builder = this

    public fun build(): TypeSpec = TypeSpec(this)
  }

  public companion object {
    @JvmStatic public fun classBuilder(name: String): Builder = Builder(1)
  }
}

public fun after(): Int = 2
`
	r, err := ExtractFile("p/TypeSpec.kt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	checkSpans(t, r, map[string]span{
		"file::p/TypeSpec.kt::TypeSpec":                       {3, 19},
		"file::p/TypeSpec.kt::TypeSpec::Builder":              {7, 14},
		"file::p/TypeSpec.kt::TypeSpec::Builder::addFunction": {11, 11},
		"file::p/TypeSpec.kt::TypeSpec::Builder::build":       {13, 13},
		"file::p/TypeSpec.kt::TypeSpec::classBuilder":         {17, 17},
		"file::p/TypeSpec.kt::after":                          {21, 21},
	})
	if r.ParseErrors != 0 {
		t.Errorf("parse errors %d after the repair", r.ParseErrors)
	}
	// A file that parses is never rewritten; one the rewrite does not
	// help keeps its first tree.
	if _, ok := kotlinJoinCtorLines([]byte("class A(val x: Int)\n")); ok {
		t.Error("a header without a broken constructor line was rewritten")
	}
	fixed, _ := kotlinJoinCtorLines([]byte(src))
	if diff := cmp.Diff(len(src), len(fixed)); diff != "" {
		t.Errorf("the rewrite moved bytes: %s", diff)
	}
}

// TestRustBorrowOfRaw: `match &raw {` (a variable named raw) read as the
// start of a raw borrow lost the rest of bat's impl, and the functions
// after it were filed under the impl's type.
func TestRustBorrowOfRaw(t *testing.T) {
	src := `impl TryFrom<RawMatcher> for Matcher {
    type Error = anyhow::Error;
    fn try_from(raw: RawMatcher) -> Result<Self, Self::Error> {
        match &raw {
            RawMatcher::Simple(s) => {
                let segments = parse_glob(s)?;
                Ok(Self { segments })
            }
        }
    }
}

struct MappingList(Vec<Matcher>);

fn get_def_paths() -> Vec<u8> {
    let p = &raw const X;
    vec![]
}
`
	r, err := ExtractFile("build/m.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	ids := map[string]bool{}
	for _, n := range r.Nodes {
		ids[n.ID] = true
	}
	for _, id := range []string{"file::build/m.rs::MappingList", "file::build/m.rs::get_def_paths", "file::build/m.rs::Matcher::try_from"} {
		if !ids[id] {
			t.Errorf("no %s in %v", id, ids)
		}
	}
	if ids["file::build/m.rs::Matcher::get_def_paths"] {
		t.Error("get_def_paths filed under Matcher")
	}
	if r.ParseErrors != 0 {
		t.Errorf("%d parse errors after the rewrite", r.ParseErrors)
	}
	fixed, ok := rsSpaceRawBorrows([]byte(src))
	if !ok || !bytes.Contains(fixed, []byte("match  raw {")) || !bytes.Contains(fixed, []byte("&raw const X")) || len(fixed) != len(src) {
		t.Errorf("rewrite:\n%s", fixed)
	}
}

// TestTypeScriptVariance: `in`/`out` on a type parameter (TypeScript
// 4.7) is unknown to tree-sitter-typescript v0.23, and zod's schemas
// parsed the parameter names as ERROR. The annotations are blanked for a
// second parse; an expression with `in` is never touched.
func TestTypeScriptVariance(t *testing.T) {
	src := `export interface Internals<out O = unknown, out I = unknown> extends Base {
  def: string;
}

export interface ObjectInternals<
  /** @ts-ignore Cast variance */
  out Shape extends Record<string, unknown> = Record<string, unknown>,
  in out Config extends object = object,
> extends Internals<Shape, Config> {
  config: Config;
}

export function has(k: string, o: object): boolean {
  for (const x in o) { if (x === k) return true; }
  return k in o;
}
`
	r, err := ExtractFile("src/schemas.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	if r.ParseErrors != 0 {
		t.Errorf("parse errors %d after the repair", r.ParseErrors)
	}
	checkSpans(t, r, map[string]span{
		"file::src/schemas.ts::Internals":       {1, 3},
		"file::src/schemas.ts::ObjectInternals": {5, 11},
		"file::src/schemas.ts::has":             {13, 16},
	})
	fixed, _ := tsBlankVariance([]byte(src))
	if len(fixed) != len(src) || !bytes.Contains(fixed, []byte("for (const x in o)")) || !bytes.Contains(fixed, []byte("return k in o;")) {
		t.Errorf("the rewrite moved bytes or touched an expression:\n%s", fixed)
	}
	if _, ok := tsBlankVariance([]byte("const a = b < c, d = e > f;\n")); ok {
		t.Error("a comparison was rewritten")
	}

	// export type * (TypeScript 5.0) stays a type-only re-export.
	r, err = ExtractFile("src/index.ts", []byte("export type * from './types';\nexport const z = 1;\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.ParseErrors != 0 {
		t.Errorf("export type *: parse errors %d after the repair", r.ParseErrors)
	}
	typed := false
	for _, e := range r.Edges {
		typed = typed || (e.Target == "ref::./types" && e.Relation == RelTypeImports)
	}
	if !typed {
		t.Errorf("export type * from './types' lost its type-only import: %+v", r.Edges)
	}
}

// TestGoNewOfValue: Go 1.26's new(expr) — a pointer to a value — is read
// by tree-sitter-go v0.23 as new(Type), so a value argument was an
// ERROR and the call inside it was lost. On the rows with the error,
// `new` is blanked for a second parse; new(T) elsewhere stays as it is.
func TestGoNewOfValue(t *testing.T) {
	src := `package p

type secret int

func mk(v int) secret { return secret(v) }

func tiny() *secret {
	s := new(mk(42))
	return s
}

func plain() *secret { return new(secret) }
`
	r, err := ExtractFile("p/s.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	if r.ParseErrors != 0 {
		t.Errorf("parse errors %d after the repair", r.ParseErrors)
	}
	calls := false
	for _, e := range r.Edges {
		calls = calls || (e.Source == "file::p/s.go::tiny" && e.Relation == RelCalls && e.Target == "ref::mk")
	}
	if !calls {
		t.Errorf("tiny's call of mk inside new(…) was lost: %+v", r.Edges)
	}
}
