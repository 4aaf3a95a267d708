package documents

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func runDocumentBindings(c *tools.Call, in documentBindingsParams) (documentBindingsOutput, error) {
	start := time.Now()
	var out documentBindingsOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		if g.NumNodes() == 0 {
			return tools.EmptyGraphErr()
		}
		// A code node (or a path that is no document) asks the reverse
		// question: which documents name it.
		if in.NodeID != "" {
			id, err := resolveDocNode(b, in.NodeID)
			if err != nil {
				return err
			}
			if !document.IsDocID(g.ExternalID(id)) {
				out = codeBindings(b, id)
				limitBindings(&out, in.TopK)
				return nil
			}
		} else if in.Path != "" && len(document.Catalog(g)) > 0 {
			if _, err := docByPath(b, document.Catalog(g), in.Path); err != nil {
				if id, err2 := tools.ResolveNode(b, in.Path, "path"); err2 == nil {
					out = codeBindings(b, id)
					limitBindings(&out, in.TopK)
					return nil
				}
				return err
			}
		}
		doc, node, err := resolveDocument(b, in.Path, in.NodeID)
		if err != nil {
			return err
		}
		out = docBindings(b, doc, node)
		limitBindings(&out, in.TopK)
		return nil
	})
	if err != nil {
		return documentBindingsOutput{}, err
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	out.Guidance = bindingsGuidance(c, &out)
	return out, nil
}

// limitBindings cuts the bindings to top_k.
func limitBindings(out *documentBindingsOutput, topK int) {
	if topK <= 0 {
		topK = 50
	}
	out.Total = len(out.Bindings)
	if len(out.Bindings) > topK {
		out.Bindings, out.Truncated = out.Bindings[:topK], true
	}
}

func confidence(score float32, reason string) string {
	switch {
	case strings.HasPrefix(reason, "ambiguous"):
		return "ambiguous"
	case score >= 0.9:
		return "exact"
	case score >= 0.6:
		return "parsed"
	}
	return "heuristic"
}

func bindingOf(g *graph.Graph, bd document.Binding) bindingJSON {
	p := g.Provenance(bd.Section)
	heading := g.Label(bd.Section)
	if g.HasTag(bd.Section, document.TagDocument) {
		heading = "(document)"
	}
	return bindingJSON{
		SectionID: g.ExternalID(bd.Section), SectionHeading: heading, SourcePath: p.SourcePath, LineStart: p.LineStart,
		TargetNodeID: g.ExternalID(bd.Target), TargetLabel: g.Label(bd.Target), TargetType: tools.TypeName(g.Type(bd.Target)),
		Relation: document.RelDocuments, Score: tools.R3(bd.Score), Confidence: confidence(bd.Score, bd.Reason), Reason: bd.Reason,
		Mention: bd.Mention.Text, MentionKind: string(bd.Mention.Kind),
	}
}

// docBindings lists what a document (or one of its sections) names.
func docBindings(b *session.Bundle, doc, node graph.NodeID) documentBindingsOutput {
	g, x := b.Graph, docIndex(b)
	out := documentBindingsOutput{Mode: "document", NodeID: g.ExternalID(node), SourcePath: g.SourcePath(doc), Bindings: []bindingJSON{}}
	secs := []graph.NodeID{node}
	if node == doc {
		secs = append(secs, document.Sections(g, doc)...)
	}
	var all []document.Binding
	for _, s := range secs {
		all = append(all, x.SectionBindings(s)...)
	}
	sortBindings(g, all)
	for _, bd := range all {
		out.Bindings = append(out.Bindings, bindingOf(g, bd))
	}
	return out
}

// sortBindings orders by score, then document line, then target.
func sortBindings(g *graph.Graph, all []document.Binding) {
	slices.SortStableFunc(all, func(a, b document.Binding) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(g.Provenance(a.Section).LineStart, g.Provenance(b.Section).LineStart); c != 0 {
			return c
		}
		if c := strings.Compare(g.ExternalID(a.Section), g.ExternalID(b.Section)); c != 0 {
			return c
		}
		return strings.Compare(g.ExternalID(a.Target), g.ExternalID(b.Target))
	})
}

