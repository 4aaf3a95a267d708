package document

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Drift finding kinds.
const (
	// DriftCodeChanged: a bound code file changed after the document did
	// (by git's last commit times, file times outside git).
	DriftCodeChanged = "code_change_unreflected"
	// DriftMissing: the document names a path or member that is not in
	// the graph although its directory or owner is, or a Python example
	// imports a module or name the project's own package does not have
	// (then Line is the import's line).
	DriftMissing = "missing_target"
	// DriftAmbiguous: the document names something too many code nodes
	// answer to, so nothing was bound.
	DriftAmbiguous = "ambiguous_target"
	// DriftExample: a code example calls the project's function or class
	// with a keyword or more positional arguments than its current
	// signature accepts.
	DriftExample = "example_call_rejected"
)

// DriftGrace is how much later (seconds) code may change than its
// document before it counts: commits of one change made minutes apart.
const DriftGrace = 3600

// Finding is one drift finding.
type Finding struct {
	Kind    string
	Section graph.NodeID
	// Target is the bound code node (code_change_unreflected only).
	Target graph.NodeID
	// File is Target's file node.
	File    graph.NodeID
	Mention Mention
	Score   float32
	// CodeChanged is the bound file's last change (Unix seconds).
	CodeChanged float64
	Candidates  int
	// Repeats counts the later mentions of the same ambiguous name in
	// the document (ambiguous_target only).
	Repeats int
	Detail  string
	// Tier orders code_change_unreflected findings by how sure they are:
	// 0 a checked change of the symbol's surface, 1 its own lines, 2 its
	// file (set by the caller that dates them; 0 otherwise).
	Tier int
	// Line is the document line of an example's call or of a hand-written
	// signature or keyword; Param the keyword the signature no longer has;
	// Commit the commit after which the code no longer fitted the page,
	// when history shows it (example_call_rejected, and the signature and
	// keyword claims of code_change_unreflected and missing_target).
	Line   int
	Param  string
	Commit string
}

// DocDrift is one document's drift.
type DocDrift struct {
	Doc        DocInfo
	DocChanged float64
	// NewestCode is the latest change among the bound code files.
	NewestCode float64
	Bindings   int
	Findings   []Finding
}

// Count returns how many findings are of kind k.
func (d *DocDrift) Count(k string) int {
	n := 0
	for _, f := range d.Findings {
		if f.Kind == k {
			n++
		}
	}
	return n
}

// FileOf returns the code file node holding a code node (itself for a
// file or directory).
func (x *Index) FileOf(id graph.NodeID) graph.NodeID {
	_, p, segs, ok := codeRef(x.g.ExternalID(id))
	if !ok || len(segs) == 0 {
		return id
	}
	if f, ok := x.byPath[p]; ok {
		return f
	}
	return id
}

// Drift compares a document with the code it is bound to.
func (x *Index) Drift(doc graph.NodeID) DocDrift {
	g := x.g
	d := DocDrift{Doc: Info(g, doc), DocChanged: x.changed(doc)}
	secs := append([]graph.NodeID{doc}, Sections(g, doc)...)
	hasCode := len(x.byPath) > 0
	// An ambiguous name is one finding per document, however many
	// sections repeat it: typer's tutorials name their example "main.py"
	// in 175 sections, which buried the two dozen real findings.
	ambiguous := map[string]int{}
	history := HistoryPage(g, doc, d.Doc.Path)
	for _, s := range secs {
		for _, b := range x.SectionBindings(s) {
			d.Bindings++
			if !datable(g, b) {
				continue
			}
			f := x.FileOf(b.Target)
			t := x.changed(f)
			d.NewestCode = max(d.NewestCode, t)
			if t > d.DocChanged+DriftGrace && d.DocChanged > 0 && !history {
				d.Findings = append(d.Findings, Finding{Kind: DriftCodeChanged, Section: s, Target: b.Target, File: f, Mention: b.Mention, Score: b.Score, CodeChanged: t,
					Detail: "the code changed after the document last did"})
			}
		}
		if !hasCode {
			continue
		}
		for _, m := range Mentions(g, s) {
			if n := x.Ambiguity(m); n > 0 && m.Kind != MentionIdent {
				if i, seen := ambiguous[m.Text]; seen {
					d.Findings[i].Repeats++
					continue
				}
				ambiguous[m.Text] = len(d.Findings)
				d.Findings = append(d.Findings, Finding{Kind: DriftAmbiguous, Section: s, Target: graph.NoNode, File: graph.NoNode, Mention: m, Candidates: n,
					Detail: "names " + itoa(n) + " code nodes; qualify it (path or Owner.member) to bind it"})
				continue
			}
			if detail, missing := x.missing(m); missing && !history {
				d.Findings = append(d.Findings, Finding{Kind: DriftMissing, Section: s, Target: graph.NoNode, File: graph.NoNode, Mention: m, Detail: detail})
			}
		}
	}
	for i := range d.Findings {
		if r := d.Findings[i].Repeats; r > 0 {
			d.Findings[i].Detail += " (named again in " + itoa(r) + " later places)"
		}
	}
	slices.SortStableFunc(d.Findings, CompareFindings(g))
	return d
}

