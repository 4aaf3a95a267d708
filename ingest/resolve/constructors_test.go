package resolve

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestJavaClassNotItsConstructors: a class and its constructors share a
// name; a type use, an import and `new X(…)` name the class, which javac
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
		{name: "new X(…)", from: from, srcEnt: "TestSetup::run", ref: "TestResult",
			hint: extract.RefHint{Module: "junit.framework"}, want: "file::" + result + "::TestResult", status: Resolved},
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
