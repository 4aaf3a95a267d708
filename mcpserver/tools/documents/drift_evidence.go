package documents

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// A finding speaks with the evidence behind it. Every finding judged on
// the drift harness (benchmarks/drift/judged.tsv: 327 findings of 22
// repositories, tune and six held-outs) was pooled and characterised by
// that evidence (benchmarks/results/drift-precision8.md): a checked
// example call (9 of 9 real) and a name whose def, class or module git
// shows removed and that no code defines now (31 of 32) were right; a
// signature written on the page (11 of 16), a name the code defines
// elsewhere now (31 of 55), one no commit ever defined (a label, a key,
// the reader's own code, a module made at import time: 19 of 46) and
// the claims read from prose (Python versions 8 of 23, keywords 3 of 9,
// extras 1 of 10) were not reliable. The default answer lists only the
// first kind as findings; the rest are counted and the first few listed
// apart.

// Evidence classes of a finding.
const (
	evCall       = "call_checked"       // an example's call checked against the def's signature
	evSignature  = "page_signature"     // a signature written on the page compared with the def
	evRemoved    = "removed_in_history" // git shows the name's def, class or module removed; no code defines it now
	evAlias      = "alias_noted"        // the code keeps the name only as an alias its source notes as renamed
	evElsewhere  = "defined_elsewhere"  // the code defines the name now, not where the page puts it
	evNever      = "never_in_history"   // no commit of the project's history defined the name
	evNoHistory  = "no_history"         // the project's history could not be read
	evRunTime    = "made_at_run_time"   // the owner's members are set by setattr: a removed def proves no absence
	evVersion    = "version_claim"      // a Python version read from prose
	evExtra      = "extra_claim"        // an install extra
	evCLI        = "cli_claim"          // a command-line option
	evKeyword    = "keyword_claim"      // a keyword argument named in prose
	evDeprecated = "deprecated_mark"    // the code marks the name deprecated
	evAmbiguous  = "ambiguous"          // a name too many nodes carry: no staleness claimed
	evDateOnly   = "date_only"          // bound code changed after the page; the unchecked parameter governs these
	evUnproven   = "unproven"           // a name only git could back, and git did not: dropped, not listed
)

// strongEvidence are the classes reported as drift by default. An alias
// the code's own source notes as a rename is the code saying so (one
// judged, real). ambiguous_target claims no staleness, and date-only
// changes are governed by the unchecked parameter: both stay where the
// answer has always listed them.
var strongEvidence = map[string]bool{evCall: true, evRemoved: true, evAlias: true, evSigChanged: true, evAmbiguous: true, evDateOnly: true}

// maxLowConfidence bounds the lower-confidence findings listed per
// document; the rest are counted.
const maxLowConfidence = 3

// nameClaim is what a missing-name finding asks git about: the names
// (defs, classes) or module and file paths the page gives.
type nameClaim struct {
	names []string
	paths []string // repository-relative globs of files that would give it
	owner string   // the class a member is missing from
	// gitOnly: nothing but git backs the claim (no changelog line): it
	// stands when git shows the name removed and is dropped otherwise.
	gitOnly bool
}

var (
	modMissingRe  = regexp.MustCompile(`^the example imports ([\w.]+), which is no module`)
	namesFromRe   = regexp.MustCompile(`^the example imports (.+) from [\w.]+, whose source`)
	pageNamesRe   = regexp.MustCompile(`^the page names ([\w.]+), (?:but|which)`)
	noMemberRe    = regexp.MustCompile(`^(?:[\w.]*\.)?(\w+) is in the graph but has no member (\w+)`)
	noFileRe      = regexp.MustCompile(`^no file (\S+) in the graph`)
	identRe       = regexp.MustCompile(`^\w+$`)
	setattrRe     = regexp.MustCompile(`setattr\(\s*(\w+)\s*,`)
	pyDefLineRe   = regexp.MustCompile(`^([-+])\s*(?:async\s+)?(?:def|class)\s+(\w+)`)
	pyDefOrBindRe = regexp.MustCompile(`^\s*(?:(?:async\s+)?(?:def|class)\s+(\w+)|(\w+)\s*(?::[^=]*)?=[^=])`)
)

