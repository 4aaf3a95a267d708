package resolve

import (
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// classOverConstructors drops the constructors whose class is itself a
// candidate: a class and its constructors share a name (Java, C#, C++,
// Kotlin, Scala), but a type use, an import, an extends and a `new X(…)`
// all name the class. On junit4 they made 917 of 1,204 ambiguous
// resolutions, every one of them bound to the class javac binds. It
// returns cands itself when nothing is dropped.
func (ix *Index) classOverConstructors(cands []int32) []int32 {
	if len(cands) < 2 {
		return cands
	}
	var classes map[string]bool
	for _, c := range cands {
		if isType(ix.cands[c].typ) {
			if classes == nil {
				classes = map[string]bool{}
			}
			classes[ix.cands[c].id] = true
		}
	}
	isCtor := func(c int32) bool {
		cd := &ix.cands[c]
		if isType(cd.typ) || cd.owner != cd.label {
			return false
		}
		parent, _, ok := cutLastSegment(cd.id)
		return ok && classes[parent]
	}
	if classes == nil || !slices.ContainsFunc(cands, isCtor) {
		return cands
	}
	return slices.DeleteFunc(slices.Clone(cands), isCtor)
}

// cutLastSegment splits "file::p::C::m(int)" into "file::p::C" and
// "m(int)".
func cutLastSegment(id string) (parent, last string, ok bool) {
	i := strings.LastIndex(id, "::")
	if i < 0 {
		return "", "", false
	}
	return id[:i], id[i+2:], true
}

// ctorLabel is the label a class's constructors carry in lang's family:
// Java, C#, C++ and Scala name them after the class, JavaScript and
// TypeScript `constructor`, Python `__init__`, PHP `__construct`, Ruby
// `initialize` (`X.new`). Go and Rust have none (a
// call of a type there is a conversion or a tuple struct), so "".
func ctorLabel(fam, class string) string {
	switch fam {
	case "js":
		return "constructor"
	case "python":
		return "__init__"
	case "php":
		return "__construct"
	case "ruby":
		return "initialize"
	case "jvm", "dotnet", "c":
		return class
	}
	return ""
}

// namedConstructors are the constructor labels of the languages that do
// not name a constructor after its class.
var namedConstructors = map[string]bool{"constructor": true, "__init__": true, "__construct": true, "initialize": true}

// IsConstructorLabel reports whether label names a constructor in a
// language that does not name it after its class: a class gaining or
// losing one moves every construction of it (and of its subclasses that
// inherit it, InheritsConstructor), which the incremental ingest must
// redo.
func IsConstructorLabel(label string) bool { return namedConstructors[label] }

// InheritsConstructor reports whether a class of language lang without a
// constructor of its own is constructed through its base's (constructors).
func InheritsConstructor(lang string) bool {
	fam := family(lang)
	return fam == "python" || fam == "js" || fam == "ruby"
}

// constructors are the constructors class c declares, smallest ID first.
// A JVM or C# class that declares none has an implicit one, which the
// class node stands for; a Python, JS or Ruby class inherits its base's
// __init__ / constructor / initialize (marshmallow: 77 of 237
// constructions), found through bases whose name one class of the family
// carries (Ruby: whose path names one).
func (ix *Index) constructors(c int32) []int32 {
	for range 5 { // a chain of bases, bounded against cycles
		out := ix.ownConstructors(c)
		fam := ix.files[ix.cands[c].file].fam
		if len(out) > 0 || !InheritsConstructor(fam) {
			return out
		}
		if c = ix.onlyBase(c); c < 0 {
			return nil
		}
	}
	return nil
}

// onlyBase is c's base class when c names one base and one type of c's
// family carries that name (Ruby: the one its path names), else -1.
func (ix *Index) onlyBase(c int32) int32 {
	cd := &ix.cands[c]
	if paths, ok := ix.rubyBases[c]; ok {
		// The superclass among the paths (the others are mixins, which
		// name modules).
		for _, path := range paths {
			if b := ix.rubyBase(c, path); b >= 0 {
				return b
			}
		}
		return -1
	}
	// Its own file's bases: ix.parents, by label, holds those of every
	// class of that name, in any language.
	var bases []string
	for _, k := range ix.fileParents[cd.file] {
		if k[0] == cd.label && !slices.Contains(bases, k[1]) {
			bases = append(bases, k[1])
		}
	}
	if len(bases) != 1 {
		return -1
	}
	fam := ix.files[cd.file].fam
	found := int32(-1)
	for _, b := range ix.byLabel[bases[0]] {
		if isType(ix.cands[b].typ) && ix.files[ix.cands[b].file].fam == fam && b != c {
			if found >= 0 {
				return -1
			}
			found = b
		}
	}
	return found
}

// ownConstructors are the constructors class c itself declares.
func (ix *Index) ownConstructors(c int32) []int32 {
	cd := &ix.cands[c]
	label := ctorLabel(ix.files[cd.file].fam, cd.label)
	if label == "" {
		return nil
	}
	var out []int32
	for _, m := range ix.byOwner[[2]string{cd.label, label}] {
		if parent, _, ok := cutLastSegment(ix.cands[m].id); ok && parent == cd.id && !isType(ix.cands[m].typ) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b int32) int { return strings.Compare(ix.cands[a].id, ix.cands[b].id) })
	return out
}

