package contract

import (
	"regexp"
	"strings"
)

// hole stands for a value the source computes (a template hole, a
// variable operand, a printf verb) in a path template.
const hole = '\x00'

// Param is how a normalised path writes a parameter segment: ":id",
// "{id}", "<int:id>", "${id}" and "%d" all become "{}".
const Param = "{}"

var (
	printfVerb  = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
	literalSeg  = regexp.MustCompile(`^[A-Za-z0-9_.~@!$,;=+-]+$`)
	schemeHost  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*`)
	methodNames = map[string]bool{"GET": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true, "HEAD": true, "OPTIONS": true}
)

// NormPath turns a route or a request path template into the form both
// sides share: no scheme, host, base-URL operand, query or fragment, no
// empty or trailing segment, every parameter segment written "{}". ok is
// false for what is not an absolute path with at least one literal
// segment (a catch-all "/" or "/{path}" matches anything and proves
// nothing).
func NormPath(tmpl string) (key string, ok bool) {
	s := strings.TrimLeft(tmpl, string(hole)) // a base URL held in a variable
	if loc := schemeHost.FindStringIndex(s); loc != nil {
		s = s[loc[1]:]
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if !strings.HasPrefix(s, "/") {
		return "", false
	}
	// A value appended to the last literal ("/users" + query) is a
	// suffix of that segment, not a segment of its own.
	if t := strings.TrimRight(s, string(hole)); len(t) < len(s) && !strings.HasSuffix(t, "/") {
		s = t
	}
	var segs []string
	lits := 0
	for _, seg := range strings.Split(s, "/") {
		switch {
		case seg == "":
			continue
		case isParam(seg):
			seg = Param
		case literalSeg.MatchString(seg):
			lits++
		default:
			return "", false
		}
		segs = append(segs, seg)
	}
	if lits == 0 {
		return "", false
	}
	return "/" + strings.Join(segs, "/"), true
}

func isParam(seg string) bool {
	return strings.ContainsRune(seg, hole) || strings.ContainsAny(seg[:1], ":{<*") ||
		strings.HasPrefix(seg, "${") || printfVerb.MatchString(seg)
}

// Matches reports whether a request path reaches a route and how many
// literal segments agree (the more, the more specific the route). A
// route's parameter takes any segment; a request's computed segment
// reaches only a parameter.
func Matches(route, request string) (specific int, ok bool) {
	rs, qs := strings.Split(route, "/"), strings.Split(request, "/")
	if len(rs) != len(qs) {
		return 0, false
	}
	for i := range rs {
		switch {
		case rs[i] == Param || rs[i] == "":
		case rs[i] != qs[i]:
			return 0, false
		default:
			specific++
		}
	}
	return specific, true
}

// SameMethod: two methods agree when equal or when either is unknown.
func SameMethod(a, b string) bool { return a == "" || b == "" || a == b }

// mountSeg: a segment an API is commonly mounted under.
var mountSeg = regexp.MustCompile(`^(api|rest|v[0-9]+)$`)

// Unmounted drops the leading segments an API is commonly mounted under
// ("/api", "/api/v1", "/v2"): a client's base URL or a server's mount
// point in another file often holds them. ok is false when nothing was
// dropped or no literal segment is left.
func Unmounted(p string) (string, bool) {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	i := 0
	for i < len(segs) && mountSeg.MatchString(segs[i]) {
		i++
	}
	if i == 0 {
		return "", false
	}
	return NormPath("/" + strings.Join(segs[i:], "/"))
}
