package deptruth

import (
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
)

// CallGraph is a function-level call graph keyed like m1nd's entity IDs
// without the "file::" prefix: "path/f.go::Func" or "path/f.go::Type::Method".
type CallGraph struct {
	// Funcs are the functions and methods declared in analysed files.
	Funcs map[string]bool
	// Calls holds caller → callee pairs.
	Calls map[[2]string]bool
}

func newCallGraph() *CallGraph {
	return &CallGraph{Funcs: map[string]bool{}, Calls: map[[2]string]bool{}}
}

// GoCallTruth records, for every call expression inside a function or
// method declaration of a tracked file (function literals count for their
// enclosing declaration), the function or method go/types says it calls
// when that one is declared in a tracked file too: static calls, method
// calls on concrete types (bound to the declaring type, through
// embedding too) and calls of interface methods (bound to the interface's
// method). Calls of function values and fields are not calls of a
// declaration. Loaded like GoTruth, union over the GOOS values.
func GoCallTruth(ctx context.Context, root string, tracked []string, o Options) (*CallGraph, error) {
	g, err := newGoRepo(root, tracked, o)
	if err != nil {
		return nil, err
	}
	cg := newCallGraph()
	mode := packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo
	err = g.load(ctx, mode, "go/packages (calls)", func(mod, sys string, pkgs []*packages.Package, err error) error {
		if err != nil {
			return fmt.Errorf("module %s GOOS=%s: %w", mod, sys, err)
		}
		for _, p := range pkgs {
			if p.TypesInfo != nil {
				addPackageCalls(cg, p, g.rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cg, nil
}

// addPackageCalls adds the declarations and calls of one loaded package.
func addPackageCalls(cg *CallGraph, p *packages.Package, rel func(string) (string, bool)) {
	for _, f := range p.Syntax {
		file, ok := rel(p.Fset.Position(f.Pos()).Filename)
		if !ok {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			caller := file + "::" + declKey(fd)
			cg.Funcs[caller] = true
			if fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn := calleeOf(p.TypesInfo, call); fn != nil {
						if to, ok := funcKey(p, fn, rel); ok {
							cg.Calls[[2]string{caller, to}] = true
							cg.Funcs[to] = true // interface methods have no FuncDecl
						}
					}
				}
				return true
			})
		}
	}
}

// declKey is "Func" or "Type::Method" for a declaration, the receiver's
// type name stripped of pointers and type parameters.
func declKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "::" + fd.Name.Name
		}
		return "_::" + fd.Name.Name
	}
}

// calleeOf is the declared function a call expression calls, nil for
// conversions, builtins and calls of function values.
func calleeOf(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr: // explicit instantiation F[T](…)
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	var obj types.Object
	switch x := fun.(type) {
	case *ast.Ident:
		obj = info.Uses[x]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			obj = sel.Obj()
		} else {
			obj = info.Uses[x.Sel]
		}
	}
	fn, _ := obj.(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// funcKey keys a function or method by its declaring file and name.
func funcKey(p *packages.Package, fn *types.Func, rel func(string) (string, bool)) (string, bool) {
	if !fn.Pos().IsValid() {
		return "", false
	}
	file, ok := rel(p.Fset.Position(fn.Pos()).Filename)
	if !ok {
		return "", false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return file + "::" + fn.Name(), true
	}
	t := sig.Recv().Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return "", false // a method of an unnamed interface literal
	}
	return file + "::" + named.Obj().Name() + "::" + fn.Name(), true
}

// M1ndCalls ingests root in process and returns its "calls" edges between
// function nodes of .go files, keyed like GoCallTruth.
func M1ndCalls(ctx context.Context, root string) (*CallGraph, error) {
	return M1ndCallsOf(ctx, root, ".go")
}

// M1ndCallsOf is M1ndCalls for the function nodes of files ending in ext
// (".go", ".java"). An overload's ID ends in its parameter types
// (Type::name(String,int)), so its label is followed by "(" there.
func M1ndCallsOf(ctx context.Context, root, ext string) (*CallGraph, error) {
	out, err := ingest.Run(ctx, ingest.Config{Root: root}, nil)
	if err != nil {
		return nil, err
	}
	g := out.Graph
	cg := newCallGraph()
	key := func(id graph.NodeID) (string, bool) {
		if g.Type(id) != graph.Function {
			return "", false
		}
		k, ok := strings.CutPrefix(g.ExternalID(id), "file::")
		named := strings.HasSuffix(k, "::"+g.Label(id)) || strings.Contains(k, "::"+g.Label(id)+"(")
		return k, ok && named && strings.Contains(k, ext+"::")
	}
	for n := range g.NumNodes() {
		if k, ok := key(graph.NodeID(n)); ok {
			cg.Funcs[k] = true
		}
	}
	for e := range g.NumEdges() {
		ei := graph.EdgeIdx(e)
		if g.IsMirror(ei) || g.RelationName(ei) != "calls" {
			continue
		}
		from, ok1 := key(g.Source(ei))
		to, ok2 := key(g.Target(ei))
		if ok1 && ok2 {
			cg.Calls[[2]string{from, to}] = true
		}
	}
	return cg, nil
}

// CallScore compares m1nd's call edges with the truth over the functions
// both know: a truth edge whose ends m1nd lacks (an ID it spells
// differently) is counted apart, not as a miss.
type CallScore struct {
	TruthEdges  int      `json:"truth_edges"`
	Unmapped    int      `json:"unmapped"` // truth edges with an end m1nd has no node for
	M1ndEdges   int      `json:"m1nd_edges"`
	Found       int      `json:"found"`
	Recall      float64  `json:"recall"`
	Precision   float64  `json:"precision"`
	MissSample  []string `json:"miss_sample,omitempty"`
	ExtraSample []string `json:"extra_sample,omitempty"`
}

// ScoreCalls scores m against truth t; samples hold up to n sorted edges.
func ScoreCalls(t, m *CallGraph, n int) CallScore {
	var s CallScore
	var miss, extra []string
	for e := range t.Calls {
		if !m.Funcs[e[0]] || !m.Funcs[e[1]] {
			s.Unmapped++
			continue
		}
		s.TruthEdges++
		if m.Calls[e] {
			s.Found++
		} else {
			miss = append(miss, e[0]+" → "+e[1])
		}
	}
	for e := range m.Calls {
		if !t.Funcs[e[0]] || !t.Funcs[e[1]] {
			continue // a file the type checker did not load
		}
		s.M1ndEdges++
		if !t.Calls[e] {
			extra = append(extra, e[0]+" → "+e[1])
		}
	}
	if s.TruthEdges > 0 {
		s.Recall = float64(s.Found) / float64(s.TruthEdges)
	}
	if s.M1ndEdges > 0 {
		s.Precision = float64(s.M1ndEdges-len(extra)) / float64(s.M1ndEdges)
	}
	slices.Sort(miss)
	slices.Sort(extra)
	s.MissSample = miss[:min(n, len(miss))]
	s.ExtraSample = extra[:min(n, len(extra))]
	return s
}
