package seek

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// fixtureFiles is a small backend: authentication, sessions, payments, an
// HTTP layer in Go, and a test.
var fixtureFiles = map[string]string{
	"backend/auth.py": `"""Authentication: credential checks and login."""
from backend.session import SessionStore
from backend.crypto import hash_password


class AuthService:
    """Validates user credentials and opens sessions."""

    def __init__(self, store):
        self.store = store

    def validate_credentials(self, user, password):
        """Check the password against the stored hash."""
        digest = hash_password(password)
        return user.password_hash == digest

    def login(self, user, password):
        if not self.validate_credentials(user, password):
            raise PermissionError("bad credentials")
        return self.store.create(user)
`,
	"backend/session.py": `"""Session storage with expiry."""
import time


class SessionStore:
    def __init__(self, ttl=3600):
        self.ttl = ttl
        self.sessions = {}

    def create(self, user):
        token = f"{user.id}-{time.time()}"
        self.sessions[token] = (user, time.time() + self.ttl)
        return token

    def lookup(self, token):
        entry = self.sessions.get(token)
        if entry is None or entry[1] < time.time():
            return None
        return entry[0]
`,
	"backend/crypto.py": `"""Password hashing."""
import hashlib


def hash_password(password):
    # Salted SHA-256 of the password.
    return hashlib.sha256(b"salt" + password.encode()).hexdigest()
`,
	"backend/payment.py": `"""Payments: charge a card through the gateway."""


def charge_card(card, amount_cents):
    # The amount is sent in cents; no validation of the card number.
    return gateway_request("charge", card, amount_cents)


def gateway_request(op, card, amount):
    return {"op": op, "card": card, "amount": amount}
`,
	"web/server.go": `package web

import "net/http"

// handleLogin reads the login form and starts a session.
func handleLogin(w http.ResponseWriter, r *http.Request) {
	user := r.FormValue("user")
	if user == "" {
		http.Error(w, "missing user", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// parseHeaderToken extracts the bearer token from the Authorization header.
func parseHeaderToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	return h[len("Bearer "):]
}
`,
	"web/router.go": `package web

import "net/http"

// NewRouter wires the HTTP routes.
func NewRouter() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/login", handleLogin)
	return mux
}
`,
	"tests/test_auth.py": `from backend.auth import AuthService


def test_login_rejects_bad_password():
    assert True
`,
}

type ent struct {
	label      string
	typ        graph.NodeType
	start, end uint32
	excerpt    string
	parent     string // qualifier in the external ID ("AuthService")
}

var fixtureEntities = map[string][]ent{
	"backend/auth.py": {
		{"AuthService", graph.Class, 6, 20, "class AuthService:", ""},
		{"__init__", graph.Function, 9, 10, "def __init__(self, store):", "AuthService"},
		{"validate_credentials", graph.Function, 12, 15, "def validate_credentials(self, user, password):", "AuthService"},
		{"login", graph.Function, 17, 20, "def login(self, user, password):", "AuthService"},
	},
	"backend/session.py": {
		{"SessionStore", graph.Class, 5, 19, "class SessionStore:", ""},
		{"create", graph.Function, 10, 13, "def create(self, user):", "SessionStore"},
		{"lookup", graph.Function, 15, 19, "def lookup(self, token):", "SessionStore"},
	},
	"backend/crypto.py":  {{"hash_password", graph.Function, 5, 7, "def hash_password(password):", ""}},
	"backend/payment.py": {{"charge_card", graph.Function, 4, 6, "def charge_card(card, amount_cents):", ""}, {"gateway_request", graph.Function, 9, 10, "def gateway_request(op, card, amount):", ""}},
	"web/server.go": {
		{"handleLogin", graph.Function, 6, 13, "func handleLogin(w http.ResponseWriter, r *http.Request) {", ""},
		{"parseHeaderToken", graph.Function, 16, 19, "func parseHeaderToken(r *http.Request) string {", ""},
	},
	"web/router.go":      {{"NewRouter", graph.Function, 6, 10, "func NewRouter() *http.ServeMux {", ""}},
	"tests/test_auth.py": {{"test_login_rejects_bad_password", graph.Function, 4, 5, "def test_login_rejects_bad_password():", ""}},
}

