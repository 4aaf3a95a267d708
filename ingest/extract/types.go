// Package extract turns one source file into graph fragments: nodes with
// hierarchical external IDs and edges whose targets may still be unresolved
// "ref::Name" references. Extractors are pure (bytes in, result out) and safe
// to run in parallel; graph building and resolution happen later, in ingest.
//
// Entry points: ExtractFile (pick, recover, fall back), For (the extractor
// of a path), Languages. Python, Go, JavaScript/TypeScript/TSX, Rust and Java
// have hand-written extractors; two dozen more languages go through one
// table-driven extractor (table.go, langs_table.go); everything else gets
// the Generic file node.
//
// Conventions every extractor follows:
//
//   - The first node is the file ("file::{path}", label = base name). Entity
//     IDs nest: "file::{path}::{Class}::{method}". A repeated ID
//     (redefinitions) is emitted once; later edges attach to it. Overloads
//     (Java, C#, C++, Kotlin, Scala) are nodes of their own: the first keeps
//     the plain ID, a later one adds its parameter types,
//     "…::{method}(String,int)" (see overloadID).
//   - Methods whose owner type is declared in another file (Go methods, Rust
//     impls, C++ Foo::bar) keep the ID file::{path}::{Type}::{method}; the
//     file contains them and a member_of edge points to ref::{Type}.
//   - Imports become Import records plus "imports" edges from the file to
//     ref::{name}: the imported names (from m import a → ref::a) or, for a
//     whole-module import, the module's last segment (import os.path →
//     ref::path; "github.com/x/y" → ref::y; "./utils" → ref::utils), always
//     with Hint.Module set to the module as written. An import only a type
//     checker reads (Python under `if TYPE_CHECKING:` or in a .pyi stub,
//     TypeScript's import type, export type, all-`type` specifier lists,
//     .d.ts files) is an "imports::type" edge (RelTypeImports) instead.
//   - Calls are "calls" edges from the innermost enclosing definition (or
//     the file) to ref::{callee name}; see RefHint for what the hints mean.
//   - Builtins (len, print, String, Vec, …) are not referenced at all: they
//     never resolve to project code.
//   - Tags: language, a kind (function, method, class, struct, interface,
//     trait, enum, type_alias, module, constant, variable, section, key, …),
//     visibility where the language has it (exported, public, private,
//     protected, internal, package) and "test" for tests and test files;
//     modifiers such as async, static, abstract, override, property.
package extract

import "github.com/m1nd-go/m1nd/core/graph"

// Node is an extracted entity. ID follows docs/design.md#node-identity:
// "file::{relpath}" for the file itself and "file::{relpath}::{Entity}"
// (nested: "file::{relpath}::{Class}::{method}") for what it defines.
type Node struct {
	ID      string
	Label   string
	Type    graph.NodeType
	Tags    []string
	Line    uint32 // 1-based first line
	EndLine uint32 // 1-based last line
	// Excerpt is a short signature or first docstring line (may be empty).
	Excerpt string
}

// Edge is an extracted relation. Target is either an extracted node ID or an
// unresolved reference "ref::{name}" that ingest resolves later.
type Edge struct {
	Source string
	Target string
	// Relation is one of the Rel* constants: contains, imports, calls,
	// references (type uses), inherits, implements, decorated_by (the
	// source carries the decorator/annotation named by the target),
	// member_of (a method to its owner type declared elsewhere).
	Relation string
	Line     uint32
	Hint     RefHint
}

// RefHint carries what the extractor knows about an unresolved target so the
// resolver can pick the right one among same-named candidates.
type RefHint struct {
	// Module is the module the name came from, as written in the source
	// import: "foo.bar" or ".models" (Python), "./utils" (JS/TS),
	// "github.com/x/y" (Go), "java.util" (Java: the package of an imported
	// class), "crate::backend" (Rust: the path before the item). For a call
	// through a module alias it is the aliased module plus the rest of the
	// chain (np.linalg.norm → "numpy.linalg").
	Module string
	// Receiver is the receiver expression of a method call x.m() ("self",
	// "user", "self.db", "pkg"), at most 80 bytes.
	Receiver string
	// ReceiverType is the static type of the receiver when the extractor can
	// tell ("UserService"); the resolver prefers methods of that type. It
	// comes from self/this (the enclosing class), a Go or Rust receiver, a
	// typed parameter or field, or a local initialised by a constructor
	// (x := NewFoo(), x = Foo(), new Foo(), Foo::new()), and for Java, C#
	// and similar languages an unqualified call inside a class.
	ReceiverType string
	// Args is one more than the call's argument count where the extractor
	// counted them (Java), 0 where not: the resolver keeps the overloads
	// that accept that many (see ArgCount).
	Args uint8
	// ArgKinds is what a Kotlin call's arguments (a construction, a
	// method, bare or static call) evidently are, one item each,
	// comma-separated: a kind ("s" string, "i" integer, "d" real, "b"
	// boolean, "c" char, "l" lambda or function reference, "a" an array,
	// a typed variable its declared type's kind, "_" not evident),
	// "name=k" for a named argument, "$l" for a trailing lambda (the last
	// parameter). Empty for a call without arguments; an all-"_" list is
	// kept, for the arity. The resolver keeps the overloads whose
	// parameters (Arity.Kinds) accept them, defaults and a vararg left
	// out as Kotlin allows. Java's kinds also name classes ("oOption"),
	// a char value as "C" (it widens to int), and a call's result as
	// "^name" or "^T.name", which the resolver types by the callee's
	// declared result.
	ArgKinds string
}

