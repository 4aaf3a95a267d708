package federation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// writeRepo writes files under parent/name.
func writeRepo(t *testing.T, parent, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// federate federates the repositories named under parent and returns the
// server and its cross-repository edges as "source -relation-> target
// [edge_type: evidence]".
func federate(t *testing.T, parent string, names ...string) (*tools.Dispatcher, []string) {
	t.Helper()
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, parent)
	d := tooltest.NewDispatcher(t, cfg)
	var repos []any
	for _, n := range names {
		repos = append(repos, map[string]any{"name": n, "path": filepath.Join(parent, n)})
	}
	out := tooltest.MustCall(t, d, "federate", map[string]any{"agent_id": "t", "repos": repos})
	var got []string
	for _, e := range out["cross_repo_edges"].([]any) {
		m := e.(map[string]any)
		got = append(got, m["source_node"].(string)+" -"+m["relation"].(string)+"-> "+m["target_node"].(string)+" ["+m["edge_type"].(string)+": "+m["evidence"].(string)+"]")
	}
	return d, got
}

// apiRepos: server declares HTTP routes and a gRPC service it
// implements; web calls the routes from the browser; cli uses the
// generated gRPC client and one route. No module or package links them.
func apiRepos(t *testing.T) (parent string) {
	parent = t.TempDir()
	writeRepo(t, parent, "server", map[string]string{
		"go.mod": "module example.com/server\n\ngo 1.22\n",
		"main.go": `package main

import "net/http"

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/users/{id}", getUser)
	mux.HandleFunc("POST /api/users", createUser)
	mux.HandleFunc("/api/health", health)
	mux.HandleFunc("/api/admin/purge", purge) // nobody calls it
	http.ListenAndServe(":8080", mux)
}
`,
		"handlers.go": `package main

import "net/http"

func getUser(w http.ResponseWriter, r *http.Request) { w.Write([]byte(r.PathValue("id"))) }

func createUser(w http.ResponseWriter, r *http.Request) {}

func health(w http.ResponseWriter, r *http.Request) {}

func purge(w http.ResponseWriter, r *http.Request) {}
`,
		"proto/users.proto": `syntax = "proto3";
package users.v1;

service Users {
  rpc Get(GetRequest) returns (User);
}

message GetRequest { string id = 1; }
message User { string id = 1; }
`,
		"grpc.go": `package main

import pb "example.com/server/gen/users/v1"

type usersServer struct{ pb.UnimplementedUsersServer }

func serveGRPC(s *grpc.Server) {
	pb.RegisterUsersServer(s, &usersServer{})
}
`,
	})
	writeRepo(t, parent, "web", map[string]string{
		"package.json": `{"name": "web"}`,
		"src/api.js": "// fetch(\"/api/admin/purge\") is for operators only\n" +
			"export function loadUser(id) {\n  return fetch(`/api/users/${id}`).then((r) => r.json());\n}\n\n" +
			"export function saveUser(user) {\n  return fetch(\"/api/users\", { method: \"POST\", body: JSON.stringify(user) });\n}\n\n" +
			"export function loadOrders() {\n  return fetch(\"/api/orders\");\n}\n\n" +
			"export const docs = \"see /api/users/{id}\";\n" +
			"export const ping = () => client.get(\"/health\"); // the client's base URL ends in /api\n",
	})
	writeRepo(t, parent, "cli", map[string]string{
		"go.mod": "module example.com/cli\n\ngo 1.22\n",
		"main.go": `package main

import (
	"net/http"

	"google.golang.org/grpc"
	pb "example.com/server/gen/users/v1"
)

func fetchUser(conn *grpc.ClientConn, base string) {
	c := pb.NewUsersClient(conn)
	_ = c
	http.Get(base + "/api/health")
}

func main() {}
`,
	})
	return
}

