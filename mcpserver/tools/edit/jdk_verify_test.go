package edit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The other tests see no JDK, whatever this machine has installed: their
// answers must not depend on it. The JDK tests set their own.
func init() { os.Setenv("JAVA_HOME", filepath.Join(os.TempDir(), "m1nd-edit-tests-have-no-jdk")) }

// jdkFiles implement or extend the JDK's types (jimfs's Path, jsoup's
// abstract collections), and one imports a Path that is not the JDK's.
var jdkFiles = map[string]string{
	"src/main/java/a/MyPath.java": "package a;\n\nimport java.nio.file.Path;\n\npublic class MyPath implements Path {\n" +
		"    @Override\n    public Path getFileName() {\n        return this;\n    }\n\n" +
		"    @Override\n    public int compareTo(Path other) {\n        return toString().compareTo(other.toString());\n    }\n\n" +
		"    @Override\n    public boolean startsWith(String other) {\n        return false;\n    }\n\n" +
		"    @Override\n    public String toString() {\n        return \"p\";\n    }\n}\n",
	"src/main/java/a/Names.java": "package a;\n\nimport java.util.*;\n\npublic class Names extends AbstractList<String> {\n" +
		"    @Override\n    public String get(int i) {\n        return \"n\";\n    }\n\n" +
		"    @Override\n    public int size() {\n        return 1;\n    }\n\n" +
		"    @Override\n    public boolean isEmpty() {\n        return false;\n    }\n}\n",
	"src/main/java/a/View.java": "package a;\n\nimport java.util.AbstractList;\nimport java.util.List;\n\npublic class View {\n" +
		"    private final List<String> view = new AbstractList<String>() {\n        @Override\n        public String get(int i) {\n            return \"v\";\n        }\n\n" +
		"        @Override\n        public int size() {\n            return 0;\n        }\n    };\n}\n",
	"src/main/java/a/Pair.java": "package a;\n\nimport java.util.Map;\n\npublic class Pair implements Map.Entry<String, String> {\n" +
		"    @Override\n    public String getKey() {\n        return \"k\";\n    }\n\n" +
		"    @Override\n    public String getValue() {\n        return \"v\";\n    }\n}\n",
	"src/main/java/a/Shape.java": "package a;\n\nimport java.nio.file.Path;\n\npublic abstract class Shape {\n    abstract Path getFileName();\n}\n",
	"src/main/java/a/Both.java": "package a;\n\nimport java.nio.file.Path;\n\npublic class Both extends Shape implements Path {\n" +
		"    @Override\n    public Path getFileName() {\n        return this;\n    }\n}\n",
	"src/main/java/a/Stream.java": "package a;\n\nimport java.nio.file.SecureDirectoryStream;\n\npublic abstract class Stream implements SecureDirectoryStream<String> {\n" +
		"    static final Filter<Object> ALL = new Filter<Object>() {\n        @Override\n        public boolean accept(Object entry) {\n            return true;\n        }\n    };\n}\n",
	"src/main/java/a/LibPath.java": "package a;\n\nimport org.lib.Path;\n\npublic class LibPath implements Path {\n" +
		"    @Override\n    public Path getFileName() {\n        return null;\n    }\n}\n",
}

func jdkCase(name, file, method string, want ...string) contractCase {
	return contractCase{name: name, file: file, old: method, new: "", want: want}
}

// A class's JDK bases are read from the JDK (JAVA_HOME's lib/ct.sym):
// their abstract methods bind it, their concrete and default ones supply,
// and Object's methods restated by an interface are Object's.
func TestVerifyJavaJDKBases(t *testing.T) {
	t.Setenv("JAVA_HOME", testJDK(t))
	p, n, e, b := "src/main/java/a/MyPath.java", "src/main/java/a/Names.java", "src/main/java/a/Pair.java", "src/main/java/a/Both.java"
	v := "src/main/java/a/View.java"
	runContractCases(t, jdkFiles, []contractCase{
		jdkCase("Path's abstract method", p, "    @Override\n    public Path getFileName() {\n        return this;\n    }\n\n", p+":5:broken"),
		jdkCase("Path's compareTo, also Comparable's", p, "    @Override\n    public int compareTo(Path other) {\n        return toString().compareTo(other.toString());\n    }\n\n", p+":5:broken"),
		jdkCase("a default method (abstract in an older release)", p, "    @Override\n    public boolean startsWith(String other) {\n        return false;\n    }\n\n"),
		jdkCase("toString, restated by Path", p, "\n    @Override\n    public String toString() {\n        return \"p\";\n    }\n"),
		jdkCase("AbstractList's get, by a wildcard import", n, "    @Override\n    public String get(int i) {\n        return \"n\";\n    }\n\n", n+":5:broken"),
		jdkCase("AbstractCollection's size, a level up", n, "    @Override\n    public int size() {\n        return 1;\n    }\n\n", n+":5:broken"),
		jdkCase("isEmpty, which AbstractCollection supplies", n, "\n    @Override\n    public boolean isEmpty() {\n        return false;\n    }\n"),
		jdkCase("an anonymous AbstractList's get", v, "        @Override\n        public String get(int i) {\n            return \"v\";\n        }\n\n", v+":7:broken"),
		jdkCase("Map.Entry's getKey", e, "    @Override\n    public String getKey() {\n        return \"k\";\n    }\n\n", e+":5:broken"),
		jdkCase("a graph base and a JDK base", b, "    @Override\n    public Path getFileName() {\n        return this;\n    }\n", b+":5:broken"),
		jdkCase("an inherited member type's method (DirectoryStream.Filter)", "src/main/java/a/Stream.java", "        @Override\n        public boolean accept(Object entry) {\n            return true;\n        }\n", "src/main/java/a/Stream.java:6:broken"),
		jdkCase("a Path that is not the JDK's", "src/main/java/a/LibPath.java", "    @Override\n    public Path getFileName() {\n        return null;\n    }\n"),
	})
}

// Without a JDK the JDK's types stay unknown: a finding is a warning that
// says why, never broken.
func TestVerifyJavaJDKBasesWithoutJDK(t *testing.T) {
	t.Setenv("JAVA_HOME", t.TempDir())
	d, _ := tooltest.FixtureRepo(t, jdkFiles)
	for _, c := range []struct {
		file, method string
		want         []string
	}{
		{"src/main/java/a/MyPath.java", "    @Override\n    public Path getFileName() {\n        return this;\n    }\n\n", []string{"src/main/java/a/MyPath.java:5:warning"}},
		{"src/main/java/a/LibPath.java", "    @Override\n    public Path getFileName() {\n        return null;\n    }\n", nil},
		{"src/main/java/a/Both.java", "    @Override\n    public Path getFileName() {\n        return this;\n    }\n", []string{"src/main/java/a/Both.java:5:warning"}},
	} {
		_, v, rep := verifyBatch(t, d, c.file, strings.Replace(jdkFiles[c.file], c.method, "", 1))
		got := removedUses(rep)
		if v == edit.Broken || !slices.Equal(got, c.want) || len(got) > 0 && !strings.Contains(fmt.Sprint(rep["removed_names_used"]), "neither lib/ct.sym nor jmods") {
			t.Errorf("%s: verdict %s, findings %v, want %v saying why", c.file, v, rep["removed_names_used"], c.want)
		}
	}
}
