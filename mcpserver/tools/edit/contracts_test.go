package edit

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A PHP class's method renamed while its interface still declares it
// (slim's RouteResolver::computeRoutingResults) fails at load: it was
// SAFE, as nothing calls the class's method by its own name and no PHP
// toolchain runs here. Now BROKEN and restored; a method no interface
// declares is not blamed on the contract, and a class that takes the
// method from a trait is only warned about.
func TestVerifyPHPInterfaceMethodRemoved(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/Resolver.php":  "<?php\nnamespace App;\n\ninterface Resolver\n{\n    public function compute(string $uri, array $opts = []): array;\n}\n",
		"src/Simple.php":    "<?php\nnamespace App;\n\nclass Simple implements Resolver\n{\n    public function compute(string $uri, array $opts = []): array\n    {\n        return [$uri];\n    }\n\n    public function extra(): int\n    {\n        return 1;\n    }\n}\n",
		"src/Uses.php":      "<?php\nnamespace App;\n\nfunction total(Simple $s): int\n{\n    return $s->extra();\n}\n",
		"src/WithTrait.php": "<?php\nnamespace App;\n\nclass WithTrait implements Resolver\n{\n    use Computes;\n\n    public function compute(string $uri, array $opts = []): array\n    {\n        return [];\n    }\n}\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)

	renamed := strings.Replace(files["src/Simple.php"], "function compute(", "function computeAll(", 1)
	out, v, rep := verifyBatch(t, d, "src/Simple.php", renamed)
	if v != edit.Broken || out["status"] != "restored" {
		t.Fatalf("interface method renamed in the class: verdict %s, status %v, reasons %v\n%s", v, out["status"], rep["reasons"], toJSONString(rep))
	}
	if uses := removedUses(rep); !slices.Contains(uses, "src/Simple.php:4:broken") {
		t.Errorf("removed_names_used %v lacks src/Simple.php:4:broken", uses)
	}

	noExtra := strings.Replace(files["src/Simple.php"], "\n    public function extra(): int\n    {\n        return 1;\n    }\n", "", 1)
	// No contract, but a use through PHP's -> (the check knew only ".").
	if _, v, rep := verifyBatch(t, d, "src/Simple.php", noExtra); v != edit.Risky || !slices.Equal(removedUses(rep), []string{"src/Uses.php:6:warning"}) {
		t.Errorf("a method no interface declares removed, still used: verdict %s, uses %v", v, removedUses(rep))
	}

	trait := strings.Replace(files["src/WithTrait.php"], "\n    public function compute(string $uri, array $opts = []): array\n    {\n        return [];\n    }\n", "", 1)
	if _, v, rep := verifyBatch(t, d, "src/WithTrait.php", trait); v == edit.Broken || !slices.Contains(removedUses(rep), "src/WithTrait.php:4:warning") {
		t.Errorf("a class with a trait may take the method from it: verdict %s, uses %v", v, removedUses(rep))
	}
}

