package edit

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// nominalExts are the languages where a class must define every abstract
// member of the interfaces and abstract classes it declares: removing one
// fails the build even when nothing calls it.
var nominalExts = map[string]bool{".php": true, ".java": true, ".cs": true, ".kt": true}

// stdContracts are standard-library interfaces the graph never holds, by
// the simple name code writes, with the members an implementer must
// define (the JDK's for Java and Kotlin, PHP's core, .NET's System).
var stdContracts = func() map[string]map[string]map[string]bool {
	set := func(pairs ...string) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		for _, p := range pairs {
			iface, members, _ := strings.Cut(p, ":")
			m[iface] = map[string]bool{}
			for _, x := range strings.Split(members, ",") {
				m[iface][x] = true
			}
		}
		return m
	}
	jdk := set("Supplier:get", "Function:apply", "BiFunction:apply", "UnaryOperator:apply", "BinaryOperator:apply",
		"Consumer:accept", "BiConsumer:accept", "Predicate:test", "BiPredicate:test", "Comparator:compare",
		"Comparable:compareTo", "Runnable:run", "Callable:call", "Iterable:iterator", "Iterator:hasNext,next",
		"AutoCloseable:close", "Closeable:close", "CharSequence:length,charAt,subSequence",
		"ThreadFactory:newThread", "InvocationHandler:invoke", "FileFilter:accept", "FilenameFilter:accept",
		"Appendable:append", "Readable:read", "Flushable:flush", "Executor:execute", "Enumeration:hasMoreElements,nextElement")
	return map[string]map[string]map[string]bool{
		".java": jdk, ".kt": jdk,
		".php": set("Countable:count", "IteratorAggregate:getIterator", "Iterator:current,key,next,rewind,valid",
			"ArrayAccess:offsetExists,offsetGet,offsetSet,offsetUnset", "JsonSerializable:jsonSerialize", "Stringable:__toString"),
		".cs": set("IDisposable:Dispose", "IAsyncDisposable:DisposeAsync", "IComparable:CompareTo", "IComparer:Compare",
			"IEnumerable:GetEnumerator", "IEnumerator:MoveNext,Reset", "ICloneable:Clone"),
	}
}()

// contractBreaks finds the members an edit removed from a concrete class
// that an interface or abstract base of the class still declares without
// a body: the class no longer satisfies its contract (PHP's fatal "contains
// 1 abstract method", javac's "is not abstract and does not override").
// Sure (broken) only when every base is in the graph and no trait or
// concrete base could supply the member; otherwise a warning.
func (b *batchRun) contractBreaks(rel string, removed []edit.Symbol) []edit.Finding {
	i := slices.Index(b.paths, rel)
	ext := strings.ToLower(path.Ext(rel))
	if i < 0 || !nominalExts[ext] {
		return nil
	}
	next := string(b.targets[i].New)
	var out []edit.Finding
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		read, lib := sourceReader(bd), newJavaLib(bd, ext, next)
		for _, s := range removed {
			owner, _, ok := strings.Cut(s.Qualified, ".")
			if !ok || !s.Member {
				continue
			}
			if abstractOrInterface(next, owner) {
				out = append(out, subclassBreaks(bd, rel, next, owner, s, read, lib)...)
				continue
			}
			bases := append(ownBases(rel, next, owner), stdBases(next, owner, lib.known(stdContracts[ext], noNode))...)
			base, unknown, supplied := requiredBy(bd.Graph, bases, methodOf(s), ext, stdContracts[ext], read, lib)
			if jb := lib.unread(unknown); base == "" && !supplied && jb != "" {
				out = append(out, edit.Finding{File: rel, Line: declLine(next, owner), Symbol: s.Signature(), Kind: "contract_broken", Severity: "warning",
					Detail: fmt.Sprintf("%s was removed from %s; %s may declare %s without a body, but %s", s.Qualified, rel, jb, s.Name, lib.why)})
			}
			if base == "" || supplied {
				continue
			}
			sev, how := "broken", "no longer implements it"
			if len(unknown) > 0 || usesTrait(next) {
				sev, how = "warning", "may no longer implement it (a trait or a base the graph does not hold may supply it"+lib.whyNot()+")"
			}
			out = append(out, edit.Finding{File: rel, Line: declLine(next, owner), Symbol: s.Signature(), Kind: "contract_broken", Severity: sev,
				Detail: fmt.Sprintf("%s was removed from %s, but %s declares %s without a body: %s %s", s.Qualified, rel, base, s.Name, owner, how)})
		}
		return nil
	})
	return out
}