// codeBindings lists the sections naming a code node — for a file, the
// file or anything defined in it.
func codeBindings(b *session.Bundle, id graph.NodeID) documentBindingsOutput {
	g, x := b.Graph, docIndex(b)
	out := documentBindingsOutput{Mode: "code", NodeID: g.ExternalID(id), Bindings: []bindingJSON{}}
	targets := map[graph.NodeID]bool{id: true}
	if g.Type(id) == graph.File {
		prefix := g.ExternalID(id) + "::"
		for _, n := range g.NodesByPath(g.SourcePath(id)) {
			if strings.HasPrefix(g.ExternalID(n), prefix) {
				targets[n] = true
			}
		}
	}
	secs := map[graph.NodeID]bool{}
	for t := range targets {
		lo, hi := g.InRange(t)
		for i := lo; i < hi; i++ {
			if e := g.InEdge(i); g.RelationName(e) == document.RelDocuments && document.IsDocID(g.ExternalID(g.InSource(i))) {
				secs[g.InSource(i)] = true
			}
		}
	}
	var all []document.Binding
	for s := range secs {
		for _, bd := range x.SectionBindings(s) {
			if targets[bd.Target] {
				all = append(all, bd)
			}
		}
	}
	sortBindings(g, all)
	for _, bd := range all {
		out.Bindings = append(out.Bindings, bindingOf(g, bd))
	}
	return out
}

func bindingsGuidance(c *tools.Call, out *documentBindingsOutput) tools.Guidance {
	gd := tools.Guidance{ProofState: "proving"}
	switch {
	case len(out.Bindings) == 0 && out.Mode == "code":
		gd.ProofState = "triaging"
		gd.NextSuggestedTool = tools.FirstTool(c.Registry, "seek")
		gd.NextStepHint = "No ingested document names this node. seek finds documentation by topic; ingest docs with adapter \"universal\" (mode \"merge\") if none are in the graph."
	case len(out.Bindings) == 0:
		gd.ProofState = "triaging"
		gd.NextSuggestedTool = tools.FirstTool(c.Registry, "document_resolve")
		gd.NextSuggestedTarget = out.NodeID
		gd.NextStepHint = "This document names no code in the graph (is the code it describes ingested?). document_resolve shows its sections."
	case out.Mode == "code":
		gd.NextSuggestedTool = tools.FirstTool(c.Registry, "document_drift")
		gd.NextSuggestedTarget = out.Bindings[0].SourcePath
		gd.NextStepHint = fmt.Sprintf("%s describes this code: read it (view) before changing the code, and check document_drift for whether it is stale.", out.Bindings[0].SourcePath)
	default:
		gd.NextSuggestedTool = tools.FirstTool(c.Registry, "impact", "view")
		gd.NextSuggestedTarget = out.Bindings[0].TargetNodeID
		gd.NextStepHint = "The best-bound code comes first; check its blast radius with impact before changing it to match the document, or document_drift for staleness."
	}
	return gd
}

type driftFindingJSON struct {
	Kind           string  `json:"kind" jsonschema:"example_call_rejected, code_change_unreflected, missing_target or ambiguous_target."`
	SectionID      string  `json:"section_id"`
	SectionHeading string  `json:"section_heading"`
	LineStart      uint32  `json:"line_start"`
	Mention        string  `json:"mention"`
	Line           int     `json:"line,omitempty" jsonschema:"The document line of the example's call."`
	Parameter      string  `json:"parameter,omitempty" jsonschema:"The keyword the called def no longer has."`
	Commit         string  `json:"commit,omitempty" jsonschema:"The commit after which the example's call fails, or after which the def no longer fits the page's signature or keyword (git)."`
	TargetNodeID   string  `json:"target_node_id,omitempty"`
	TargetFile     string  `json:"target_file,omitempty"`
	CodeChangedAt  string  `json:"code_changed_at,omitempty"`
	DaysBehind     float64 `json:"days_behind,omitempty" jsonschema:"How long after the document the code changed."`
	Candidates     int     `json:"candidates,omitempty"`
	DatedBy        string  `json:"dated_by,omitempty" jsonschema:"How the code change was dated: \"lines L-M\" (the symbol's own lines), \"signature in lines L-M\" (a Python def), \"class surface in lines L-M\" or \"file\"."`
	Evidence       string  `json:"evidence" jsonschema:"What the finding rests on: call_checked, removed_in_history (git shows it removed, no code defines it now), alias_noted, signature_changed (an older def in git fitted the page's signature or keyword); lower confidence: page_signature, defined_elsewhere, never_in_history, made_at_run_time, version_claim, keyword_claim, extra_claim, cli_claim, deprecated_mark, no_history."`
	Detail         string  `json:"detail"`
}

