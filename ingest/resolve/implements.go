package resolve

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// Implementation is a Go type whose method set covers an interface's:
// Type implements Interface (external node IDs).
type Implementation struct {
	Type, Interface string
}

// GoImplements finds, among the Go files of results, the named types
// that satisfy an interface of the repository: every method the
// interface declares is declared on the type with the same name and the
// same numbers of parameters and results (pointer and value receivers
// alike; embedded interfaces and embedded fields are not followed, and
// parameter types are not compared). Go never says so in the
// source, so without these edges a change to an interface would not reach
// its implementations. To keep one-method interfaces such as Stringer
// from linking half a repository, a type counts only in the interface's
// own package or in a package that imports it. ws maps import paths to
// directories (nil: same-package implementations only).
func GoImplements(results []*extract.Result, ws *workspace.Info) []Implementation {
	sets := goMethodSets(results)
	imports := goPackageImports(results, ws)
	// method name → the types declaring it, for the rarest-method lookup.
	byMethod := map[string][]*goTypeInfo{}
	for _, ti := range sets.types {
		for m := range ti.methods {
			byMethod[m] = append(byMethod[m], ti)
		}
	}
	var out []Implementation
	for _, it := range sets.ifaces {
		if len(it.methods) == 0 {
			continue
		}
		rarest := it.methods[0]
		for _, m := range it.methods[1:] {
			if len(byMethod[m]) < len(byMethod[rarest]) {
				rarest = m
			}
		}
		for _, ti := range byMethod[rarest] {
			if ti.id == "" || (ti.dir != it.dir && !imports[ti.dir][it.dir]) {
				continue
			}
			if !slices.ContainsFunc(it.methods, func(m string) bool { a, ok := ti.methods[m]; return !ok || a != it.arity[m] }) {
				out = append(out, Implementation{Type: ti.id, Interface: it.id})
			}
		}
	}
	slices.SortFunc(out, func(a, b Implementation) int {
		if c := strings.Compare(a.Interface, b.Interface); c != 0 {
			return c
		}
		return strings.Compare(a.Type, b.Type)
	})
	return out
}

type goTypeInfo struct {
	id      string // the type's declaration node ("" until seen)
	dir     string
	methods map[string]extract.Arity
}

type goIfaceInfo struct {
	id      string
	dir     string
	methods []string
	arity   map[string]extract.Arity
}

type goSets struct {
	types  map[[2]string]*goTypeInfo // (package dir, type name)
	ifaces []*goIfaceInfo
}

// goMethodSets collects the declared methods of every Go type (methods
// may live in other files of the package than the type) and the explicit
// methods of every interface.
func goMethodSets(results []*extract.Result) goSets {
	s := goSets{types: map[[2]string]*goTypeInfo{}}
	typeOf := func(dir, name string) *goTypeInfo {
		k := [2]string{dir, name}
		ti := s.types[k]
		if ti == nil {
			ti = &goTypeInfo{dir: dir, methods: map[string]extract.Arity{}}
			s.types[k] = ti
		}
		return ti
	}
	for _, r := range results {
		if r == nil || r.Language != "go" {
			continue
		}
		dir := path.Dir(r.Path)
		prefix := extract.FileID(r.Path) + "::"
		ifaces := map[string]*goIfaceInfo{}
		for ni := range r.Nodes {
			n := &r.Nodes[ni]
			rest, ok := strings.CutPrefix(n.ID, prefix)
			if !ok {
				continue
			}
			owner, member, nested := strings.Cut(rest, "::")
			if nested && strings.Contains(member, "::") {
				continue // deeper than a type's member
			}
			k := goKindOf(n.Tags)
			switch {
			case !nested && k&goInterface != 0:
				it := &goIfaceInfo{id: n.ID, dir: dir, arity: map[string]extract.Arity{}}
				ifaces[owner] = it
				s.ifaces = append(s.ifaces, it)
			case !nested && k&goNamedType != 0:
				typeOf(dir, owner).id = n.ID
			case nested && k&goAbstract != 0:
				if it := ifaces[owner]; it != nil {
					it.methods = append(it.methods, member)
					it.arity[member] = r.Arity[n.ID]
				}
			case nested && k&goMethod != 0 && owner != "_":
				typeOf(dir, owner).methods[member] = r.Arity[n.ID]
			}
		}
	}
	return s
}

// goKind flags what a Go node's tags say it is.
type goKind uint8

const (
	goInterface goKind = 1 << iota
	goNamedType        // a struct or a type alias
	goAbstract         // an interface's method
	goMethod
)

// goKindOf reads the tags once (they are few; this runs for every node).
func goKindOf(tags []string) goKind {
	var k goKind
	for _, t := range tags {
		switch t {
		case extract.KindInterface:
			k |= goInterface
		case extract.KindStruct, extract.KindTypeAlias:
			k |= goNamedType
		case "abstract":
			k |= goAbstract
		case extract.KindMethod:
			k |= goMethod
		}
	}
	return k
}

// goPackageImports maps each Go package directory to the package
// directories of the repository its files import.
func goPackageImports(results []*extract.Result, ws *workspace.Info) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	if ws == nil {
		return out
	}
	for _, r := range results {
		if r == nil || r.Language != "go" {
			continue
		}
		dir := path.Dir(r.Path)
		for _, im := range r.Imports {
			if d, ok, _ := ws.GoModule(im.Module); ok {
				if d == "" {
					d = "."
				}
				if out[dir] == nil {
					out[dir] = map[string]bool{}
				}
				out[dir][d] = true
			}
		}
	}
	return out
}
