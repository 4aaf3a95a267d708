package contract

import (
	"regexp"
	"strings"
)

var (
	// jsCalls: fetch(…), axios(…), x.get(…) and the other verbs.
	jsCalls = nameSet("fetch", "axios", "get", "post", "put", "delete", "patch", "head", "options", "all", "request")
	// jsURLProp: the url of a request's options object ({ url: "/x" }).
	jsURLProp = regexp.MustCompile("\\burl\\s*:\\s*(['\"`])")
	// jsServer: a file that builds an HTTP server's routes.
	jsServer = regexp.MustCompile(`\b(express|Router\(|fastify|koa|hono|restify)\b`)
	// jsMount: app.use("/api", router) in the same file.
	jsMount = regexp.MustCompile(`\b\w+\.use\(\s*['"]([^'"]+)['"]\s*,\s*(\w+)\s*\)`)
	// jsMethodOpt: { method: "POST" } in fetch's options.
	jsMethodOpt = regexp.MustCompile(`\bmethod\s*:\s*['"](\w+)['"]`)
	// clientRecv: receivers that only make requests.
	// routerRecv: receivers that only declare routes, in files that need
	// not name their framework (module.exports = (router) => …).
	routerRecv = regexp.MustCompile(`(?i)^(app|server|router|\w*Router|routes)$`)
	clientRecv = regexp.MustCompile(`(?i)^(axios|https?|api|apiclient|client|request|superagent|ky|got|this\.http|\$http|this\.\$http|instance)$`)
)

func jsFacts(t *text) Facts {
	var f Facts
	server := jsServer.MatchString(t.src)
	pre := &prefixes{}
	for _, m := range jsMounts(t) {
		pre.scopes = append(pre.scopes, scope{0, len(t.src), m[2], m[1]})
	}
	for _, m := range callMatches(t, jsCalls, true) {
		recv, name := "", t.src[m[4]:m[5]]
		switch {
		case m[2] >= 0:
			recv = t.src[m[2]:m[3]]
		case m[4] > 0 && t.src[m[4]-1] == '.':
			recv = ")" // a computed receiver: (options.client ?? client).post(…)
		}
		as, _ := t.args(m[1] - 1)
		if len(as) == 0 {
			continue
		}
		line := t.line(m[4])
		routing := (server && recv != "" && !clientRecv.MatchString(recv)) || routerRecv.MatchString(recv)
		if routing && name != "fetch" && name != "axios" && name != "request" {
			if r, ok := jsRoute(name, as); ok {
				r.Path, r.Line = pre.of(recv, m[0])+r.Path, line
				f.Local = append(f.Local, r)
				if full, ok := NormPath(r.Path); ok {
					r.Path = full
					f.Routes = append(f.Routes, r)
				}
			}
			continue
		}
		if method, ok := jsRequest(recv, name, as); ok {
			for _, p := range t.paths(urlArg(as[0]), name == "fetch" || name == "axios" || httpRecv.MatchString(recv)) {
				f.Requests = append(f.Requests, Request{Method: method, Path: p, Line: line})
			}
		}
	}
	f.Mounts = jsModuleMounts(t)
	return f
}

var (
	jsRequire  = regexp.MustCompile(`\b(?:const|let|var)\s+(\w+)\s*=\s*require\(\s*['"](\.[^'"]*)['"]\s*\)`)
	jsImportAs = regexp.MustCompile(`\bimport\s+(\w+)\s+from\s+['"](\.[^'"]*)['"]`)
	jsUse      = nameSet("use")
)

// jsModuleMounts reads app.use("/api/users", [middleware…,] router) where
// router comes from a module of the repository (require, import default)
// or is required in place.
func jsModuleMounts(t *text) []Mount {
	if !strings.Contains(t.src, ".use(") {
		return nil
	}
	modules := map[string]string{}
	for _, re := range []*regexp.Regexp{jsRequire, jsImportAs} {
		for _, m := range re.FindAllStringSubmatch(t.src, -1) {
			modules[m[1]] = m[2]
		}
	}
	var out []Mount
	for _, m := range callMatches(t, jsUse, false) {
		as, _ := t.args(m[1] - 1)
		if len(as) < 2 || !pureLiteral(as[0].text) || !strings.HasPrefix(unquote(as[0].text), "/") {
			continue
		}
		last := as[len(as)-1].text
		mod := modules[last]
		if r := jsRequire.FindStringSubmatch("const x = " + last); r != nil {
			mod = r[2]
		}
		if mod != "" {
			out = append(out, Mount{Prefix: unquote(as[0].text), Module: mod, Line: t.line(m[4])})
		}
	}
	return out
}

// jsRoute reads app.get("/path", …handlers) (Express, Koa's router,
// fastify's shorthand).
func jsRoute(name string, as []arg) (Route, bool) {
	if len(as) < 2 || !pureLiteral(as[0].text) || name == "request" {
		return Route{}, false
	}
	path := unquote(as[0].text)
	if !strings.HasPrefix(path, "/") {
		return Route{}, false
	}
	method := strings.ToUpper(name)
	if name == "all" {
		method = ""
	}
	return Route{Method: method, Path: path, Handler: handlerName(as[len(as)-1].text)}, true
}

// jsRequest reads the method of fetch(url, {method}), axios(url),
// axios.get(url) and any x.get(url); ok false for other calls.
func jsRequest(recv, name string, as []arg) (string, bool) {
	method := ""
	switch {
	case name == "fetch" || (name == "axios" && recv == ""):
		method = "GET"
		if len(as) > 1 {
			if m := jsMethodOpt.FindStringSubmatch(as[1].text); m != nil {
				method = strings.ToUpper(m[1])
			}
		}
	case recv == "" || name == "axios" || name == "all" || name == "request":
		return "", false
	default:
		method = strings.ToUpper(name)
	}
	return method, true
}

// urlArg is the url property of an options object passed first
// (client.post({ url: "/api/x", … }), generated OpenAPI clients), else a.
func urlArg(a arg) arg {
	if !strings.HasPrefix(a.text, "{") {
		return a
	}
	loc := jsURLProp.FindStringSubmatchIndex(a.text)
	if loc == nil {
		return a
	}
	q := a.text[loc[2]]
	end := strings.IndexByte(a.text[loc[3]:], q)
	if end < 0 {
		return a
	}
	return arg{a.start + loc[2], a.text[loc[2] : loc[3]+end+1]}
}

func jsMounts(t *text) [][]string {
	if !strings.Contains(t.src, ".use(") {
		return nil
	}
	return jsMount.FindAllStringSubmatch(t.src, -1)
}