type driftDocJSON struct {
	SourcePath        string               `json:"source_path"`
	NodeID            string               `json:"node_id"`
	DocChangedAt      string               `json:"doc_changed_at,omitempty"`
	NewestCodeChange  string               `json:"newest_code_change_at,omitempty"`
	Bindings          int                  `json:"bindings"`
	StaleBindings     int                  `json:"stale_bindings"`
	Findings          []driftFindingJSON   `json:"findings"`
	FindingsTotal     int                  `json:"findings_total" jsonschema:"Findings that claim staleness (ambiguous_target, listed last, is not one)."`
	FindingsTruncated bool                 `json:"findings_truncated"`
	SkippedGenerated  int                  `json:"skipped_generated,omitempty" jsonschema:"Stale bindings skipped: the section renders that code (mkdocstrings, autodoc, a literal include)."`
	Unchecked         []driftUncheckedJSON `json:"unchecked,omitempty" jsonschema:"Low confidence, not findings: bound code that changed after the document with nothing on the page shown to disagree (the first 3)."`
	UncheckedTotal    int                  `json:"unchecked_total,omitempty"`
	LowConfidence     []driftFindingJSON   `json:"lower_confidence,omitempty" jsonschema:"Not counted as findings: findings whose evidence was mostly wrong when judged (the first 3)."`
	LowConfidenceN    int                  `json:"lower_confidence_total,omitempty"`
}

type driftSummary struct {
	Documents             int `json:"documents"`
	TotalFindings         int `json:"total_findings" jsonschema:"Findings that claim staleness; ambiguous_target findings are listed and counted under ambiguous_targets only."`
	StaleBindings         int `json:"stale_bindings" jsonschema:"code_change_unreflected findings: a claim of the page (a hand-written signature) the code contradicts."`
	MissingTargets        int `json:"missing_targets"`
	AmbiguousTargets      int `json:"ambiguous_targets"`
	UnbackedClaims        int `json:"unbacked_claims" jsonschema:"Always 0: claims are not checked against code."`
	CodeChangeUnreflected int `json:"code_change_unreflected" jsonschema:"Sections with at least one code_change_unreflected finding."`
	SkippedGenerated      int `json:"skipped_generated" jsonschema:"Stale bindings skipped: the section renders that code (mkdocstrings ::: , Sphinx auto*, literalinclude)."`
	ClearedByLines        int `json:"cleared_by_lines" jsonschema:"Bindings whose file changed after the document but whose symbol's own lines did not."`
	ClearedBySweeps       int `json:"cleared_by_sweeps" jsonschema:"Bindings whose symbol's lines changed after the document only in sweeps (commits of ≥10 files)."`
	ClearedByTypes        int `json:"cleared_by_types" jsonschema:"Bindings whose symbol's lines changed after the document only in Python type or comment edits."`
	ClearedBySurface      int `json:"cleared_by_surface" jsonschema:"Bindings to a Python def or class whose surface (signatures without types, decorators; a class's docstring, attributes, __call__) reads as at the document's date, but for additions."`
	DatedByFile           int `json:"dated_by_file" jsonschema:"Stale bindings to a symbol dated by its file: its lines could not be traced."`
	ExampleCallsChecked   int `json:"example_calls_checked" jsonschema:"Calls in Python examples resolved through the page's imports to a def whose signature is known, and compared with it."`
	ExampleCallsRejected  int `json:"example_calls_rejected"`
	UncheckedChanges      int `json:"unchecked_changes" jsonschema:"Bound code changed after its document, nothing on the page shown to disagree: not findings; the first 3 per document are listed as unchecked."`
	LowConfidence         int `json:"lower_confidence" jsonschema:"Findings set apart for weak evidence (a name no commit defined, a prose claim): not counted in total_findings; the first 3 per document are listed under lower_confidence."`
}

type documentDriftOutput struct {
	SourcePath string         `json:"source_path,omitempty"`
	Summary    driftSummary   `json:"summary"`
	Documents  []driftDocJSON `json:"documents"`
	Truncated  bool           `json:"truncated"`
	ElapsedMs  float64        `json:"elapsed_ms"`
	tools.Guidance
}

// maxDriftFindings bounds the findings listed per document.
const maxDriftFindings = 50