// method is a removed method's name and parameter types (known false:
// not read, any fits).
type method struct {
	Name   string
	params []string
	known  bool
}

func methodOf(s edit.Symbol) method {
	ps, known := s.Params()
	return method{s.Name, ps, known}
}

// requiredBy walks the bases of a class (by name, then by the graph's
// edges) and reports the first one declaring sym abstractly with its
// parameter types (base), the bases the graph does not hold, and whether
// some base supplies it with a body. A standard interface a base's header
// names binds as the class's own do (the graph leaves those out); a base
// the graph does not hold is looked up in the JDK when lib has one.
func requiredBy(g *graph.Graph, bases []string, sym method, ext string, std map[string]map[string]bool, read func(graph.NodeID) string, lib *javaLib) (base string, unknown []string, supplied bool) {
	fits := func(m graph.NodeID) bool {
		got, ok := edit.ParamTypes(read(m), sym.Name, ext)
		return edit.SameParams(sym.params, sym.known, got, ok)
	}
	asked := map[string]bool{}
	outside := func(b string, from graph.NodeID) {
		if asked[b] {
			return
		}
		asked[b] = true
		if jb, sup, unk, ok := lib.contract(b, from, sym); ok {
			supplied = supplied || sup
			if jb != "" && base == "" {
				base = jb + " (JDK)"
			}
			if unk {
				unknown = append(unknown, b)
			}
		} else if ms, ok := std[b]; !ok {
			unknown = append(unknown, b)
		} else if ms[sym.Name] && base == "" {
			base = b + " (standard library)"
		}
	}
	walkBases(g, bases, sym.Name, fits, map[string]bool{"Any": true}, outside,
		func(b string, n, m graph.NodeID, has bool) bool {
			switch {
			case !has:
				for _, s := range stdBases(read(n), b, lib.known(std, n)) {
					outside(s, n)
				}
				return false
			case !bodiless(read(m), ext == ".kt"):
				supplied = true
				return true
			case base == "":
				base = g.SourcePath(n) + "::" + b
			}
			return false
		})
	if supplied {
		return "", unknown, true
	}
	return base, unknown, false
}

// memberNode is n's first member labelled name that fits (nil: any), if
// any, and the nodes n inherits from or implements.
func memberNode(g *graph.Graph, n graph.NodeID, name string, fits func(graph.NodeID) bool) (m graph.NodeID, found bool, bases []graph.NodeID) {
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) {
			continue // a bidirectional edge's way back: an implementer, not a base
		}
		switch g.RelationName(e) {
		case "contains":
			if t := g.Target(e); !found && g.Label(t) == name && (fits == nil || fits(t)) {
				m, found = t, true
			}
		case "inherits", "implements":
			bases = append(bases, g.Target(e))
		}
	}
	return m, found, bases
}

// sourceReader reads a node's declaration lines from disk (empty when it
// cannot: the caller then treats the member as having a body). At verify
// time the graph and the disk both hold the edited text.
func sourceReader(bd *session.Bundle) func(graph.NodeID) string {
	text := fileText(bd)
	files := map[string][]string{}
	return func(n graph.NodeID) string {
		pv := bd.Graph.Provenance(n)
		if pv.SourcePath == "" || pv.LineStart == 0 {
			return ""
		}
		lines, ok := files[pv.SourcePath]
		if !ok {
			lines = strings.Split(text(pv.SourcePath), "\n")
			files[pv.SourcePath] = lines
		}
		lo, hi := int(pv.LineStart)-1, int(max(pv.LineEnd, pv.LineStart))
		if lo >= len(lines) {
			return ""
		}
		return strings.Join(lines[lo:min(hi, len(lines))], "\n")
	}
}

