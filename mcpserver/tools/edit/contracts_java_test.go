package edit

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// contractCase is one edit of a fixture file and the contract findings
// ("file:line:severity") apply_batch's verify should report for it.
type contractCase struct {
	name, file, old, new string
	want                 []string
}

func runContractCases(t *testing.T, files map[string]string, cases []contractCase) {
	t.Helper()
	d, _ := tooltest.FixtureRepo(t, files)
	for _, c := range cases {
		next := strings.Replace(files[c.file], c.old, c.new, 1)
		if next == files[c.file] {
			t.Fatalf("%s: the edit changes nothing", c.name)
		}
		_, v, rep := verifyBatch(t, d, c.file, next)
		got := removedUses(rep)
		if !slices.Equal(got, c.want) || (len(c.want) > 0) != (v == edit.Broken) {
			t.Errorf("%s: verdict %s, findings %v, want %v", c.name, v, got, c.want)
		}
	}
}

// Removing one of several overloads keeps the name: the parameters tell
// which one went, and whether an interface still declares it.
func TestVerifyJavaOverloadRemoved(t *testing.T) {
	t.Parallel()
	p := "src/main/java/a/DefaultParser.java"
	files := map[string]string{
		"src/main/java/a/Parser.java": "package a;\n\npublic interface Parser {\n    C parse(O options, String[] args);\n\n    C parse(O options, String[] args, boolean stop);\n}\n",
		p: "package a;\n\npublic class DefaultParser implements Parser {\n    @Override\n    public C parse(final O options, final String[] arguments) {\n        return parse(options, arguments, false);\n    }\n\n" +
			"    @Override\n    public C parse(final O options, final String[] arguments, final boolean stop) {\n        return null;\n    }\n\n" +
			"    public C parse(final O options, final java.util.Properties props) {\n        return null;\n    }\n}\n",
		"src/main/java/a/C.java": "package a;\n\npublic class C {}\n",
		"src/main/java/a/O.java": "package a;\n\npublic class O {}\n",
	}
	runContractCases(t, files, []contractCase{
		{"first overload, declared by the interface", p, "    @Override\n    public C parse(final O options, final String[] arguments) {\n        return parse(options, arguments, false);\n    }\n\n", "", []string{p + ":3:broken"}},
		{"second overload, declared by the interface", p, "    @Override\n    public C parse(final O options, final String[] arguments, final boolean stop) {\n        return null;\n    }\n\n", "", []string{p + ":3:broken"}},
		{"an overload of the class's own", p, "    public C parse(final O options, final java.util.Properties props) {\n        return null;\n    }\n", "", nil},
	})
}

