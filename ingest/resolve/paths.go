package resolve

import (
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// fieldDecl is one file's declaration of a "Type.field" or "Type[]"
// member (extract.Result.Fields).
type fieldDecl struct {
	file int32
	ref  extract.TypeRef
}

// pathType is where path evaluation stands: a type, the import path of
// its package ("" for the referring package) and, when known, the
// directory declaring it (pkgDir: "" is unknown, "." the root).
type pathType struct {
	extract.TypeRef
	dir string
}

// pkgDir names file directory d in a pathType: the root package is ".",
// not "" (unknown), so a root package's members are looked up in it
// alone (rs/zerolog's enc is declared at the root and, differently, in
// tests of internal/json and internal/cbor).
func pkgDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// addFields indexes a file's member types.
func (ix *Index) addFields(fi int32, r *extract.Result) {
	if len(r.Fields) == 0 {
		return
	}
	if ix.fields == nil {
		ix.fields = map[string][]fieldDecl{}
	}
	keys := make([]string, 0, len(r.Fields))
	for k, tr := range r.Fields {
		ix.fields[k] = append(ix.fields[k], fieldDecl{file: fi, ref: tr})
		keys = append(keys, k)
	}
	for len(ix.fileFields) <= int(fi) {
		ix.fileFields = append(ix.fileFields, nil)
	}
	ix.fileFields[fi] = keys
}

// dropFields takes file fi's member types out.
func (ix *Index) dropFields(fi int32) {
	if int(fi) >= len(ix.fileFields) {
		return
	}
	for _, k := range ix.fileFields[fi] {
		ix.fields[k] = slices.DeleteFunc(ix.fields[k], func(d fieldDecl) bool { return d.file == fi })
		if len(ix.fields[k]) == 0 {
			delete(ix.fields, k)
		}
	}
	ix.fileFields[fi] = nil
}

// evalPath types a Go receiver path (see extract's goPathPrefix):
// "@mod|T.f[].m()" → the type of the last step. It fails, rather than
// guesses, when declarations disagree.
func (ix *Index) evalPath(from fileInfo, p string) (extract.TypeRef, bool) {
	rest, ok := strings.CutPrefix(p, "@")
	if !ok {
		return extract.TypeRef{}, false
	}
	mod, rest, ok := strings.Cut(rest, "|")
	if !ok {
		return extract.TypeRef{}, false
	}
	head, rest := pathIdent(rest)
	if head == "" && strings.HasPrefix(rest, "=") {
		head, rest = pathIdent(rest[1:])
		head = "=" + head
	}
	if head == "" || head == "=" {
		return extract.TypeRef{}, false
	}
	cur := pathType{TypeRef: extract.TypeRef{Name: head, Module: mod}}
	if mod == "" {
		cur.dir = pkgDir(from.dir)
	}
	if r, ok := strings.CutPrefix(rest, "()"); ok {
		nth := 0
		if len(r) >= 2 && r[0] == '#' && r[1] >= '1' && r[1] <= '9' {
			nth, r = int(r[1]-'0'), r[2:]
		}
		tr, ok := ix.callResultN(from, head, nth, mod)
		if !ok {
			return extract.TypeRef{}, false
		}
		cur = ix.inPackage(cur, tr, "")
		rest = r
	} else if v, ok := strings.CutPrefix(head, "="); ok {
		// A package-level variable of the referring package.
		pv, ok := ix.packageVar(from, cur, v)
		if !ok {
			return extract.TypeRef{}, false
		}
		if c, isCall := strings.CutSuffix(pv.Name, "()"); isCall {
			// Initialised by a call (Fields: Name "F()", Module F's).
			tr, ok := ix.callResultN(from, c, 0, pv.Module)
			if !ok {
				return extract.TypeRef{}, false
			}
			pv = ix.inPackage(cur, tr, "")
		}
		cur = pv
	}
	good := true
	for rest != "" && good {
		cur, rest, good = ix.pathStep(cur, rest)
	}
	if !good || cur.Coll || cur.Name == "" {
		return extract.TypeRef{}, false
	}
	return cur.TypeRef, true
}

// pathStep applies the first step of rest to cur.
func (ix *Index) pathStep(cur pathType, rest string) (pathType, string, bool) {
	if r, ok := strings.CutPrefix(rest, "[]"); ok {
		if cur.Coll {
			cur.Coll = false
			return cur, r, true
		}
		next, ok := ix.member(cur, cur.Name+"[]")
		return next, r, ok
	}
	r, ok := strings.CutPrefix(rest, ".")
	if !ok || cur.Coll {
		return cur, "", false
	}
	name, r := pathIdent(r)
	if name == "" {
		return cur, "", false
	}
	if r2, ok := strings.CutPrefix(r, "()"); ok {
		next, ok := ix.methodResult(cur, name)
		return next, r2, ok
	}
	next, ok := ix.member(cur, cur.Name+"."+name)
	if !ok {
		next, ok = ix.promoted(cur, name)
	}
	return next, r, ok
}

// member looks up key ("T.f", "T[]") among the declarations in cur's
// directory when it is known, else all of them; they must agree.
func (ix *Index) member(cur pathType, key string) (pathType, bool) {
	return ix.memberOf(cur, ix.fields[key])
}

// packageVar is member for package-level variable name: of a variable
// declared once per build (zerolog's enc is a json.Encoder under
// !binary_log, a cbor.Encoder under binary_log), the one built with the
// referring file.
func (ix *Index) packageVar(from fileInfo, cur pathType, name string) (pathType, bool) {
	decls := ix.fields["="+name]
	with := slices.DeleteFunc(slices.Clone(decls), func(d fieldDecl) bool { return !builtWith(from, ix.files[d.file]) })
	if len(with) > 0 && len(with) < len(decls) {
		decls = with
	}
	return ix.memberOf(cur, decls)
}

func (ix *Index) memberOf(cur pathType, decls []fieldDecl) (pathType, bool) {
	if cur.dir != "" {
		var in []fieldDecl
		for _, d := range decls {
			if pkgDir(ix.files[d.file].dir) == cur.dir {
				in = append(in, d)
			}
		}
		if len(in) > 0 {
			decls = in
		}
	}
	if len(decls) == 0 {
		return cur, false
	}
	first := decls[0]
	for _, d := range decls[1:] {
		if d.ref != first.ref {
			return cur, false
		}
	}
	dir := pkgDir(ix.files[first.file].dir)
	return ix.inPackage(cur, first.ref, dir), true
}

// promoted looks field name up in the types cur embeds (three levels).
func (ix *Index) promoted(cur pathType, name string) (pathType, bool) {
	seen := map[string]bool{cur.Name: true}
	level := []string{cur.Name}
	for depth := 0; depth < 3 && len(level) > 0; depth++ {
		var next []string
		for _, t := range level {
			for _, p := range ix.parents[t] {
				if seen[p] {
					continue
				}
				seen[p] = true
				if r, ok := ix.member(pathType{TypeRef: extract.TypeRef{Name: p, Module: cur.Module}, dir: cur.dir}, p+"."+name); ok {
					return r, true
				}
				next = append(next, p)
			}
		}
		level = next
	}
	return cur, false
}

// methodResult is the declared first result of method name of cur's
// type (or of a type it embeds): the methods found must agree.
func (ix *Index) methodResult(cur pathType, name string) (pathType, bool) {
	cands := ix.methodsOf(ix.byLabel[name], name, cur.Name)
	if cur.dir != "" {
		var in []int32
		for _, c := range cands {
			if pkgDir(ix.files[ix.cands[c].file].dir) == cur.dir {
				in = append(in, c)
			}
		}
		if len(in) > 0 {
			cands = in
		}
	}
	var out extract.TypeRef
	dir := ""
	for i, c := range cands {
		tr, ok := ix.rets[c]
		if !ok || (i > 0 && tr != out) {
			return cur, false
		}
		out, dir = tr, pkgDir(ix.files[ix.cands[c].file].dir)
	}
	if len(cands) == 0 {
		return cur, false
	}
	return ix.inPackage(cur, out, dir), true
}

// inPackage is type tr named in a declaration of cur's package (in dir):
// an unqualified name stays in that package.
func (ix *Index) inPackage(cur pathType, tr extract.TypeRef, dir string) pathType {
	if tr.Module != "" {
		return pathType{TypeRef: tr}
	}
	next := pathType{TypeRef: tr, dir: dir}
	next.Module = cur.Module
	if dir == "" && cur.Module == "" {
		next.dir = cur.dir
	}
	return next
}

// pathIdent splits a leading identifier off s.
func pathIdent(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] >= 0x80) {
		i++
	}
	return s[:i], s[i:]
}

