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
	} {
		src := []byte(tc.in)
		got := blankExportMacros(src)
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
}