// The API contracts between three repositories become edges, exactly
// these: each request to the route it reaches (to its handler), the gRPC
// client to the .proto and to the server that registers the service. A
// request no repository serves, a route nobody requests, a path in a
// comment or a plain string make none. impact crosses them; why names
// the relation.
func TestFederateLinksAPIContracts(t *testing.T) {
	parent := apiRepos(t)
	d, got := federate(t, parent, "server", "web", "cli")
	want := []string{
		"cli::file::main.go::fetchUser -calls_api-> server::file::grpc.go::serveGRPC [api_contract: grpc users.v1.Users]",
		"cli::file::main.go::fetchUser -calls_api-> server::file::grpc.go::usersServer [api_contract: grpc users.v1.Users]",
		"cli::file::main.go::fetchUser -calls_api-> server::file::handlers.go::health [api_contract: GET /api/health]",
		"cli::file::main.go::fetchUser -calls_api-> server::file::proto/users.proto [api_contract: grpc users.v1.Users]",
		"web::file::src/api.js::loadUser -calls_api-> server::file::handlers.go::getUser [api_contract: GET /api/users/{}]",
		"web::file::src/api.js::ping -calls_api-> server::file::handlers.go::health [api_contract: GET /api/health]",
		"web::file::src/api.js::saveUser -calls_api-> server::file::handlers.go::createUser [api_contract: POST /api/users]",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cross-repo edges (-want +got):\n%s", d)
	}

	imp := tooltest.ToText(tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "server::file::handlers.go::getUser"}))
	if !strings.Contains(imp, "web::file::src/api.js") {
		t.Errorf("impact on the handler does not reach its caller in web: %s", imp)
	}
	why := tooltest.ToText(tooltest.MustCall(t, d, "why", map[string]any{"agent_id": "t", "source": "web::file::src/api.js::loadUser", "target": "server::file::handlers.go::getUser"}))
	if !strings.Contains(why, "calls_api") {
		t.Errorf("why does not name calls_api: %s", why)
	}
	scoped := tooltest.ToText(tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "server::file::handlers.go::getUser", "scope": "server/"}))
	if strings.Contains(scoped, `"node_id":"web::`) {
		t.Errorf("impact scoped to server/ answered web's nodes: %s", scoped)
	}
}

// A router module mounted by another file (Express) and a blueprint
// registered under a prefix in another file (Flask) answer under the
// prefix: the request reaches the module's handler.
func TestFederateFollowsRoutePrefixes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shop  map[string]string
		fetch string // the path ui's showOrder requests
		want  string
	}{
		{"express mount", map[string]string{
			"package.json": `{"name": "shop", "dependencies": {"express": "4"}}`,
			"app.js": "const express = require('express');\nconst orders = require('./routes/orders');\n" +
				"const app = express();\napp.use('/api/orders', orders);\napp.listen(3000);\n",
			"routes/orders.js": "const router = require('express').Router();\n\n" +
				"function getOrder(req, res) { res.json({ id: req.params.id }); }\n\n" +
				"router.get('/:id', getOrder);\nmodule.exports = router;\n",
		}, "/api/orders/${id}", "ui::file::order.js::showOrder -calls_api-> shop::file::routes/orders.js::getOrder [api_contract: GET /api/orders/{}]"},
		{"flask blueprint", map[string]string{
			"shop/__init__.py": "",
			"shop/app.py": "from flask import Flask\nfrom shop.orders import bp as orders_bp\n\n" +
				"app = Flask(__name__)\napp.register_blueprint(orders_bp, url_prefix='/api/v1/shop')\n",
			"shop/orders.py": "from flask import Blueprint\n\nbp = Blueprint('orders', __name__)\n\n\n" +
				"@bp.route('/orders/<int:order_id>')\ndef get_order(order_id):\n    return {'id': order_id}\n",
		}, "/api/v1/shop/orders/${id}", "ui::file::order.js::showOrder -calls_api-> shop::file::shop/orders.py::get_order [api_contract: GET /api/v1/shop/orders/{}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			writeRepo(t, parent, "shop", tc.shop)
			writeRepo(t, parent, "ui", map[string]string{
				"package.json": `{"name": "ui"}`,
				"order.js":     "export function showOrder(id) {\n  return fetch(`" + tc.fetch + "`);\n}\n",
			})
			if _, got := federate(t, parent, "shop", "ui"); !cmp.Equal([]string{tc.want}, got) {
				t.Errorf("cross-repo edges %q, want %q", got, tc.want)
			}
		})
	}
}
