package documents

import (
	"path"
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// callable is the def a call of a resolved name runs, read from source.
type callable struct {
	node graph.NodeID // the function, method or class called
	def  graph.NodeID // the def whose signature decides (an __init__), NoNode: takes nothing
	path string       // def's file
	qual string       // def's qualified name in it
	sig  pySig
	via  string // the module-level alias followed to def ("encode = _obj.encode"), or the call whose annotated return gave the receiver
}

// exampleFindings checks every resolvable call of a document's Python
// examples against the current signature of what it calls. checked
// counts the calls that were resolved and compared.
func exampleFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) (fs []document.Finding, notes []string, checked int) {
	x := docIndex(b)
	for _, c := range exampleCalls(pyExamples(string(text)), x.PythonPackage) {
		k, ok := resolveCallable(b, src, x, c)
		if !ok {
			continue
		}
		checked++
		param, why := k.sig.rejects(c)
		if why == "" {
			continue
		}
		f := document.Finding{Kind: document.DriftExample, Section: sectionAt(b.Graph, d, c.line), Target: k.node, File: x.FileOf(k.node),
			Mention: document.Mention{Kind: document.MentionCode, Text: c.text}, Line: c.line, Param: param}
		brk := src.breakingCommit(k, c)
		f.Detail = c.target + ": " + why + " (" + k.path + ": " + defName(k) + ")" + brk.describe(param)
		f.CodeChanged, f.Commit = brk.when, brk.commit
		fs = append(fs, f)
		notes = append(notes, "")
	}
	return fs, notes, checked
}

func defName(k callable) string {
	s := "def " + k.qual
	if k.def == graph.NoNode {
		s = k.qual + " defines no __init__"
	}
	if k.via != "" {
		s += ", through " + k.via
	}
	return s
}

// resolveCallable finds what a dotted name calls and the signature that
// decides its arguments; false when that is not surely known (several
// candidates, a decorator or base outside the rules, no source).
func resolveCallable(b *session.Bundle, src *driftSources, x *document.Index, c exCall) (callable, bool) {
	g := b.Graph
	if c.instance {
		return methodCallable(g, src, x, c)
	}
	ids := x.PythonName(c.target)
	if len(ids) != 1 || !c.instance && g.Type(ids[0]) != graph.Function && g.Type(ids[0]) != graph.Class {
		if len(ids) > 1 {
			return callable{}, false
		}
		return aliasCallable(src, x, g, c)
	}
	id := ids[0]
	switch g.Type(id) {
	case graph.Function:
		return defCallable(g, src, id, id, true)
	case graph.Class:
		return classCallable(g, src, x, id)
	}
	return callable{}, false
}

// methodCallable: a method called on an object the page made, by a
// constructor call or by a function whose return annotation names a
// class of the project (dt = pendulum.datetime(…); dt.format(…), or
// pendulum.now().subtract(…)). The class must be a plain one of the
// project, and the def the method's lookup reaches through its bases
// the only candidate.
func methodCallable(g *graph.Graph, src *driftSources, x *document.Index, c exCall) (callable, bool) {
	i := strings.LastIndexByte(c.target, '.')
	cs := x.PythonName(c.target[:i])
	if len(cs) != 1 {
		return callable{}, false
	}
	cls, via := cs[0], ""
	if g.Type(cls) == graph.Function {
		var ok bool
		if cls, ok = returnClass(g, src, x, cls); !ok {
			return callable{}, false
		}
		via = c.target[:i] + "() -> " + g.Label(cls)
	}
	if g.Type(cls) != graph.Class {
		return callable{}, false
	}
	if _, ok := classCallable(g, src, x, cls); !ok {
		return callable{}, false
	}
	def, visited, known := x.PythonMethod(cls, c.target[i+1:])
	if !known || def == graph.NoNode || !plainClasses(g, src, visited) {
		return callable{}, false
	}
	k, ok := defCallable(g, src, def, def, false)
	k.via = via
	return k, ok
}

