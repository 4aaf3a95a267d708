package scan

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// rule is one check: a query that finds candidates and a function that
// looks at each match and reports what is really there.
type rule struct {
	id      string
	pattern string
	query   string
	check   func(fc *fileCtx, r *rule, m caps)
	// patterns is how many query patterns query holds (set at compile).
	patterns uint
}

// finisher runs after every match of a file was seen, for rules that judge
// a candidate by its neighbours (a route without auth next to routes with).
type finisher struct {
	pattern string
	fn      func(fc *fileCtx)
}

// lang is one language: its grammar, rules, parsers and compiled queries.
type lang struct {
	name  string
	ptr   func() unsafe.Pointer
	rules []*rule
	after []finisher
	// scopes are the node kinds that open a function scope.
	scopes map[string]bool

	once   sync.Once
	err    error
	ts     *ts.Language
	kinds  []string
	fields map[string]uint16

	parsers  sync.Pool
	mu       sync.Mutex
	compiled map[uint16]*compiled
}

// compiled is the query of a set of patterns: every selected rule's query
// concatenated, so one pass over the tree serves them all.
type compiled struct {
	q     *ts.Query
	rules []*rule // by query pattern index
	names []string
}

func (l *lang) init() error {
	l.once.Do(func() {
		l.ts = ts.NewLanguage(l.ptr())
		n := int(l.ts.NodeKindCount())
		l.kinds = make([]string, n)
		for i := range n {
			l.kinds[i] = l.ts.NodeKindForId(uint16(i))
		}
		l.fields = map[string]uint16{}
		for i := uint16(1); i <= uint16(l.ts.FieldCount()); i++ {
			l.fields[l.ts.FieldNameForId(i)] = i
		}
		for _, r := range l.rules {
			q, err := ts.NewQuery(l.ts, r.query)
			if err != nil {
				l.err = fmt.Errorf("scan: %s rule %s: %v", l.name, r.id, err)
				return
			}
			r.patterns = q.PatternCount()
			q.Close()
		}
		l.compiled = map[uint16]*compiled{}
	})
	return l.err
}

func (l *lang) compile(mask uint16) (*compiled, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.compiled[mask]; ok {
		return c, nil
	}
	var src strings.Builder
	c := &compiled{}
	for _, r := range l.rules {
		if mask&patternBit(r.pattern) == 0 {
			continue
		}
		src.WriteString(r.query)
		src.WriteByte('\n')
		for range r.patterns {
			c.rules = append(c.rules, r)
		}
	}
	if len(c.rules) > 0 {
		q, err := ts.NewQuery(l.ts, src.String())
		if err != nil {
			return nil, fmt.Errorf("scan: %s: %v", l.name, err)
		}
		c.q, c.names = q, q.CaptureNames()
	}
	l.compiled[mask] = c
	return c, nil
}

func (l *lang) parse(src []byte) (*ts.Tree, error) {
	p, _ := l.parsers.Get().(*ts.Parser)
	if p == nil {
		p = ts.NewParser()
		if err := p.SetLanguage(l.ts); err != nil {
			p.Close()
			return nil, err
		}
	}
	t := p.Parse(src, nil)
	if t == nil {
		p.Reset()
	}
	l.parsers.Put(p)
	if t == nil {
		return nil, fmt.Errorf("%s: parser returned no tree", l.name)
	}
	return t, nil
}

// caps are the named captures of one match.
type caps map[string]*ts.Node

