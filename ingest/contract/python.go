package contract

import (
	"regexp"
	"strings"
)

var (
	// pyDecorator: @app.route(…), @router.get(…), @bp.post(…).
	pyDecorator = regexp.MustCompile(`(?m)^[ \t]*@([A-Za-z_][\w.]*)\.(route|get|post|put|delete|patch|head|options|api_route)\(`)
	// pyDef: the function a decorator decorates.
	pyDef = regexp.MustCompile(`(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)`)
	// pyPrefix: router = APIRouter(prefix="/api"), Blueprint(…, url_prefix="/api").
	pyPrefix    = regexp.MustCompile(`\b(\w+)\s*=\s*(?:\w+\.)?(?:APIRouter|Blueprint)\(([^)]*)\)`)
	pyPrefixArg = regexp.MustCompile(`\b(?:url_)?prefix\s*=\s*['"]([^'"]*)['"]`)
	pyMethods   = regexp.MustCompile(`\bmethods\s*=\s*[\[(]([^\])]*)[\])]`)
	pyWord      = regexp.MustCompile(`\w+`)
	// pyCalls: requests.get(…), httpx.post(…), session.get(…), urlopen(…).
	pyCalls = nameSet("get", "post", "put", "delete", "patch", "head", "options", "request", "urlopen")
)

func pyFacts(t *text) Facts {
	f := Facts{Routes: pyRoutes(t)}
	for _, m := range callMatches(t, pyCalls, false) {
		if m[0] > 0 && t.src[m[0]-1] == '@' {
			continue
		}
		recv, name := "", t.src[m[4]:m[5]]
		if m[2] >= 0 {
			recv = t.src[m[2]:m[3]]
		}
		if recv == "" && name != "urlopen" {
			continue
		}
		as, _ := t.args(m[1] - 1)
		method, i := strings.ToUpper(name), 0
		switch name {
		case "request":
			if len(as) < 2 || !pureLiteral(as[0].text) {
				continue
			}
			method, i = strings.ToUpper(unquote(as[0].text)), 1
		case "urlopen":
			method = ""
		}
		if len(as) <= i {
			continue
		}
		for _, p := range t.paths(as[i], name == "urlopen" || httpRecv.MatchString(recv)) {
			f.Requests = append(f.Requests, Request{Method: method, Path: p, Line: t.line(m[4])})
		}
	}
	return f
}

// pyRoutes reads the routes of Flask, FastAPI and their kin: a decorator
// with a literal path over a def, under its router's prefix.
func pyRoutes(t *text) []Route {
	pre := &prefixes{}
	if !strings.Contains(t.src, "@") {
		return nil
	}
	for _, m := range pyPrefix.FindAllStringSubmatch(t.src, -1) {
		if p := pyPrefixArg.FindStringSubmatch(m[2]); p != nil {
			pre.scopes = append(pre.scopes, scope{0, len(t.src), m[1], p[1]})
		}
	}
	var out []Route
	for _, m := range pyDecorator.FindAllStringSubmatchIndex(t.src, -1) {
		recv, name := t.src[m[2]:m[3]], t.src[m[4]:m[5]]
		as, end := t.args(m[1] - 1)
		if len(as) == 0 || !pureLiteral(as[0].text) || end < 0 {
			continue
		}
		path, ok := NormPath(pre.of(recv, m[0]) + unquote(as[0].text))
		if !ok {
			continue
		}
		handler := ""
		if d := pyDef.FindStringSubmatch(t.src[end:]); d != nil {
			handler = d[1]
		}
		line := t.line(m[4])
		for _, method := range pyRouteMethods(name, as[1:]) {
			out = append(out, Route{Method: method, Path: path, Line: line, Handler: handler})
		}
	}
	return out
}

// pyRouteMethods: @x.get → GET; @x.route(…, methods=[…]) → those; a
// route without methods answers GET in Flask, any in api_route.
func pyRouteMethods(name string, kw []arg) []string {
	if name != "route" && name != "api_route" {
		return []string{strings.ToUpper(name)}
	}
	for _, a := range kw {
		if m := pyMethods.FindStringSubmatch(a.text); m != nil {
			var out []string
			for _, w := range pyWord.FindAllString(m[1], -1) {
				out = append(out, strings.ToUpper(w))
			}
			if len(out) > 0 {
				return out
			}
		}
	}
	if name == "route" {
		return []string{"GET"}
	}
	return []string{""}
}
