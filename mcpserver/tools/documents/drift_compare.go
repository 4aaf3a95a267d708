package documents

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A Python def or class is stale for its document only when its surface
// reads differently from the text the file had at the document's date
// (benchmarks/results/drift-heldout3.md): the decorators, the parameters
// (names, kinds, defaults; types only for a page about types), and for a
// class its bases, docstring, public class attributes, public and dunder
// methods' signatures and the whole of __call__. Comparing
// whole texts, not hunks, clears multi-line annotation rewrites, hunks
// that mix an annotation with a body edit, and docstring or body
// refactors; what differs is said in the finding, so an agent can check
// it in one step.

// pySurface is a def's or class's surface, part by part, normalized;
// keys are "member|part|name" ("" member for the def itself).
type pySurface map[string]string

var (
	pyAttrRe = regexp.MustCompile(`^([A-Za-z_]\w*)\s*(:|=|\+=)`)
	spaceRe  = regexp.MustCompile(`\s+`)
)

// surfaceOf reads the surface of the def or class qual (Outer.name) in
// Python text; false when the text has no such def.
func surfaceOf(text, qual string, keepTypes bool) (pySurface, bool) {
	ls := pyLines(text)
	defs := pyOutline(ls)
	d, ok := findDef(defs, qual)
	if !ok {
		return nil, false
	}
	s := pySurface{}
	if d.class {
		classParts(ls, defs, d, keepTypes, s)
	} else {
		funcParts(ls, d, keepTypes, "", s)
	}
	return s, true
}

// squash drops whitespace, typing qualifiers and trailing commas.
func squash(s string) string {
	s = qualifierRe.ReplaceAllString(spaceRe.ReplaceAllString(s, ""), "")
	return strings.NewReplacer(",)", ")", ",]", "]", ",}", "}").Replace(s)
}

// typeText is an annotation without spacing or quotes: a forward
// reference "BoundLogger" and BoundLogger are one type (structlog's
// types.rst was dated by the quotes' removal on the history harness).
func typeText(s string) string {
	return strings.NewReplacer(`"`, "", "'", "").Replace(squash(s))
}

// decorators are the normalized decorator lines above d.
func decorators(ls []pyLine, d pyDef) string {
	var out []string
	for i := d.head - 1; i >= 0 && ls[i].first >= d.start; i-- {
		out = append(out, squash(ls[i].text))
	}
	slices.Reverse(out)
	return strings.Join(out, ";")
}

// funcParts adds a def's decorators, async-ness, parameters (and, with
// keepTypes, annotations and return type) under member.
func funcParts(ls []pyLine, d pyDef, keepTypes bool, member string, s pySurface) {
	key := func(part, name string) string { return member + "|" + part + "|" + name }
	s[key("def", "")] = ""
	if dec := decorators(ls, d); dec != "" {
		s[key("decorators", "")] = dec
	}
	head := ls[d.head].text
	if strings.HasPrefix(head, "async") {
		s[key("async", "")] = "async"
	}
	open := strings.IndexByte(head, '(')
	if open < 0 {
		return
	}
	cl := closeOf(head, open)
	if keepTypes && cl < len(head) {
		if rest := strings.TrimSpace(head[cl+1:]); strings.HasPrefix(rest, "->") {
			s[key("returns", "")] = typeText(splitTop(rest[2:], ':')[0])
		}
	}
	var order []string
	kwOnly := false
	for _, p := range splitTop(head[open+1:min(cl, len(head))], ',') {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		eq := splitTop(p, '=')
		nameType := splitTop(eq[0], ':')
		name := strings.TrimSpace(nameType[0])
		if name == "*" || name == "/" {
			kwOnly = kwOnly || name == "*"
			continue // a kind marker: the parameters' kinds say it
		}
		show := name
		if strings.HasPrefix(name, "*") {
			name = name[:strings.LastIndexByte(name, '*')+1]
			show = name // *args and **kwargs: their names do not matter to callers
		}
		if keepTypes && len(nameType) > 1 {
			show += ": " + typeText(strings.Join(nameType[1:], ":"))
		}
		if len(eq) > 1 {
			show += "=" + squash(strings.Join(eq[1:], "="))
		}
		if kwOnly && !strings.HasPrefix(name, "*") {
			show += " (keyword-only)"
		}
		kwOnly = kwOnly || strings.HasPrefix(name, "*")
		order = append(order, name)
		s[key("param", name)] = show
	}
	s[key("order", "")] = strings.Join(order, ",")
}