// classify names a finding's evidence from what produced it; a claim
// about a name returns what to ask git, the class then set by history.
func classify(f document.Finding) (string, *nameClaim) {
	d := f.Detail
	switch {
	case f.Kind == document.DriftExample:
		return evCall, nil
	case f.Kind == document.DriftAmbiguous:
		return evAmbiguous, nil
	case f.Kind == document.DriftCodeChanged && f.Line > 0 && f.Commit != "":
		return evSigChanged, nil // a version of the def in git fitted the page
	case f.Kind == document.DriftCodeChanged && f.Line > 0:
		return evSignature, nil
	case f.Kind == document.DriftCodeChanged:
		return evDateOnly, nil
	case strings.HasPrefix(d, "the page speaks of"):
		return evVersion, nil
	case strings.HasPrefix(d, "the page installs"):
		return evExtra, nil
	case strings.HasPrefix(d, "the page runs"):
		return evCLI, nil
	case strings.HasPrefix(d, "the page passes") && f.Commit != "":
		return evSigChanged, nil
	case strings.HasPrefix(d, "the page passes"):
		return evKeyword, nil
	case strings.Contains(d, "which the code marks deprecated"):
		return evDeprecated, nil
	case strings.Contains(d, "keeps only as an alias of"):
		return evAlias, nil
	}
	if m := modMissingRe.FindStringSubmatch(d); m != nil {
		return "", &nameClaim{paths: modulePaths(m[1])}
	}
	if m := namesFromRe.FindStringSubmatch(d); m != nil {
		return "", &nameClaim{names: strings.Split(m[1], ", ")}
	}
	if m := pageNamesRe.FindStringSubmatch(d); m != nil {
		// "kit.serving" may name a def or class, or the module
		// kit/serving.py a later commit deleted.
		q := m[1]
		c := &nameClaim{names: []string{q[strings.LastIndex(q, ".")+1:]}, gitOnly: strings.HasSuffix(d, unbackedNote)}
		if strings.Contains(q, ".") {
			c.paths = modulePaths(q)
		}
		return "", c
	}
	if m := noMemberRe.FindStringSubmatch(d); m != nil {
		return "", &nameClaim{names: []string{m[2]}, owner: m[1]}
	}
	if m := noFileRe.FindStringSubmatch(d); m != nil {
		return "", &nameClaim{paths: []string{strings.TrimPrefix(m[1], "./")}}
	}
	// The changelog's removals and other name findings: the mention's
	// last name.
	text := strings.TrimSuffix(strings.Trim(f.Mention.Text, "`"), "()")
	last := text[strings.LastIndexAny(text, ".:")+1:]
	if identRe.MatchString(last) {
		return "", &nameClaim{names: []string{last}}
	}
	return evNever, nil
}

// modulePaths are the files a dotted module could be.
func modulePaths(mod string) []string {
	p := strings.ReplaceAll(mod, ".", "/")
	return []string{p + ".py", p + "/__init__.py"}
}

// nameFates is what the project's history says of the names and paths
// pages give: removed (and by which commit), defined now, or never.
type nameFates struct {
	removed map[string]string // name or path → the commit that removed it
	ever    map[string]bool   // a def or class of the name was ever added
	now     map[string]bool   // the work tree defines the name
	runTime map[string]bool   // classes the work tree gives members with setattr(Class, …)
	// namesOK, pathsOK: the def diffs, and the deletions, were read. Each
	// query has its own budget: on kombu's 2,931 commits at load 40 the
	// def diffs ran past 10 s and took the cheap path query down with
	// them (split10's held-out, seen).
	namesOK, pathsOK bool
}

// historyBudget bounds each git query of one document_drift call.
var historyBudget = 10 * time.Second

