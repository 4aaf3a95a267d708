package edit

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMethodParams(t *testing.T) {
	for _, c := range []struct {
		sig  string
		want []string
		ok   bool
	}{
		{"()V", nil, true},
		{"(I[JLjava/lang/String;)Z", []string{"int", "long[]", "String"}, true},
		{"<T:Ljava/lang/Object;>(TT;[TT;)TT;", []string{"T", "T[]"}, true},
		{"(Ljava/util/Map$Entry<TK;TV;>;Ljava/util/List<+Ljava/lang/Number;>;)V", []string{"Entry", "List"}, true},
		{"(Ljava/util/Map<TK;TV;>.Entry<TK;TV;>;[[B)V", []string{"Entry", "byte[][]"}, true},
		{"(Ljava/lang/String", nil, false},
		{"(Q)V", nil, false},
		{"V", nil, false},
		{"([)V", nil, false},
	} {
		got, ok := methodParams(c.sig)
		if ok != c.ok || ok && !slices.Equal(got, c.want) {
			t.Errorf("methodParams(%q) = %v, %v; want %v, %v", c.sig, got, ok, c.want, c.ok)
		}
	}
}

func TestParseClass(t *testing.T) {
	b := fakeClass{name: "java/util/AbstractList", super: "java/util/AbstractCollection", abstract: true, ifaces: []string{"java/util/List"},
		methods: []fakeMethod{{name: "get", desc: "(I)Ljava/lang/Object;", sig: "(I)TE;", abstract: true}, {name: "of", desc: "()V", static: true}}}.bytes()
	got, err := parseClass(b)
	if err != nil {
		t.Fatal(err)
	}
	want := &classFile{name: "java/util/AbstractList", abstract: true, super: "java/util/AbstractCollection", ifaces: []string{"java/util/List"},
		methods: []classMethod{{name: "get", params: []string{"int"}, abstract: true}, {name: "of", static: true}}}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(classFile{}, classMethod{})); d != "" {
		t.Errorf("parseClass (-want +got):\n%s", d)
	}
	for _, bad := range [][]byte{nil, b[:4], b[:len(b)-3], append([]byte{0, 0, 0, 0}, b[4:]...)} {
		if c, err := parseClass(bad); err == nil {
			t.Errorf("parseClass(%d bytes) = %+v, want an error", len(bad), c)
		}
	}
}

func FuzzParseClass(f *testing.F) {
	f.Add(fakeClass{name: "a/B", super: "java/lang/Object", ifaces: []string{"a/C"}, methods: []fakeMethod{{name: "m", desc: "(I)V", sig: "<T:Ljava/lang/Object;>(TT;)V"}}}.bytes())
	f.Add([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 3, 5})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := parseClass(b)
		if (c == nil) == (err == nil) {
			t.Fatalf("parseClass = %v, %v: exactly one of a class and an error", c, err)
		}
	})
}

// A name resolves as javac would: a single-type import, else java.lang's
// or a wildcard's, never two; the newest release of ct.sym wins.
func TestJDKResolve(t *testing.T) {
	t.Setenv("JAVA_HOME", testJDK(t))
	j, why := findJDK()
	if j == nil {
		t.Fatal(why)
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"Path", "import java.nio.file.Path;", "java/nio/file/Path"},
		{"Path", "import java.nio.file.*;", "java/nio/file/Path"},
		{"Path", "import org.lib.Path;\nimport java.nio.file.*;", ""},
		{"Path", "", ""},
		{"Comparable", "", "java/lang/Comparable"},
		{"Map.Entry", "import java.util.Map;", "java/util/Map$Entry"},
		{"Entry", "import java.util.Map.Entry;", "java/util/Map$Entry"},
		{"Entry", "import java.util.Map.*;", "java/util/Map$Entry"},
		{"Entry", "import static java.util.Map.entry;", ""},
		{"Map.Missing", "import java.util.Map;", ""},
		{"Entry", "import java.util.Map;", "java/util/Map$Entry"},
		{"Entry", "import a.b.Pair;\nimport java.util.Map;", "java/util/Map$Entry"},
		{"Entry", "import org.lib.*;\nimport java.util.Map;", ""},
		{"Filter", "import java.nio.file.SecureDirectoryStream;", "java/nio/file/DirectoryStream$Filter"},
	} {
		if got, ok := j.resolve(c.name, c.src); got != c.want || ok != (c.want != "") {
			t.Errorf("resolve(%q, %q) = %q, %v; want %q", c.name, c.src, got, ok, c.want)
		}
	}
	if m, ok := j.class("java/nio/file/Path").declares(method{Name: "startsWith", params: []string{"String"}, known: true}); !ok || m.abstract {
		t.Errorf("Path.startsWith = %+v, %v; want the newest release's default method", m, ok)
	}
}