// classParts adds a class's decorators, bases, docstring, public class
// attributes and its public and dunder methods' surfaces, and the body
// of __init__, __new__ and __call__.
func classParts(ls []pyLine, defs []pyDef, d pyDef, keepTypes bool, s pySurface) {
	if dec := decorators(ls, d); dec != "" {
		s["|decorators|"] = dec
	}
	head := ls[d.head].text
	if open := strings.IndexByte(head, '('); open >= 0 {
		if b := bases(head[open+1:min(closeOf(head, open), len(head))], keepTypes); b != "" {
			s["|bases|"] = b
		}
	}
	if d.head+1 >= len(ls) || ls[d.head+1].indent <= d.indent {
		return
	}
	body := ls[d.head+1].indent
	for i := d.head + 1; i < len(ls) && ls[i].first <= d.end; i++ {
		l := ls[i]
		if l.indent != body || strings.HasPrefix(l.text, "@") {
			continue
		}
		if i == d.head+1 && isDocstring(l.text) {
			s["|docstring|"] = strings.Join(strings.Fields(strings.Trim(l.text, `"'rRuU`)), " ")
			continue
		}
		if m := pyHeadRe.FindStringSubmatch(l.text); m != nil {
			memberParts(ls, defs, d.name+"."+m[3], m[3], keepTypes, s)
			continue
		}
		m := pyAttrRe.FindStringSubmatch(l.text)
		switch {
		case m == nil:
			s["|statement|"+squash(l.text)] = ""
		case !private(m[1]):
			s["|attribute|"+m[1]] = normStatement(l.text, keepTypes)
		}
	}
}

// bases are a class's bases by their last name, without subscripts
// unless keepTypes ("MutableSet" and "cabc.MutableSet[str]" are one).
// An explicit "object" is left out: every Python 3 class has it, and
// pyupgrade's "class X(object):" → "class X:" changes no API (boltons'
// Table and URL on the held-out run of drift-examples.md).
func bases(list string, keepTypes bool) string {
	var out []string
	for _, b := range splitTop(list, ',') {
		if b = squash(b); b == "" || b == "object" || b == "builtins.object" {
			continue
		}
		if keepTypes {
			out = append(out, b)
			continue
		}
		if i := strings.IndexByte(b, '['); i >= 0 {
			b = b[:i]
		}
		out = append(out, b[strings.LastIndexByte(b, '.')+1:])
	}
	return strings.Join(out, ",")
}

// memberParts adds one member def or nested class of a class.
func memberParts(ls []pyLine, defs []pyDef, qual, name string, keepTypes bool, s pySurface) {
	md, ok := findDef(defs, qual)
	if !ok || private(name) {
		return
	}
	if md.class {
		s["|class|"+name] = squash(ls[md.head].text)
		return
	}
	funcParts(ls, md, keepTypes, name, s)
	if !wholeBodies[name] {
		return
	}
	var b []string
	for j := md.head + 1; j < len(ls) && ls[j].first <= md.end; j++ {
		if j == md.head+1 && isDocstring(ls[j].text) {
			continue // the constructor's docstring is prose, as a method's
		}
		b = append(b, normStatement(ls[j].text, keepTypes))
	}
	s[name+"|body|"] = strings.Join(b, "\n")
}