// callResultN is callResult for the nth result (from 0) of the functions
// named callee: they must agree.
// Go names a function of its own package unqualified and another's
// through the import path mod: only those count.
func (ix *Index) callResultN(from fileInfo, callee string, nth int, mod string) (extract.TypeRef, bool) {
	var cands []int32
	if mod != "" {
		// pkg.F(): a function of pkg, never a method named F (zerolog's
		// Ctx() is a *Logger; Event.Ctx and Context.Ctx return others).
		locs, _ := ix.module(from, mod)
		cands = slices.DeleteFunc(ix.inLocations(ix.byLabel[callee], locs, false), func(c int32) bool { return ix.cands[c].owner != "" })
	} else {
		for _, c := range ix.byLabel[callee] {
			if cd := &ix.cands[c]; ix.files[cd.file].dir == from.dir && cd.owner == "" && ix.files[cd.file].fam == from.fam {
				cands = append(cands, c)
			}
		}
	}
	var out extract.TypeRef
	found := false
	for _, c := range cands {
		var tr extract.TypeRef
		var ok bool
		if nth == 0 {
			tr, ok = ix.rets[c]
		} else {
			tr, ok = ix.laterRets[[2]int32{c, int32(nth)}]
		}
		if !ok || (found && tr != out) {
			return extract.TypeRef{}, false
		}
		out, found = tr, true
	}
	return out, found && ix.isTypeName(out.Name)
}
