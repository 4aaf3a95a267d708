package edit

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// kotlinOverride finds a property override: `override val kdoc: CodeBlock`
// in a class body or its primary constructor.
var kotlinOverride = regexp.MustCompile(`\boverride\s+(?:[a-z]+\s+)*(?:val|var)\s+(\w+)`)

// kotlinPropertyBreaks finds the property overrides an edit removed from a
// Kotlin class whose interface or abstract base still declares the
// property without a value or getter (kotlinc: "is not abstract and does
// not implement abstract member"): kotlinpoet's TypeAliasSpec without its
// `override val kdoc` was SAFE. Properties are no nodes of the graph, so
// both the removal and the base's declaration are read from the text.
func (b *batchRun) kotlinPropertyBreaks(rel string, old, next []byte) []edit.Finding {
	if strings.ToLower(path.Ext(rel)) != ".kt" || len(kotlinOverride.FindAllIndex(next, -1)) >= len(kotlinOverride.FindAllIndex(old, -1)) {
		return nil // no override fewer: nothing to parse (one moved between classes is not seen)
	}
	r, err := extract.ExtractFile(rel, old)
	if r == nil || err != nil && len(r.Nodes) == 0 {
		return nil
	}
	rn, err := extract.ExtractFile(rel, next)
	if rn == nil || err != nil && len(rn.Nodes) == 0 {
		return nil
	}
	removed := removedOverrides(string(old), string(next), r, rn)
	if len(removed) == 0 {
		return nil
	}
	var out []edit.Finding
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		read := sourceReader(bd)
		for _, p := range removed {
			owner := p.owner
			if owner == "" || abstractOrInterface(string(next), owner) {
				continue
			}
			base, unknown, supplied := propertyRequiredBy(bd.Graph, undelegated(declaredBases(rel, next, owner), header(string(next), owner)), p.name, read)
			if base == "" || supplied {
				continue
			}
			sev, how := "broken", "no longer implements it"
			if len(unknown) > 0 {
				sev, how = "warning", "may no longer implement it (a base the graph does not hold may supply it)"
			}
			out = append(out, edit.Finding{File: rel, Line: declLine(string(next), owner), Symbol: owner + "." + p.name, Kind: "contract_broken", Severity: sev,
				Detail: fmt.Sprintf("the property %s was removed from %s in %s, but %s declares it without a value: %s %s", p.name, owner, rel, base, owner, how)})
		}
		return nil
	})
	return out
}

type removedProp struct {
	name, owner string
}

// removedOverrides are the property overrides of a class in old (r) that
// the class has no longer in next (rn).
func removedOverrides(old, next string, r, rn *extract.Result) []removedProp {
	left := map[removedProp]int{}
	for _, m := range kotlinOverride.FindAllStringSubmatchIndex(next, -1) {
		left[removedProp{next[m[2]:m[3]], classAt(rn, strings.Count(next[:m[0]], "\n")+1)}]++
	}
	var out []removedProp
	for _, m := range kotlinOverride.FindAllStringSubmatchIndex(old, -1) {
		p := removedProp{old[m[2]:m[3]], classAt(r, strings.Count(old[:m[0]], "\n")+1)}
		if left[p] > 0 {
			left[p]--
			continue
		}
		out = append(out, p)
	}
	return out
}

// undelegated drops the interfaces a class's header implements by
// delegation (`Taggable by tagMap`): the delegate supplies their members.
func undelegated(bases []string, hdr string) []string {
	var out []string
	for _, b := range bases {
		_, simple := cutLast(strings.ReplaceAll(b, ".", "::"))
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(simple) + `(?:<[^>{]*>)?\s+by\b`).MatchString(hdr) {
			out = append(out, b)
		}
	}
	return out
}

// classAt is the innermost class or object of r holding line ("" when
// none).
func classAt(r *extract.Result, line int) string {
	best, span := "", -1
	for _, n := range r.Nodes {
		if n.Type != graph.Class || int(n.Line) > line || line > int(n.EndLine) {
			continue
		}
		if s := int(n.EndLine - n.Line); span < 0 || s < span {
			best, span = n.ID[strings.LastIndex(n.ID, "::")+2:], s
		}
	}
	return best
}

// propertyRequiredBy walks the bases like requiredBy, reading each base's
// text: the first that declares the property abstractly (base), the bases
// the graph does not hold, and whether a base gives it a value.
func propertyRequiredBy(g *graph.Graph, bases []string, name string, read func(graph.NodeID) string) (base string, unknown []string, supplied bool) {
	walkBases(g, bases, name, func(graph.NodeID) bool { return true }, map[string]bool{"Any": true},
		func(b string, _ graph.NodeID) { unknown = append(unknown, b) },
		func(b string, n, _ graph.NodeID, _ bool) bool {
			switch kotlinPropertyIn(read(n), b, name) {
			case propValue:
				supplied = true
				return true
			case propAbstract:
				if base == "" {
					base = g.SourcePath(n) + "::" + b
				}
			}
			return false
		})
	if supplied {
		return "", unknown, true
	}
	return base, unknown, false
}

const (
	propNone = iota
	propAbstract
	propValue
)

// kotlinPropertyIn says how the type decl (named owner) declares the
// property: abstract (`abstract val x: T`, or an interface's `val x: T`
// without a getter), with a value (an initializer, a getter, a
// delegate), or not at all.
func kotlinPropertyIn(decl, owner, name string) int {
	re := regexp.MustCompile(`(?m)^([^\n]*?)\b(?:val|var)\s+` + regexp.QuoteMeta(name) + `\b([^\n]*)(\n[ \t]*get\b)?`)
	m := re.FindStringSubmatch(decl)
	if m == nil {
		return propNone
	}
	mods, rest := m[1], m[2]
	iface := regexp.MustCompile(`\binterface\s+` + regexp.QuoteMeta(owner) + `\b`).MatchString(decl)
	switch {
	case strings.Contains(rest, "=") || strings.Contains(rest, " by ") || m[3] != "" || strings.Contains(mods, "("):
		return propValue // an initializer, a delegate, a getter, a constructor's property
	case strings.Contains(mods, "abstract") || iface:
		return propAbstract
	}
	return propValue // lateinit, or set in init
}