// historyOf asks git once for every claim of a call: one pass over the
// Python diffs that add or remove a def or class of any of the names,
// one over the deletions and renames of the paths, and one grep of the
// work tree for the names defined now.
func historyOf(ctx context.Context, top string, claims []*nameClaim) nameFates {
	fs := nameFates{removed: map[string]string{}, ever: map[string]bool{}, now: map[string]bool{}, runTime: map[string]bool{}}
	if top == "" {
		return fs
	}
	// git log -G reads every commit's diff: a minute on sympy's 62 K
	// commits. Past the budget the claims stay unjudged (no_history,
	// lower confidence) rather than hold the answer.
	var names, paths, owners []string
	for _, c := range claims {
		names = append(names, c.names...)
		paths = append(paths, c.paths...)
		if c.owner != "" {
			owners = append(owners, c.owner)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	fs.pathsOK = readPaths(ctx, top, paths, &fs)
	fs.namesOK = true
	if len(names) > 0 {
		ctx, cancel := context.WithTimeout(ctx, historyBudget)
		defer cancel()
		alt := "(" + strings.Join(names, "|") + ")"
		out, err := exec.CommandContext(ctx, "git", "-C", top, "log", "--no-color", "-p", "-U0", "--format=@@%h %s",
			"-G", `^[[:space:]]*(async[[:space:]]+)?(def|class)[[:space:]]+`+alt+`([^[:alnum:]_]|$)|`+
				`^([A-Za-z_][[:alnum:]_]*[[:space:]]*=[[:space:]]*)*`+alt+`[[:space:]]*(:[^=]*)?=([^=]|$)`, "--", "*.py").Output()
		fs.namesOK = err == nil
		readDefDiffs(out, names, &fs)
		grep, _ := exec.CommandContext(ctx, "git", "-C", top, "grep", "-h", "-E", `^[[:space:]]*((async[[:space:]]+)?(def|class)[[:space:]]+)?`+alt+`([^[:alnum:]_]|$)`, "--", "*.py").Output()
		for _, l := range strings.Split(string(grep), "\n") {
			if m := pyDefOrBindRe.FindStringSubmatch(l); m != nil {
				fs.now[m[1]+m[2]] = true
			}
		}
	}
	if len(owners) > 0 {
		ctx, cancel := context.WithTimeout(ctx, historyBudget)
		defer cancel()
		// tablib's formats registry: setattr(Dataset, key, …) makes the
		// members a removed `def xls` once gave (split9's held-out).
		out, _ := exec.CommandContext(ctx, "git", "-C", top, "grep", "-h", "-o", "-E", `setattr\([[:space:]]*(`+strings.Join(owners, "|")+`)[[:space:]]*,`, "--", "*.py").Output()
		for _, m := range setattrRe.FindAllStringSubmatch(string(out), -1) {
			fs.runTime[m[1]] = true
		}
	}
	return fs
}

// readPaths reads the deletions and renames of paths, under its own
// budget; false when git did not answer.
func readPaths(ctx context.Context, top string, paths []string, fs *nameFates) bool {
	if len(paths) == 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, historyBudget)
	defer cancel()
	args := []string{"-C", top, "log", "--no-color", "--format=@@%h %s", "--name-status", "--diff-filter=DR", "--"}
	for _, p := range paths {
		args = append(args, ":(glob)**/"+p)
	}
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	readDeletions(out, paths, fs)
	return err == nil
}

// readDefDiffs notes, newest commit first, the first commit whose diff
// removes a def or class of each name, and every name ever added.
func readDefDiffs(out []byte, names []string, fs *nameFates) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	commit := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		l := sc.Text()
		if c, ok := strings.CutPrefix(l, "@@"); ok && !strings.HasPrefix(l, "@@ ") {
			commit = c
			continue
		}
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") {
			continue
		}
		sign, names := defOrBinding(l)
		for _, n := range names {
			if !want[n] {
				continue
			}
			fs.ever[n] = true
			if _, seen := fs.removed[n]; sign == "-" && !seen {
				fs.removed[n] = commit
			}
		}
	}
}

// pyModBindRe is a diff line binding module-level names: kombu's
// "dumps = encode = registry.encode" made encode, which a page's
// autofunction named after the line was removed.
var pyModBindRe = regexp.MustCompile(`^([-+])([A-Za-z_]\w*(?:\s*=\s*[A-Za-z_]\w*)*)\s*(?::[^=]*)?=(?:[^=]|$)`)

// defOrBinding reads a diff line's sign and the names it defines: a def
// or class at any depth, or the targets of a module-level assignment.
func defOrBinding(l string) (string, []string) {
	if m := pyDefLineRe.FindStringSubmatch(l); m != nil {
		return m[1], []string{m[2]}
	}
	m := pyModBindRe.FindStringSubmatch(l)
	if m == nil {
		return "", nil
	}
	var names []string
	for _, n := range strings.Split(m[2], "=") {
		names = append(names, strings.TrimSpace(n))
	}
	return m[1], names
}

