package code

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// ctorStep is one edit of TestIncrementalConstructors: files written
// (removed when their text is ""), and an edge the graph must then have
// (or, with !has, must not).
type ctorStep struct {
	name  string
	files map[string]string
	src   string
	dst   string
	has   bool
}

// ctorSteps edit constructors and bases in files other than the ones that
// construct the classes: z/use.py and web/app.js never change.
var ctorSteps = []ctorStep{
	{"a class gains a constructor", map[string]string{
		"m/user.py": "class User:\n    def __init__(self, n):\n        self.n = n\n",
	}, "file::z/use.py::person", "file::m/user.py::User::__init__", true},
	{"a base gains a constructor its subclass, constructed elsewhere, runs", map[string]string{
		"m/base.py": "class Base:\n    def __init__(self):\n        self.x = 1\n\n    def save(self):\n        return 1\n",
	}, "file::z/use.py::make", "file::m/base.py::Base::__init__", true},
	{"a JS base gains a constructor", map[string]string{
		"web/shape.js": "export class Shape {\n  constructor(n) { this.n = n }\n  area() { return 0 }\n}\n",
	}, "file::web/app.js::build", "file::web/shape.js::Shape::constructor", true},
	{"the subclass's base list changes", map[string]string{
		"m/child.py": "from m.other import Other\n\n\nclass Admin(Other):\n    pass\n",
	}, "file::z/use.py::make", "file::m/base.py::Base::__init__", false},
	{"a middle class comes between the subclass and the base", map[string]string{
		"m/child.py": "from m.base import Base\n\n\nclass Mid(Base):\n    pass\n\n\nclass Admin(Mid):\n    pass\n",
	}, "file::z/use.py::make", "file::m/base.py::Base::__init__", true},
	{"the base, two levels up, loses its constructor", map[string]string{
		"m/base.py": "class Base:\n    def save(self):\n        return 1\n",
	}, "file::z/use.py::make", "file::m/base.py::Base::__init__", false},
	{"the base's own base list changes, to a class with a constructor", map[string]string{
		"m/base.py":  "from m.other import Other\n\n\nclass Base(Other):\n    def save(self):\n        return 1\n",
		"m/other.py": "class Other:\n    def __init__(self):\n        self.y = 2\n",
	}, "file::z/use.py::make", "file::m/other.py::Other::__init__", true},
	{"the constructor three levels up changes its parameters", map[string]string{
		"m/other.py": "class Other:\n    def __init__(self, a, b=1):\n        self.y = a\n",
	}, "file::z/use.py::make", "file::m/other.py::Other::__init__", true},
	{"a class is renamed", map[string]string{
		"m/user.py": "class Person:\n    def __init__(self, n):\n        self.n = n\n",
	}, "file::z/use.py::person", "file::m/user.py::User::__init__", false},
	{"a JS base loses its constructor", map[string]string{
		"web/shape.js": "export class Shape {\n  area() { return 0 }\n}\n",
	}, "file::web/app.js::build", "file::web/shape.js::Shape::constructor", false},
	{"a Java constructor takes the arity of its overload", map[string]string{
		"j/Point.java": "package j;\n\npublic class Point {\n  public Point(int a) {}\n  public Point(int x) {}\n}\n",
	}, "file::j/Use.java::Use::one", "file::j/Point.java::Point::Point", true},
	{"a Ruby base gains initialize", map[string]string{
		"rb/base.rb": "module Shop\n  class Base\n    def initialize(n)\n    end\n  end\nend\n",
	}, "file::rb/use.rb::Shop::Order::make", "file::rb/base.rb::Shop::Base::initialize", true},
	{"a Ruby subclass names another base by its path", map[string]string{
		"rb/child.rb": "module Shop\n  class Admin < Shop::Plain\n  end\nend\n",
	}, "file::rb/use.rb::Shop::Order::make", "file::rb/base.rb::Shop::Base::initialize", false},
	{"a Ruby constant alias in another file names another class", map[string]string{
		"rb/alias.rb": "module Shop\n  Short = Base\nend\n",
	}, "file::rb/use.rb::Shop::Order::ship", "file::rb/base.rb::Shop::Base::initialize", true},
	{"the file of a base vanishes", map[string]string{
		"m/other.py": "",
	}, "file::z/use.py::make", "file::m/other.py::Other::__init__", false},
}