// constructed rebinds a call bound to a class — a construction: `new
// X(…)` in Java, C#, JavaScript and TypeScript, `X(…)` in Python and
// Kotlin — to the constructor the language runs, so impact and why on a
// constructor see its callers. The argument count picks among overloads;
// where several fit, all are bound (overloads.go). The class keeps its
// edge (in Also): the construction names it, and the analyses read a
// call of a class as its instantiation (flow's module_instance, taint).
// A class declaring no constructor keeps the call alone.
func (ix *Index) constructed(r Result, class int32, hint extract.RefHint) Result {
	ctors := ix.constructors(class)
	if len(ctors) == 0 {
		return r
	}
	if n, ok := hint.ArgCount(); ok {
		fit := slices.DeleteFunc(slices.Clone(ctors), func(c int32) bool {
			a, ok := ix.arity[c]
			return ok && !a.Accepts(n)
		})
		if len(fit) > 0 {
			ctors = fit
		}
	}
	ctors = ix.byArgKinds(ctors, hint.ArgKinds)
	first := &ix.cands[ctors[0]]
	r.Target, r.File, r.Node, r.Also = first.id, first.file, first.node, []string{ix.cands[class].id}
	for _, c := range ctors[1:] {
		r.Also = append(r.Also, ix.cands[c].id)
	}
	slices.Sort(r.Also)
	return r
}

// byArgKinds keeps, of constructors the argument count leaves, those
// whose parameters accept what the arguments evidently are (Kotlin's
// Color("red") and Color(0xff) are two constructors of one arity); all
// when none or every one does: nothing then tells them apart.
func (ix *Index) byArgKinds(ctors []int32, args string) []int32 {
	if len(ctors) < 2 || args == "" {
		return ctors
	}
	fit := slices.DeleteFunc(slices.Clone(ctors), func(c int32) bool {
		a, ok := ix.arity[c]
		return ok && a.Kinds != "" && !ix.argsFit(a.Kinds, args)
	})
	if len(fit) == 0 {
		return ctors
	}
	return fit
}