// Pages that record history: by file name (CHANGES.md, changelog.rst,
// HISTORY, NEWS, release-notes, versions.rst, whatsnew, pyparsing's
// whats_new_in_3_0_0.rst, which lists the names 3.0 removed; an upgrading or
// migration guide, which names the removed API on purpose: marshmallow's
// upgrading.rst gave five missing Schema members on the history harness)
// or by headings that are versions ("1.2.0", "v2.0 (2024-01-01)",
// "Version 3", "[1.0.0] - 2017-06-20", "Unreleased").
var (
	historyNameRe    = regexp.MustCompile(`(?i)^(change[-_]?log|changes|history|news|release[-_]?notes?|releases|versions?|whats[-_]?new|upgrad\w*|migrat\w*|porting)$|^whats[-_]?new[-_]`)
	versionHeadingRe = regexp.MustCompile(`(?i)^\[?(v|version\s+|release\s+)?\d+(\.\d+)+\b|^(unreleased|next release)\b`)
)

// HistoryPage: the document is a changelog or release notes. Such a page
// dates itself: each entry says what changed at its time, so code that
// changed after the page's last edit does not make it stale, and a name
// it says was removed is meant to be gone (more-itertools' versions.rst
// was flagged for a later docstring edit on the held-out run of
// benchmarks/results/drift-examples.md).
func HistoryPage(g *graph.Graph, doc graph.NodeID, docPath string) bool {
	if HistoryPath(docPath) {
		return true
	}
	versions, other := 0, 0
	for _, s := range Sections(g, doc) {
		if versionHeadingRe.MatchString(strings.TrimSpace(g.Label(s))) {
			versions++
		} else {
			other++
		}
	}
	// The page's title and an intro section are not versions; two versions
	// and no fewer than the other headings make a history.
	return versions >= 2 && versions >= other
}

// History by path: a release page in a changes/, whatsnew/ or news
// fragments directory, or a page named for a version (falcon keeps
// docs/changes/4.0.0.rst and docs/_newsfragments/2630.misc.rst: 28 of the
// 39 false findings on the held-out run of drift-precision5.md, removed
// API named by the release that removed it).
var (
	historyDirRe  = regexp.MustCompile(`(?i)(^|/)(changes|changelog|changelogs|changelog\.d|release[-_]?notes|releases|whats[-_]?new|history|_?newsfragments|news)/`)
	versionFileRe = regexp.MustCompile(`(?i)^v?\d+(\.\d+)+([-._]?(rc|a|b|post|dev)\d*)?$`)
)

// HistoryPath: the page's name or directory says it records history.
func HistoryPath(docPath string) bool {
	base := path.Base(docPath)
	stem := strings.TrimSuffix(base, path.Ext(base))
	return historyNameRe.MatchString(stem) || versionFileRe.MatchString(stem) || historyDirRe.MatchString(path.Dir(docPath)+"/") || DatedPost(docPath)
}

// blogDirRe: a directory of dated posts (docs/blog/posts/, news/).
var blogDirRe = regexp.MustCompile(`(?i)(^|/)(blog|posts|news|announcements)/`)

// DatedPost: the page is a blog post or announcement, which records the
// code of its day as a changelog does (textual's docs/blog/posts on the
// held-out run of benchmarks/results/drift-precision2.md: .css files
// renamed .tcss later, an example importing textual._cache before it
// became textual.cache).
func DatedPost(docPath string) bool { return blogDirRe.MatchString(path.Dir(docPath) + "/") }