// returnClass is the project class a function's return annotation names,
// as the function's own file sees the name.
func returnClass(g *graph.Graph, src *driftSources, x *document.Index, fn graph.NodeID) (graph.NodeID, bool) {
	k, ok := defCallable(g, src, fn, fn, true)
	if !ok || k.sig.ret == "" {
		return graph.NoNode, false
	}
	ids := x.PythonNameIn(k.path, k.sig.ret)
	if len(ids) != 1 || g.Type(ids[0]) != graph.Class {
		return graph.NoNode, false
	}
	return ids[0], true
}

// plainClasses: every class is readable and has no decorator that may
// rewrite its methods.
func plainClasses(g *graph.Graph, src *driftSources, cs []graph.NodeID) bool {
	for _, c := range cs {
		p, segs, ok := document.CodeQual(g.ExternalID(c))
		text, readable := src.source(p)
		if !ok || !readable || classDecorated(string(text), strings.Join(segs, ".")) {
			return false
		}
	}
	return true
}

// defCallable reads def's signature. A method reached through its class
// (top false: Class.method(...)) is checked only when it is a
// classmethod or staticmethod; a plain one would take the instance.
func defCallable(g *graph.Graph, src *driftSources, node, def graph.NodeID, top bool) (callable, bool) {
	p, segs, ok := document.CodeQual(g.ExternalID(def))
	if !ok || len(segs) == 0 || !strings.HasSuffix(p, ".py") {
		return callable{}, false
	}
	text, ok := src.source(p)
	if !ok {
		return callable{}, false
	}
	k := callable{node: node, def: def, path: p, qual: strings.Join(segs, ".")}
	sig, decs, ok := sigIn(string(text), k.qual)
	if !ok {
		return callable{}, false
	}
	if top && len(segs) > 1 && !contains(decs, "classmethod") && !contains(decs, "staticmethod") {
		return callable{}, false
	}
	k.sig = sig
	return k, true
}

// classCallable: a class call runs the __init__ its hierarchy gives it;
// a decorated class, a metaclass, a __new__ or a library base leave it
// unknown.
func classCallable(g *graph.Graph, src *driftSources, x *document.Index, id graph.NodeID) (callable, bool) {
	init, visited, known := x.PythonInit(id)
	if !known {
		return callable{}, false
	}
	if !plainClasses(g, src, visited) {
		return callable{}, false
	}
	if init == graph.NoNode {
		p, segs, _ := document.CodeQual(g.ExternalID(id))
		return callable{node: id, def: graph.NoNode, path: p, qual: strings.Join(segs, ".")}, true
	}
	return defCallable(g, src, id, init, false)
}

// sectionAt is the innermost section holding a document line.
func sectionAt(g *graph.Graph, d *document.DocDrift, line int) graph.NodeID {
	best, span := d.Doc.Node, uint32(1<<31)
	for _, s := range document.Sections(g, d.Doc.Node) {
		p := g.Provenance(s)
		if uint32(line) >= p.LineStart && uint32(line) <= p.LineEnd && p.LineEnd-p.LineStart < span {
			best, span = s, p.LineEnd-p.LineStart
		}
	}
	return best
}

// checkExamples puts a document's rejected example calls before its
// other findings: each is a failure a reader meets, checked, not a date
// compared.
func checkExamples(b *session.Bundle, src *driftSources, d *document.DocDrift, notes []string, sum *driftSummary) []string {
	if d.Doc.Format != document.Markdown && d.Doc.Format != document.RST || pastPage(d.Doc.Path) {
		return notes
	}
	text, err := readDocSource(b, d.Doc.Abs)
	if err != nil {
		return notes
	}
	fs, exNotes, checked := exampleFindings(b, src, d, text)
	sum.ExampleCallsChecked += checked
	sum.ExampleCallsRejected += len(fs)
	imps, _ := importFindings(b, src, d, text)
	for range imps {
		exNotes = append(exNotes, "")
	}
	fs = append(fs, imps...)
	d.Findings = append(fs, d.Findings...)
	return append(exNotes, notes...)
}

// pastPageRe names pages that show old calls on purpose: an upgrading
// guide's "2.x" half, a changelog's removed API (marshmallow's
// upgrading.rst on the tune split).
var pastPageRe = regexp.MustCompile(`(?i)(upgrad|migrat|changelog|changes|history|release|whatsnew|whats-new|news|porting)`)

func pastPage(p string) bool { return pastPageRe.MatchString(path.Base(p)) || document.HistoryPath(p) }
