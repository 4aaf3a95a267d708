package extract

import "strings"

// Receiver paths: a Go receiver whose type another file declares is
// handed to the resolver as a path it can evaluate with every file's
// declarations (resolve.Index.evalPath):
//
//	"@" module "|" head steps
//
// head is a type name (the module is its package's import path, "" for
// the caller's package) or a function call "F()" (module: F's package);
// steps are ".f" (a field), "[]" (an element of a slice, array or map)
// and ".m()" (a method's first result). `root := t[i].root` with t of the
// local type methodTrees declared elsewhere is "@|methodTrees[].root".
const goPathPrefix = "@"

// goPathMax bounds a path (hints are hashed and kept per edge): long
// enough for a fluent chain of twenty calls (zerolog's tests), which
// changed no edge of go-std (5,573 files) and no measurable memory.
const goPathMax = 400

// goExprDepth bounds exprType's recursion; a chain link takes two levels.
const goExprDepth = 48

// typeOrElem is typeOf that also sees through slices, arrays and maps,
// marking the type as a collection of its element.
func (x *goExtract) typeOrElem(ty int32) goType {
	if ty < 0 {
		return goType{}
	}
	var el int32 = -1
	switch x.code(ty) {
	case goSliceType, goArrayType:
		el = x.t.child(ty, x.k.fElement)
	case goMapType:
		el = x.t.child(ty, x.k.fValue)
	default:
		return x.typeOf(ty)
	}
	if gt := x.typeOf(el); gt.name != "" {
		gt.coll = true
		return gt
	}
	return goType{}
}

// member records a field or element type for the resolver:
// "T.f" or "T[]" → the type.
func (x *goExtract) member(key string, gt goType) {
	if gt.name == "" {
		return
	}
	if x.b.res.Fields == nil {
		x.b.res.Fields = map[string]TypeRef{}
	}
	x.b.res.Fields[key] = TypeRef{Name: gt.name, Module: gt.module, Coll: gt.coll}
}

// exportFields records the named-type fields of struct type name.
func (x *goExtract) exportFields(name string) {
	for f, gt := range x.fields[name] {
		x.member(name+"."+f, gt)
	}
}

func (s *goScope) forget(name string) {
	delete(s.vars, name)
	delete(s.paths, name)
	delete(s.calls, name)
}

// goBinding is what a scope knows of one local's type.
type goBinding struct {
	ty         goType
	path, call string
}

// save returns what the scope knows of name's type, for restore.
func (s *goScope) save(name string) goBinding {
	return goBinding{ty: s.vars[name], path: s.paths[name], call: s.calls[name]}
}

// restore sets name's type back to a saved binding.
func (s *goScope) restore(name string, b goBinding) {
	s.forget(name)
	s.bound(name, b.ty, b.path)
	if b.call != "" {
		if s.calls == nil {
			s.calls = map[string]string{}
		}
		s.calls[name] = b.call
	}
}

// isMethodCall reports whether call v is x.M(…) on a typed or pathed
// value (not pkg.F(…) or F(…), which the calls map types).
func (x *goExtract) isMethodCall(v int32, s *goScope) bool {
	fn := x.t.child(v, x.k.fFunction)
	if fn < 0 || x.code(fn) != goSelector {
		return false
	}
	op := x.t.child(fn, x.k.fOperand)
	if op < 0 {
		return false
	}
	if x.code(op) == goIdent {
		_, imp := x.imports[x.t.text(op)]
		return !imp
	}
	return true
}

// bindPath types local name from expression v: locally when this file
// tells, else as a receiver path.
func (x *goExtract) bindPath(name string, v int32, s *goScope) {
	ty, p := x.exprType(v, s, 0)
	s.bound(name, ty, p)
}