func (l *lang) scan(relPath string, src []byte, mask uint16, opt Options) ([]Finding, error) {
	if err := l.init(); err != nil {
		return nil, err
	}
	fc := &fileCtx{l: l, path: relPath, src: src, test: IsTestFile(relPath), opt: opt, memo: map[string]any{}}
	if fc.test {
		// Tests are neither API nor routes nor wiring; their error
		// handling and state still count, at half the severity.
		mask &^= patternBit(TestCoverage) | patternBit(APISurface) | patternBit(AuthBoundary) | patternBit(DependencyInjection)
	}
	tree, err := l.parse(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	fc.root = tree.RootNode()
	if mask != 0 {
		c, err := l.compile(mask)
		if err != nil {
			return nil, err
		}
		if c.q != nil {
			fc.run(c)
		}
		for _, f := range l.after {
			if mask&patternBit(f.pattern) != 0 {
				f.fn(fc)
			}
		}
	}
	if opt.Query != nil {
		opt.Query.run(fc)
	}
	return fc.results(), nil
}

// run feeds every match of c to its rule.
func (fc *fileCtx) run(c *compiled) {
	qc := ts.NewQueryCursor()
	defer qc.Close()
	ms := qc.Matches(c.q, fc.root, fc.src)
	for m := ms.Next(); m != nil; m = ms.Next() {
		if int(m.PatternIndex) >= len(c.rules) {
			continue
		}
		cp := make(caps, len(m.Captures))
		for _, x := range m.Captures {
			n := x.Node
			cp[c.names[x.Index]] = &n
		}
		r := c.rules[m.PatternIndex]
		r.check(fc, r, cp)
	}
}

// fileCtx is one file being scanned.
type fileCtx struct {
	l    *lang
	path string
	src  []byte
	root *ts.Node
	test bool
	opt  Options
	memo map[string]any
	out  []Finding
}

// results sorts and de-duplicates the findings.
func (fc *fileCtx) results() []Finding {
	out := fc.out
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			strings.Compare(a.Pattern, b.Pattern), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(out, func(a, b Finding) bool {
		return a.Line == b.Line && a.Column == b.Column && a.Rule == b.Rule && a.Subject == b.Subject
	})
}

// report records a finding on node n.
func (fc *fileCtx) report(n *ts.Node, r *rule, sev float64, subject, format string, args ...any) {
	fc.reportAs(n, r.pattern, r.id, sev, subject, fmt.Sprintf(format, args...))
}

func (fc *fileCtx) reportAs(n *ts.Node, pattern, id string, sev float64, subject, msg string) {
	s, e := n.StartPosition(), n.EndPosition()
	if fc.test {
		sev /= 2
	}
	sev = min(max(sev, 0), 1)
	fc.out = append(fc.out, Finding{
		Pattern: pattern, Rule: id, File: fc.path,
		Line: int(s.Row) + 1, Column: int(s.Column) + 1, EndLine: int(e.Row) + 1, EndColumn: int(e.Column) + 1,
		Severity: float64(int(sev*100+0.5)) / 100, Message: msg, Snippet: fc.snippet(n), Subject: subject, InTest: fc.test,
	})
}

// snippet is the first source line of n, trimmed and clipped.
func (fc *fileCtx) snippet(n *ts.Node) string {
	start := int(n.StartByte())
	ls := bytes.LastIndexByte(fc.src[:start], '\n') + 1
	le := bytes.IndexByte(fc.src[start:], '\n')
	if le < 0 {
		le = len(fc.src)
	} else {
		le += start
	}
	line := bytes.TrimSpace(fc.src[ls:le])
	if len(line) > SnippetMax {
		cut := SnippetMax
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = append(line[:cut:cut], "…"...)
	}
	return strings.ToValidUTF8(string(line), "\uFFFD")
}

// kind is n's node kind without a cgo string copy.
func (fc *fileCtx) kind(n *ts.Node) string {
	if n == nil {
		return ""
	}
	if id := int(n.KindId()); id < len(fc.l.kinds) {
		return fc.l.kinds[id]
	}
	return "ERROR"
}

// is reports whether n is of one of the kinds.
func (fc *fileCtx) is(n *ts.Node, kinds ...string) bool {
	return n != nil && slices.Contains(kinds, fc.kind(n))
}

// bytes and text are n's source.
func (fc *fileCtx) bytes(n *ts.Node) []byte {
	if n == nil {
		return nil
	}
	s, e := n.StartByte(), n.EndByte()
	if e > uint(len(fc.src)) || s > e {
		return nil
	}
	return fc.src[s:e]
}

func (fc *fileCtx) text(n *ts.Node) string { return string(fc.bytes(n)) }

// field returns n's child in field name (nil when absent).
func (fc *fileCtx) field(n *ts.Node, name string) *ts.Node {
	if n == nil {
		return nil
	}
	id, ok := fc.l.fields[name]
	if !ok {
		return nil
	}
	return n.ChildByFieldId(id)
}

// named returns n's named children.
func (fc *fileCtx) named(n *ts.Node) []*ts.Node {
	if n == nil {
		return nil
	}
	k := n.NamedChildCount()
	out := make([]*ts.Node, 0, k)
	for i := range k {
		out = append(out, n.NamedChild(i))
	}
	return out
}

// walk visits n and its descendants in source order; fn returning false
// skips a node's children.
func (fc *fileCtx) walk(n *ts.Node, fn func(n *ts.Node) bool) {
	if n == nil {
		return
	}
	c := n.Walk()
	defer c.Close()
	for {
		if fn(c.Node()) && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return
			}
		}
	}
}

// find returns the descendants of n (n included) of the kinds, not
// looking inside nested function scopes when shallow is set.
func (fc *fileCtx) find(n *ts.Node, shallow bool, kinds ...string) []*ts.Node {
	var out []*ts.Node
	if n == nil {
		return nil
	}
	top := n.Id()
	fc.walk(n, func(x *ts.Node) bool {
		k := fc.kind(x)
		if shallow && x.Id() != top && fc.l.scopes[k] {
			return false
		}
		if slices.Contains(kinds, k) {
			out = append(out, x)
		}
		return true
	})
	return out
}

// ancestor returns the nearest proper ancestor of n of the kinds.
func (fc *fileCtx) ancestor(n *ts.Node, kinds ...string) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if fc.is(p, kinds...) {
			return p
		}
	}
	return nil
}

// scope returns the innermost function scope around n (nil at top level).
func (fc *fileCtx) scope(n *ts.Node) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if fc.l.scopes[fc.kind(p)] {
			return p
		}
	}
	return nil
}

// within reports whether a lies inside b (by bytes).
func within(a, b *ts.Node) bool {
	return a.StartByte() >= b.StartByte() && a.EndByte() <= b.EndByte()
}

// after reports whether a starts after b ends.
func after(a, b *ts.Node) bool { return a.StartByte() >= b.EndByte() }

// lastSegment is the last dotted part of a callee ("a.b.Close" → "Close").
func lastSegment(s string) string {
	if i := strings.LastIndexAny(s, ".:"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// once caches a per-file analysis.
func memo[T any](fc *fileCtx, key string, build func() T) T {
	if v, ok := fc.memo[key]; ok {
		return v.(T)
	}
	v := build()
	fc.memo[key] = v
	return v
}

// rule finds a rule of l by id (for finishers).
func (l *lang) rule(id string) *rule {
	for _, r := range l.rules {
		if r.id == id {
			return r
		}
	}
	panic("scan: unknown rule " + id)
}