func runDocumentDrift(c *tools.Call, in documentDriftParams) (documentDriftOutput, error) {
	start := time.Now()
	out := documentDriftOutput{Documents: []driftDocJSON{}}
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		if g.NumNodes() == 0 {
			return tools.EmptyGraphErr()
		}
		var docs []graph.NodeID
		if in.Path != "" || in.NodeID != "" {
			d, _, err := resolveDocument(b, in.Path, in.NodeID)
			if err != nil {
				return err
			}
			docs = []graph.NodeID{d}
			out.SourcePath = g.SourcePath(d)
		} else {
			cat := document.Catalog(g)
			if len(cat) == 0 {
				return noDocumentsErr(b)
			}
			for _, d := range cat {
				docs = append(docs, d.Node)
			}
		}
		x, src := docIndex(b), bundleSources(b)
		src.newCall()
		dds := make([]document.DocDrift, 0, len(docs))
		var stale []graph.NodeID
		for _, d := range docs {
			if err := c.Ctx.Err(); err != nil {
				return err
			}
			dds = append(dds, x.Drift(d))
			dropReadersOwn(b, &dds[len(dds)-1])
			for _, f := range dds[len(dds)-1].Findings {
				if f.Kind == document.DriftCodeChanged && f.Target != f.File {
					stale = append(stale, f.Target)
				}
			}
		}
		src.prefetch(stale)
		removals := removalLines(b, src, dds) // once per call: calls may run in parallel
		var all []driftDocJSON
		notes := make([][]string, len(dds))
		tls := make([]driftTally, len(dds))
		for i := range dds {
			notes[i] = refineDrift(b, src, &dds[i], &tls[i])
			notes[i] = checkExamples(b, src, &dds[i], notes[i], &out.Summary)
			notes[i] = checkClaims(b, src, &dds[i], notes[i], removals)
		}
		ev := driftEvidence(c.Ctx, b, src, dds)
		for i := range dds {
			dd, tl := &dds[i], tls[i]
			var unchecked []driftUncheckedJSON
			nUnchecked := 0
			if !in.Unchecked {
				unchecked, nUnchecked, notes[i], ev[i] = splitUnchecked(g, dd, notes[i], ev[i])
			}
			ns, low, nLow, es := splitLowConfidence(g, dd, notes[i], ev[i], in.LowerConfidence)
			dj := driftDoc(g, dd, ns, es)
			dj.SkippedGenerated = tl.generated
			dj.Unchecked, dj.UncheckedTotal = unchecked, nUnchecked
			dj.LowConfidence, dj.LowConfidenceN = low, nLow
			out.Summary.UncheckedChanges += nUnchecked
			out.Summary.LowConfidence += nLow
			all = append(all, dj)
			addSummary(&out.Summary, dd)
			out.Summary.SkippedGenerated += tl.generated
			out.Summary.ClearedByLines += tl.cleared
			out.Summary.ClearedBySweeps += tl.sweeps
			out.Summary.ClearedByTypes += tl.types
			out.Summary.ClearedBySurface += tl.surface
			out.Summary.DatedByFile += tl.byFile
		}
		slices.SortStableFunc(all, func(a, b driftDocJSON) int {
			if c := cmp.Compare(b.FindingsTotal, a.FindingsTotal); c != 0 {
				return c
			}
			return strings.Compare(a.SourcePath, b.SourcePath)
		})
		topK := in.TopK
		if topK <= 0 {
			topK = 20
		}
		if len(all) > topK {
			all, out.Truncated = all[:topK], true
		}
		out.Documents = all
		return nil
	})
	if err != nil {
		return documentDriftOutput{}, err
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	out.Guidance = driftGuidance(c, &out)
	return out, nil
}

func addSummary(s *driftSummary, d *document.DocDrift) {
	s.Documents++
	s.TotalFindings += staleFindings(d)
	s.StaleBindings += d.Count(document.DriftCodeChanged)
	s.MissingTargets += d.Count(document.DriftMissing)
	s.AmbiguousTargets += d.Count(document.DriftAmbiguous)
	secs := map[graph.NodeID]bool{}
	for _, f := range d.Findings {
		if f.Kind == document.DriftCodeChanged {
			secs[f.Section] = true
		}
	}
	s.CodeChangeUnreflected += len(secs)
}

// staleFindings counts the findings that claim the page is stale: an
// ambiguous name says only that a mention binds to nothing (split10's
// tally left them out of precision for that reason).
func staleFindings(d *document.DocDrift) int {
	return len(d.Findings) - d.Count(document.DriftAmbiguous)
}