// rangeValue types the value variable of `for k, v := range e`.
func (x *goExtract) rangeValue(i int32, s *goScope) {
	t, k := x.t, x.k
	left := t.child(i, k.fLeft)
	if left < 0 || x.code(left) != goExprList {
		return
	}
	var vals []int32
	for n := t.first(left); n >= 0; n = t.n[n].next {
		if x.code(n) == goIdent {
			vals = append(vals, n)
		}
	}
	if len(vals) != 2 {
		return
	}
	name := t.text(vals[1])
	s.forget(name)
	ty, p := x.exprType(t.child(i, k.fRight), s, 0)
	ty, p = x.elemOf(ty, p)
	s.bound(name, ty, p)
}

// elemOf is the element of a collection type or path.
func (x *goExtract) elemOf(ty goType, p string) (goType, string) {
	switch {
	case ty.coll:
		ty.coll = false
		return ty, ""
	case ty.name != "" && ty.module == "":
		if et, ok := x.elems[ty.name]; ok {
			return et, ""
		}
		return goType{}, pathStep(headPath(ty), "[]")
	case ty.name != "":
		return goType{}, pathStep(headPath(ty), "[]")
	}
	return goType{}, pathStep(p, "[]")
}

// headPath starts a path at a known type.
func headPath(ty goType) string {
	if ty.coll {
		return ""
	}
	return goPathPrefix + ty.module + "|" + ty.name
}

// pathStep appends a step; "" when there is no path or it grows too long.
func pathStep(p, step string) string {
	if p == "" || len(p)+len(step) > goPathMax {
		return ""
	}
	return p + step
}

// exprType is the type of expression e when this file tells (a local
// type, or a local variable typed by its declaration), else a receiver
// path the resolver can evaluate, else nothing.
func (x *goExtract) exprType(e int32, s *goScope, depth int) (goType, string) {
	if e < 0 || depth > goExprDepth {
		return goType{}, ""
	}
	t, k := x.t, x.k
	switch x.code(e) {
	case goIdent:
		name := t.text(e)
		if ty, ok := s.vars[name]; ok {
			return ty, ""
		}
		if p, ok := s.paths[name]; ok {
			return goType{}, p
		}
		if c, ok := s.calls[name]; ok {
			return goType{}, callPath(c, "")
		}
		return x.packageVar(name, s)
	case goParenExpr:
		return x.exprType(t.first(e), s, depth+1)
	case goUnary:
		if ty := x.valueType(e); ty.name != "" {
			return ty, ""
		}
		return x.exprType(t.child(e, k.fOperand), s, depth+1) // *p, &v
	case goComposite:
		return x.typeOrElem(t.child(e, k.fType)), ""
	case goTypeAssert:
		return x.typeOf(t.child(e, k.fType)), ""
	case goIndexExpr:
		return x.elemOf(x.exprType(t.child(e, k.fOperand), s, depth+1))
	case goSelector:
		return x.fieldOf(e, s, depth)
	case goCall:
		return x.callType(e, s, depth)
	}
	return goType{}, ""
}

// fieldOf types op.f: a field of a typed value or path.
func (x *goExtract) fieldOf(e int32, s *goScope, depth int) (goType, string) {
	t, k := x.t, x.k
	op := t.child(e, k.fOperand)
	f := t.text(t.child(e, k.fField))
	if op < 0 || f == "" {
		return goType{}, ""
	}
	if x.code(op) == goIdent {
		if _, imp := x.imports[t.text(op)]; imp {
			return goType{}, "" // pkg.Var: not typed
		}
	}
	ty, p := x.exprType(op, s, depth+1)
	if ty.coll {
		return goType{}, ""
	}
	if ty.name != "" && ty.module == "" {
		if ft, ok := x.fields[ty.name][f]; ok {
			return ft, ""
		}
	}
	if ty.name != "" {
		p = headPath(ty)
	}
	return goType{}, pathStep(p, "."+f)
}

