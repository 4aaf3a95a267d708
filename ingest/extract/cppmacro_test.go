package extract

import (
	"slices"
	"testing"
)

func TestBlankExportMacros(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"class YAML_CPP_API Emitter {", "class              Emitter {"},
		{"struct Q_CORE_EXPORT QString : public X {", "struct               QString : public X {"},
		{"class DLLEXPORT Foo final : Base {}", "class           Foo final : Base {}"},
		{"class YAML_CPP_API\n  Node\n{", "class             \n  Node\n{"},
		// Not an export macro: a forward declaration, a base list, a
		// variable, a template parameter, a qualified name, a lower-case word.
		{"class YAML_CPP_API Emitter;", "class YAML_CPP_API Emitter;"},
		{"class ABC : public Base {", "class ABC : public Base {"},
		{"struct STAT buf;", "struct STAT buf;"},
		{"template <class T> struct X {", "template <class T> struct X {"},
		{"class API Foo::Bar {", "class API Foo::Bar {"},
		{"class alignas Foo {", "class alignas Foo {"},
		{"subclass ABC Foo {", "subclass ABC Foo {"},
		// A function declaration's export macro, and what is not one.
		{"YAML_CPP_API std::string EncodeBase64(const unsigned char *data);", "             std::string EncodeBase64(const unsigned char *data);"},
		{"  LIB_API std::vector<unsigned char> Decode(const std::string &in);", "          std::vector<unsigned char> Decode(const std::string &in);"},
		{"DLLEXPORT int *count(void);", "          int *count(void);"},
		{"TEST_F(Suite, Name) {", "TEST_F(Suite, Name) {"},
		{"HANDLE CreateFile(LPCSTR name);", "HANDLE CreateFile(LPCSTR name);"},
		{"MY_FLAG x = f(1);", "MY_FLAG x = f(1);"},
		{"FOO bar(1);", "FOO bar(1);"},
		{"  LOG_DEBUG << format(x);", "  LOG_DEBUG << format(x);"},
	} {
		src := []byte(tc.in)
		got := blankDeclMacros(blankExportMacros(src))
		if string(got) != tc.want {
			t.Errorf("blankExportMacros(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if string(src) != tc.in {
			t.Errorf("blankExportMacros(%q) changed its input", tc.in)
		}
	}
}

// yaml-cpp's `class YAML_CPP_API Emitter {`: the methods are the class's,
// not the namespace's.
func TestExportMacroClassKeepsItsMembers(t *testing.T) {
	src := "namespace YAML {\nclass YAML_CPP_API Emitter {\n public:\n  Emitter();\n  bool good() const;\n};\n}\n"
	res, err := ExtractFile("include/yaml-cpp/emitter.h", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range res.Nodes {
		ids = append(ids, n.ID)
	}
	for _, want := range []string{"file::include/yaml-cpp/emitter.h::YAML::Emitter", "file::include/yaml-cpp/emitter.h::YAML::Emitter::good"} {
		if !slices.Contains(ids, want) {
			t.Errorf("no node %s in %v", want, ids)
		}
	}
	if slices.Contains(ids, "file::include/yaml-cpp/emitter.h::YAML::good") {
		t.Errorf("good() landed in the namespace: %v", ids)
	}
	src = "namespace YAML {\nYAML_CPP_API std::string EncodeBase64(const unsigned char *data, std::size_t size);\n}\n"
	if res, err = ExtractFile("include/yaml-cpp/binary.h", []byte(src)); err != nil {
		t.Fatal(err)
	}
	ids = ids[:0]
	for _, n := range res.Nodes {
		ids = append(ids, n.ID)
	}
	if !slices.Contains(ids, "file::include/yaml-cpp/binary.h::YAML::EncodeBase64") {
		t.Errorf("no EncodeBase64 in %v", ids)
	}
}

// A declaration's macro is blanked only when the file then parses clean:
// with a syntax error left elsewhere, tree-sitter's recovery may tip the
// repaired file into a worse reading (gtest.h), so it is read as written.
func TestDeclMacroKeptWhenErrorsRemain(t *testing.T) {
	ids := func(src string) []string {
		res, err := ExtractFile("lib.h", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range res.Nodes {
			out = append(out, n.ID)
		}
		return out
	}
	clean := "namespace lib {\nLIB_API std::string Encode(int x);\n}\n"
	if got := ids(clean); !slices.Contains(got, "file::lib.h::lib::Encode") {
		t.Errorf("clean file: no Encode in %v", got)
	}
	broken := clean + "class Foo { int f( };\n"
	if got := ids(broken); slices.Contains(got, "file::lib.h::lib::Encode") {
		t.Errorf("file with an error left: blanked reading kept: %v", got)
	}
}

// FuzzBlankMacros: blanking keeps the length and every byte but the
// macros' own, which become spaces, and never writes to its input.
func FuzzBlankMacros(f *testing.F) {
	f.Add([]byte("class YAML_CPP_API Emitter {\nYAML_CPP_API std::string E(int);\n"))
	f.Add([]byte("struct A_B C : D {} class"))
	f.Fuzz(func(t *testing.T, src []byte) {
		in := string(src)
		got := blankDeclMacros(blankExportMacros(src))
		if string(src) != in {
			t.Fatal("input changed")
		}
		if len(got) != len(src) {
			t.Fatalf("length %d, want %d", len(got), len(src))
		}
		for i := range got {
			if got[i] != src[i] && (got[i] != ' ' || !(src[i] == '_' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9')) {
				t.Fatalf("byte %d: %q became %q", i, src[i], got[i])
			}
		}
	})
}
