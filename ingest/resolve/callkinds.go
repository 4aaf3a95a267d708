package resolve

import (
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// callKinds replaces the call-result items of a Java call's argument
// kinds ("^name", "^T.name": extract's callKind) by the kind of the class
// the callee declares it returns ("oOption"), so that get(option()) picks
// get(Option) as get(o) does. A callee whose declarations disagree or
// return no class declared here gives "_", the kind that fits anything.
func (ix *Index) callKinds(srcID, args string) string {
	if !strings.Contains(args, "^") {
		return args
	}
	items := strings.Split(args, ",")
	for i, a := range items {
		if call, ok := strings.CutPrefix(a, "^"); ok {
			items[i] = ix.callKind(srcID, call)
		}
	}
	return strings.Join(items, ",")
}

// callKind is the kind of the result of call ("name" or "T.name").
func (ix *Index) callKind(srcID, call string) string {
	var tr extract.TypeRef
	ok := false
	if typ, name, typed := strings.Cut(call, "."); typed {
		tr, ok = ix.agreedResult(ix.methodsOf(ix.byLabel[name], name, typ))
	} else {
		tr, ok = ix.ownCallResult(srcID, call+"(")
	}
	if !ok || !isIdent(tr.Name) {
		return "_"
	}
	return "o" + tr.Name
}
