package query

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A JVM frame of a package the parser counts as a library (org.junit.,
// the test harness) is the project's own code when the repository is that
// library: junit4's trace of its own Assert and runners mapped no frame,
// every one "external: the JDK or a JVM library", and
// org/junit/internal/... frames were said to be "the Node.js runtime".
// A JDK frame the graph does not hold stays unmapped.
func TestTraceJVMLibraryIsTheProject(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"src/main/java/org/junit/Assert.java": "package org.junit;\n\npublic class Assert {\n" +
			"  public static void fail(String message) {\n    throw new AssertionError(message);\n  }\n}\n", // 4-6
		"src/main/java/org/junit/internal/runners/model/ReflectiveCallable.java": "package org.junit.internal.runners.model;\n\n" +
			"public abstract class ReflectiveCallable {\n  public Object run() throws Throwable {\n    return runReflectiveCall();\n  }\n" + // 4-6
			"  protected abstract Object runReflectiveCall() throws Throwable;\n}\n",
	})
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t",
		"error_text": "java.lang.AssertionError: boom\n" +
			"\tat org.junit.Assert.fail(Assert.java:5)\n" +
			"\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)\n" +
			"\tat org.junit.internal.runners.model.ReflectiveCallable.run(ReflectiveCallable.java:5)\n" +
			"\tat org.junit.internal.runners.model.Missing.call(Missing.java:7)\n"})
	got := suspectsOf(t, out)
	want := []string{
		"file::src/main/java/org/junit/Assert.java::Assert::fail:5",
		"file::src/main/java/org/junit/internal/runners/model/ReflectiveCallable.java::ReflectiveCallable::run:5",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("suspects %v, want %v", got, want)
	}
	reasons := map[string]string{}
	for _, u := range out["unmapped_frames"].([]any) {
		m := u.(map[string]any)
		reasons[m["file"].(string)] = m["reason"].(string)
	}
	for file, want := range map[string]string{
		"java/lang/reflect/Method.java":                 "external: the JDK or a JVM library",
		"org/junit/internal/runners/model/Missing.java": "external: the JDK or a JVM library",
	} {
		if reasons[file] != want {
			t.Errorf("%s: reason %q, want %q", file, reasons[file], want)
		}
	}
}
