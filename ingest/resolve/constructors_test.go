package resolve

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestJavaClassNotItsConstructors: a class and its constructors share a
// name; a type use, an import and an extends name the class, which javac
// binds (junit4: 917 of 1,204 ambiguous resolutions), and a static import
// of an overloaded method names all its overloads at once (267 more).
func TestJavaClassNotItsConstructors(t *testing.T) {
	pkg := func(r *extract.Result, p string) *extract.Result { r.Package = p; return r }
	result := "src/main/java/junit/framework/TestResult.java"
	assert := "src/main/java/org/junit/Assert.java"
	folder := "src/main/java/org/junit/rules/TemporaryFolder.java"
	ix := New([]*extract.Result{
		pkg(file(result, "java", "class TestResult", "func TestResult::TestResult", "func TestResult::TestResult(String)", "func TestResult::run"), "junit.framework"),
		pkg(file(assert, "java", "class Assert", "func Assert::assertEquals", "func Assert::assertEquals(long,long)"), "org.junit"),
		pkg(file(folder, "java", "class TemporaryFolder", "class TemporaryFolder::Builder", "func TemporaryFolder::Builder::Builder"), "org.junit.rules"),
		pkg(file("src/main/java/org/junit/rules/Timeout.java", "java", "class Timeout", "class Timeout::Builder", "func Timeout::Builder::Builder"), "org.junit.rules"),
		pkg(file("src/main/java/junit/extensions/TestSetup.java", "java", "class TestSetup", "func TestSetup::run"), "junit.extensions"),
		pkg(file("src/test/java/org/junit/AssertionTest.java", "java", "class AssertionTest"), "org.junit"),
	}, nil)
	const from = "src/main/java/junit/extensions/TestSetup.java"
	run(t, ix, []rcase{
		{name: "a type use", from: from, srcEnt: "TestSetup::run", ref: "TestResult", rel: extract.RelReferences,
			hint: extract.RefHint{Module: "junit.framework"}, want: "file::" + result + "::TestResult", status: Resolved},
		// new X(…) runs a constructor (constructed, TestConstructions).
		{name: "new X(…)", from: from, srcEnt: "TestSetup::run", ref: "TestResult",
			hint: extract.RefHint{Module: "junit.framework"}, want: "file::" + result + "::TestResult::TestResult", status: Resolved},
		{name: "a class import", from: from, ref: "TestResult", rel: extract.RelImports,
			hint: extract.RefHint{Module: "junit.framework"}, want: "file::" + result + "::TestResult", status: Resolved},
		{name: "a nested class of the same file", from: folder, srcEnt: "TemporaryFolder", ref: "Builder", rel: extract.RelReferences,
			want: "file::" + folder + "::TemporaryFolder::Builder", status: Resolved},
		{name: "a static import of overloads", from: "src/test/java/org/junit/AssertionTest.java", ref: "assertEquals", rel: extract.RelImports,
			hint: extract.RefHint{Module: "org.junit.Assert"}, want: "file::" + assert + "::Assert::assertEquals", status: Resolved},
		// super(…): the constructors alone are candidates; nothing changes.
		{name: "super(…)", from: result, srcEnt: "TestResult::TestResult(String)", ref: "TestResult",
			hint: extract.RefHint{ReceiverType: "TestResult"}, want: "file::" + result + "::TestResult::TestResult", status: Resolved},
	})
}

