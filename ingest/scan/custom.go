package scan

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// Query is a custom tree-sitter query (a scan pattern starting with "("),
// compiled for every language it is valid in. Each match is a
// finding of pattern "custom" on the node captured as @match, or on the
// match's first capture.
type Query struct {
	source string
	byLang map[string]*ts.Query
}

// Compile compiles a tree-sitter query for every scanned language. It
// fails when the query is valid in none of them (the error says why for
// each) or captures nothing.
func Compile(source string) (*Query, error) {
	q := &Query{source: source, byLang: map[string]*ts.Query{}}
	var errs []string
	for _, name := range languageNames() {
		l := languageFor(name)
		if err := l.init(); err != nil {
			return nil, err
		}
		c, qerr := ts.NewQuery(l.ts, source)
		if qerr != nil {
			errs = append(errs, fmt.Sprintf("%s: %s", name, qerr.Message))
			continue
		}
		if len(c.CaptureNames()) == 0 {
			c.Close()
			return nil, errors.New("the query captures nothing: name the node to report, e.g. (call_expression) @match")
		}
		q.byLang[name] = c
	}
	if len(q.byLang) == 0 {
		return nil, fmt.Errorf("the query is valid in no scanned language (%s)", strings.Join(errs, "; "))
	}
	runtime.AddCleanup(q, func(m map[string]*ts.Query) {
		for _, c := range m {
			c.Close()
		}
	}, q.byLang)
	return q, nil
}

// Languages lists the languages the query compiled for.
func (q *Query) Languages() []string {
	var out []string
	for l := range q.byLang {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

func (q *Query) run(fc *fileCtx) {
	c := q.byLang[fc.l.name]
	if c == nil {
		return
	}
	names := c.CaptureNames()
	at := slices.Index(names, "match")
	qc := ts.NewQueryCursor()
	defer qc.Close()
	ms := qc.Matches(c, fc.root, fc.src)
	for m := ms.Next(); m != nil; m = ms.Next() {
		if len(m.Captures) == 0 {
			continue
		}
		pick := m.Captures[0]
		for _, x := range m.Captures {
			if int(x.Index) == at {
				pick = x
				break
			}
		}
		n := pick.Node
		fc.reportAs(&n, Custom, "custom/query", 0.5, "", fmt.Sprintf("matches the custom query (@%s %s)", names[pick.Index], fc.kind(&n)))
	}
	runtime.KeepAlive(q)
}
