package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// Go references go/types binds that the graph missed or bound elsewhere,
// found on alecthomas/kong (kong.Vars, a type switch over Visitable nodes,
// n.Parent.Vars()).
func TestGoTypedReferences(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/kong\n\ngo 1.22\n",
		"options.go": "package kong\n\n// Vars are variables.\ntype Vars map[string]string\n\n" +
			"// CloneWith copies.\nfunc (v Vars) CloneWith(o Vars) Vars { return v }\n",
		"mapper.go": "package kong\n\n// VarsContributor contributes.\ntype VarsContributor interface {\n\tVars(n *Node) Vars\n}\n",
		"model.go": "package kong\n\n// Visitable is a node.\ntype Visitable interface{ node() }\n\n" +
			"// Node is a command.\ntype Node struct {\n\tParent *Node\n\tTag    Vars\n}\n\n" +
			"func (n *Node) node() {}\n\n" +
			"// Vars of the node and its parents.\nfunc (n *Node) Vars() Vars {\n\tif n.Parent == nil {\n\t\treturn Vars{}\n\t}\n\treturn n.Parent.Vars().CloneWith(n.Tag)\n}\n\n" +
			"// Path of the node.\nfunc (n *Node) Path() string { return \"\" }\n\n" +
			"// Positional is a Value.\ntype Positional = Node\n\n" +
			"// Args lists.\nfunc Args(args []*Positional) {\n\tfor _, a := range args {\n\t\ta.Path()\n\t}\n}\n",
		"visit.go": "package kong\n\n// Interpolate walks.\nfunc Interpolate(v Visitable) string {\n" +
			"\tswitch node := v.(type) {\n\tcase *Node:\n\t\tnode.Vars()\n\t\treturn node.Path()\n\t}\n\treturn \"\"\n}\n\n" +
			"// Scan shadows n in a switch (jmoiron/sqlx's scanAll): n is a *Node after it.\n" +
			"func Scan(n *Node) {\n\tswitch n := any(n).(type) {\n\tcase Vars:\n\t\t_ = n\n\t}\n\tn.Path()\n}\n",
		"cmd/app/main.go": "package main\n\nimport \"example.com/kong\"\n\n" +
			"func use(v kong.Vars) kong.Vars { return v }\n\nfunc main() { use(kong.Vars{\"a\": \"b\"}) }\n",
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	d := graphdump.Of(ingest(t, adapter.Request{Root: dir}).Graph)
	for _, tc := range []struct {
		from, rel, to string
		want          bool
	}{
		// A package-qualified name is a package-level declaration, never a
		// method of one of the package's types.
		{"file::cmd/app/main.go::use", "references", "file::options.go::Vars", true},
		{"file::cmd/app/main.go::use", "references", "file::mapper.go::VarsContributor::Vars", false},
		{"file::cmd/app/main.go::main", "references", "file::mapper.go::VarsContributor::Vars", false},
		// A type switch's variable has its case's type.
		{"file::visit.go::Interpolate", "calls", "file::model.go::Node::Vars", true},
		{"file::visit.go::Interpolate", "calls", "file::model.go::Node::Path", true},
		// An alias has its target's methods.
		{"file::model.go::Args", "calls", "file::model.go::Node::Path", true},
		// The switched variable's own type holds after a switch shadowing it.
		{"file::visit.go::Scan", "calls", "file::model.go::Node::Path", true},
		// A field's type types the next call in the chain.
		{"file::model.go::Node::Vars", "calls", "file::options.go::Vars::CloneWith", true},
	} {
		if got := d.Has(tc.from, tc.rel, tc.to); got != tc.want {
			t.Errorf("%s %s %s = %v, want %v", tc.from, tc.rel, tc.to, got, tc.want)
		}
	}
	if t.Failed() {
		t.Logf("edges: %v", d.EdgeStrings())
	}
}