// ArgCount is the call's argument count, when the extractor counted it.
func (h RefHint) ArgCount() (int, bool) { return int(h.Args) - 1, h.Args > 0 }

// argsHint encodes an argument count for RefHint.Args (counts above 254
// are not told apart).
func argsHint(n int) uint8 { return uint8(min(n, 254) + 1) }

// Import is one import statement of a file (one per imported item where a
// statement imports several unrelated modules).
type Import struct {
	Module string   // "os.path", "./utils", "fmt", "java.util", "std::collections"
	Alias  string   // local name of the module (import numpy as np, import * as ns, default import); "static" for Java static imports
	Names  []string // imported names (from m import a, b; java.util.List → [List]; "*" for wildcards)
	Line   uint32
}

// Reexport says a file exports Name, which is Target of Module.
type Reexport struct {
	Name   string // exported name
	Module string // module it comes from, as written
	Target string // name in that module ("default" for its default export)
}

// Result is everything extracted from one file.
type Result struct {
	Path     string // relative path, forward slashes
	Language string
	Nodes    []Node
	Edges    []Edge
	Imports  []Import
	// Reexports are names this file exports under another name or from
	// another module (JS/TS barrels: export { a as b } from "m"), so an
	// import of the name from this file reaches the entity it means.
	Reexports []Reexport
	// Package is the declared package/module/namespace when the language has
	// one (Go package, Java package, C# namespace).
	Package string
	// UnresolvedRefs lists the distinct "ref::" targets used by Edges.
	UnresolvedRefs []string
	// ParseErrors counts syntax-error regions the parser recovered from.
	ParseErrors int
	// BuildConstraint is the file's build constraint expression (Go's
	// //go:build line), "" when it has none.
	BuildConstraint string
	// Returns maps a function or method node ID to the named type it
	// returns (its first result), when the source declares one: the
	// resolver types receivers that are calls, f().M().
	Returns map[string]TypeRef
	// Fields maps "Type.field" to the field's named type and "Type[]" to
	// the element type of a named slice, array or map type (Go), and a
	// Kotlin class's typed properties: the resolver types receiver paths
	// (x.f[i].m()) and a Kotlin "super.x" receiver (x a base's property)
	// with them across files.
	Fields map[string]TypeRef
	// Arity maps a Go method node ID (interface methods included) to its
	// parameter and result counts, for interface satisfaction; and the
	// overloads of one name (Java) to their parameter counts, so the
	// resolver can tell them apart by a call's argument count.
	Arity map[string]Arity
}

// Arity is how many parameters and results a function declares (a
// variadic parameter counts once).
type Arity struct {
	Params, Results uint8
	// Variadic: the last parameter takes any number of arguments (Java
	// String... args), so Params-1 or more are accepted.
	Variadic bool
	// Optional counts the parameters with a default value (C++, C#,
	// Kotlin, Scala), which a call may leave out.
	Optional uint8
	// Kinds lists a Kotlin function's or constructor's parameters as
	// "name:k" items (k as in RefHint.ArgKinds; "_" a type any argument
	// may fit), for overloads of one name.
	Kinds string
}

// Accepts reports whether a call with n arguments fits.
func (a Arity) Accepts(n int) bool {
	least := int(a.Params) - int(a.Optional)
	if a.Variadic {
		least = min(least, int(a.Params)-1)
		return n >= least
	}
	return n >= least && n <= int(a.Params)
}

// TypeRef names a type: Name, and Module when it comes from an import
// (the module path as written, like RefHint.Module).
type TypeRef struct {
	Name   string
	Module string
	// Coll marks a slice, array or map of the type.
	Coll bool
}

// Extractor extracts one language family.
type Extractor interface {
	// Language is a short stable name ("python", "go", "typescript", ...).
	Language() string
	// Extensions are the file suffixes handled, with the dot (".py").
	Extensions() []string
	// Extract must never panic; malformed input yields an error or a
	// partial result.
	Extract(relPath string, src []byte) (*Result, error)
}