// callType types a call: a constructor or conversion the file tells, a
// method of a typed value or path (its first result), or pkg.F()/F()
// (the function's declared result).
func (x *goExtract) callType(e int32, s *goScope, depth int) (goType, string) {
	t, k := x.t, x.k
	if ty := x.valueType(e); ty.name != "" {
		return ty, ""
	}
	fn := t.child(e, k.fFunction)
	if fn < 0 {
		return goType{}, ""
	}
	switch x.code(fn) {
	case goIdent:
		return goType{}, callPath(t.text(fn)+"()", "")
	case goSelector:
		op := t.child(fn, k.fOperand)
		m := t.text(t.child(fn, k.fField))
		if op < 0 || m == "" {
			return goType{}, ""
		}
		if x.code(op) == goIdent {
			if mod, imp := x.imports[t.text(op)]; imp {
				return goType{}, callPath(m+"()", mod)
			}
		}
		ty, p := x.exprType(op, s, depth+1)
		if ty.coll {
			return goType{}, ""
		}
		if ty.name != "" {
			p = headPath(ty)
		}
		return goType{}, pathStep(p, "."+m+"()")
	}
	return goType{}, ""
}

// callPath makes a path headed by a call "F()" or "pkg.F()" (the calls
// map's form) of a function of module mod.
func callPath(call, mod string) string {
	name, ok := strings.CutSuffix(call, "()")
	if !ok {
		return ""
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if !isIdentString(name) {
		return ""
	}
	return pathStep(goPathPrefix+mod+"|"+name, "()")
}

func isIdentString(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isCallHead reports whether path p is a bare call "@mod|F()".
func isCallHead(p string) bool {
	_, rest, _ := strings.Cut(p, "|")
	head, rest := identPrefix(rest)
	return head != "" && rest == "()"
}

// identPrefix splits a leading identifier off s.
func identPrefix(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] >= 0x80) {
		i++
	}
	return s[:i], s[i:]
}

// PathNames lists the identifiers of a Go receiver path (types, fields,
// methods, the head function): what its typing depends on. It returns
// nil for a receiver that is not a path.
func PathNames(recv string) []string {
	rest, ok := strings.CutPrefix(recv, goPathPrefix)
	if !ok {
		return nil
	}
	if _, r, ok := strings.Cut(rest, "|"); ok {
		rest = r
	}
	var out []string
	for rest != "" {
		id, r := identPrefix(rest)
		if id != "" {
			out = append(out, id)
			rest = r
			continue
		}
		rest = rest[1:]
	}
	return out
}

// laterResults records the named types of a function's second, third …
// results as Returns[id#i] (the first is Returns[id]).
func (x *goExtract) laterResults(pl int32, id string) {
	t, k := x.t, x.k
	i := 0
	for p := t.first(pl); p >= 0 && i < goMaxResults; p = t.n[p].next {
		if x.code(p) != goParamDecl {
			continue
		}
		gt := x.typeOf(t.child(p, k.fType))
		n := 0
		for c := t.first(p); c >= 0; c = t.n[c].next {
			if t.n[c].field == k.fName {
				n++
			}
		}
		for range max(n, 1) {
			if i > 0 && i < goMaxResults && gt.name != "" {
				if x.b.res.Returns == nil {
					x.b.res.Returns = map[string]TypeRef{}
				}
				x.b.res.Returns[ResultKey(id, i)] = TypeRef{Name: gt.name, Module: gt.module}
			}
			i++
		}
	}
}

// goMaxResults bounds the results recorded per function.
const goMaxResults = 4

// ResultKey keys the i-th result (from 0) of function id in
// Result.Returns: id itself for the first, id#i for the others.
func ResultKey(id string, i int) string {
	if i == 0 {
		return id
	}
	return id + "#" + string(rune('0'+i))
}