// TestIncrementalConstructors runs ctorSteps through both incremental
// paths (the previous graph patched, or rebuilt from cached outcomes when
// it was released) and compares each step with a full ingest: a
// construction binds the constructor its class runs, which may be
// declared in a third file.
func TestIncrementalConstructors(t *testing.T) {
	runBothPaths(t, map[string]string{
		"m/__init__.py": "",
		"m/base.py":     "class Base:\n    def save(self):\n        return 1\n",
		"m/other.py":    "class Other:\n    pass\n",
		"m/child.py":    "from m.base import Base\n\n\nclass Admin(Base):\n    pass\n",
		"m/user.py":     "class User:\n    def name(self):\n        return 1\n",
		"z/use.py":      "from m.child import Admin\nfrom m.user import User\n\n\ndef make():\n    return Admin()\n\n\ndef person():\n    return User(1)\n",
		"web/shape.js":  "export class Shape {\n  area() { return 0 }\n}\n",
		"web/square.js": "import { Shape } from './shape.js'\n\nexport class Square extends Shape {}\n",
		"web/app.js":    "import { Square } from './square.js'\n\nexport function build() { return new Square(2) }\n",
		"j/Point.java":  "package j;\n\npublic class Point {\n  public Point() {}\n  public Point(int x) {}\n}\n",
		"rb/base.rb":    "module Shop\n  class Base\n  end\n  class Plain\n  end\nend\n",
		"rb/child.rb":   "module Shop\n  class Admin < Shop::Base\n  end\nend\n",
		"rb/use.rb":     "module Shop\n  class Order\n    def make\n      Shop::Admin.new(1)\n    end\n\n    def ship\n      Short.new(1)\n    end\n  end\nend\n",
		"rb/alias.rb":   "module Shop\n  Short = Plain\nend\n",
		"j/Use.java":    "package j;\n\npublic class Use {\n  Point one() { return new Point(1); }\n}\n",
	}, ctorSteps)
}

// runIncrementalSteps ingests dir in full, then applies each step (a file
// given "" is removed) and ingests again through the incremental path
// under test — the previous graph patched, or rebuilt from cached outcomes
// when released — comparing each graph with a full ingest and checking
// the step's call edge.
// runBothPaths writes files into a fresh directory and runs steps on it
// twice: through a patch of the held graph, and through a rebuild from the
// cache with the graph released.
func runBothPaths(t *testing.T, files map[string]string, steps []ctorStep) {
	for _, released := range []bool{false, true} {
		name := "patched"
		if released {
			name = "rebuilt"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			runIncrementalSteps(t, dir, steps, released)
		})
	}
}

func runIncrementalSteps(t *testing.T, dir string, steps []ctorStep, released bool) {
	store := cache.Open(t.TempDir())
	req := adapter.Request{Root: dir, Incremental: true, Cache: store}
	prev := ingest(t, req)
	equalToFull(t, dir, prev)
	at := time.Now().Add(time.Hour)
	for _, s := range steps {
		for p, text := range s.files {
			if text == "" {
				if err := os.Remove(filepath.Join(dir, p)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			writeFiles(t, dir, map[string]string{p: text})
			touch(t, filepath.Join(dir, p), at)
		}
		at = at.Add(time.Minute)
		if released {
			prev = nil
			runtime.GC()
			runtime.GC()
		}
		out := ingest(t, req)
		runtime.KeepAlive(prev)
		if inc := out.Stats.Incremental; inc.Full || inc.Patched == released {
			t.Fatalf("%s: not the path under test: %+v", s.name, inc)
		}
		equalToFull(t, dir, out)
		if d := graphdump.Of(out.Graph); d.Has(s.src, "calls", s.dst) != s.has {
			t.Errorf("%s: %s calls %s: want %v:\n%v", s.name, s.src, s.dst, s.has, d.EdgeStrings())
		}
		prev = out
	}
}
