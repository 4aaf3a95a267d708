package scan

import (
	"regexp"
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// authRe matches names that check authentication or authorization:
// decorators, middleware, guards and the calls inside handlers.
var authRe = regexp.MustCompile(`(?i)(auth|login_?required|require_?login|jwt|bearer|session|permission|acl\b|is_?admin|require_?role|roles?_?required|current_?user|api_?key|oauth|verify_?token|check_?token|validate_?token|csrf|protected|guard|secured|preauthorize|rolesallowed|is_authenticated|signed_?in)`)

// publicPath matches routes that are public by nature.
var publicPath = regexp.MustCompile(`(?i)^(/|/(health|healthz|ready|readyz|live|livez|ping|status|version|metrics|favicon\.ico|robots\.txt|static|assets|public|docs|openapi|swagger|login|logout|signin|signup|register|auth|oauth|callback|sso|reset-password|forgot-password)([/.?].*)?)$`)

var mutatingMethod = regexp.MustCompile(`(?i)^(post|put|patch|delete)$`)

// route is an HTTP handler registration seen in a file.
type route struct {
	node    *ts.Node
	path    string
	method  string
	router  string
	handler string
	guarded bool
}

// routeSet collects a file's routes and the routers guarded as a whole.
type routeSet struct {
	list    []route
	routers map[string]bool
}

func routesOf(fc *fileCtx) *routeSet {
	return memo(fc, "routes", func() *routeSet { return &routeSet{routers: map[string]bool{}} })
}

// routePath unquotes a route literal and splits off a method prefix
// ("GET /items" in Go 1.22 patterns).
func routePath(lit string) (method, path string, ok bool) {
	s, err := strconv.Unquote(lit)
	if err != nil {
		s = strings.Trim(lit, "\"'`")
	}
	if m, rest, found := strings.Cut(s, " "); found && m == strings.ToUpper(m) && strings.HasPrefix(strings.TrimSpace(rest), "/") {
		return m, strings.TrimSpace(rest), true
	}
	return "", s, strings.HasPrefix(s, "/")
}

// routesDone reports the unguarded routes of a file: firmly when other
// routes of the file check auth, softly when none does (a middleware
// elsewhere may).
func routesDone(fc *fileCtx, id string) {
	rs := routesOf(fc)
	guarded := 0
	for i := range rs.list {
		if rs.routers[rs.list[i].router] {
			rs.list[i].guarded = true
		}
		if rs.list[i].guarded {
			guarded++
		}
	}
	r := fc.l.rule(id)
	for _, rt := range rs.list {
		if rt.guarded || publicPath.MatchString(rt.path) {
			continue
		}
		sev := 0.25
		msg := "route %s has no authentication check and neither has any other route of this file; make sure a middleware guards it"
		if guarded > 0 {
			sev, msg = 0.7, "route %s has no authentication check while %d other route(s) of this file have one"
		}
		if mutatingMethod.MatchString(rt.method) {
			sev += 0.1
		}
		label := strings.TrimSpace(strings.ToUpper(rt.method) + " " + rt.path)
		if guarded > 0 {
			fc.report(rt.node, r, sev, label, msg, label, guarded)
		} else {
			fc.report(rt.node, r, sev, label, msg, label)
		}
		fc.out[len(fc.out)-1].Handler = rt.handler
	}
}

var goRouteMethods = map[string]string{
	"Handle": "", "HandleFunc": "", "GET": "GET", "POST": "POST", "PUT": "PUT", "DELETE": "DELETE", "PATCH": "PATCH",
	"Get": "GET", "Post": "POST", "Put": "PUT", "Delete": "DELETE", "Patch": "PATCH", "Any": "", "Method": "",
}

// goRoute records route registrations (mux.HandleFunc("/x", h),
// r.GET("/x", mw, h)) and router-wide middleware (r.Use(auth)).
func goRoute(fc *fileCtx, r *rule, m caps) {
	rs := routesOf(fc)
	if u := m["use"]; u != nil {
		if fc.text(m["m"]) == "Use" && authRe.Match(fc.bytes(m["mw"])) {
			rs.routers[fc.text(m["router"])] = true
		}
		return
	}
	verb, ok := goRouteMethods[fc.text(m["m"])]
	if !ok {
		return
	}
	method, path, ok := routePath(fc.text(m["path"]))
	if !ok {
		return
	}
	args := fc.named(fc.field(m["call"], "arguments"))
	if len(args) < 2 {
		return
	}
	rt := route{node: m["call"], path: path, method: cmpOr(method, verb), router: fc.text(m["router"])}
	for _, a := range args[1:] {
		if authRe.Match(fc.bytes(a)) {
			rt.guarded = true
		}
	}
	h := lastSegment(fc.text(args[len(args)-1]))
	if fc.is(args[len(args)-1], "identifier", "selector_expression") {
		rt.handler = h
	}
	if b := goInfo(fc).bodies[h]; b != nil && authRe.Match(fc.bytes(b)) {
		rt.guarded = true
	}
	if fc.is(args[len(args)-1], "func_literal") && authRe.Match(fc.bytes(args[len(args)-1])) {
		rt.guarded = true
	}
	rs.list = append(rs.list, rt)
}