// bindResults types names[1:] of `a, b := f(…)` or `pkg.F(…)` as paths
// to F's later results ("@mod|F()#1").
func (x *goExtract) bindResults(names []string, v int32, s *goScope) {
	t, k := x.t, x.k
	fn := t.child(v, k.fFunction)
	if fn < 0 {
		return
	}
	var name, mod string
	switch x.code(fn) {
	case goIdent:
		name = t.text(fn)
	case goSelector:
		op := t.child(fn, k.fOperand)
		if op < 0 || x.code(op) != goIdent {
			return
		}
		m, imp := x.imports[t.text(op)]
		if !imp {
			return
		}
		name, mod = t.text(t.child(fn, k.fField)), m
	default:
		return
	}
	head := callPath(name+"()", mod)
	for i := 1; i < len(names) && i < goMaxResults && head != ""; i++ {
		if names[i] == "" || names[i] == "_" {
			continue
		}
		s.forget(names[i])
		s.pathed(names[i], head+"#"+string(rune('0'+i)))
	}
}

// packageVar types a name that is no local: a package-level variable
// this file types, else a path to one another file of the package
// declares ("@|=name"; the resolver finds nothing for other names).
func (x *goExtract) packageVar(name string, s *goScope) (goType, string) {
	if name == "" || name == "_" || s.locals[name] || name == s.recv || goPredeclared[name] {
		return goType{}, ""
	}
	if _, imp := x.imports[name]; imp {
		return goType{}, ""
	}
	if _, typ := x.types[name]; typ {
		return goType{}, ""
	}
	if gt, ok := x.vars[name]; ok {
		return gt, ""
	}
	return goType{}, pathStep(goPathPrefix+"|="+name, "")
}

// packageVars records the types of package-level variables and typed
// constants for the resolver ("=name" in Result.Fields): a declared
// type, a value whose type is evident, or a call's result (Name "F()").
func (x *goExtract) packageVars(decl int32) {
	t, k := x.t, x.k
	end := t.end(decl)
	for sp := decl + 1; sp < end; sp++ {
		if c := x.code(sp); c != goVarSpec && c != goConstSpec {
			continue
		}
		var names []string
		for n := t.first(sp); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				names = append(names, t.text(n))
			}
		}
		if gt := x.typeOrElem(t.child(sp, k.fType)); gt.name != "" {
			for _, n := range names {
				x.packageVarType(n, gt)
			}
		} else if v := t.child(sp, k.fValue); v >= 0 && x.code(sp) == goVarSpec {
			vi := 0
			for e := t.first(v); e >= 0 && vi < len(names); e = t.n[e].next {
				x.packageVarValue(names[vi], e)
				vi++
			}
		}
		sp = t.end(sp) - 1
	}
}

func (x *goExtract) packageVarType(name string, gt goType) {
	if name == "" || name == "_" {
		return
	}
	if x.vars == nil {
		x.vars = map[string]goType{}
	}
	x.vars[name] = gt
	x.member("="+name, gt)
}

// packageVarValue types `var name = e`.
func (x *goExtract) packageVarValue(name string, e int32) {
	if gt := x.valueType(e); gt.name != "" {
		x.packageVarType(name, gt)
		return
	}
	p := x.funcCallPath(e, newGoScope(""))
	if p == "" || name == "_" {
		return
	}
	mod, call, _ := strings.Cut(p[len(goPathPrefix):], "|")
	x.member("="+name, goType{name: call, module: mod})
}

// funcCallPath is the path of a call of a function, F(…) of the
// package or pkg.F(…) of an import, "" for anything else.
func (x *goExtract) funcCallPath(v int32, s *goScope) string {
	t, k := x.t, x.k
	if x.code(v) != goCall {
		return ""
	}
	fn := t.child(v, k.fFunction)
	if fn < 0 {
		return ""
	}
	switch x.code(fn) {
	case goIdent:
		name := t.text(fn)
		if s.locals[name] || goBuiltinFuncs[name] {
			return ""
		}
		return callPath(name+"()", "")
	case goSelector:
		op := t.child(fn, k.fOperand)
		if op >= 0 && x.code(op) == goIdent {
			if mod, imp := x.imports[t.text(op)]; imp {
				return callPath(t.text(t.child(fn, k.fField))+"()", mod)
			}
		}
	}
	return ""
}
