package patterns

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The planted-copies check in Go: five functions of the standard
// library's encoding packages (a real tree every Go toolchain carries)
// are copied, in a temporary copy of the tree, into new files of their
// own package with the function, its parameters, results and locals
// renamed (go/ast, so every use follows), each changed one more way;
// twins must rank each original among its copy's three best partners.
func TestTwinsFindsPlantedGoCopies(t *testing.T) {
	src := filepath.Join(runtime.GOROOT(), "src", "encoding")
	if _, err := os.Stat(src); err != nil || testing.Short() {
		t.Skip("no Go source tree at GOROOT")
	}
	root := filepath.Join(t.TempDir(), "encoding")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	hows := []string{"renamed", "renamed + a statement added", "renamed + a statement removed", "renamed + literals changed", "renamed + two statements swapped"}
	type plant struct{ orig, copy, how string }
	var plants []plant
	for i, f := range pickGoFunctions(t, root, 5) {
		copyName := "plantedCopy" + fmt.Sprint(i)
		body := plantGo(t, f.decl, f.fset, copyName, i)
		file := filepath.Join(filepath.Dir(f.path), fmt.Sprintf("planted_%d.go", i))
		if err := os.WriteFile(file, []byte("package "+f.pkg+"\n\n"+body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		plants = append(plants, plant{f.id, "file::" + filepath.ToSlash(rel) + "::" + copyName, hows[i]})
	}
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": root})
	found := 0
	for _, p := range plants {
		file := strings.SplitN(p.copy, "::", 3)[1]
		out := tooltest.MustCall(t, d, "twins", map[string]any{"agent_id": "t", "scope": file, "similarity_threshold": 0.3, "top_k": 200})
		var partners []string
		sim := map[string]float64{}
		for _, tw := range out["twins"].([]any) {
			tw := tw.(map[string]any)
			a, b := tw["a"].(map[string]any)["node_id"].(string), tw["b"].(map[string]any)["node_id"].(string)
			if a == p.copy {
				a, b = b, a
			}
			if b == p.copy {
				partners = append(partners, a)
				sim[a] = tw["similarity"].(float64)
			}
		}
		rank := slices.Index(partners, p.orig) + 1
		if rank >= 1 && rank <= 3 {
			found++
		}
		first := ""
		if len(partners) > 0 {
			first = partners[0]
		}
		t.Logf("%-34s %-58s rank %d of %d partners, similarity %.3f (first: %s)", p.how, p.orig, rank, len(partners), sim[p.orig], first)
	}
	t.Logf("planted Go copies found in the top 3: %d of %d", found, len(plants))
	if found < 4 {
		t.Errorf("twins found %d of %d planted Go copies in the top 3, want at least 4", found, len(plants))
	}
}

type goFunc struct {
	id, path, pkg string
	decl          *ast.FuncDecl
	fset          *token.FileSet
}

// pickGoFunctions chooses n plain functions (no receiver, no type
// parameters) of 12 to 40 lines with at least 4 statements, from n
// non-test files spread over the tree.
func pickGoFunctions(t *testing.T, root string, n int) []goFunc {
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && !strings.Contains(p, "testdata") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var out []goFunc
	for i := 0; i < len(files) && len(out) < n; i += max(1, len(files)/(2*n)) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, files[i], nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Body == nil || len(fd.Body.List) < 4 {
				continue
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line
			if lines < 12 || lines > 40 {
				continue
			}
			rel, _ := filepath.Rel(root, files[i])
			out = append(out, goFunc{"file::" + filepath.ToSlash(rel) + "::" + fd.Name.Name, files[i], f.Name.Name, fd, fset})
			break
		}
	}
	if len(out) < n {
		t.Fatalf("found %d Go functions to copy, want %d", len(out), n)
	}
	return out
}

// plantGo renames fd to name, with its parameters, results and the
// variables its body declares renamed everywhere they are used (names
// are scope-blind here: a local that shadows a package name is renamed
// along with it, which only makes the copy differ more), then applies
// mutation i and prints it.
func plantGo(t *testing.T, fd *ast.FuncDecl, fset *token.FileSet, name string, i int) string {
	defined := map[string]bool{}
	for _, fl := range []*ast.FieldList{fd.Type.Params, fd.Type.Results} {
		if fl != nil {
			for _, f := range fl.List {
				for _, n := range f.Names {
					defined[n.Name] = true
				}
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						defined[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				defined[id.Name] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if id, ok := e.(*ast.Ident); ok {
					defined[id.Name] = true
				}
			}
		}
		return true
	})
	delete(defined, "_")
	ast.Inspect(fd, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok { // x.Field: rename x only
			ast.Inspect(sel.X, func(m ast.Node) bool { renameIdent(m, defined); return true })
			return false
		}
		if kv, ok := n.(*ast.KeyValueExpr); ok { // T{Field: v}: rename v only
			ast.Inspect(kv.Value, func(m ast.Node) bool { renameIdent(m, defined); return true })
			return false
		}
		renameIdent(n, defined)
		return true
	})
	fd.Name = ast.NewIdent(name)
	fd.Doc = nil
	list := fd.Body.List
	switch i {
	case 1:
		extra := &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: "42"}}}
		fd.Body.List = slices.Insert(list, len(list)/2, ast.Stmt(extra), ast.Stmt(extra))
	case 2:
		for k := len(list) / 2; k < len(list)-1; k++ {
			if _, ok := list[k].(*ast.ExprStmt); ok {
				fd.Body.List = slices.Delete(list, k, k+1)
				break
			}
			if a, ok := list[k].(*ast.AssignStmt); ok && a.Tok == token.ASSIGN {
				fd.Body.List = slices.Delete(list, k, k+1)
				break
			}
		}
	case 3:
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok {
				if b.Kind == token.STRING {
					b.Value = `"changed"`
				} else if b.Kind == token.INT {
					b.Value = "7"
				}
			}
			return true
		})
	case 4:
		for k := 0; k+1 < len(list); k++ {
			_, a := list[k].(*ast.AssignStmt)
			_, b := list[k+1].(*ast.AssignStmt)
			if a && b {
				list[k], list[k+1] = list[k+1], list[k]
				break
			}
		}
	}
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, fd); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func renameIdent(n ast.Node, defined map[string]bool) {
	if id, ok := n.(*ast.Ident); ok && defined[id.Name] {
		id.Name = "q" + strings.ToUpper(id.Name[:1]) + id.Name[1:] + "2"
	}
}
