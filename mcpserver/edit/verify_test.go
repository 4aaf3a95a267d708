package edit

import (
	"strings"
	"testing"
)

func kinds(fs []Finding) string {
	var ks []string
	for _, f := range fs {
		ks = append(ks, f.Kind+":"+f.Severity)
	}
	return strings.Join(ks, ",")
}

func TestStubs(t *testing.T) {
	goOld := "package a\n\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\nfunc Name() string { return \"a\" }\n"
	pyOld := "class A:\n    def total(self, xs):\n        \"\"\"Sum.\"\"\"\n        return sum(x for x in xs)\n\n    def name(self):\n        return 'a'\n"
	cases := []struct {
		name, rel, old, next string
		existed              bool
		want                 string
	}{
		{"go body replaced by panic", "a.go", goOld, strings.Replace(goOld, "\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n", "\tpanic(\"not implemented\")\n", 1), true, "stub_replaced_logic:broken"},
		{"go body replaced by constant", "a.go", goOld, strings.Replace(goOld, "\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n", "\t// TODO\n\treturn 0\n", 1), true, "stub_replaced_logic:broken"},
		{"go real change", "a.go", goOld, strings.Replace(goOld, "t += x", "t += 2 * x", 1), true, ""},
		{"go constant stays constant", "a.go", goOld, strings.Replace(goOld, `return "a"`, `return "b"`, 1), true, ""},
		{"python pass", "a.py", pyOld, strings.Replace(pyOld, "return sum(x for x in xs)", "pass", 1), true, "stub_replaced_logic:broken"},
		{"python NotImplementedError", "a.py", pyOld, strings.Replace(pyOld, "return sum(x for x in xs)", "raise NotImplementedError('later')", 1), true, "stub_replaced_logic:broken"},
		{"python ellipsis with docstring", "a.py", pyOld, strings.Replace(pyOld, "return sum(x for x in xs)", "...", 1), true, "stub_replaced_logic:broken"},
		{"python abstract", "a.py", "", "import abc\nclass B(abc.ABC):\n    @abc.abstractmethod\n    def f(self):\n        ...\n\n    def g(self):\n        return self.f() + 1\n", false, ""},
		{"new stub file", "n.py", "", "def f():\n    pass\n\ndef g():\n    return None\n", false, "stub_file:warning"},
		{"rust todo", "l.rs", "fn f(x: i32) -> i32 {\n    x * 2\n}\n", "fn f(x: i32) -> i32 {\n    todo!()\n}\n", true, "stub_replaced_logic:broken"},
		{"js throw", "a.js", "function f(a) {\n  return a.map(x => x + 1);\n}\n", "function f(a) {\n  throw new Error('not implemented');\n}\n", true, "stub_replaced_logic:broken"},
		{"not code", "README.md", "# a\n", "# b\n", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := kinds(Stubs(c.rel, []byte(c.old), []byte(c.next), c.existed)); got != c.want {
				t.Errorf("Stubs = %q, want %q", got, c.want)
			}
		})
	}
}

func TestAntiPatterns(t *testing.T) {
	cases := []struct {
		name, rel, old, next, want string
	}{
		{"unwrap new to file", "a.rs", "fn f() -> Result<i32, E> { g()?; Ok(1) }\n", "fn f() -> i32 { g().unwrap(); 1 }\n", "unwrap_added:warning,error_handling_removed:warning"},
		{"unwrap already there", "a.rs", "fn f() { g().unwrap(); }\n", "fn f() { g().unwrap(); h().unwrap(); }\n", ""},
		{"empty except", "a.py", "try:\n    f()\nexcept ValueError as e:\n    log(e)\n", "try:\n    f()\nexcept ValueError:\n    pass\n", "empty_except:warning"},
		{"bare except", "a.py", "x = 1\n", "try:\n    f()\nexcept:\n    log()\n", "bare_except:warning"},
		{"go panic", "a.go", "package a\n", "package a\n\nfunc f() { panic(\"x\") }\n", "panic_added:warning"},
		{"go panic in test ok", "a_test.go", "package a\n", "package a\n\nfunc f() { panic(\"x\") }\n", ""},
		{"go error dropped", "a.go", "package a\n\nfunc f() error {\n\tif err := g(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", "package a\n\nfunc f() error {\n\terr := g()\n\t_ = err\n\treturn nil\n}\n", "error_discarded:warning,error_handling_removed:warning"},
		{"empty catch", "a.ts", "try { f() } catch (e) { log(e) }\n", "try { f() } catch (e) {}\n", "empty_catch:warning"},
		{"skip", "tests/test_a.py", "def test_a():\n    assert f()\n", "@pytest.mark.skip\ndef test_a():\n    assert f()\n", "test_disabled:warning"},
		{"ts-ignore and todo", "a.ts", "let x = 1\n", "// @ts-ignore TODO\nlet x: number = 'a'\n", "checker_silenced:info,todo_marker:info"},
		{"nothing added", "a.py", "x = 1\ny = 2\n", "x = 1\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := kinds(AntiPatterns(c.rel, []byte(c.old), []byte(c.next))); got != c.want {
				t.Errorf("AntiPatterns = %q, want %q", got, c.want)
			}
		})
	}
}
