package documents

import (
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A reST API page names objects relative to its module: pyjwt's api.rst
// opens with `.. module:: jwt` and quotes `.. function:: decode(jwt,
// key="", verify=True, …)`, which Sphinx files as jwt.decode. Read bare,
// "decode" named four defs (PyJWT.decode, PyJWS.decode, …), so the quote
// was never compared; read in its module it is one name, and one a
// reader can also find missing (`.. autoclass:: Gone` under
// `.. currentmodule:: kit.errors` fails Sphinx's import).

var (
	// .. module:: M, .. currentmodule:: M (py: prefixed or not), and
	// .. automodule:: M, which files what follows under M too (structlog's
	// api.rst: 58 names of structlog.dev, .testing, … read as structlog's
	// on the tune run before it counted); "None" ends the scope.
	moduleDirRe = regexp.MustCompile(`^\s*\.\.\s+(?:py:)?(?:current|auto)?module::\s*([A-Za-z_][\w.]*)\s*$`)
	// An object directive with a bare name: .. class:: Name, .. autofunction:: name(…).
	// Methods and attributes are left out: they are named relative to a class.
	objectDirRe = regexp.MustCompile(`^\s*\.\.\s+(?:py:)?(?:auto)?(?:class|function|exception|data|decorator)::\s+([A-Za-z_]\w*)\s*(?:\(.*)?$`)
)

// moduleScopes gives each line of a page the module its object
// directives are filed under ("" outside any). An indented module
// directive counts too: Sphinx scopes by order, not nesting.
func moduleScopes(lines []string) []string {
	out := make([]string, len(lines))
	cur := ""
	for i, l := range lines {
		if m := moduleDirRe.FindStringSubmatch(l); m != nil {
			cur = m[1]
			if cur == "None" {
				cur = ""
			}
		}
		out[i] = cur
	}
	return out
}

// scopedName is a bare directive name read in its module ("jwt.decode");
// name itself when there is no scope or it is dotted already.
func scopedName(scope, name string) string {
	if scope == "" || strings.Contains(name, ".") {
		return name
	}
	return scope + "." + name
}

// scopedCallable resolves a name filed under a module: the module's own
// export, else a module-level alias it assigns (jwt.decode =
// _jwt_global_obj.decode).
func scopedCallable(b *session.Bundle, src *driftSources, x *document.Index, q string) (callable, bool) {
	g := b.Graph
	ids := x.PythonName(q)
	if len(ids) == 1 {
		switch g.Type(ids[0]) {
		case graph.Function:
			return defCallable(g, src, ids[0], ids[0], false)
		case graph.Class:
			k, ok := classCallable(g, src, x, ids[0])
			return k, ok && k.def != graph.NoNode
		}
	}
	if len(ids) > 1 {
		return callable{}, false
	}
	return aliasCallable(src, x, g, exCall{target: q})
}

// scopedObjectFindings lists the object directives whose module (the
// page's current module) does not give the name they document.
func scopedObjectFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, lines []string) []document.Finding {
	if d.Doc.Format != document.RST {
		return nil
	}
	x := docIndex(b)
	var fs []document.Finding
	scopes := moduleScopes(lines)
	for i, l := range lines {
		m := objectDirRe.FindStringSubmatch(l)
		if m == nil || scopes[i] == "" {
			continue
		}
		why := moduleLacks(x, src, scopes[i]+"."+m[1])
		if why == "" {
			continue
		}
		text := strings.TrimSpace(l)
		if len(text) > maxCallText {
			text = text[:maxCallText] + "…"
		}
		fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, i+1), Target: graph.NoNode, File: graph.NoNode,
			Mention: document.Mention{Kind: document.MentionCode, Text: text}, Line: i + 1, Detail: why + " (the directive is filed under .. module:: " + scopes[i] + ")"})
	}
	return fs
}
