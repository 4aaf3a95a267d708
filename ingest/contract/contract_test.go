package contract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNormPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/api/users/:id", "/api/users/{}"},
		{"/api/users/{id}", "/api/users/{}"},
		{"/api/users/<int:id>/", "/api/users/{}"},
		{"\x00/api/users/\x00", "/api/users/{}"},
		{"https://\x00:8080/api/users?x=1", "/api/users"},
		{"/api/users\x00", "/api/users"},
		{"/api/users/%d", "/api/users/{}"},
		{"/files/{path...}", "/files/{}"},
		{"/", ""},
		{"/{id}", ""},
		{"users", ""},
		{"/not a path", ""},
	} {
		got, ok := NormPath(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("NormPath(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		route, req string
		spec       int
		ok         bool
	}{
		{"/api/users/{}", "/api/users/{}", 2, true},
		{"/api/users/{}", "/api/users/me", 2, true},
		{"/api/users/me", "/api/users/{}", 0, false},
		{"/api/users", "/api/users/{}", 0, false},
		{"/api/users", "/api/orders", 0, false},
	} {
		spec, ok := Matches(c.route, c.req)
		if spec != c.spec || ok != c.ok {
			t.Errorf("Matches(%q, %q) = %d, %v", c.route, c.req, spec, ok)
		}
	}
}

func TestExtract(t *testing.T) {
	for _, c := range []struct {
		name, path, src string
		want            Facts
	}{
		{"net/http and gorilla", "srv.go", `package srv
// mux.HandleFunc("/api/commented", nope)
func routes(mux *http.ServeMux, r *mux.Router, h *Handlers) {
	mux.HandleFunc("GET /api/users/{id}", h.getUser)
	mux.Handle("/api/health", http.HandlerFunc(health))
	r.HandleFunc("/api/orders/{id:[0-9]+}", getOrder).Methods("DELETE")
	msg := "mux.HandleFunc(\"/api/instring\", x)"
}`, Facts{Routes: []Route{
			{Method: "GET", Path: "/api/users/{}", Line: 4, Handler: "getUser"},
			{Path: "/api/health", Line: 5, Handler: "health"},
			{Method: "DELETE", Path: "/api/orders/{}", Line: 6, Handler: "getOrder"},
		}}},
		{"gin groups and chi routes", "srv.go", `package srv
func routes(r *gin.Engine, c chi.Router) {
	v1 := r.Group("/api/v1")
	v1.GET("/users/:id", getUser)
	c.Route("/api/items", func(r chi.Router) {
		r.Get("/{id}", getItem)
	})
	c.Post("/api/items", func(w http.ResponseWriter, r *http.Request) {})
}`, Facts{Routes: []Route{
			{Method: "GET", Path: "/api/v1/users/{}", Line: 4, Handler: "getUser"},
			{Method: "GET", Path: "/api/items/{}", Line: 6, Handler: "getItem"},
			{Method: "POST", Path: "/api/items", Line: 8},
		}}},
		{"Go client", "client.go", `package client
func (c *C) get(id int) {
	http.Get(c.base + "/api/users/" + strconv.Itoa(id))
	req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, fmt.Sprintf("%s/api/orders/%d", c.base, id), nil)
	c.http.Post(c.base+"/api/items", "application/json", body)
	http.Get(url)
	u := fmt.Sprintf("%s/api/orders/%d", c.base, id)
	req, _ = http.NewRequest(http.MethodPut, u, nil)
}`, Facts{Requests: []Request{
			{Method: "GET", Path: "/api/users/{}", Line: 3},
			{Method: "DELETE", Path: "/api/orders/{}", Line: 4},
			{Method: "POST", Path: "/api/items", Line: 5},
			{Method: "PUT", Path: "/api/orders/{}", Line: 8},
		}}},
		{"a path held in a variable", "posts.js", `export function Posts({ content }) {
  let url;
  switch (content) {
    case 'feed': url = '/feed'; break;
    default: url = ` + "`/users/${content}/posts`" + `;
  }
  if (url == '/x') {}
  const response = api.get(url);
}`, Facts{Requests: []Request{
			{Method: "GET", Path: "/feed", Line: 8},
			{Method: "GET", Path: "/users/{}/posts", Line: 8},
		}}},
		{"Flask and FastAPI", "app.py", `
# @app.route("/api/commented")
bp = Blueprint("users", __name__, url_prefix="/api/users")
router = APIRouter(prefix="/api/items")

@bp.route("/<int:user_id>", methods=["GET", "PUT"])
def user(user_id):
    """GET /api/doc/{id} is documented here: requests.get("/api/doc")"""
    return requests.get(f"{BASE}/api/profiles/{user_id}?full=1")

@router.get("/{item_id}")
async def item(item_id: int):
    return d.get("key")
`, Facts{
			Routes: []Route{
				{Method: "GET", Path: "/api/users/{}", Line: 6, Handler: "user"},
				{Method: "PUT", Path: "/api/users/{}", Line: 6, Handler: "user"},
				{Method: "GET", Path: "/api/items/{}", Line: 11, Handler: "item"},
			},
			Requests: []Request{{Method: "GET", Path: "/api/profiles/{}", Line: 9}},
			Local: []Route{
				{Method: "GET", Path: "/api/users/<int:user_id>", Line: 6, Handler: "user"},
				{Method: "PUT", Path: "/api/users/<int:user_id>", Line: 6, Handler: "user"},
				{Method: "GET", Path: "/api/items/{item_id}", Line: 11, Handler: "item"},
			},
		}},
		{"Flask and FastAPI mounts", "app/main.py", `from app.api.routes import items, users as people
from .auth import bp as auth_bp
app.include_router(items.router, prefix="/api/v2")
app.include_router(people.router, prefix=settings.API)
app.register_blueprint(auth_bp, url_prefix='/auth')
`, Facts{Mounts: []Mount{
			{Prefix: "/api/v2", Module: "app.api.routes.items", Line: 3},
			{Prefix: "/auth", Module: ".auth.bp", Line: 5},
			{Prefix: "/auth", Module: ".auth", Line: 5},
		}}},
		{"Express server", "server.js", `const express = require('express');
const app = express(); const users = express.Router();
users.get('/:id', auth, getUser);
app.use('/api/users', users);
app.post("/api/login", (req, res) => res.send(axios.get("/api/other")));
// app.get('/api/commented', x)
`, Facts{
			Routes: []Route{
				{Method: "GET", Path: "/api/users/{}", Line: 3, Handler: "getUser"},
				{Method: "POST", Path: "/api/login", Line: 5},
			},
			Requests: []Request{{Method: "GET", Path: "/api/other", Line: 5}},
			Local: []Route{
				{Method: "GET", Path: "/api/users/:id", Line: 3, Handler: "getUser"},
				{Method: "POST", Path: "/api/login", Line: 5},
			},
		}},
		{"Express mounts of router modules", "app.js", `const express = require('express');
const users = require('./routes/users');
import admin from "../admin/index.js";
app.use('/api/users', auth, users);
app.use('/api/items', require('./routes/items'));
app.use('/admin', admin);
app.use(express.json());
`, Facts{Mounts: []Mount{
			{Prefix: "/api/users", Module: "./routes/users", Line: 4},
			{Prefix: "/api/items", Module: "./routes/items", Line: 5},
			{Prefix: "/admin", Module: "../admin/index.js", Line: 6},
		}}},
		{"a router passed in", "routes/items.js", "module.exports = (router) => {\n  router.get('/api/items/:id', getItem);\n  app.get('/api/health', (req, res) => res.end());\n};\n",
			Facts{
				Routes: []Route{{Method: "GET", Path: "/api/items/{}", Line: 2, Handler: "getItem"}, {Method: "GET", Path: "/api/health", Line: 3}},
				Local:  []Route{{Method: "GET", Path: "/api/items/:id", Line: 2, Handler: "getItem"}, {Method: "GET", Path: "/api/health", Line: 3}},
			}},
		{"Express router module", "routes/users.js", `const router = require('express').Router();
router.get('/:id', getUser);
module.exports = router;
`, Facts{Local: []Route{{Method: "GET", Path: "/:id", Line: 2, Handler: "getUser"}}}},
		{"browser client", "api.ts", "export const load = (id: string) => fetch(`/api/users/${id}`);\n" +
			"export const save = (u) => fetch('/api/users/' + u.id, { method: 'PUT', body: u });\n" +
			"export const list = () => axios.get(BASE + '/api/orders', { params: { all: 1 } });\n" +
			"/* fetch('/api/commented') */ const m = new Map(); m.get(key);\n" +
			"export const gen = (o) => (o.client ?? client).delete<R, E>({ responseType: 'json', url: '/api/v1/items/{id}', ...o });\n",
			Facts{Requests: []Request{
				{Method: "GET", Path: "/api/users/{}", Line: 1},
				{Method: "PUT", Path: "/api/users/{}", Line: 2},
				{Method: "GET", Path: "/api/orders", Line: 3},
				{Method: "DELETE", Path: "/api/v1/items/{}", Line: 5},
			}}},
		{"proto", "users.proto", `syntax = "proto3";
package users.v1;
// service Commented { rpc X(A) returns (B); }
service Users {
  rpc Get(GetRequest) returns (User);
  rpc List(ListRequest) returns (stream User);
}
message User { string id = 1; }
`, Facts{Services: []Service{{Package: "users.v1", Name: "Users", RPCs: []string{"Get", "List"}, Line: 4}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, Extract(c.path, []byte(c.src))); d != "" {
				t.Errorf("-want +got\n%s", d)
			}
		})
	}
}

func TestServiceRefs(t *testing.T) {
	m := NewServiceMatcher([]Service{{Package: "users.v1", Name: "Users", RPCs: []string{"Get"}}})
	src := `package main
import pb "example.com/gen/users/v1"
// pb.NewUsersClient in a comment
type server struct{ pb.UnimplementedUsersServer }
func main() {
	c := pb.NewUsersClient(conn)
	pb.RegisterUsersServer(s, &server{})
	conn.Invoke(ctx, "/users.v1.Users/Get", in, out)
	var x UsersClientele
}`
	want := []ServiceRef{
		{Service: "users.v1.Users", Role: Server, Line: 4},
		{Service: "users.v1.Users", Role: Client, Line: 6},
		{Service: "users.v1.Users", Role: Server, Line: 7},
		{Service: "users.v1.Users", Role: Client, Line: 8},
	}
	if d := cmp.Diff(want, m.Refs("main.go", []byte(src))); d != "" {
		t.Errorf("-want +got\n%s", d)
	}
	if got := m.Refs("connect.ts", []byte("import { Users } from \"./gen/users_pb\";\nexport const users = createClient(Users, transport);\n")); len(got) != 1 || got[0].Role != Client || got[0].Line != 2 {
		t.Errorf("connect-es createClient: %v", got)
	}
	if got := m.Refs("plain.js", []byte("class UsersClient {}")); got != nil {
		t.Errorf("a file naming no gRPC code: %v", got)
	}
}

func TestGenerated(t *testing.T) {
	for src, want := range map[string]bool{
		"// Code generated by protoc-gen-go-grpc. DO NOT EDIT.\npackage v1\n": true,
		"# Generated by the protocol buffer compiler.  DO NOT EDIT!\n":        true,
		"// @generated by protoc-gen-es v2\n":                                 true,
		"package main\n\n// generated handlers live elsewhere\n":              false,
	} {
		if got := Generated([]byte(src)); got != want {
			t.Errorf("Generated(%q) = %v", src, got)
		}
	}
}

func TestUnmounted(t *testing.T) {
	for in, want := range map[string]string{
		"/api/v1/users/{}": "/users/{}",
		"/api/me":          "/me",
		"/users/{}":        "",
		"/api/{}":          "",
		"/v2/api/items":    "/items",
	} {
		if got, ok := Unmounted(in); got != want || ok != (want != "") {
			t.Errorf("Unmounted(%q) = %q, %v", in, got, ok)
		}
	}
}
