package dynamics

import (
	"fmt"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// attrRepo holds attribute state in three languages, each answer known:
//   - Python: Cache.items, a module-level instance's attribute written by
//     put and read by get (two handlers); Cache.size and Cache.hits are
//     written by put alone (one entry); Req.n is written through an
//     instance each handler makes itself (instance: may be per call);
//     Counter.n is written under its own lock; the module-level registry
//     (an element written) and total (rebound after global) are module
//     state; the type alias Scope, used in annotations only, is none.
//   - Go: Store.items written through a pointer receiver (Put) and read
//     by Get, the instance a package variable; Store.seen is written
//     through a value receiver (a copy: no write); hits is a package
//     variable both handlers bump; Reg.names is written on the instance
//     a package variable holds through its constructor (var reg = NewReg()).
//   - JavaScript: Cache.items on a module-level instance.
var attrRepo = map[string]string{
	"py/app.py": `import threading

class Cache:
    hits = 0

    def __init__(self):
        self.items = {}
        self.size = 0

    def put(self, k, v):
        self.items[k] = v
        self.size += 1
        Cache.hits += 1

    def get(self, k):
        return self.items.get(k)

class Req:
    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1

class Counter:
    def __init__(self):
        self._lock = threading.Lock()
        self.n = 0

    def inc(self):
        with self._lock:
            self.n += 1

cache = Cache()
counter = Counter()
registry = {}
total = 0
Scope = dict

def handle_get(req: Scope):
    return cache.get(req), registry.get(req)

def handle_put(req: Scope):
    cache.put(req, 1)
    registry[req] = 1

def handle_a(req):
    global total
    Req().bump()
    total += 1

def handle_b(req):
    global total
    Req().bump()
    total = total + 1

def handle_c(req):
    counter.inc()

def handle_d(req):
    counter.inc()
`,
	"go/go.mod": "module example.com/store\n\ngo 1.22\n",
	"go/main.go": `package main

var hits int

type Store struct {
	items map[string]int
	seen  int
}

func (s *Store) Put(k string) {
	s.items[k] = 1
}

func (s *Store) Get(k string) int { return s.items[k] }

func (s Store) Peek() int {
	s.seen++
	return s.seen
}

var store = &Store{}

type Reg struct{ names []string }

func NewReg() *Reg { return &Reg{} }

func (r *Reg) Add(n string) { r.names = append(r.names, n) }

func (r *Reg) Len() int { return len(r.names) }

var reg = NewReg()

func handleGet() { store.Get("a"); store.Peek(); hits++; reg.Len() }
func handlePut() { store.Put("a"); store.Peek(); hits++; reg.Add("a") }

func main() {}
`,
	"js/app.js": `class Cache {
  constructor() { this.items = {}; }
  put(k, v) { this.items[k] = v; }
  get(k) { return this.items[k]; }
}
const cache = new Cache();
function handleGet(req) { return cache.get(req); }
function handlePut(req) { cache.put(req, 1); }
module.exports = { handleGet, handlePut };
`,
}

func TestFlowAttributeTurbulence(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, attrRepo)
	out := tooltest.MustCall(t, d, "flow_simulate", map[string]any{"agent_id": "t", "turbulence_threshold": 0.2, "detail": "full"})
	var got []string
	for _, tp := range out["turbulence"].([]any) {
		m := tp.(map[string]any)
		got = append(got, fmt.Sprintf("%v.%v %v %v %v %v writes=%v", m["node_id"], m["attribute"], m["shared"], m["score"], m["severity"], tooltest.ToStrings(m["entries"]), m["writes"]))
	}
	slices.Sort(got)
	want := []string{
		"file::go/main.go::Reg.names module_instance 0.5 high [file::go/main.go::handleGet file::go/main.go::handlePut] writes=[go/main.go:27]",
		"file::go/main.go::Store.items module_instance 0.5 high [file::go/main.go::handleGet file::go/main.go::handlePut] writes=[go/main.go:11]",
		"file::go/main.go::hits.<nil> module 0.5 high [file::go/main.go::handleGet file::go/main.go::handlePut] writes=<nil>",
		"file::js/app.js::Cache.items module_instance 0.5 high [file::js/app.js::handleGet file::js/app.js::handlePut] writes=[js/app.js:3]",
		"file::py/app.py::Cache.items module_instance 0.5 high [file::py/app.py::handle_get file::py/app.py::handle_put] writes=[py/app.py:11]",
		"file::py/app.py::Counter.n module_instance 0.25 low [file::py/app.py::handle_c file::py/app.py::handle_d] writes=[py/app.py:32]",
		"file::py/app.py::Req.n instance 0.25 low [file::py/app.py::handle_a file::py/app.py::handle_b] writes=[py/app.py:23]",
		"file::py/app.py::registry.<nil> module 0.5 high [file::py/app.py::handle_get file::py/app.py::handle_put] writes=[py/app.py:45]",
		"file::py/app.py::total.<nil> module 0.5 high [file::py/app.py::handle_a file::py/app.py::handle_b] writes=[py/app.py:50 py/app.py:55]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("turbulence:\n got %q\nwant %q\n%s", got, want, tooltest.ToJSON(out["turbulence"]))
	}
	// At the default threshold only the unguarded shared state is listed.
	def := tooltest.MustCall(t, d, "flow_simulate", map[string]any{"agent_id": "t"})
	if n := len(def["turbulence"].([]any)); n != 7 || def["below_threshold"] != 2.0 {
		t.Errorf("default threshold: %d points, %v below; want 7 and 2", n, def["below_threshold"])
	}
}