// TestConstructions: a construction binds the constructor the language
// runs — by argument count among overloads (Java, C#), `constructor` (TS),
// `__init__` (Python) — beside the class it names; the class alone when
// it declares none.
func TestConstructions(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  map[string]bound // "callee/argument count" from the use file
	}{
		{"java", map[string]string{
			"demo/Point.java": "package demo;\npublic class Point {\n  public Point() {}\n  public Point(int x, int y) {}\n  public Point(String s) {}\n}\n",
			"demo/Base.java":  "package demo;\npublic class Base {\n  protected Base(int n) {}\n  protected Base(int n, int m) {}\n  void run() {}\n}\n",
			"demo/Empty.java": "package demo;\npublic class Empty {\n  void run() {}\n}\n",
			"demo/Use.java": "package demo;\nclass Use {\n  void make() {\n    new Point();\n    new Point(1, 2);\n    new Point(\"a\");\n    new Empty();\n" +
				"    new Base(1) { void run() {} };\n  }\n}\n",
		}, map[string]bound{
			"Point/0": {Target: "demo/Point.java::Point::Point", Also: []string{"demo/Point.java::Point"}},
			"Point/2": {Target: "demo/Point.java::Point::Point(int,int)", Also: []string{"demo/Point.java::Point"}},
			"Point/1": {Target: "demo/Point.java::Point::Point(String)", Also: []string{"demo/Point.java::Point"}},
			"Empty/0": {Target: "demo/Empty.java::Empty"},
			"Base/1":  {Target: "demo/Base.java::Base::Base", Also: []string{"demo/Base.java::Base"}},
		}},
		{"csharp", map[string]string{
			"Use.cs": "namespace Demo {\n  class Pen {\n    public Pen() {}\n    public Pen(int w) {}\n  }\n  class Use {\n    void Make() { new Pen(2); new Bare(); }\n  }\n  class Bare {}\n}\n",
		}, map[string]bound{
			"Pen/1":  {Target: "Use.cs::Demo::Pen::Pen(int)", Also: []string{"Use.cs::Demo::Pen"}},
			"Bare/0": {Target: "Use.cs::Demo::Bare"},
		}},
		{"typescript", map[string]string{
			"src/a.ts":   "export class Box {\n  constructor(n: number) {}\n}\nexport class Bare {}\n",
			"src/use.ts": "import { Box, Bare } from \"./a\";\nexport function make() {\n  new Box(1);\n  new Bare();\n}\n",
		}, map[string]bound{
			"Box/-1":  {Target: "src/a.ts::Box::constructor", Also: []string{"src/a.ts::Box"}},
			"Bare/-1": {Target: "src/a.ts::Bare"},
		}},
		{"python", map[string]string{
			"pkg/shapes.py": "class Shape:\n    def __init__(self, n):\n        self.n = n\n\nclass Plain:\n    pass\n\nclass Square(Shape):\n    pass\n",
			"pkg/use.py":    "from .shapes import Shape, Plain, Square\n\ndef make():\n    Shape(1)\n    Plain()\n    Square(2)\n",
		}, map[string]bound{
			// Python runs the base's __init__.
			"Square/-1": {Target: "pkg/shapes.py::Shape::__init__", Also: []string{"pkg/shapes.py::Square"}},
			"Shape/-1":  {Target: "pkg/shapes.py::Shape::__init__", Also: []string{"pkg/shapes.py::Shape"}},
			"Plain/-1":  {Target: "pkg/shapes.py::Plain"},
		}},
		{"kotlin", map[string]string{
			"demo/Point.kt": "package demo\n\nclass Point(val x: Int, val y: Int = 0) {\n    constructor(s: String, t: String, vararg u: String) : this(s.length)\n}\n\n" +
				"class Bare\n\nclass Lazy {\n    init {\n        println(1)\n    }\n}\n",
			"other/Use.kt": "package other\n\nimport demo.Point\nimport demo.*\n\nfun make() {\n    Point(1)\n    Point(\"a\", \"b\", \"c\", \"d\")\n" +
				"    Bare()\n    Lazy()\n    Point(1) { it }\n}\n",
		}, map[string]bound{
			// X(…) is a construction: the primary constructor, a secondary
			// one (vararg), the implicit one init blocks make, by count; a
			// trailing lambda is an argument; through an import and a star.
			"Point/1": {Target: "demo/Point.kt::Point::Point", Also: []string{"demo/Point.kt::Point"}},
			"Point/4": {Target: "demo/Point.kt::Point::Point(String,String,String)", Also: []string{"demo/Point.kt::Point"}},
			"Point/2": {Target: "demo/Point.kt::Point::Point", Also: []string{"demo/Point.kt::Point", "demo/Point.kt::Point::Point(String,String,String)"}},
			"Bare/0":  {Target: "demo/Point.kt::Bare"},
			"Lazy/0":  {Target: "demo/Point.kt::Lazy::Lazy", Also: []string{"demo/Point.kt::Lazy"}},
		}},
		{"ruby", map[string]string{
			"lib/rack/request.rb":                 "module Rack\n  class Request\n    def initialize(env)\n    end\n  end\nend\n",
			"lib/rack/reopen.rb":                  "module Rack\n  class Request\n    def extra\n    end\n  end\nend\n",
			"lib/rack/auth.rb":                    "module Rack\n  module Auth\n    class Request < Rack::Request\n      def user\n      end\n    end\n  end\nend\n",
			"lib/rack/multipart/uploaded_file.rb": "module Rack\n  module Multipart\n    class UploadedFile\n      def initialize(path, type = nil)\n      end\n    end\n  end\nend\n",
			"lib/rack/use.rb": "module Rack\n  module Kit\n  end\n  class User\n    def make\n      Multipart::UploadedFile.new(\"x\")\n" +
				"      Rack::Multipart::UploadedFile.new(\"x\", \"y\")\n      Auth::Request.new(1, 2, 3)\n      Request.new(env)\n" +
				"      Kit.new\n      Rack::Mock.new\n      ::Logger.new\n    end\n  end\nend\n",
		}, map[string]bound{
			// Through the module nesting: Rack::User's Multipart is Rack::Multipart.
			"Multipart::UploadedFile/1":       {Target: "lib/rack/multipart/uploaded_file.rb::Rack::Multipart::UploadedFile::initialize", Also: []string{"lib/rack/multipart/uploaded_file.rb::Rack::Multipart::UploadedFile"}},
			"Rack::Multipart::UploadedFile/2": {Target: "lib/rack/multipart/uploaded_file.rb::Rack::Multipart::UploadedFile::initialize", Also: []string{"lib/rack/multipart/uploaded_file.rb::Rack::Multipart::UploadedFile"}},
			// A superclass named by its path, though two classes are named Request.
			"Auth::Request/3": {Target: "lib/rack/request.rb::Rack::Request::initialize", Also: []string{"lib/rack/auth.rb::Rack::Auth::Request"}},
			// A reopened class: the reopening that declares initialize.
			"Request/1": {Target: "lib/rack/request.rb::Rack::Request::initialize", Also: []string{"lib/rack/request.rb::Rack::Request"}},
			// A module's new is its own method; a gem's class is none of ours.
			"Kit/0": {}, "Rack::Mock/0": {}, "::Logger/0": {},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, resolveConstructions(t, c.files)); d != "" {
				t.Errorf("constructions (-want +got):\n%s", d)
			}
		})
	}
}

