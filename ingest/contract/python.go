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
	f := Facts{Mounts: pyMounts(t)}
	f.Routes, f.Local = pyRoutes(t)
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
// with a literal path over a def, under its router's prefix; normalised,
// and as written for a file that mounts this module.
func pyRoutes(t *text) (routes, local []Route) {
	pre := &prefixes{}
	if !strings.Contains(t.src, "@") {
		return nil, nil
	}
	for _, m := range pyPrefix.FindAllStringSubmatch(t.src, -1) {
		if p := pyPrefixArg.FindStringSubmatch(m[2]); p != nil {
			pre.scopes = append(pre.scopes, scope{0, len(t.src), m[1], p[1]})
		}
	}
	for _, m := range pyDecorator.FindAllStringSubmatchIndex(t.src, -1) {
		recv, name := t.src[m[2]:m[3]], t.src[m[4]:m[5]]
		as, end := t.args(m[1] - 1)
		if len(as) == 0 || !pureLiteral(as[0].text) || end < 0 {
			continue
		}
		raw := pre.of(recv, m[0]) + unquote(as[0].text)
		handler := ""
		if d := pyDef.FindStringSubmatch(t.src[end:]); d != nil {
			handler = d[1]
		}
		line := t.line(m[4])
		path, ok := NormPath(raw)
		for _, method := range pyRouteMethods(name, as[1:]) {
			local = append(local, Route{Method: method, Path: raw, Line: line, Handler: handler})
			if ok {
				routes = append(routes, Route{Method: method, Path: path, Line: line, Handler: handler})
			}
		}
	}
	return routes, local
}

var (
	pyFromImport = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)`)
	pyImportAs   = regexp.MustCompile(`^(\w+)(?:\s+as\s+(\w+))?$`)
	pyMountCalls = nameSet("register_blueprint", "include_router")
	pyMountKw    = regexp.MustCompile(`^(?:url_)?prefix\s*=\s*['"]([^'"]*)['"]$`)
)

// pyMounts reads app.register_blueprint(bp, url_prefix="/api") and
// app.include_router(items.router, prefix="/items"): the module the
// blueprint or router comes from (by the file's from-imports) answers
// under the prefix. A name imported from a package may be a submodule
// or an object of the package: both are given, as Module candidates.
func pyMounts(t *text) []Mount {
	if !strings.Contains(t.src, "register_blueprint(") && !strings.Contains(t.src, "include_router(") {
		return nil
	}
	from := map[string]string{} // local name → "module.name"
	for _, m := range pyFromImport.FindAllStringSubmatch(t.src, -1) {
		for _, part := range strings.Split(strings.Trim(m[2], "() \t"), ",") {
			if x := pyImportAs.FindStringSubmatch(strings.TrimSpace(part)); x != nil {
				local := x[1]
				if x[2] != "" {
					local = x[2]
				}
				from[local] = strings.TrimSuffix(m[1], ".") + "." + x[1]
			}
		}
	}
	var out []Mount
	for _, m := range callMatches(t, pyMountCalls, false) {
		as, _ := t.args(m[1] - 1)
		prefix := ""
		for _, a := range as[min(1, len(as)):] {
			if kw := pyMountKw.FindStringSubmatch(a.text); kw != nil {
				prefix = kw[1]
			}
		}
		if len(as) == 0 || prefix == "" {
			continue
		}
		name, attr, _ := strings.Cut(as[0].text, ".")
		full, ok := from[name]
		if !ok {
			continue
		}
		line := t.line(m[4])
		out = append(out, Mount{Prefix: prefix, Module: full, Line: line})
		if attr == "" {
			if pkg, _, ok := cutLast(full, "."); ok {
				out = append(out, Mount{Prefix: prefix, Module: pkg, Line: line})
			}
		}
	}
	return out
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
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
