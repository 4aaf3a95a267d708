package resolve

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestJavaReceiverIsAnInheritedCall: getTestClass().getAnnotatedMethods(…)
// in a runner calls ParentRunner's getTestClass (returning
// org.junit.runners.model.TestClass), not Description's (a Class): the
// receiver is typed through the calling class and its ancestors, where a
// name's every declaration in the project disagreed.
func TestJavaReceiverIsAnInheritedCall(t *testing.T) {
	ret := func(r *extract.Result, pkg, id string, tr extract.TypeRef) *extract.Result {
		r.Package = pkg
		if id != "" {
			if r.Returns == nil {
				r.Returns = map[string]extract.TypeRef{}
			}
			r.Returns[extract.FileID(r.Path)+"::"+id] = tr
		}
		return r
	}
	model := "src/main/java/org/junit/runners/model/TestClass.java"
	internal := "src/main/java/org/junit/internal/runners/TestClass.java"
	runner := "src/main/java/org/junit/runners/BlockJUnit4ClassRunner.java"
	ix := New([]*extract.Result{
		ret(file(model, "java", "class TestClass", "func TestClass::getAnnotatedMethods"), "org.junit.runners.model", "", extract.TypeRef{}),
		ret(file(internal, "java", "class TestClass", "func TestClass::getAnnotatedMethods"), "org.junit.internal.runners", "", extract.TypeRef{}),
		ret(file("src/main/java/org/junit/runners/ParentRunner.java", "java", "class ParentRunner", "func ParentRunner::getTestClass"),
			"org.junit.runners", "ParentRunner::getTestClass", extract.TypeRef{Name: "TestClass", Module: "org.junit.runners.model"}),
		ret(file("src/main/java/org/junit/runner/Description.java", "java", "class Description", "func Description::getTestClass"), "org.junit.runner", "", extract.TypeRef{}),
		ret(inherits(file(runner, "java", "class BlockJUnit4ClassRunner", "func BlockJUnit4ClassRunner::computeTestMethods"), "BlockJUnit4ClassRunner", "ParentRunner"),
			"org.junit.runners", "", extract.TypeRef{}),
		ret(file("src/main/java/org/junit/Other.java", "java", "class Other", "func Other::run"), "org.junit", "", extract.TypeRef{}),
	}, nil)
	run(t, ix, []rcase{
		{name: "inherited method typed through the caller's class", from: runner, srcEnt: "BlockJUnit4ClassRunner::computeTestMethods",
			ref: "getAnnotatedMethods", hint: extract.RefHint{Receiver: "getTestClass()"},
			want: "file::" + model + "::TestClass::getAnnotatedMethods", status: Resolved},
		// A class without such a method gets no guess from other classes.
		{name: "not the caller's method", from: "src/main/java/org/junit/Other.java", srcEnt: "Other::run",
			ref: "getAnnotatedMethods", hint: extract.RefHint{Receiver: "getTestClass()"},
			want: "", status: Unresolved},
	})
}