// fileText reads an ingested file's text from disk, once (empty when it
// cannot).
func fileText(bd *session.Bundle) func(rel string) string {
	rs, guard := tools.BundleSpace(bd), tools.BundleGuard(bd)
	files := map[string]string{}
	return func(rel string) string {
		src, ok := files[rel]
		if !ok {
			if res, err := guard.Resolve(rs.DiskPath(rel)); err == nil && res.Exists {
				if b, err := tools.ReadBounded(res.Real, 4<<20); err == nil {
					src = string(b)
				}
			}
			files[rel] = src
		}
		return src
	}
}

var (
	comments = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*|#[^\n]*`)
	// Annotations may carry `=` (Java's @X(since = "1")).
	annotation = regexp.MustCompile(`(?m)^\s*@\w+(\([^)]*\))?`)
	// A trait used inside a class body (PHP): indented, unlike the file's
	// namespace imports.
	traitUse = regexp.MustCompile(`(?m)^[ \t]+use\s+\\?\w[\w\\]*(\s*,\s*\\?\w[\w\\]*)*\s*[;{]`)
)

// bodiless: a method declared without a body — `function f(): T;`,
// `void f(int x);`, Kotlin's `fun f(): T` — the form an implementer must
// supply; a constant (`int X = f();`), a property or a default method is
// not. Empty text (unreadable) is never bodiless.
func bodiless(decl string, kotlin bool) bool {
	d := strings.TrimSpace(annotation.ReplaceAllString(comments.ReplaceAllString(decl, ""), ""))
	p := strings.IndexByte(d, '(')
	if p < 0 || strings.Contains(d, "{") || strings.Contains(d, "=>") || strings.Contains(d[:p], "=") {
		return false
	}
	if kotlin {
		return strings.Contains(d[:p], "fun ") && !strings.Contains(d[closing(d, p):], "=")
	}
	return strings.HasSuffix(d, ";")
}

// closing is the index of the parenthesis closing the one at open (the
// end of s when unbalanced).
func closing(s string, open int) int {
	if i := edit.MatchParen(s, open); i >= 0 {
		return i
	}
	return len(s)
}

// abstractOrInterface: owner is declared abstract, or is an interface or
// trait itself, in src (then it need not implement anything).
func abstractOrInterface(src, owner string) bool {
	q := regexp.QuoteMeta(owner)
	re := regexp.MustCompile(`\babstract\s+(?:\w+\s+)*class\s+` + q + `\b|\b(?:interface|trait)\s+` + q + `\b`)
	return re.MatchString(src)
}

// stdBases are the standard interfaces owner's declaration header names
// (`class Owner extends B implements Comparable<Owner>`, `class Owner :
// IDisposable`): extractors leave java.lang's out of the graph as noise.
// std tells a standard one by its name.
func stdBases(src, owner string, std func(string) bool) []string {
	// After the name: a JDK type called like the class (Record) is not its base.
	m := regexp.MustCompile(`\b(?:class|record|enum|object)\s+` + regexp.QuoteMeta(owner) + `\b([^{;]*)`).FindStringSubmatch(src)
	if m == nil {
		return nil
	}
	loc := regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(m[1], "") // a record's components
	for generic := regexp.MustCompile(`<[^<>]*>`); generic.MatchString(loc); {
		loc = generic.ReplaceAllString(loc, "")
	}
	var out []string
	for _, w := range regexp.MustCompile(`\w+`).FindAllString(loc, -1) {
		if std(w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// declLine is the line of owner's class declaration in src (0: not found).
func declLine(src, owner string) int {
	loc := regexp.MustCompile(`\bclass\s+` + regexp.QuoteMeta(owner) + `\b`).FindStringIndex(src)
	if loc == nil {
		return 0
	}
	return strings.Count(src[:loc[0]], "\n") + 1
}

func usesTrait(src string) bool { return traitUse.MatchString(src) }