// fixtureEdges are (source, target, relation) by external ID.
var fixtureEdges = [][3]string{
	{"file::backend/auth.py::AuthService::login", "file::backend/auth.py::AuthService::validate_credentials", "calls"},
	{"file::backend/auth.py::AuthService::validate_credentials", "file::backend/crypto.py::hash_password", "calls"},
	{"file::backend/auth.py::AuthService::login", "file::backend/session.py::SessionStore::create", "calls"},
	{"file::backend/auth.py", "file::backend/session.py", "imports"},
	{"file::backend/auth.py", "file::backend/crypto.py", "imports"},
	{"file::backend/payment.py::charge_card", "file::backend/payment.py::gateway_request", "calls"},
	{"file::web/router.go::NewRouter", "file::web/server.go::handleLogin", "calls"},
	{"file::tests/test_auth.py", "file::backend/auth.py", "tests"},
}

// fixtureGraph builds the fixture graph and a ReadFile over its files.
func fixtureGraph(t testing.TB) (*graph.Graph, func(string) ([]byte, error)) {
	t.Helper()
	return fixtureGraphOf(t, fixtureFiles, fixtureEntities)
}

// fixtureGraphOf builds the fixture's graph shape over other files and
// entities.
func fixtureGraphOf(t testing.TB, fixtureFiles map[string]string, fixtureEntities map[string][]ent) (*graph.Graph, func(string) ([]byte, error)) {
	t.Helper()
	g := graph.New()
	dirs := map[string]bool{}
	paths := sortedKeys(fixtureFiles)
	for _, p := range paths {
		dir := p[:strings.LastIndexByte(p, '/')]
		if !dirs[dir] {
			dirs[dir] = true
			mustAdd(t, g, graph.Node{ExternalID: "dir::" + dir, Label: dir, Type: graph.Directory, Provenance: graph.Provenance{SourcePath: dir}})
		}
		lines := uint32(strings.Count(fixtureFiles[p], "\n"))
		file := mustAdd(t, g, graph.Node{ExternalID: "file::" + p, Label: p[strings.LastIndexByte(p, '/')+1:], Type: graph.File,
			Provenance: graph.Provenance{SourcePath: p, LineStart: 1, LineEnd: lines}})
		mustEdge(t, g, graph.Edge{Source: mustLookup(t, g, "dir::"+dir), Target: file, Relation: "contains", Weight: 1})
		for _, e := range fixtureEntities[p] {
			ext := "file::" + p + "::" + e.label
			if e.parent != "" {
				ext = "file::" + p + "::" + e.parent + "::" + e.label
			}
			id := mustAdd(t, g, graph.Node{ExternalID: ext, Label: e.label, Type: e.typ,
				Provenance: graph.Provenance{SourcePath: p, LineStart: e.start, LineEnd: e.end, Excerpt: e.excerpt}})
			mustEdge(t, g, graph.Edge{Source: file, Target: id, Relation: "contains", Weight: 1})
		}
	}
	for _, e := range fixtureEdges {
		if !hasFile(fixtureFiles, e[0]) || !hasFile(fixtureFiles, e[1]) {
			continue // its file was left out
		}
		if err := g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: e[2], Weight: 0.8}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g, mapReader(fixtureFiles)
}

// hasFile reports whether the file of node ID id ("file::path[::…]") is
// among files.
func hasFile(files map[string]string, id string) bool {
	p, _, _ := strings.Cut(strings.TrimPrefix(id, "file::"), "::")
	_, ok := files[p]
	return ok
}

func mapReader(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		s, ok := files[p]
		if !ok {
			return nil, errors.Join(fs.ErrNotExist, errors.New(p))
		}
		return []byte(s), nil
	}
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

func mustAdd(t testing.TB, g *graph.Graph, n graph.Node) graph.NodeID {
	t.Helper()
	id, err := g.AddNode(n)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func mustEdge(t testing.TB, g *graph.Graph, e graph.Edge) {
	t.Helper()
	if err := g.AddEdge(e); err != nil {
		t.Fatal(err)
	}
}

func mustLookup(t testing.TB, g *graph.Graph, ext string) graph.NodeID {
	t.Helper()
	id, ok := g.Lookup(ext)
	if !ok {
		t.Fatalf("no node %s", ext)
	}
	return id
}