// private: "_x", not a dunder.
func private(name string) bool {
	return strings.HasPrefix(name, "_") && !strings.HasSuffix(name, "__")
}

func isDocstring(text string) bool {
	t := strings.TrimLeft(text, "rRuU")
	return strings.HasPrefix(t, `"`) || strings.HasPrefix(t, "'")
}

// normStatement is a statement without what only types say (unless
// keepTypes) and without spacing.
func normStatement(text string, keepTypes bool) string {
	if keepTypes {
		return squash(text)
	}
	return squash(typeless([]string{text}))
}

// surfaceChanges says what differs between a surface at the document's
// date and today's that can make a document's claim false. An addition
// that leaves every old call and claim valid (a method, a parameter with
// a default, a class attribute, a docstring where there was none) is the
// near miss the judging in benchmarks/results/drift*.md does not count;
// so is a change to a method, attribute or parameter the section never
// names (named tells), and a docstring edit that announces no change of
// behaviour (announces).
func surfaceChanges(old, now pySurface, named func(string) bool) []string {
	if wasDef, isDef := hasKey(old, "|def|"), hasKey(now, "|def|"); wasDef != isDef {
		// A function that became a class (starlette's TestClient) or back:
		// its parts are of two kinds and compare as noise ("base classes
		// added;  removed" was read on the history harness).
		if isDef {
			return []string{"became a function (a class at the document's date)"}
		}
		return []string{"became a class (a function at the document's date)"}
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range now {
			if !yield(k) {
				return
			}
		}
		for k := range old {
			if _, ok := now[k]; !ok && !yield(k) {
				return
			}
		}
	})
	var out []string
	for _, k := range keys {
		member, rest, _ := strings.Cut(k, "|")
		part, name, _ := strings.Cut(rest, "|")
		o, inOld := old[k]
		n, inNow := now[k]
		if inOld && inNow && o == n || additive(part, name, n, inOld) || relaxed(part, o, n) || basesKept(part, o, n) || part == "statement" || !relevant(member, part, name, inOld, inNow, named) {
			continue
		}
		_, memberOld := old[member+"|def|"]
		_, memberNow := now[member+"|def|"]
		switch {
		case part == "docstring" && !announces(o, n, named):
		case part == "attribute" && !inNow && hasKey(now, name+"|def|"):
		case member != "" && part == "def" && !inNow:
			if !hasKey(now, "|attribute|"+member) {
				out = append(out, fmt.Sprintf("method `%s` removed", member))
			}
		case member != "" && (!memberOld || !memberNow):
			// a method added (additive) or removed (said once, above)
		case part == "order" && paramsMoved(old, now, member):
		default:
			out = append(out, describe(member, part, name, o, n, inOld, inNow))
		}
	}
	return out
}

func hasKey(s pySurface, k string) bool {
	_, ok := s[k]
	return ok
}

// classWide are the members whose change concerns every mention of the
// class: the class itself and its constructor. __call__ counts only where
// the section names it: on the history harness of
// benchmarks/results/drift-precision.md its body or async-ness (an ASGI
// app's whole behaviour, a processor's rendering) changed under some 50
// distinct sections of starlette and structlog that only construct or
// mount the class, none of which a later doc fix touched.
var classWide = map[string]bool{"": true, "__init__": true, "__new__": true}

// relevant: a change the section speaks to. A method or attribute's, or a
// parameter's other than a new required one, counts only when the
// section names it; the class's own parts always count.
func relevant(member, part, name string, inOld, inNow bool, named func(string) bool) bool {
	if named == nil {
		return true
	}
	if !classWide[member] && !named(member) {
		return false
	}
	switch part {
	case "param":
		return inNow && !inOld || named(strings.TrimLeft(name, "*"))
	case "attribute", "class":
		return named(name)
	}
	return true
}