// argsFit reports whether parameters ("name:k,…", "?" after one with a
// default, "*" after a vararg: extract.Arity.Kinds) accept arguments
// ("k,name=k,$l", extract.RefHint.ArgKinds): positional ones in order,
// named ones by name, a trailing lambda as the last parameter, and every
// parameter without a default given one. A kind "_" on either side fits
// anything; "o" (a class no literal is a value of) fits only a lambda;
// an array ("a", arrayOf(…)) fits an Array parameter or a vararg.
// Classes named on both sides ("oOption") fit when may says a value of
// the argument's class may be one of the parameter's (nil: always).
func argsFit(params, args string, may func(arg, param string) bool) bool {
	var names, kinds []string
	var optional, vararg []bool
	for _, p := range strings.Split(params, ",") {
		n, k, _ := strings.Cut(p, ":")
		opt := strings.HasSuffix(k, "?") || strings.HasSuffix(k, "*")
		names, kinds, optional = append(names, n), append(kinds, strings.TrimRight(k, "?*")), append(optional, opt)
		vararg = append(vararg, strings.HasSuffix(k, "*"))
	}
	covered := make([]bool, len(kinds))
	pos := 0
	for _, a := range strings.Split(args, ",") {
		idx := -1
		switch n, k, named := strings.Cut(a, "="); {
		case strings.HasPrefix(a, "$"):
			idx, a = len(kinds)-1, a[1:]
		case named:
			if idx = slices.Index(names, n); idx < 0 {
				return false // no parameter of that name
			}
			a = k
		default:
			idx = pos
			pos++
		}
		if idx < 0 {
			return false // a trailing lambda, no parameter
		}
		if idx >= len(kinds) {
			continue // a vararg's further values
		}
		covered[idx] = true
		if !kindFits(kinds[idx], a, vararg[idx], may) {
			return false
		}
	}
	// Every parameter without a default must get a value: a named call
	// can leave one out that the count does not see.
	for i, c := range covered {
		if !c && !optional[i] {
			return false
		}
	}
	return true
}

// kindFits reports whether a parameter of kind k (a vararg's when vararg)
// may take an argument of kind a (argsFit).
func kindFits(k, a string, vararg bool, may func(arg, param string) bool) bool {
	switch {
	case a == "_" || k == "_" || k == a:
		return true
	case vararg && a == "a":
		return true // a vararg takes an array (`parameters = arrayOf(INT)`)
	case a == "C":
		return k == "c" || k == "i" // a Java char widens to int and long
	case !isClassKind(k):
		return false
	case a == "l":
		return true // a class takes a lambda by a SAM conversion
	case !isClassKind(a):
		return false
	case k == "o" || a == "o" || may == nil:
		return true // a class without its name: any class may be it
	}
	return may(a[1:], k[1:])
}

// isClassKind reports whether kind k is a class's: "o", or "o" and the
// class's simple name (Java's "oOption").
func isClassKind(k string) bool { return k != "" && k[0] == 'o' }

// argsFit is argsFit with the classes the index knows (classMayBe).
func (ix *Index) argsFit(params, args string) bool {
	return argsFit(params, args, ix.classMayBe)
}

// classMayBe reports whether a value of the class named arg may be one of
// the class named param: the same name, or param among arg's bases (by
// extends and implements, ix.parents). A base not declared in the index
// (a library's: Cloneable, AbstractList) has bases that are not known,
// but none of them is a class declared here, which a library cannot
// extend; so it may lead only to a param declared elsewhere. A param
// named like a nested class only (compile-testing's test class
// DiagnosticMessage.Processor) may still be a library's (javax's
// Processor): only a top-level declaration makes it surely local.
func (ix *Index) classMayBe(arg, param string) bool {
	local := ix.declaresType(param, true)
	seen := map[string]bool{arg: true}
	level := []string{arg}
	for range 8 { // bounded against cycles and deep chains
		var next []string
		for _, t := range level {
			switch {
			case t == param:
				return true
			case !ix.declaresType(t, false):
				if !local {
					return true
				}
				continue
			}
			for _, b := range ix.parents[t] {
				if !seen[b] {
					seen[b] = true
					next = append(next, b)
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		level = next
	}
	return true
}

// declaresType reports whether some JVM file of the index declares a type
// labelled name (at its top level when top).
func (ix *Index) declaresType(name string, top bool) bool {
	for _, c := range ix.byLabel[name] {
		cd := &ix.cands[c]
		if isType(cd.typ) && ix.files[cd.file].fam == "jvm" && (!top || cd.owner == "") {
			return true
		}
	}
	return false
}