func driftDoc(g *graph.Graph, d *document.DocDrift, notes, ev []string) driftDocJSON {
	out := driftDocJSON{SourcePath: d.Doc.Path, NodeID: g.ExternalID(d.Doc.Node), DocChangedAt: unixTime(d.DocChanged), NewestCodeChange: unixTime(d.NewestCode),
		Bindings: d.Bindings, StaleBindings: d.Count(document.DriftCodeChanged), Findings: []driftFindingJSON{}, FindingsTotal: staleFindings(d)}
	for i, f := range d.Findings {
		if len(out.Findings) == maxDriftFindings {
			out.FindingsTruncated = true
			break
		}
		fj := findingJSON(g, d, f, notes[i])
		fj.Evidence = ev[i]
		out.Findings = append(out.Findings, fj)
	}
	return out
}

// findingJSON is one finding as the answer lists it.
func findingJSON(g *graph.Graph, d *document.DocDrift, f document.Finding, note string) driftFindingJSON {
	heading := g.Label(f.Section)
	if f.Section == d.Doc.Node {
		heading = "(document)"
	}
	fj := driftFindingJSON{Kind: f.Kind, SectionID: g.ExternalID(f.Section), SectionHeading: heading, LineStart: g.Provenance(f.Section).LineStart,
		Mention: f.Mention.Text, Candidates: f.Candidates, Detail: f.Detail, DatedBy: note, Line: f.Line, Parameter: f.Param, Commit: f.Commit}
	if f.Kind == document.DriftExample {
		fj.TargetNodeID, fj.CodeChangedAt = g.ExternalID(f.Target), unixTime(f.CodeChanged)
	} else if f.Target != graph.NoNode {
		fj.TargetNodeID, fj.TargetFile = g.ExternalID(f.Target), g.ExternalID(f.File)
		fj.CodeChangedAt = unixTime(f.CodeChanged)
		fj.DaysBehind = daysBehind(f.CodeChanged, d.DocChanged)
	}
	return fj
}

// daysBehind is how many days (one decimal) the code changed after the
// document; 0 (omitted) when either date is unknown or the code changed
// first. A version claim has no code date: attrs' "Python 3.6" finding
// said -19,937 days (the epoch minus the page's date) on the lead's run.
func daysBehind(code, doc float64) float64 {
	if code <= 0 || doc <= 0 || code <= doc {
		return 0
	}
	return float64(int64((code-doc)/86400*10+0.5)) / 10
}

// noDriftHint says what an empty answer rests on: code that changed after
// its page is not drift unless the page is shown to disagree, so it must
// not read as if nothing changed. Names that match several definitions
// are listed though they claim nothing: the hint says so rather than that
// every name exists.
func noDriftHint(s driftSummary) string {
	const base = "No drift found: every named path and member exists"
	cleared := s.ClearedByLines + s.ClearedBySweeps + s.ClearedByTypes + s.ClearedBySurface
	switch {
	case s.AmbiguousTargets > 0:
		return fmt.Sprintf("No drift found on the names that resolve; %d names match several definitions (ambiguous_target, listed with their candidates) and were not checked: write them qualified (module.name, Class.method) on the page to have them checked.", s.AmbiguousTargets) + evidenceNote(s.LowConfidence)
	case s.LowConfidence > 0:
		return "No drift found with strong evidence (a checked call or signature, a name git shows removed)." + evidenceNote(s.LowConfidence)
	case s.UncheckedChanges > 0:
		return fmt.Sprintf("%s, but %d bound code changes came after their pages and nothing on the pages could be compared with them: read the sections listed as unchecked (unchecked true lists them all).", base, s.UncheckedChanges)
	case cleared > 0:
		return fmt.Sprintf("%s, and the %d bound code changes after their pages left what the pages show (lines, signatures) as it was.", base, cleared)
	}
	return base + ", and no bound code changed after its page."
}

func driftGuidance(c *tools.Call, out *documentDriftOutput) tools.Guidance {
	gd := tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "document_bindings")}
	if len(out.Documents) == 0 || out.Summary.TotalFindings == 0 {
		gd.NextStepHint = noDriftHint(out.Summary)
		return gd
	}
	top := out.Documents[0]
	gd.NextSuggestedTarget = top.SourcePath
	gd.NextStepHint = fmt.Sprintf("%s has %d findings: open the sections listed (view) and compare them with the code that changed since (timeline on the target file).", top.SourcePath, top.FindingsTotal) + evidenceNote(out.Summary.LowConfidence)
	if len(top.Findings) > 0 && top.Findings[0].TargetFile != "" {
		gd.NextSuggestedTool = tools.FirstTool(c.Registry, "timeline", "view")
		gd.NextSuggestedTarget = top.Findings[0].TargetFile
	}
	return gd
}
