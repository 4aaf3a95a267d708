package documents

import (
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
)

// Module-level aliases: pyjwt's jwt/api_jwt.py ends with
// `encode = _jwt_global_obj.encode` (a bound method of a module-level
// instance) and its __init__ re-exports encode, so `jwt.encode(…)` in
// the docs names no def the graph has, and its calls were never checked
// (split5's held-out, drift-precision4.md). An alias is followed only
// when every step is bound exactly once in its module: `name = obj.attr`
// with `obj = Class()` a plain class of the project, `name = mod.attr`
// with mod an imported module of the project, or `name = other`.

// maxAliasHops bounds the re-exports followed from the page's module to
// the module that assigns the alias.
const maxAliasHops = 4

var (
	aliasRHSRe = regexp.MustCompile(`^([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?$`)
	madeByRe   = regexp.MustCompile(`^([A-Za-z_][\w.]*)\(`)
	fromLineRe = regexp.MustCompile(`^from\s+(\.*[\w.]*)\s+import\s+\(?([^)]*)\)?$`)
	importAsRe = regexp.MustCompile(`^import\s+([\w.]+)\s+as\s+(\w+)$`)
)

// pyBinding is how a module binds one name: an assignment's right-hand
// side, or the module and name an import takes it from.
type pyBinding struct {
	rhs          string // "obj.attr" for name = obj.attr
	from, orig   string // from <from> import <orig> [as name]
	importedMod  string // import <importedMod> as name
	defOrClassed bool   // def or class name
}

// aliasCallable resolves a call's dotted name through module-level
// aliases when the graph gives no single def for it.
func aliasCallable(src *driftSources, x *document.Index, g *graph.Graph, c exCall) (callable, bool) {
	if c.instance {
		return callable{}, false
	}
	i := strings.LastIndexByte(c.target, '.')
	if i < 0 {
		return callable{}, false
	}
	mod, name := c.target[:i], c.target[i+1:]
	for hop := 0; hop < maxAliasHops; hop++ {
		p, ok := oneModuleFile(x, mod)
		if !ok {
			return callable{}, false
		}
		text, ok := src.source(p)
		if !ok {
			return callable{}, false
		}
		bnd, ok := bindingIn(string(text), name)
		switch {
		case !ok || bnd.defOrClassed || bnd.importedMod != "":
			return callable{}, false
		case bnd.rhs != "":
			k, ok := aliasTarget(src, x, g, mod, string(text), bnd.rhs)
			k.via = name + " = " + bnd.rhs
			return k, ok
		}
		mod, name = absoluteModule(mod, p, bnd.from), bnd.orig
	}
	return callable{}, false
}

// aliasTarget is the def an alias's right-hand side names in module mod.
func aliasTarget(src *driftSources, x *document.Index, g *graph.Graph, mod, text, rhs string) (callable, bool) {
	m := aliasRHSRe.FindStringSubmatch(rhs)
	if m == nil {
		return callable{}, false
	}
	if m[2] == "" { // name = other
		return oneDef(src, x, g, mod+"."+m[1])
	}
	obj, ok := bindingIn(text, m[1])
	if !ok || obj.defOrClassed {
		return callable{}, false
	}
	switch {
	case obj.importedMod != "":
		return oneDef(src, x, g, obj.importedMod+"."+m[2])
	case obj.from != "" && obj.orig != "":
		p, _ := oneModuleFile(x, mod)
		sub := absoluteModule(mod, p, obj.from) + "." + obj.orig
		if _, ok := oneModuleFile(x, sub); !ok {
			return callable{}, false // an imported object, not a module: its type is unknown
		}
		return oneDef(src, x, g, sub+"."+m[2])
	}
	made := madeByRe.FindStringSubmatch(obj.rhs)
	if made == nil || closeOf(obj.rhs, len(made[0])-1) != len(obj.rhs)-1 {
		return callable{}, false // not one constructor call: the object's class is unknown
	}
	return boundMethod(src, x, g, mod+"."+made[1], m[2])
}

