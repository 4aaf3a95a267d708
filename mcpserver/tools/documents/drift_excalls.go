package documents

import (
	"regexp"
	"strings"
)

// exCall is one call in a documentation example, with its callee
// resolved through the page's imports.
type exCall struct {
	line   int    // document line
	text   string // the call as written (cut to maxCallText)
	target string // the dotted name it calls ("tqdm.tqdm")
	pos    int    // positional arguments
	kws    []string
	// instance: a method called on an object the page made with a
	// constructor call (c = Client(…); c.send(…)); target is Class.method.
	instance bool
	// starPos, starKw: *seq or **map in the call, so the number of
	// positional arguments, or the keywords, are not all known.
	starPos, starKw bool
}

const maxCallText = 120

var (
	importRe   = regexp.MustCompile(`^import\s+(.+)$`)
	fromRe     = regexp.MustCompile(`^from\s+([\w.]+)\s+import\s+\(?([^)]*)\)?$`)
	bindHeadRe = regexp.MustCompile(`^(?:async\s+)?(?:def|class)\s+(\w+)`)
	forRe      = regexp.MustCompile(`^(?:async\s+)?for\s+(.+?)\s+in\s`)
	asRe       = regexp.MustCompile(`\bas\s+(\w+)`)
	calleeRe   = regexp.MustCompile(`[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*\s*$`)
	kwArgRe    = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=($|[^=])`)
	identOnly  = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

// exampleCalls reads a page's example blocks in order, with one
// namespace for the page (Sphinx's doctest and a tutorial's readers
// both carry names from one block to the next), and lists the calls
// whose callee an import of the page names.
func exampleCalls(blocks [][]exLine, pkg func(string) bool) []exCall {
	env := map[string]string{}
	var out []exCall
	eachStatement(blocks, func(st string, line int) {
		out = statementCalls(st, line, env, pkg, out)
	})
	return out
}

// eachStatement calls f with every statement of the example blocks, in
// order, and the document line its logical line starts on.
func eachStatement(blocks [][]exLine, f func(st string, line int)) {
	for _, b := range blocks {
		texts := make([]string, len(b))
		for i, l := range b {
			texts[i] = l.text
		}
		for _, ll := range pyLines(strings.Join(texts, "\n")) {
			line := b[min(ll.first, len(b))-1].line
			for _, st := range splitTop(ll.text, ';') {
				f(strings.TrimSpace(st), line)
			}
		}
	}
}

// statementCalls adds one statement's resolvable calls, then applies
// its imports and the names it binds.
func statementCalls(st string, line int, env map[string]string, pkg func(string) bool, out []exCall) []exCall {
	if m := importRe.FindStringSubmatch(st); m != nil {
		for _, part := range strings.Split(m[1], ",") {
			mod, alias, hasAs := strings.Cut(strings.TrimSpace(part), " as ")
			mod = strings.TrimSpace(mod)
			if hasAs {
				env[strings.TrimSpace(alias)] = mod
			} else {
				top, _, _ := strings.Cut(mod, ".")
				env[top] = top
			}
		}
		return out
	}
	if m := fromRe.FindStringSubmatch(st); m != nil {
		for _, part := range strings.Split(m[2], ",") {
			name, alias, hasAs := strings.Cut(strings.TrimSpace(part), " as ")
			name, alias = strings.TrimSpace(name), strings.TrimSpace(alias)
			if !hasAs {
				alias = name
			}
			if identOnly.MatchString(name) && identOnly.MatchString(alias) && !strings.HasPrefix(m[1], ".") {
				env[alias] = m[1] + "." + name
			}
		}
		return out
	}
	before := len(out)
	if !bindHeadRe.MatchString(st) { // a def's own name is no call
		out = findCalls(st, line, env, pkg, out)
	}
	for _, n := range boundNames(st) {
		delete(env, n) // the example's own name now, not the import
	}
	if m := madeRe.FindStringSubmatch(st); m != nil && len(out) > before {
		// The statement's first call is the one the name is bound to when
		// it spans the rest of the statement (an argument's call comes later).
		if c := out[before]; !c.instance && strings.HasSuffix(st, ")") && closeOf(st, len(m[0])-1) == len(st)-1 && strings.HasPrefix(st[len(m[0])-len(m[2]):], strings.TrimSuffix(c.text, "…")) {
			env[m[1]] = c.target + "()" // an object of the class the call makes, or what the function returns
		}
	}
	return out
}

// madeRe: "name = Callee(" — a name bound to what one call returns.
var madeRe = regexp.MustCompile(`^([A-Za-z_]\w*)\s*=\s*(([A-Za-z_][\w.]*)\()`)

// boundNames are the plain names a statement binds: def and class
// names, a def's parameters, assignment and for targets, `as` names. A
// parameter shadows an import in the def's body (kombu's
// get_consumers(self, Consumer, channel) calls its parameter Consumer,
// a partial, not kombu.Consumer); the page's later lines lose the import
// too, which leaves calls unchecked rather than checked against the
// wrong def.
func boundNames(st string) []string {
	if m := bindHeadRe.FindStringSubmatch(st); m != nil {
		out := []string{m[1]}
		if sig, ok := parseSig(st); ok && strings.Contains(m[0], "def") {
			for _, p := range sig.params {
				out = append(out, p.name)
			}
		}
		return out
	}
	var out []string
	if m := forRe.FindStringSubmatch(st); m != nil {
		out = append(out, targetNames(m[1])...)
	}
	for _, m := range asRe.FindAllStringSubmatch(st, -1) {
		out = append(out, m[1])
	}
	parts := splitTop(st, '=')
	for i := 0; i+1 < len(parts); i++ {
		lhs, rhs := parts[i], parts[i+1]
		if strings.HasSuffix(lhs, "!") || strings.HasSuffix(lhs, "<") || strings.HasSuffix(lhs, ">") || strings.HasSuffix(lhs, "=") || strings.HasPrefix(rhs, "=") {
			continue // a comparison, not an assignment
		}
		out = append(out, targetNames(strings.TrimRight(lhs, "+-*/%&|^@: "))...)
	}
	return out
}

// targetNames are the plain names of an assignment target ("a, (b, c)").
func targetNames(t string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == ' ' }) {
		if identOnly.MatchString(p) {
			out = append(out, p)
		}
	}
	return out
}

// findCalls lists the calls in a statement (outside string literals)
// whose callee's first name the page imported, or, dotted, is the
// project's own top-level package (arrow.get(…) on arrow's pages, with
// no `import arrow` shown; added after the held-out run of
// benchmarks/results/drift-examples.md, which checked no call without it).
func findCalls(st string, line int, env map[string]string, pkg func(string) bool, out []exCall) []exCall {
	scanBrackets(st, 0, func(i, depth int) bool {
		if st[i] != '(' {
			return true
		}
		loc := calleeRe.FindStringIndex(st[:i])
		if loc == nil {
			return true
		}
		callee := strings.Join(strings.Fields(strings.ReplaceAll(st[loc[0]:i], ".", " ")), ".")
		from := loc[0]
		if j := loc[0] - 2; j >= 0 && st[loc[0]-1] == '.' && st[j] == ')' && !strings.Contains(callee, ".") {
			// A method of what a call returns (pendulum.now().subtract(…)):
			// its receiver is typed as a name bound to that call would be.
			open := openOf(st, j)
			inner := calleeRe.FindStringIndex(st[:max(open, 0)])
			if open < 0 || inner == nil || inner[0] > 0 && strings.ContainsRune(".)]", rune(st[inner[0]-1])) {
				return true
			}
			callee = strings.Join(strings.Fields(strings.ReplaceAll(st[inner[0]:open], ".", " ")), ".") + "()." + callee
			from = inner[0]
		} else if loc[0] > 0 && strings.ContainsRune(".)]", rune(st[loc[0]-1])) {
			return true // a method of an expression: its type is unknown
		}
		target, instance, ok := calleeTarget(callee, env, pkg)
		if !ok {
			return true
		}
		end := closeOf(st, i)
		c := exCall{line: line, text: st[from:min(end+1, len(st))], target: target, instance: instance}
		if len(c.text) > maxCallText {
			c.text = c.text[:maxCallText] + "…"
		}
		readArgs(st[i+1:min(end, len(st))], &c)
		out = append(out, c)
		return true
	})
	return out
}

// calleeTarget is the dotted name a callee as written calls, through the
// page's imports: "Class.method" with instance true for a method of an
// object the page made ("b.grow" after b = kit.Box(…)), or of what a
// call returns ("kit.now().shift", written so by findCalls).
func calleeTarget(callee string, env map[string]string, pkg func(string) bool) (target string, instance, ok bool) {
	if maker, method, made := strings.Cut(callee, "()."); made {
		if t, inst, ok := calleeTarget(maker, env, pkg); ok && !inst && !strings.Contains(method, ".") {
			return t + "." + method, true, true
		}
		return "", false, false
	}
	first, rest, _ := strings.Cut(callee, ".")
	mod, ok := env[first]
	if !ok && rest != "" && pkg != nil && pkg(first) {
		mod, ok = first, true
	}
	if !ok {
		return "", false, false
	}
	target = mod
	if cls, made := strings.CutSuffix(mod, "()"); made {
		if rest == "" || strings.Contains(rest, ".") {
			return "", false, false // the object called, or an attribute's method
		}
		target, instance = cls, true
	}
	if rest != "" {
		target += "." + rest
	}
	return target, instance, true
}

// openOf is the index of the bracket that the closing one at j closes;
// -1 when none does.
func openOf(s string, j int) int {
	for i := j - 1; i >= 0; i-- {
		if (s[i] == '(' || s[i] == '[' || s[i] == '{') && closeOf(s, i) == j {
			return i
		}
	}
	return -1
}

// readArgs counts a call's positional arguments and lists its keywords.
func readArgs(args string, c *exCall) {
	for _, a := range joinLambdas(splitTop(args, ',')) {
		a = strings.TrimSpace(a)
		switch {
		case a == "":
		case strings.HasPrefix(a, "**"):
			c.starKw = true
		case strings.HasPrefix(a, "*"):
			c.starPos = true
		case kwArgRe.MatchString(a):
			c.kws = append(c.kws, kwArgRe.FindStringSubmatch(a)[1])
		default:
			c.pos++
		}
	}
}

var lambdaRe = regexp.MustCompile(`^\s*(?:[A-Za-z_]\w*\s*=\s*)?lambda\b`)

// joinLambdas puts a lambda's parameters back together: the commas of
// "lambda a, b: …" are no argument separators.
func joinLambdas(parts []string) []string {
	var out []string
	for i := 0; i < len(parts); i++ {
		a := parts[i]
		for lambdaRe.MatchString(a) && len(splitTop(a, ':')) < 2 && i+1 < len(parts) {
			i++
			a += "," + parts[i]
		}
		out = append(out, a)
	}
	return out
}