// An anonymous class has no node: its body is read from the text, its
// type is its base. A standard interface binds a class by its overloads
// too (javapoet's Appendable). An enum constant's body is an anonymous
// class of its enum (jsoup's TokeniserState).
func TestVerifyJavaAnonymousClassMethodRemoved(t *testing.T) {
	t.Parallel()
	h, w, st := "src/main/java/a/Help.java", "src/main/java/a/Wrapper.java", "src/main/java/a/TokeniserState.java"
	files := map[string]string{
		st: "package a;\n\nenum TokeniserState {\n    Data {\n        @Override\n        void read(Tokeniser t, String r) {\n            t.emit(r);\n        }\n    },\n" +
			"    Tag(\"{\") {\n        @Override\n        void read(Tokeniser t, String r) {\n        }\n\n        @Override\n        public String toString() {\n            return \"tag\";\n        }\n    };\n\n" +
			"    TokeniserState() {}\n\n    TokeniserState(String s) {}\n\n    abstract void read(Tokeniser t, String r);\n}\n",
		"src/main/java/a/Other.java": "package a;\n\nclass Other {\n    enum TokeniserState {\n        X;\n\n        void read(Tokeniser t, String r) {}\n    }\n}\n",
		w: "package a;\n\nimport java.io.IOException;\n\nfinal class Wrapper implements Appendable {\n    @Override\n    public Appendable append(CharSequence csq) {\n        return this;\n    }\n\n" +
			"    @Override\n    public Appendable append(CharSequence csq, int start, int end) {\n        return this;\n    }\n\n    @Override\n    public Appendable append(char c) {\n        return this;\n    }\n}\n",
		"src/main/java/a/TableDefinition.java": "package a;\n\nimport java.util.List;\n\npublic interface TableDefinition {\n    String caption();\n\n    List<String> headers();\n\n    default String name() {\n        return \"t\";\n    }\n}\n",
		h: "package a;\n\nimport java.util.Comparator;\nimport java.util.List;\n\npublic class Help {\n    TableDefinition table() {\n        String odd = \"{ not a brace\";\n        return new TableDefinition() {\n" +
			"            @Override\n            public String caption() {\n                return \"caption\";\n            }\n\n" +
			"            @Override\n            public List<String> headers() {\n                return List.of(\"}\");\n            }\n\n" +
			"            @Override\n            public String name() {\n                return \"help\";\n            }\n        };\n    }\n\n" +
			"    Comparator<String> order() {\n        return new Comparator<String>() {\n            @Override\n            public int compare(String x, String y) {\n                return x.compareTo(y);\n            }\n        };\n    }\n}\n",
	}
	runContractCases(t, files, []contractCase{
		{"an enum constant's body", st, "        @Override\n        void read(Tokeniser t, String r) {\n        }\n\n", "", []string{st + ":10:broken"}},
		{"an enum constant's toString", st, "\n        @Override\n        public String toString() {\n            return \"tag\";\n        }\n", "", nil},
		{"one of Appendable's overloads", w, "    @Override\n    public Appendable append(char c) {\n        return this;\n    }\n", "", []string{w + ":5:broken"}},
		{"declared by a graph's interface", h, "            @Override\n            public String caption() {\n                return \"caption\";\n            }\n\n", "", []string{h + ":9:broken"}},
		{"declared by a standard interface", h, "            @Override\n            public int compare(String x, String y) {\n                return x.compareTo(y);\n            }\n", "", []string{h + ":28:broken"}},
		{"a default method's override", h, "            @Override\n            public String name() {\n                return \"help\";\n            }\n", "", nil},
	})
}

// Nested classes share simple names (Builder): a base written as
// Outer.Builder is that one, and the standard interface its header names
// binds the subclass.
func TestVerifyJavaNestedBaseBySharedName(t *testing.T) {
	t.Parallel()
	h := "src/main/java/a/HelpFormatter.java"
	files := map[string]string{
		"src/main/java/a/AbstractHelpFormatter.java": "package a;\n\nimport java.util.function.Supplier;\n\npublic abstract class AbstractHelpFormatter {\n    public abstract static class Builder<B extends Builder<B, T>, T extends AbstractHelpFormatter> implements Supplier<T> {\n        protected B self() {\n            return null;\n        }\n    }\n}\n",
		h:                            "package a;\n\npublic class HelpFormatter extends AbstractHelpFormatter {\n    public static class Builder extends AbstractHelpFormatter.Builder<Builder, HelpFormatter> {\n        @Override\n        public HelpFormatter get() {\n            return new HelpFormatter();\n        }\n    }\n}\n",
		"src/main/java/a/Other.java": "package a;\n\npublic class Other {\n    public static class Builder {\n        public Other get() {\n            return new Other();\n        }\n    }\n}\n",
	}
	runContractCases(t, files, []contractCase{
		{"get of Supplier", h, "        @Override\n        public HelpFormatter get() {\n            return new HelpFormatter();\n        }\n", "", []string{h + ":4:broken"}},
	})
}

func TestAnonClasses(t *testing.T) {
	t.Parallel()
	src := "class A {\n  Object a = new Runnable() {\n    public void run() { if (x) { y(); } }\n    // new Fake() { void f() {} }\n    private int helper(int[] xs, String s) throws java.io.IOException { return 0; }\n  };\n" +
		"  Object b = new java.util.ArrayList<String>(3);\n  Object c = new Outer.Inner(\"(\") {\n    int size() { return new Object() { int hidden() { return 1; } }.hidden(); }\n  };\n}\n"
	var got []string
	for _, a := range anonClasses(src) {
		var ms []string
		for _, m := range a.methods {
			ms = append(ms, m.Name+"("+strings.Join(m.params, ",")+")")
		}
		got = append(got, a.typ+"@"+jsonInt(float64(a.line))+":"+strings.Join(ms, " "))
	}
	want := []string{"Runnable@2:run() helper(int[],String)", "Outer.Inner@8:size()", "Object@9:hidden()"}
	if !slices.Equal(got, want) {
		t.Errorf("anonClasses = %q, want %q", got, want)
	}
}

