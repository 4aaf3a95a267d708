package resolve

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestJavaReceiverTypeOfTheSamePackage: a Java type named without an import
// is one of the caller's package (a test under src/test/java shares its
// package with src/main/java). junit4 has two classes TestClass, in
// org.junit.runners.model and org.junit.internal.runners; the model
// package's test calling tc.getAnnotatedMethods() was bound to the other.
func TestJavaReceiverTypeOfTheSamePackage(t *testing.T) {
	pkg := func(r *extract.Result, p string) *extract.Result { r.Package = p; return r }
	model := "src/main/java/org/junit/runners/model/TestClass.java"
	internal := "src/main/java/org/junit/internal/runners/TestClass.java"
	ix := New([]*extract.Result{
		pkg(file(model, "java", "class TestClass", "func TestClass::getAnnotatedMethods"), "org.junit.runners.model"),
		pkg(file(internal, "java", "class TestClass", "func TestClass::getAnnotatedMethods"), "org.junit.internal.runners"),
		pkg(file("src/test/java/org/junit/runners/model/TestClassTest.java", "java", "class TestClassTest"), "org.junit.runners.model"),
		pkg(file("src/main/java/org/junit/internal/runners/MethodValidator.java", "java", "class MethodValidator"), "org.junit.internal.runners"),
		pkg(file("src/main/java/org/junit/validator/Validator.java", "java", "class Validator"), "org.junit.validator"),
	}, nil)
	run(t, ix, []rcase{
		{name: "test in the same package, other source root", from: "src/test/java/org/junit/runners/model/TestClassTest.java", srcEnt: "TestClassTest",
			ref: "getAnnotatedMethods", hint: extract.RefHint{Receiver: "tc", ReceiverType: "TestClass"},
			want: "file::" + model + "::TestClass::getAnnotatedMethods", status: Resolved},
		{name: "same directory", from: "src/main/java/org/junit/internal/runners/MethodValidator.java", srcEnt: "MethodValidator",
			ref: "getAnnotatedMethods", hint: extract.RefHint{Receiver: "testClass", ReceiverType: "TestClass"},
			want: "file::" + internal + "::TestClass::getAnnotatedMethods", status: Resolved},
		// Neither class is of the caller's package: a guess, as before.
		{name: "other package", from: "src/main/java/org/junit/validator/Validator.java", srcEnt: "Validator",
			ref: "getAnnotatedMethods", hint: extract.RefHint{Receiver: "tc", ReceiverType: "TestClass"},
			want: "file::" + internal + "::TestClass::getAnnotatedMethods", status: Ambiguous},
	})
}

// TestJavaPlainNameOfTheSamePackage: a class named without an import in a
// test under src/test/java is the class of its package under
// src/main/java (junit4's TestClassTest names FrameworkField); the
// package, not the directory, is the scope.
func TestJavaPlainNameOfTheSamePackage(t *testing.T) {
	pkg := func(r *extract.Result, p string) *extract.Result { r.Package = p; return r }
	field := "src/main/java/org/junit/runners/model/FrameworkField.java"
	test := "src/test/java/org/junit/runners/model/TestClassTest.java"
	ix := New([]*extract.Result{
		pkg(file(field, "java", "class FrameworkField"), "org.junit.runners.model"),
		pkg(file(test, "java", "class TestClassTest", "func TestClassTest::fields"), "org.junit.runners.model"),
		pkg(file("src/test/java/org/junit/validator/ValidatorTest.java", "java", "class ValidatorTest"), "org.junit.validator"),
	}, nil)
	run(t, ix, []rcase{
		{name: "same package, other source root", from: test, srcEnt: "TestClassTest::fields", ref: "FrameworkField",
			rel: extract.RelReferences, want: "file::" + field + "::FrameworkField", status: Resolved},
		{name: "another package still needs an import", from: "src/test/java/org/junit/validator/ValidatorTest.java", srcEnt: "ValidatorTest",
			ref: "FrameworkField", rel: extract.RelReferences, want: "", status: Unresolved},
	})
}