// boundMethod is method attr of the plain project class cls, defined in
// the class's own body.
func boundMethod(src *driftSources, x *document.Index, g *graph.Graph, cls, attr string) (callable, bool) {
	cs := x.PythonName(cls)
	if len(cs) != 1 || g.Type(cs[0]) != graph.Class {
		return callable{}, false
	}
	if _, ok := classCallable(g, src, x, cs[0]); !ok {
		return callable{}, false
	}
	id, ok := g.Lookup(g.ExternalID(cs[0]) + "::" + attr)
	if !ok || g.Type(id) != graph.Function {
		return callable{}, false
	}
	return defCallable(g, src, id, id, false)
}

// oneDef is the one function or class a dotted name resolves to.
func oneDef(src *driftSources, x *document.Index, g *graph.Graph, q string) (callable, bool) {
	ids := x.PythonName(q)
	if len(ids) != 1 {
		return callable{}, false
	}
	switch g.Type(ids[0]) {
	case graph.Function:
		return defCallable(g, src, ids[0], ids[0], true)
	case graph.Class:
		return classCallable(g, src, x, ids[0])
	}
	return callable{}, false
}

// oneModuleFile is the single source file of a Python module.
func oneModuleFile(x *document.Index, mod string) (string, bool) {
	paths, _ := x.PythonModuleFiles(mod)
	var src []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".py") {
			src = append(src, p)
		}
	}
	if len(src) != 1 {
		return "", false
	}
	return src[0], true
}

// absoluteModule turns an import's module, relative to module mod (file
// p), into a dotted name: `from .api import x` in kit/__init__.py is
// kit.api, in kit/core.py too.
func absoluteModule(mod, p, from string) string {
	rel := strings.TrimLeft(from, ".")
	dots := len(from) - len(rel)
	if dots == 0 {
		return from
	}
	pkg := strings.Split(mod, ".")
	if !strings.HasSuffix(p, "/__init__.py") && p != "__init__.py" {
		pkg = pkg[:len(pkg)-1]
	}
	pkg = pkg[:max(len(pkg)-(dots-1), 0)]
	if rel != "" {
		pkg = append(pkg, rel)
	}
	return strings.Join(pkg, ".")
}

// bindingIn finds how a Python module binds name; false when it binds
// it never or more than once outside def and class bodies (a second
// binding in an if or try branch makes the alias uncertain; a method of
// the same name is the class's, not the module's).
func bindingIn(text, name string) (pyBinding, bool) {
	var found []pyBinding
	body := -1 // indent of the def or class whose body is being skipped
	for _, l := range pyLines(text) {
		if body >= 0 && l.indent > body {
			continue
		}
		body = -1
		if bindHeadRe.MatchString(l.text) {
			body = l.indent
		}
		if b, ok := lineBinds(l.text, name); ok {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		return pyBinding{}, false
	}
	return found[0], true
}

// lineBinds reports whether one logical line binds name, and how.
func lineBinds(st, name string) (pyBinding, bool) {
	if m := bindHeadRe.FindStringSubmatch(st); m != nil {
		return pyBinding{defOrClassed: true}, m[1] == name
	}
	if m := fromLineRe.FindStringSubmatch(st); m != nil {
		for _, part := range strings.Split(m[2], ",") {
			orig, alias, hasAs := strings.Cut(strings.TrimSpace(part), " as ")
			orig, alias = strings.TrimSpace(orig), strings.TrimSpace(alias)
			if !hasAs {
				alias = orig
			}
			if alias == name {
				return pyBinding{from: m[1], orig: orig}, true
			}
		}
		return pyBinding{}, false
	}
	if m := importAsRe.FindStringSubmatch(st); m != nil {
		return pyBinding{importedMod: m[1]}, m[2] == name
	}
	lhs, rhs, ok := strings.Cut(st, "=")
	if !ok || strings.HasPrefix(rhs, "=") {
		return pyBinding{}, false
	}
	// "name: T = v" binds name too; "name += v" rebinds it (then the
	// right-hand side is no alias: the "+" stays on the binding).
	target, _, annotated := strings.Cut(lhs, ":")
	if strings.TrimRight(strings.TrimSpace(target), "+-*/%&|^@<>! ") != name {
		return pyBinding{}, false
	}
	if t := strings.TrimSpace(target); t != name && !annotated {
		return pyBinding{rhs: "(augmented)"}, true
	}
	return pyBinding{rhs: strings.TrimSpace(rhs)}, true
}
