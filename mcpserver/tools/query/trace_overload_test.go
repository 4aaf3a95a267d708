package query

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A Java frame in an overload lands on that overload (each overload is a
// node with its own lines), whether the line or only the name is given.
func TestTraceJavaOverloads(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"src/main/java/demo/Builder.java": "package demo;\n\npublic class Builder {\n" +
			"  public Builder add(String name) {\n    return add(name, 1);\n  }\n\n" + // 4-6
			"  public Builder add(String name, int times) {\n    return add(name, times, \"\");\n  }\n\n" + // 8-10
			"  public Builder add(String name, int times, String... tags) {\n    throw new IllegalStateException(name);\n  }\n}\n", // 12-14
	})
	const id = "file::src/main/java/demo/Builder.java::Builder::"
	for _, c := range []struct{ frame, want string }{
		{"demo.Builder.add(Builder.java:13)", id + "add(String,int,String...):13"},
		{"demo.Builder.add(Builder.java:9)", id + "add(String,int):9"},
		{"demo.Builder.add(Builder.java:5)", id + "add:5"},
	} {
		out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t",
			"error_text": "java.lang.IllegalStateException: x\n\tat " + c.frame + "\n\tat demo.Main.main(Main.java:3)"})
		if got := suspectsOf(t, out); len(got) == 0 || got[0] != c.want {
			t.Errorf("%s: suspects %v, want %s first", c.frame, got, c.want)
		}
	}
}
