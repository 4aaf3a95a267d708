// Package testcorpus is the one copy of the small repository the tests of
// every module read: a Python backend (authentication, sessions, payments,
// tests) with a git history, an HTTP layer in Go and a billing package.
//
// It holds data only — file contents, the commits that wrote them, and the
// entities and edges a hand-built graph of them declares — and imports
// nothing but the standard library, so any package's tests can use it.
// mcpserver's fixture writes Backend with its History into a git
// repository; core/testcorpus/corpusgraph builds a graph of any of the
// sets from Entities and Edges, for tests that must not move with the
// extractors. TestEntitiesMatchFiles keeps the line numbers honest: when
// a file changes, its entities must follow.
package testcorpus

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Backend is the fixture repository: an authentication flow, sessions, a
// payment module with no validation, configuration, and tests for some of
// it. It is what mcpserver's tests ingest, with History.
var Backend = map[string]string{
	"backend/auth.py": `"""Authentication: credential checks and login."""
from backend.session import SessionStore
from backend.crypto import hash_password


class AuthService:
    """Validates user credentials and opens sessions."""

    def __init__(self, store: SessionStore):
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
	"backend/middleware.py": `"""Request middleware: resolves the session of each request."""
from backend.session import SessionStore


def require_session(store: SessionStore, request):
    user = store.lookup(request.headers.get("token"))
    if user is None:
        raise PermissionError("no session")
    request.user = user
    return request
`,
	"backend/payments.py": `"""Payments: charge a user's card."""
from backend.middleware import require_session


def charge(store, request, amount):
    request = require_session(store, request)
    return {"user": request.user.id, "amount": amount}


def refund(store, request, amount):
    request = require_session(store, request)
    return {"user": request.user.id, "amount": -amount}
`,
	"backend/config.py": `"""Settings shared by every module."""
SESSION_TTL = 3600
DATABASE_URL = "sqlite:///app.db"
`,
	"tests/test_auth.py": `from backend.auth import AuthService


def test_login_rejects_bad_password():
    service = AuthService(None)
    assert service is not None
`,
	"tests/test_session.py": `from backend.session import SessionStore


def test_session_expires():
    store = SessionStore(ttl=0)
    assert store.lookup("x") is None
`,
	"README.md": "# Fixture backend\n\nAuthentication, sessions and payments.\n",
}

// History lists Backend's commits in order, each the paths it changed
// together; a final commit writes every file as Backend has it. Earlier
// revisions of a file differ from the final one by a trailing marker line
// (see Revision), so every commit really changes what it lists.
var History = [][]string{
	{"backend/config.py", "README.md"},
	{"backend/session.py", "backend/crypto.py"},
	{"backend/auth.py", "backend/session.py", "tests/test_auth.py"},
	{"backend/middleware.py", "backend/session.py"},
	{"backend/auth.py", "backend/crypto.py"},
}

// Revision is path's content as commit i of History wrote it.
func Revision(path string, i int) string {
	return Backend[path] + "\n# revision " + strconv.Itoa(i) + "\n"
}

// Web is an HTTP layer in Go beside the backend: a second language, and a
// directory ("web") a query can name.
var Web = map[string]string{
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
}

// Billing is a package of close neighbours: two invoice functions and a
// refund that imports them.
var Billing = map[string]string{
	"billing/invoice.py": `"""Invoices: totals and tax."""


def invoice_total(lines):
    """Sum the invoice lines with tax."""
    return sum(l.amount for l in lines) * 1.2


def invoice_tax(lines):
    """Tax part of an invoice total."""
    return sum(l.amount for l in lines) * 0.2
`,
	"billing/refund.py": `"""Refunds of invoices."""


def refund_invoice(invoice):
    """Refund an invoice total to the card."""
    return -invoice.total
`,
}

// All is every file of the corpus: Backend, Web and Billing.
func All() map[string]string { return Files(Backend, Web, Billing) }

// Files merges sets of files into a new map the caller may change.
func Files(sets ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, s := range sets {
		maps.Copy(out, s)
	}
	return out
}

// Paths are the paths of files, sorted.
func Paths(files map[string]string) []string { return slices.Sorted(maps.Keys(files)) }

// Kinds of Entity.
const (
	Class    = "class"
	Function = "function"
)

// Entity is a class or function a hand-built graph declares in a file:
// its node is "file::<path>::<Parent>::<Name>" (without "<Parent>::" at
// the top level), spanning lines Start to End (1-based, inclusive).
type Entity struct {
	Name, Kind, Parent string
	Start, End         int
}

// ID is the external node ID of e in the file at path.
func (e Entity) ID(path string) string {
	if e.Parent != "" {
		return "file::" + path + "::" + e.Parent + "::" + e.Name
	}
	return "file::" + path + "::" + e.Name
}

// Tiny is the smallest repository the command-line tests ingest: a Go
// module whose main.go calls pkg.ValidateUser, and a Python helper.
var Tiny = map[string]string{
	"go.mod":      "module example.com/fx\n\ngo 1.22\n",
	"main.go":     "package main\n\nimport \"example.com/fx/pkg\"\n\nfunc main() {\n\tif pkg.ValidateUser(\"a\", \"b\") {\n\t\tprintln(\"ok\")\n\t}\n}\n",
	"pkg/auth.go": "package pkg\n\n// ValidateUser checks user credentials against the store.\nfunc ValidateUser(name, password string) bool {\n\treturn lookup(name) == hash(password)\n}\n\nfunc lookup(name string) string { return name }\n\nfunc hash(s string) string { return s + \"!\" }\n",
	"util.py":     "def parse_config(path):\n    \"\"\"Read the configuration file.\"\"\"\n    return open(path).read()\n",
}

// Entities are the classes and functions of every file of All, by path.
var Entities = map[string][]Entity{
	"backend/auth.py": {
		{"AuthService", Class, "", 6, 20},
		{"__init__", Function, "AuthService", 9, 10},
		{"validate_credentials", Function, "AuthService", 12, 15},
		{"login", Function, "AuthService", 17, 20},
	},
	"backend/session.py": {
		{"SessionStore", Class, "", 5, 19},
		{"__init__", Function, "SessionStore", 6, 8},
		{"create", Function, "SessionStore", 10, 13},
		{"lookup", Function, "SessionStore", 15, 19},
	},
	"backend/crypto.py":     {{"hash_password", Function, "", 5, 7}},
	"backend/middleware.py": {{"require_session", Function, "", 5, 10}},
	"backend/payments.py": {
		{"charge", Function, "", 5, 7},
		{"refund", Function, "", 10, 12},
	},
	"tests/test_auth.py":    {{"test_login_rejects_bad_password", Function, "", 4, 6}},
	"tests/test_session.py": {{"test_session_expires", Function, "", 4, 6}},
	"web/server.go": {
		{"handleLogin", Function, "", 6, 13},
		{"parseHeaderToken", Function, "", 16, 19},
	},
	"web/router.go":      {{"NewRouter", Function, "", 6, 10}},
	"billing/invoice.py": {{"invoice_total", Function, "", 4, 6}, {"invoice_tax", Function, "", 9, 11}},
	"billing/refund.py":  {{"refund_invoice", Function, "", 4, 6}},
}

// Edge is a relation between two nodes by external ID.
type Edge struct{ Source, Target, Relation string }

// Edges are the calls, imports and tests between the files of All, as a
// reader of the code sees them.
var Edges = []Edge{
	{"file::backend/auth.py::AuthService::login", "file::backend/auth.py::AuthService::validate_credentials", "calls"},
	{"file::backend/auth.py::AuthService::validate_credentials", "file::backend/crypto.py::hash_password", "calls"},
	{"file::backend/auth.py::AuthService::login", "file::backend/session.py::SessionStore::create", "calls"},
	{"file::backend/auth.py", "file::backend/session.py", "imports"},
	{"file::backend/auth.py", "file::backend/crypto.py", "imports"},
	{"file::backend/middleware.py", "file::backend/session.py", "imports"},
	{"file::backend/middleware.py::require_session", "file::backend/session.py::SessionStore::lookup", "calls"},
	{"file::backend/payments.py", "file::backend/middleware.py", "imports"},
	{"file::backend/payments.py::charge", "file::backend/middleware.py::require_session", "calls"},
	{"file::backend/payments.py::refund", "file::backend/middleware.py::require_session", "calls"},
	{"file::tests/test_auth.py", "file::backend/auth.py", "tests"},
	{"file::tests/test_session.py", "file::backend/session.py", "tests"},
	{"file::web/router.go::NewRouter", "file::web/server.go::handleLogin", "calls"},
	{"file::billing/refund.py", "file::billing/invoice.py", "imports"},
}

// Write writes files under dir, creating their directories.
func Write(dir string, files map[string]string) error {
	for _, p := range Paths(files) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			return err
		}
	}
	return nil
}