// readDeletions notes the newest commit deleting or renaming away each
// path (any directory above it).
func readDeletions(out []byte, paths []string, fs *nameFates) {
	commit := ""
	for _, l := range strings.Split(string(out), "\n") {
		if c, ok := strings.CutPrefix(l, "@@"); ok {
			commit = c
			continue
		}
		fields := strings.Split(l, "\t")
		if len(fields) < 2 {
			continue
		}
		for _, p := range paths {
			if _, seen := fs.removed[p]; !seen && (fields[1] == p || strings.HasSuffix(fields[1], "/"+p)) {
				fs.removed[p] = commit
				fs.ever[p] = true
			}
		}
	}
}

// judge sets a name claim's class from its history.
func (fs nameFates) judge(c *nameClaim) (string, string) {
	for _, p := range c.paths {
		if h, ok := fs.removed[p]; ok && fs.pathsOK {
			return evRemoved, h
		}
	}
	if len(c.paths) > 0 && !fs.pathsOK || len(c.names) > 0 && !fs.namesOK {
		return evNoHistory, ""
	}
	if len(c.names) == 0 {
		return evNever, ""
	}
	if fs.runTime[c.owner] {
		return evRunTime, ""
	}
	class, by := evNever, ""
	for _, n := range c.names {
		switch {
		case fs.now[n]:
			return evElsewhere, ""
		case fs.removed[n] != "":
			class, by = evRemoved, fs.removed[n]
		}
	}
	return class, by
}

// driftEvidence classifies the findings of every document of a call,
// asking git once for all of them; the result parallels each d.Findings.
func driftEvidence(ctx context.Context, b *session.Bundle, src *driftSources, dds []document.DocDrift) [][]string {
	out := make([][]string, len(dds))
	claims := make([][]*nameClaim, len(dds))
	var all []*nameClaim
	for i := range dds {
		out[i] = make([]string, len(dds[i].Findings))
		claims[i] = make([]*nameClaim, len(dds[i].Findings))
		for j, f := range dds[i].Findings {
			out[i][j], claims[i][j] = classify(f)
			if claims[i][j] != nil {
				all = append(all, claims[i][j])
			}
		}
	}
	if len(all) == 0 {
		return out
	}
	fs := historyOf(ctx, projectTop(b, src), all)
	for i := range dds {
		for j, c := range claims[i] {
			if c == nil {
				continue
			}
			class, by := fs.judge(c)
			if c.gitOnly && class != evRemoved {
				class = evUnproven
			}
			out[i][j] = class
			if by != "" {
				dds[i].Findings[j].Detail += "; git: removed in " + by
			}
		}
	}
	return out
}

// projectTop is the git work tree of the graph's code (its first Python
// file's), "" when none.
func projectTop(b *session.Bundle, src *driftSources) string {
	g := b.Graph
	for id := 0; id < g.NumNodes(); id++ {
		n := graph.NodeID(id)
		if g.Type(n) != graph.File || !strings.HasSuffix(g.SourcePath(n), ".py") {
			continue
		}
		res, _, _, err := tools.BundleSpace(b).Resolve(tools.BundleGuard(b), g.SourcePath(n))
		if err != nil || !res.Exists {
			continue
		}
		src.mu.Lock()
		t := src.topLevel(filepath.Dir(res.Real))
		src.mu.Unlock()
		return t
	}
	return ""
}

// splitLowConfidence moves the findings without strong evidence out of
// a document's findings: all of them counted, the first few returned.
func splitLowConfidence(g *graph.Graph, d *document.DocDrift, notes, ev []string, keep bool) (kept []string, low []driftFindingJSON, total int, keptEv []string) {
	fs, ns, es := d.Findings[:0], notes[:0], ev[:0]
	for i, f := range d.Findings {
		if ev[i] == evUnproven {
			continue
		}
		if keep || strongEvidence[ev[i]] {
			fs, ns, es = append(fs, f), append(ns, notes[i]), append(es, ev[i])
			continue
		}
		total++
		if len(low) < maxLowConfidence {
			fj := findingJSON(g, d, f, notes[i])
			fj.Evidence = ev[i]
			low = append(low, fj)
		}
	}
	d.Findings = fs
	return ns, low, total, es
}

// evidenceNote says, for the answer's hint, how the lower-confidence
// findings are reached.
func evidenceNote(n int) string {
	if n == 0 {
		return ""
	}
	what := strconv.Itoa(n) + " lower-confidence findings (evidence that was mostly wrong when judged) are"
	if n == 1 {
		what = "1 lower-confidence finding (evidence that was mostly wrong when judged) is"
	}
	return " " + what + " listed apart under lower_confidence; lower_confidence true lists them all as findings."
}
