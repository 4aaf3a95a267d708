package documents

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A date alone is no evidence: on the history harness of
// benchmarks/results/drift-precision.md the findings dated by a later
// change of the bound code were 5 of 66 real on tune and 0 of 11 on
// held-out, and none of the 5 showed on the page (a docstring's
// versionchanged note, a __call__ body, a return type). So a binding
// whose code changed after its page is a finding only with a claim on
// the page the code contradicts (a hand-written signature); the others
// are counted and the first few listed apart, as leads to read, not
// findings.

// maxUnchecked bounds the unchecked changes listed per document.
const maxUnchecked = 3

type driftUncheckedJSON struct {
	Mention      string `json:"mention"`
	LineStart    uint32 `json:"line_start" jsonschema:"The section's first line."`
	TargetNodeID string `json:"target_node_id"`
	Detail       string `json:"detail"`
}

// checkClaims adds the findings of claims a page makes that the code
// can check: hand-written signatures and module-qualified names.
func checkClaims(b *session.Bundle, src *driftSources, d *document.DocDrift, notes []string, removals []removalLine) []string {
	claims := d.Doc.Format == document.Markdown || d.Doc.Format == document.RST
	claims = claims && !pastPage(d.Doc.Path) && !document.HistoryPage(b.Graph, d.Doc.Node, d.Doc.Path) && !templatePage(d.Doc.Path)
	versions := versionPage(b, d)
	if !claims && !versions {
		return notes
	}
	text, err := readDocSource(b, d.Doc.Abs)
	if err != nil {
		return notes
	}
	var fs []document.Finding
	if versions {
		fs = versionFindings(b, src, d, text)
		fs = append(fs, extrasFindings(b, src, d, text)...)
	}
	if claims {
		fs = append(fs, removedFindings(b, src, d, text, removals)...)
		lines := strings.Split(string(text), "\n")
		fs = append(fs, signatureFindings(b, src, d, lines)...)
		fs = append(fs, scopedObjectFindings(b, src, d, lines)...)
		fs = append(fs, cliFindings(b, src, d, text)...)
		fs = append(fs, qualifiedFindings(b, src, d, text)...)
		fs = append(fs, keywordFindings(b, src, d, text)...)
		fs = append(fs, deprecatedFindings(b, src, d, text)...)
	}
	if len(fs) == 0 && !claims {
		return notes
	}
	for range fs {
		notes = append(notes, "")
	}
	d.Findings = append(d.Findings, fs...)
	sortRefined(b.Graph, d.Findings, notes)
	return notes
}

// splitUnchecked moves the code changes found by date alone (no line of
// the page checked against the code) out of the findings.
func splitUnchecked(g *graph.Graph, d *document.DocDrift, notes, ev []string) ([]driftUncheckedJSON, int, []string, []string) {
	var out []driftUncheckedJSON
	total := 0
	// A change the page's own claim already shows is said once, checked.
	shown := map[[2]graph.NodeID]bool{}
	for _, f := range d.Findings {
		if f.Kind == document.DriftCodeChanged && f.Line > 0 {
			shown[[2]graph.NodeID{f.Section, f.Target}] = true
		}
	}
	kept, keptNotes, keptEv := d.Findings[:0], notes[:0], ev[:0]
	for i, f := range d.Findings {
		if f.Kind != document.DriftCodeChanged || f.Line > 0 {
			kept, keptNotes, keptEv = append(kept, f), append(keptNotes, notes[i]), append(keptEv, ev[i])
			continue
		}
		if shown[[2]graph.NodeID{f.Section, f.Target}] {
			continue
		}
		total++
		if len(out) < maxUnchecked {
			out = append(out, driftUncheckedJSON{Mention: f.Mention.Text, LineStart: g.Provenance(f.Section).LineStart, TargetNodeID: g.ExternalID(f.Target), Detail: f.Detail})
		}
	}
	d.Findings = kept
	return out, total, keptNotes, keptEv
}