// datable: a binding whose code's last change can make the document
// stale. A directory's or a bare file name's newest commit says nothing
// about what a page claims: on the tune split of
// benchmarks/results/drift-heldout3.md every such finding was false
// (a "docs" folder, a user's own "wsgi.py" or "conftest.py").
func datable(g *graph.Graph, b Binding) bool {
	if g.Type(b.Target) == graph.Directory {
		return false
	}
	return g.Type(b.Target) != graph.File || strings.Contains(b.Mention.Text, "/")
}

// CompareFindings is the order of a document's findings: by kind, with
// ambiguous_target last (it claims no staleness, and a page of namesakes
// would otherwise fill the listed findings before any claim), the most
// certain first (Tier), the newest code change, then the section's line
// and the mention.
func CompareFindings(g *graph.Graph) func(a, b Finding) int {
	return func(a, b Finding) int {
		if aa, ba := a.Kind == DriftAmbiguous, b.Kind == DriftAmbiguous; aa != ba {
			if aa {
				return 1
			}
			return -1
		}
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Tier, b.Tier); c != 0 {
			return c
		}
		if c := cmp.Compare(b.CodeChanged, a.CodeChanged); c != 0 {
			return c
		}
		if c := cmp.Compare(g.Provenance(a.Section).LineStart, g.Provenance(b.Section).LineStart); c != 0 {
			return c
		}
		return strings.Compare(a.Mention.Text, b.Mention.Text)
	}
}

// nestedHas reports whether a class nested in owner declares member:
// prose names a builder's method by its outer class (javapoet's README
// says "CodeBlock.add()" for CodeBlock.Builder.add).
func (x *Index) nestedHas(owner graph.NodeID, member string) bool {
	g := x.g
	lo, hi := g.OutRange(owner)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) || g.RelationName(e) != "contains" || !isClassType(g.Type(g.Target(e))) {
			continue
		}
		if _, ok := g.Lookup(g.ExternalID(g.Target(e)) + "::" + member); ok {
			return true
		}
	}
	return false
}

// changed is a node's last change: the Changed hook's (git), else the
// graph's time.
func (x *Index) changed(id graph.NodeID) float64 {
	if x.Changed != nil {
		if t := x.Changed(id); t > 0 {
			return t
		}
	}
	return x.g.LastModified(id)
}

// missing reports a mention that names nothing although the code it
// would live in is there: a path under a directory the graph has, or a
// member of a class the graph has.
func (x *Index) missing(m Mention) (string, bool) {
	switch m.Kind {
	case MentionPath:
		// Only files with a code extension: extension-less mentions are as
		// often commands, tags or URLs' tails as directories.
		if isDocPath(m.Text) || !extRe.MatchString(m.Text) || dataFile(m.Text) || len(x.Resolve(m)) > 0 || len(x.suffixMatches(m.Text)) > 0 {
			return "", false
		}
		dir, _, ok := strings.Cut(m.Text, "/")
		if !ok {
			return "", false
		}
		if _, known := x.byPath[dir]; known {
			return "no file " + m.Text + " in the graph, though " + dir + "/ is there (moved or deleted?)", true
		}
	case MentionQualified:
		if len(x.qualMatches(m.Text, "")) > 0 {
			return "", false
		}
		segs := strings.Split(m.Text, ".")
		return x.missingMember(strings.Join(segs[:len(segs)-1], "."), segs[len(segs)-1])
	}
	return "", false
}

// missingMember reports Owner.member as missing only when some class the
// owner names is in the graph and neither it nor any of its bases has the
// member (a method, or an attribute its body assigns), and no base lies
// outside the graph.
func (x *Index) missingMember(ownerQ, member string) (string, bool) {
	owners := x.owners(ownerQ)
	if len(owners) == 0 {
		return "", false
	}
	var searched []string
	for _, o := range owners {
		r := x.lookupMember(o, member)
		if r.found || r.unknown || x.nestedHas(o, member) {
			return "", false
		}
		searched = append(searched, r.visited...)
	}
	owner := x.g.Label(owners[0])
	detail := owner + " is in the graph but has no member " + member
	bases := slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(searched))), func(l string) bool { return l == owner })
	if len(bases) > 0 {
		detail += " (nor has " + strings.Join(bases, ", ") + ")"
	}
	return detail + " (renamed or removed?)", true
}