// Docstring sentences that announce a change of behaviour, those that
// announce an addition, and the names they quote in reST literals.
var (
	announceRe = regexp.MustCompile(`(?i)versionchanged|deprecat|versionremoved|no longer|will be removed|removed in`)
	additionRe = regexp.MustCompile(`(?i)\bwas added\b|\bcan be used\b|versionadded`)
	quotedRe   = regexp.MustCompile("``([A-Za-z_][\\w.]*)``")
)

// announces: the docstring gained a sentence announcing a change of
// behaviour or a deprecation (structlog's AsyncBoundLogger, ConsoleRenderer),
// not an addition, and about nothing the section leaves unnamed (werkzeug's
// removed on_update parameter, under a page that never passes it);
// rewordings, typo and quote fixes announce none.
func announces(old, now string, named func(string) bool) bool {
	had := map[string]bool{}
	for _, s := range strings.Split(old, ". ") {
		had[s] = true
	}
	for _, s := range strings.Split(now, ". ") {
		if had[s] || !announceRe.MatchString(s) || additionRe.MatchString(s) {
			continue
		}
		quoted := quotedRe.FindAllStringSubmatch(s, -1)
		speaks := len(quoted) == 0 || named == nil
		for _, q := range quoted {
			speaks = speaks || named(q[1])
		}
		if speaks {
			return true
		}
	}
	return false
}

// additive: a part that is new and leaves old calls and claims valid.
func additive(part, name, now string, inOld bool) bool {
	if inOld {
		return false
	}
	switch part {
	case "docstring", "attribute", "class", "def", "bases":
		return true
	case "param":
		return strings.HasPrefix(name, "*") || strings.Contains(now, "=")
	}
	return false
}

// relaxed: a required parameter that gained a default, which every old
// call still satisfies (starlette's Mount(path, app) → app=None, flagged
// on the history harness of benchmarks/results/drift-precision.md).
func relaxed(part, old, now string) bool {
	return part == "param" && !strings.Contains(old, "=") && strings.HasPrefix(now, old+"=")
}

// basesKept: every old base is still a base, so a mixin was added
// (rich's JupyterMixin on Text, Table and Panel, cattrs' CattrsError
// beside ExceptionGroup): what the class was, it still is.
func basesKept(part, old, now string) bool {
	if part != "bases" {
		return false
	}
	have := strings.Split(now, ",")
	for _, b := range strings.Split(old, ",") {
		if !slices.Contains(have, b) {
			return false
		}
	}
	return true
}

// paramsMoved: a parameter of member was added or removed, which
// already explains a change of order.
func paramsMoved(old, now pySurface, member string) bool {
	p := member + "|param|"
	for k := range now {
		if _, ok := old[k]; strings.HasPrefix(k, p) && !ok {
			return true
		}
	}
	for k := range old {
		if _, ok := now[k]; strings.HasPrefix(k, p) && !ok {
			return true
		}
	}
	return false
}

// describe says one change: "parameter `x` added", "`__init__`: body
// changed", "default of … : `a` → `b`".
func describe(member, part, name, o, n string, inOld, inNow bool) string {
	what := map[string]string{"decorators": "decorators", "async": "async", "returns": "return type", "order": "parameter order",
		"bases": "base classes", "docstring": "docstring", "body": "body", "param": "parameter `" + name + "`",
		"attribute": "class attribute `" + name + "`", "class": "nested class `" + name + "`", "statement": "a class-level statement"}[part]
	verb := "changed"
	switch {
	case !inOld && part == "param":
		return strings.TrimPrefix(fmt.Sprintf("`%s`: parameter `%s` added", member, n), "``: ")
	case !inOld:
		verb = "added"
	case !inNow:
		verb = "removed"
	case part == "param" || part == "attribute" || part == "returns":
		if len(o)+len(n) <= 80 {
			verb = fmt.Sprintf("changed (`%s` → `%s`)", o, n)
		}
	}
	if member != "" {
		return fmt.Sprintf("`%s`: %s %s", member, what, verb)
	}
	return what + " " + verb
}
