package code

import (
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

func day(n int) time.Time { return gittest.Epoch.Add(time.Duration(n) * 24 * time.Hour) }

// fixture is a small mixed repository: a Python package with same-named
// helpers in two directories, a Go module, tests, a binary, an undecodable
// file, ignored files.
var fixture = map[string]string{
	".gitignore":      "*.log\nsecrets/\n",
	"app/__init__.py": "",
	"app/models.py": `class User:
    def save(self):
        return True


class Account:
    def save(self):
        return False
`,
	"app/util.py": "def helper():\n    return 1\n",
	"app/service.py": `from .models import User
from . import util


class Service:
    def run(self):
        u = User()
        u.save()
        return helper()


def helper():
    return util.helper()
`,
	"lib/util.py":           "def helper():\n    return 2\n",
	"tests/test_service.py": "from app.service import Service\n\n\ndef test_run():\n    assert Service().run()\n",
	"go.mod":                "module example.com/shop\n\ngo 1.22\n",
	"store/db.go": `package store

// DB is a database.
type DB struct{}

// Query runs a query.
func (d *DB) Query() error { return nil }

// New opens a DB.
func New() *DB { return &DB{} }
`,
	"store/db_test.go": "package store\n\nimport \"testing\"\n\nfunc TestQuery(t *testing.T) { New().Query() }\n",
	"cmd/main.go": `package main

import "example.com/shop/store"

func main() {
	db := store.New()
	db.Query()
}
`,
	"README.md":         "# Shop\n",
	"debug.log":         "ignored\n",
	"secrets/key.py":    "KEY = 1\n",
	"data.bin":          "abc\x00def",
	"latin.txt":         "caf\xe9\n",
	"node_modules/x.js": "module.exports = 1\n",
}

// newFixtureRepo writes the fixture with three commits:
// day 0 everything, day 1 app/service.py + app/util.py, day 2 app/service.py.
func newFixtureRepo(t testing.TB) *gittest.Repo {
	r := gittest.Init(t, t.TempDir())
	r.Write(fixture)
	r.Commit("initial", "ann", day(0))
	r.Change(map[string]string{"app/service.py": fixture["app/service.py"] + "\n", "app/util.py": fixture["app/util.py"] + "\n"}, "bob", day(1))
	r.Change(map[string]string{"app/service.py": fixture["app/service.py"] + "\n\n"}, "ann", day(2))
	return r
}
