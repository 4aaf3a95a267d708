// Package extract turns one source file into graph fragments: nodes with
// hierarchical external IDs and edges whose targets may still be unresolved
// "ref::Name" references. Extractors are pure (bytes in, result out) and safe
// to run in parallel; graph building and resolution happen later, in ingest.
package extract

import "github.com/m1nd-go/m1nd/core/graph"

// Node is an extracted entity. ID follows the spec: "file::{relpath}" for
// the file itself and "file::{relpath}::{Entity}" (nested:
// "file::{relpath}::{Class}::{method}") for what it defines.
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
	Source   string
	Target   string
	Relation string // contains, imports, calls, references, implements, inherits, decorates, tests, ...
	Line     uint32
	Hint     RefHint
}

// RefHint carries what the extractor knows about an unresolved target so the
// resolver can pick the right one among same-named candidates.
type RefHint struct {
	// Module is the import path the name came from ("foo.bar", "./utils",
	// "github.com/x/y", "java.util").
	Module string
	// Receiver is the receiver expression of a method call x.m() ("self",
	// "user", "pkg").
	Receiver string
	// ReceiverType is the static type of the receiver when the extractor can
	// tell ("UserService"); the resolver prefers methods of that type.
	ReceiverType string
}

// Import is one import statement of a file.
type Import struct {
	Module string   // "os.path", "./utils", "fmt", "java.util.List"
	Alias  string   // local name when renamed
	Names  []string // imported names (from m import a, b)
	Line   uint32
}

// Result is everything extracted from one file.
type Result struct {
	Path     string // relative path, forward slashes
	Language string
	Nodes    []Node
	Edges    []Edge
	Imports  []Import
	// Package is the declared package/module/namespace when the language has
	// one (Go package, Java package, C# namespace).
	Package string
	// UnresolvedRefs lists the distinct "ref::" targets used by Edges.
	UnresolvedRefs []string
	// ParseErrors counts syntax-error regions the parser recovered from.
	ParseErrors int
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