// resolveConstructions extracts files and resolves the calls made in the
// file whose path holds "Use" or "use", keyed "callee/argument count"
// (-1 when not counted), IDs without their "file::" prefix.
func resolveConstructions(t *testing.T, files map[string]string) map[string]bound {
	t.Helper()
	results := extractAll(t, files)
	ix := New(results, nil)
	trim := func(id string) string { return strings.TrimPrefix(id, "file::") }
	got := map[string]bound{}
	for _, r := range results {
		if !strings.Contains(r.Path, "Use") && !strings.Contains(r.Path, "use") {
			continue
		}
		for _, e := range r.Edges {
			name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
			if !ok || e.Relation != extract.RelCalls {
				continue
			}
			o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
			n, ok := e.Hint.ArgCount()
			if !ok {
				n = -1
			}
			b := bound{Target: trim(o.Target)}
			for _, id := range o.Also {
				b.Also = append(b.Also, trim(id))
			}
			got[fmt.Sprintf("%s/%d", name, n)] = b
		}
	}
	return got
}

// TestArgsFit: Kotlin constructors by what the arguments evidently are.
func TestArgsFit(t *testing.T) {
	for _, c := range []struct {
		params, args string
		want         bool
	}{
		{"name:s", "s", true},
		{"name:s", "i", false},
		{"name:s", "_", true},
		{"rgb:i,alpha:d?", "i", true},                     // a default left out
		{"pkg:s,enc:_,simple:s", "pkg=s,simple=s", false}, // enc required
		{"pkg:s,simple:s,ext:b?", "pkg=s,simple=s", true},
		{"parts:s*", "s,s,s", true}, // a vararg's further values
		{"f:l", "$l", true},
		{"f:s", "$l", false},
		{"a:s", "b=s", false}, // no parameter b
	} {
		if got := argsFit(c.params, c.args, nil); got != c.want {
			t.Errorf("argsFit(%q, %q) = %v, want %v", c.params, c.args, got, c.want)
		}
	}
}

// extractAll extracts files (path → source), in path order.
func extractAll(t *testing.T, files map[string]string) []*extract.Result {
	t.Helper()
	var results []*extract.Result
	for _, p := range slices.Sorted(maps.Keys(files)) {
		r, err := extract.ExtractFile(p, []byte(files[p]))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	return results
}