// A base's simple name is first the type the same file declares (jsoup's
// Token.StartTag extends Tag: Token.Tag, not parser.Tag), and an abstract
// re-declaration shadows the body above it: javac wants StartTag's own
// toString, Object's and Token's do not count.
func TestVerifyJavaAbstractRedeclaration(t *testing.T) {
	t.Parallel()
	tok, node := "src/main/java/a/Token.java", "src/main/java/a/Node.java"
	files := map[string]string{
		"src/main/java/a/Tag.java": "package a;\n\npublic class Tag {\n    @Override\n    public String toString() {\n        return \"tag\";\n    }\n}\n",
		tok: "package a;\n\nabstract class Token {\n    static abstract class Tag extends Token {\n        @Override\n        abstract public String toString();\n    }\n\n" +
			"    static final class StartTag extends Tag {\n        @Override\n        public String toString() {\n            return \"<\" + name() + \">\";\n        }\n\n        String name() {\n            return \"a\";\n        }\n    }\n}\n",
		node: "package a;\n\nabstract class Node {\n    @Override\n    public String toString() {\n        return \"node\";\n    }\n}\n\nabstract class Leaf extends Node {\n    @Override\n    public abstract String toString();\n}\n\n" +
			"final class Text extends Leaf {\n    @Override\n    public String toString() {\n        return \"text\" + size();\n    }\n\n    int size() {\n        return 1;\n    }\n}\n",
	}
	runContractCases(t, files, []contractCase{
		{"Tag of the same file", tok, "        @Override\n        public String toString() {\n            return \"<\" + name() + \">\";\n        }\n\n", "", []string{tok + ":9:broken"}},
		{"an abstract toString over a base's body", node, "    @Override\n    public String toString() {\n        return \"text\" + size();\n    }\n\n", "", []string{node + ":15:broken"}},
	})
}

// A method removed from an abstract class breaks its concrete subclasses
// that inherited it when another base of theirs declares it without a
// body (jsoup's HttpConnection.Base implements Connection.Base for
// Request); a subclass defining it itself is not broken.
func TestVerifyJavaAbstractBaseMethodRemoved(t *testing.T) {
	t.Parallel()
	h := "src/main/java/a/HttpConnection.java"
	files := map[string]string{
		"src/main/java/a/Connection.java": "package a;\n\npublic interface Connection {\n    interface Base<T extends Base<T>> {\n        T url(String url);\n\n        String url();\n\n        int port();\n    }\n\n" +
			"    interface Request extends Base<Request> {\n        int timeout();\n    }\n}\n",
		h: "package a;\n\npublic class HttpConnection {\n    private static abstract class Base<T extends Connection.Base<T>> implements Connection.Base<T> {\n        String url;\n\n" +
			"        @Override\n        public String url() {\n            return url;\n        }\n\n" +
			"        @Override\n        public T url(String url) {\n            this.url = url;\n            return null;\n        }\n\n" +
			"        @Override\n        public int port() {\n            return url.length();\n        }\n    }\n\n" +
			"    public static class Request extends HttpConnection.Base<Connection.Request> implements Connection.Request {\n" +
			"        @Override\n        public int timeout() {\n            return url().length();\n        }\n\n" +
			"        @Override\n        public int port() {\n            return 80;\n        }\n    }\n}\n",
	}
	runContractCases(t, files, []contractCase{
		{"one overload, Request inherited it", h, "        @Override\n        public T url(String url) {\n            this.url = url;\n            return null;\n        }\n\n", "", []string{h + ":18:broken"}},
		{"a method Request defines itself", h, "\n        @Override\n        public int port() {\n            return url.length();\n        }\n", "", nil},
	})
}
