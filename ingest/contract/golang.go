package contract

import (
	"regexp"
	"strings"
)

var (
	// goCalls: the calls that may register a route or make a request.
	goCalls = nameSet("HandleFunc", "Handle", "Method", "MethodFunc", "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "Any",
		"Get", "Post", "Put", "Delete", "Patch", "Head", "Options", "PostForm", "NewRequest", "NewRequestWithContext")
	// goGroup: g := r.Group("/api") (gin, echo, fiber).
	goGroup = regexp.MustCompile(`\b(\w+)\s*:?=\s*(\w+)\.Group\(\s*"([^"]*)"`)
	// goRoute: r.Route("/api", func(r chi.Router) { … }) (chi).
	goRoute = regexp.MustCompile(`\b(\w+)\.Route\(\s*"([^"]*)"\s*,\s*func\s*\(\s*(\w+)`)
	// goMethods: gorilla's .Methods("GET") after a HandleFunc.
	goMethods = regexp.MustCompile(`^\s*\.Methods\(\s*"(\w+)"`)
	// goMethodConst: http.MethodGet.
	goMethodConst = regexp.MustCompile(`^http\.Method(\w+)$`)
)

// scope is a block of a file where a router variable carries a prefix.
type scope struct {
	from, to    int
	router, pre string
}

// prefixes holds the route prefixes of a file's router variables.
type prefixes struct{ scopes []scope }

func (p *prefixes) of(router string, at int) string {
	pre := ""
	for _, s := range p.scopes {
		if s.router == router && s.from <= at && at <= s.to && len(s.pre) > len(pre) {
			pre = s.pre
		}
	}
	return pre
}

func goPrefixes(t *text) *prefixes {
	p := &prefixes{}
	if !strings.Contains(t.src, ".Group(") && !strings.Contains(t.src, ".Route(") {
		return p
	}
	for _, m := range goGroup.FindAllStringSubmatchIndex(t.src, -1) {
		v, parent, lit := t.src[m[2]:m[3]], t.src[m[4]:m[5]], t.src[m[6]:m[7]]
		p.scopes = append(p.scopes, scope{m[0], len(t.src), v, p.of(parent, m[0]) + lit})
	}
	for _, m := range goRoute.FindAllStringSubmatchIndex(t.src, -1) {
		parent, lit, inner := t.src[m[2]:m[3]], t.src[m[4]:m[5]], t.src[m[6]:m[7]]
		open := strings.IndexByte(t.src[m[1]:], '{')
		if open < 0 {
			continue
		}
		end := t.closeBrace(m[1] + open)
		if end < 0 {
			end = len(t.src)
		}
		p.scopes = append(p.scopes, scope{m[0], end, inner, p.of(parent, m[0]) + lit})
	}
	return p
}

func goFacts(t *text) Facts {
	var f Facts
	pre := goPrefixes(t)
	for _, m := range callMatches(t, goCalls, false) {
		recv, name := "", t.src[m[4]:m[5]]
		if m[2] >= 0 {
			recv = t.src[m[2]:m[3]]
		}
		as, end := t.args(m[1] - 1)
		if end < 0 || len(as) == 0 {
			continue
		}
		line := t.line(m[4])
		if r, ok := goRouteOf(t, recv, name, as, end); ok {
			r.Line = line
			if full, ok := NormPath(pre.of(recv, m[0]) + r.Path); ok {
				r.Path = full
				f.Routes = append(f.Routes, r)
			}
			continue
		}
		method, url, ok := goRequestOf(recv, name, as)
		if !ok {
			continue
		}
		for _, p := range t.paths(url, true) {
			f.Requests = append(f.Requests, Request{Method: method, Path: p, Line: line})
		}
	}
	return f
}

// goRouteOf reads a route registration: HandleFunc/Handle (net/http,
// gorilla), Method/MethodFunc and Get… (chi, fiber), GET… (gin, echo).
// Path holds the literal as written; the caller prefixes and normalises.
func goRouteOf(t *text, recv, name string, as []arg, end int) (Route, bool) {
	if len(as) < 2 {
		return Route{}, false
	}
	var method, path, handler string
	switch {
	case name == "HandleFunc" || name == "Handle":
		if !pureLiteral(as[0].text) {
			return Route{}, false
		}
		method, path = goPattern(unquote(as[0].text))
		if m := goMethods.FindStringSubmatch(t.src[end:min(len(t.src), end+200)]); m != nil {
			method = strings.ToUpper(m[1])
		}
		handler = as[1].text
	case name == "Method" || name == "MethodFunc":
		if len(as) < 3 || !pureLiteral(as[1].text) {
			return Route{}, false
		}
		method, path, handler = goMethod(as[0].text), unquote(as[1].text), as[2].text
	case recv == "http" || strings.HasSuffix(recv, ".http") || name == "PostForm" || strings.HasPrefix(name, "NewRequest"):
		return Route{}, false
	default:
		last := as[len(as)-1].text
		if !pureLiteral(as[0].text) || pureLiteral(as[1].text) || strings.HasPrefix(last, "{") {
			return Route{}, false // client.Post(url, "application/json", body)
		}
		if name != "Any" {
			method = strings.ToUpper(name)
		}
		path, handler = unquote(as[0].text), last
	}
	if !strings.HasPrefix(path, "/") {
		return Route{}, false
	}
	return Route{Method: method, Path: path, Handler: handlerName(handler)}, true
}

// goPattern splits a Go 1.22 pattern ("GET /items/{id}") into its method
// and path; a host before the path is dropped.
func goPattern(p string) (method, path string) {
	if m, rest, ok := strings.Cut(p, " "); ok && methodNames[m] {
		method, p = m, strings.TrimSpace(rest)
	}
	if i := strings.IndexByte(p, '/'); i > 0 {
		p = p[i:]
	}
	return method, p
}

func goMethod(a string) string {
	if pureLiteral(a) {
		return strings.ToUpper(unquote(a))
	}
	if m := goMethodConst.FindStringSubmatch(a); m != nil {
		return strings.ToUpper(m[1])
	}
	return ""
}

// goRequestOf reads a request's method and URL argument:
// http.Get/Post/Head/PostForm(url …), http.NewRequest(method, url, …),
// client.Get(url) and its kind.
func goRequestOf(recv, name string, as []arg) (method string, url arg, ok bool) {
	switch name {
	case "NewRequest":
		if len(as) < 2 {
			return "", arg{}, false
		}
		return goMethod(as[0].text), as[1], true
	case "NewRequestWithContext":
		if len(as) < 3 {
			return "", arg{}, false
		}
		return goMethod(as[1].text), as[2], true
	case "Get", "Post", "Head", "Put", "Delete", "Patch", "PostForm":
		return strings.ToUpper(strings.TrimSuffix(name, "Form")), as[0], recv != ""
	}
	return "", arg{}, false
}