// Java: a default method of the interface supplies the member, so a
// class may drop its override; an abstract one may not.
func TestVerifyJavaInterfaceMethodRemoved(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/main/java/a/Shape.java":  "package a;\n\npublic interface Shape {\n    double area();\n\n    default String name() {\n        return \"shape\";\n    }\n}\n",
		"src/main/java/a/Square.java": "package a;\n\npublic class Square implements Shape {\n    @Override\n    public double area() {\n        return 1.0;\n    }\n\n    @Override\n    public String name() {\n        return \"square\";\n    }\n}\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	sq := files["src/main/java/a/Square.java"]
	noArea := strings.Replace(sq, "    @Override\n    public double area() {\n        return 1.0;\n    }\n\n", "", 1)
	if _, v, rep := verifyBatch(t, d, "src/main/java/a/Square.java", noArea); v != edit.Broken || !slices.Contains(removedUses(rep), "src/main/java/a/Square.java:3:broken") {
		t.Errorf("an abstract interface method removed: verdict %s, uses %v, reasons %v", v, removedUses(rep), rep["reasons"])
	}
	noName := strings.Replace(sq, "\n    @Override\n    public String name() {\n        return \"square\";\n    }\n", "", 1)
	if _, v, rep := verifyBatch(t, d, "src/main/java/a/Square.java", noName); v == edit.Broken || len(removedUses(rep)) > 0 {
		t.Errorf("a default method's override removed: verdict %s, uses %v", v, removedUses(rep))
	}
}

func TestBodiless(t *testing.T) {
	for _, c := range []struct {
		decl   string
		kotlin bool
		want   bool
	}{
		{"public function compute(string $uri, array $opts = []): array;", false, true},
		{"/** Computes. */\n    double area();", false, true},
		{"@Deprecated(since = \"1\")\nvoid f(int x);", false, true},
		{"Task<TResponse> Handle(TRequest request, CancellationToken cancellationToken);", false, true},
		{"default String name() {\n return \"s\";\n}", false, false},
		{"int LIMIT = compute(3);", false, false},
		{"public function compute(): array\n{\n}", false, false},
		{"string Name { get; }", false, false},
		{"fun render(x: Int): String", true, true},
		{"suspend fun load(id: String): Item", true, true},
		{"fun render(x: Int): String = x.toString()", true, false},
		{"val size: Int", true, false},
		{"", false, false},
	} {
		if got := bodiless(c.decl, c.kotlin); got != c.want {
			t.Errorf("bodiless(%q, kotlin %v) = %v, want %v", c.decl, c.kotlin, got, c.want)
		}
	}
}

func TestAbstractOrInterface(t *testing.T) {
	for _, c := range []struct {
		src, owner string
		want       bool
	}{
		{"abstract class Base implements R {}", "Base", true},
		{"public abstract sealed class Base {}", "Base", true},
		{"interface Resolver extends Other {}", "Resolver", true},
		{"trait Computes {}", "Computes", true},
		{"final class Simple implements Resolver {}", "Simple", false},
		{"abstract class BaseX {}\nclass Base {}", "Base", false},
	} {
		if got := abstractOrInterface(c.src, c.owner); got != c.want {
			t.Errorf("abstractOrInterface(%q, %q) = %v, want %v", c.src, c.owner, got, c.want)
		}
	}
}

// The walk up a class's bases follows its own edges, not the way back of
// a bidirectional one: a sibling that implements the same interface and
// defines the removed method does not supply it (it did: the removed
// method, still called by its class, was not blamed).
func TestVerifyBaseWalkSkipsImplementers(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/Runs.php":    "<?php\nnamespace App;\n\ninterface Runs\n{\n    public function run(): int;\n}\n",
		"src/First.php":   "<?php\nnamespace App;\n\nclass First implements Runs\n{\n    public function run(): int\n    {\n        return $this->helper();\n    }\n\n    public function helper(): int\n    {\n        return 1;\n    }\n}\n",
		"src/Sibling.php": "<?php\nnamespace App;\n\nclass Sibling implements Runs\n{\n    public function run(): int\n    {\n        return 2;\n    }\n\n    public function helper(): int\n    {\n        return 3;\n    }\n}\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	gone := strings.Replace(files["src/First.php"], "\n    public function helper(): int\n    {\n        return 1;\n    }\n", "", 1)
	if _, v, rep := verifyBatch(t, d, "src/First.php", gone); v != edit.Broken || !slices.Contains(removedUses(rep), "src/First.php:8:broken") {
		t.Errorf("a removed method still called, defined only by a sibling: verdict %s, uses %v, reasons %v", v, removedUses(rep), rep["reasons"])
	}
}

// A standard-library interface the graph never holds (java.util.function
// Supplier, as commons-cli's builders implement it) still binds the class:
// its get() removed is BROKEN; with a base outside the graph that might
// supply it, a warning.
func TestVerifyStandardInterfaceMethodRemoved(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/main/java/a/Builder.java": "package a;\n\nimport java.util.function.Supplier;\n\npublic class Builder implements Supplier<String> {\n    @Override\n    public String get() {\n        return \"x\";\n    }\n}\n",
		"src/main/java/a/Framed.java":  "package a;\n\nimport java.util.function.Supplier;\n\npublic class Framed extends javax.swing.JFrame implements Supplier<String> {\n    @Override\n    public String get() {\n        return \"x\";\n    }\n}\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	for _, c := range []struct{ file, want string }{
		{"src/main/java/a/Builder.java", "src/main/java/a/Builder.java:5:broken"},
		{"src/main/java/a/Framed.java", "src/main/java/a/Framed.java:5:warning"},
	} {
		gone := strings.Replace(files[c.file], "    @Override\n    public String get() {\n        return \"x\";\n    }\n", "", 1)
		if _, _, rep := verifyBatch(t, d, c.file, gone); !slices.Contains(removedUses(rep), c.want) {
			t.Errorf("%s: get() removed: uses %v, want %s; reasons %v", c.file, removedUses(rep), c.want, rep["reasons"])
		}
	}
}

func TestStdBases(t *testing.T) {
	std := stdContracts[".java"]
	for _, c := range []struct {
		src, owner string
		want       []string
	}{
		{"public final class ClassName extends TypeName implements Comparable<ClassName> {", "ClassName", []string{"Comparable"}},
		{"class Pair<A extends Comparable<A>> implements Iterable<Map<A, List<A>>>, Runnable {", "Pair", []string{"Iterable", "Runnable"}},
		{"class Other implements Runnable {}\nclass Owner extends Base {", "Owner", nil},
	} {
		if got := stdBases(c.src, c.owner, func(w string) bool { return std[w] != nil }); !slices.Equal(got, c.want) {
			t.Errorf("stdBases(%q, %q) = %v, want %v", c.src, c.owner, got, c.want)
		}
	}
}

// An override of the root object's method removed (javapoet's
// TypeName.toString, still called by its equals): Object's answers, as
// javac agrees. It was BROKEN, and the edit was undone.
func TestVerifyRootObjectOverrideRemoved(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/main/java/a/Name.java": "package a;\n\npublic class Name {\n    @Override public boolean equals(Object o) {\n        return toString().equals(o.toString());\n    }\n\n    @Override public String toString() {\n        return \"n\";\n    }\n}\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	gone := strings.Replace(files["src/main/java/a/Name.java"], "\n    @Override public String toString() {\n        return \"n\";\n    }\n", "", 1)
	if _, v, rep := verifyBatch(t, d, "src/main/java/a/Name.java", gone); v == edit.Broken {
		t.Errorf("toString's override removed, Object's answers: verdict %s, uses %v, reasons %v", v, removedUses(rep), rep["reasons"])
	}
}
