package edit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// The bounds in the tags are edit.MaxFileSize (new_content, 4 MiB) and
// edit.MaxBatchFiles (edits, 64); TestEditBoundsFollowTheWriter holds
// them together.
//
// applyParams and applyBatchParams end with the same four write options
// (verify, reingest, preserve_format, timeout_s) and the answer's detail,
// spelled out in each rather than embedded: toolset's
// TestBindAgreesWithAccessors looks a parameter up among a struct's own
// fields.
type applyParams struct {
	FilePath       string      `json:"file_path" jsonschema:"Under an ingest root; may be new." help:"Path relative to an ingest root (\"src/auth.py\") or absolute inside one. A new file (and its directories) is created." tool:"required"`
	NewContent     string      `json:"new_content" jsonschema:"The complete new file." help:"The file's complete new contents." tool:"required,maxlen=4194304"`
	ExpectedSHA256 string      `json:"expected_sha256" jsonschema:"SHA-256 you last read; \"absent\": the file must not exist." help:"SHA-256 (hex) of the file as you last read it; the write is refused when the file now differs. \"absent\": the file must not exist yet."`
	ExpectedLines  *edit.Lines `json:"expected_lines" jsonschema:"{start_line, text} you last read (partial read)." help:"Lines as you last saw them, when you read only part of the file: {start_line: 1-based, text: those lines}; the write is refused when the file no longer has them there."`
	Verify         bool        `json:"verify" jsonschema:"Build and test; BROKEN restores the files." help:"Run the five verification layers after the write: A stubs replacing logic, B build checks of the written files and what depends on them (go build + go vet of dependent packages, Python import of the importers, tsc --noEmit, cargo check — each only when installed), C 2-hop blast radius and removed names still used elsewhere, D affected tests (go test, pytest or unittest; tests that cannot even run count as failing), E anti-patterns in the diff. Failures that also happen without the edit are reported as pre_existing_failures, not blamed on it; a BROKEN verdict restores every file." tool:"default=false"`
	Reingest       bool        `json:"reingest" help:"Refresh the graph from the written files (incremental ingest) so seek, impact and view see the edit." tool:"default=true"`
	PreserveFormat bool        `json:"preserve_format" help:"Keep each file's line endings (CRLF stays CRLF) and trailing newline; false writes new_content byte for byte." tool:"default=true"`
	TimeoutS       int         `json:"timeout_s" help:"Time limit of each verification command (build, vet, test run), in seconds." tool:"default=60,min=1,max=900"`
	Detail         string      `json:"detail" help:"brief (the default): status, verdict and reasons; per file its path, action, new_sha256 and lines added and removed; per verification layer its status and counts with the first failure's message; the first 10 files of the blast radius, the first 5 insights and removed names still used, with totals for the rest. full: the whole answer — every file's absolute path, root, mode and format, the updated node ids, every layer's checks and findings, the graph diff, the phases and every progress event." tool:"default=brief,enum=brief|full"`
}

// applyBatchParams.Edits stays raw objects: decodeEdits reads them
// strictly (an unknown field is refused, not ignored).
type applyBatchParams struct {
	Edits          []map[string]json.RawMessage `json:"edits" jsonschema:"[{file_path, new_content, expected_sha256?, expected_lines?}]" help:"The files to write: [{file_path, new_content, expected_sha256?, expected_lines?}] — the fields of apply, one object per file." tool:"required,maxitems=64"`
	Verify         bool                         `json:"verify" jsonschema:"Build and test; BROKEN restores the files." help:"Run the five verification layers after the write: A stubs replacing logic, B build checks of the written files and what depends on them (go build + go vet of dependent packages, Python import of the importers, tsc --noEmit, cargo check — each only when installed), C 2-hop blast radius and removed names still used elsewhere, D affected tests (go test, pytest or unittest; tests that cannot even run count as failing), E anti-patterns in the diff. Failures that also happen without the edit are reported as pre_existing_failures, not blamed on it; a BROKEN verdict restores every file." tool:"default=false"`
	Reingest       bool                         `json:"reingest" help:"Refresh the graph from the written files (incremental ingest) so seek, impact and view see the edit." tool:"default=true"`
	PreserveFormat bool                         `json:"preserve_format" help:"Keep each file's line endings (CRLF stays CRLF) and trailing newline; false writes new_content byte for byte." tool:"default=true"`
	TimeoutS       int                          `json:"timeout_s" help:"Time limit of each verification command (build, vet, test run), in seconds." tool:"default=60,min=1,max=900"`
	Detail         string                       `json:"detail" help:"brief (the default): status, verdict and reasons; per file its path, action, new_sha256 and lines added and removed; per verification layer its status and counts with the first failure's message; the first 10 files of the blast radius, the first 5 insights and removed names still used, with totals for the rest. full: the whole answer — every file's absolute path, root, mode and format, the updated node ids, every layer's checks and findings, the graph diff, the phases and every progress event." tool:"default=brief,enum=brief|full"`
}

func (in applyParams) options() writeOptions {
	return writeOptions{in.Verify, in.Reingest, in.PreserveFormat, in.TimeoutS}
}

func (in applyBatchParams) options() writeOptions {
	return writeOptions{in.Verify, in.Reingest, in.PreserveFormat, in.TimeoutS}
}

func registerEdit(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "apply",
		Title:       "Write one file",
		Description: "Write one file atomically and refresh the graph; expected_sha256 refuses a stale write.",
		Details: "Write one file inside the ingest roots and keep the graph coherent: the path is guarded (no escape, no symlink out, no directory), the write is atomic (journal, temp file, fsync, rename), the file's mode, line endings and trailing newline are kept, and the graph is refreshed incrementally; answers with proactive insights when the file is a risky surface (and, with detail full, the nodes updated). " +
			"Pass expected_sha256 (from surgical_context or view), or expected_lines for the part you read, to refuse the write if the file changed since you read it.",
		Class:     tools.Write,
		Hints:     &tools.Hints{Destructive: true, Idempotent: true},
		WhenToUse: "Writing one file after surgical_context or view showed you its contents.",
		AvoidWhen: "Several files must change together (apply_batch writes them as one atomic set), or you want a diff reviewed first (edit_preview).",
		Next:      []string{"impact", "apply_batch", "view"},
		Example:   map[string]any{"agent_id": "claude", "file_path": "backend/slugs.py", "new_content": "def slugify(text):\n    return \"-\".join(text.lower().split())\n"},
	}, runApply)
	tools.Add(r, tools.Tool{
		Name:        "apply_batch",
		Title:       "Write several files",
		Description: "Write several files, all or none, and refresh the graph; verify builds and tests them.",
		Details: "Write several files as one atomic set: every edit is validated before anything is written, all files land or none do (a journal rolls an interrupted batch back at the next start), the graph is refreshed incrementally, and with verify: true five layers check the result — verdict SAFE, RISKY (kept, with warnings) or BROKEN (every file restored byte for byte). " +
			"Reports progress per phase (validate, write, reingest, verify, done) with batch_id, and returns the same events in progress_events (detail full; the default brief answer gives one line per verification layer).",
		Class:     tools.Write,
		Hints:     &tools.Hints{Destructive: true, Idempotent: true},
		WhenToUse: "A change spans files (a function and its callers, code and its tests): write them together, with verify: true to build and test before keeping them.",
		AvoidWhen: "You have not read the files yet (surgical_context_v2 gives the file and its connected regions in one call).",
		Next:      []string{"impact", "view", "surgical_context_v2"},
		Example: map[string]any{"agent_id": "claude", "edits": []any{
			map[string]any{"file_path": "backend/slugs.py", "new_content": "def slugify(text):\n    return \"-\".join(text.lower().split())\n"},
			map[string]any{"file_path": "backend/test_slugs.py", "new_content": "from backend.slugs import slugify\n\n\ndef test_slugify():\n    assert slugify(\"A b\") == \"a-b\"\n"},
		}},
	}, runApplyBatch)
	registerPreview(r)
}

// writeOptions are the parameters apply and apply_batch share.
type writeOptions struct {
	Verify         bool `json:"verify"`
	Reingest       bool `json:"reingest"`
	PreserveFormat bool `json:"preserve_format"`
	TimeoutS       int  `json:"timeout_s"`
}

// batchEdit holds the string fields of one edit of apply_batch.
type batchEdit struct {
	FilePath       string `json:"file_path"`
	NewContent     string `json:"new_content"`
	ExpectedSHA256 string `json:"expected_sha256"`
}

func runApply(c *tools.Call, in applyParams) (applyOutput, error) {
	e := edit.Edit{Path: in.FilePath, Content: []byte(in.NewContent), ExpectedSHA256: in.ExpectedSHA256, ExpectedLines: in.ExpectedLines, Raw: !in.PreserveFormat}
	return withDetail(runBatch(c, []edit.Edit{e}, in.options(), ""))(in.Detail)
}

func runApplyBatch(c *tools.Call, in applyBatchParams) (applyOutput, error) {
	edits, err := decodeEdits(in.Edits)
	if err != nil {
		return applyOutput{}, err
	}
	for i := range edits {
		edits[i].Raw = !in.PreserveFormat
	}
	return withDetail(runBatch(c, edits, in.options(), ""))(in.Detail)
}

// decodeEdits reads the edits strictly: an unknown field (a typo such as
// "content") is refused rather than silently writing an empty file.
func decodeEdits(raw []map[string]json.RawMessage) ([]edit.Edit, error) {
	example := map[string]any{"agent_id": "claude", "edits": []any{map[string]any{"file_path": "src/a.py", "new_content": "x = 1\n"}}}
	out := make([]edit.Edit, 0, len(raw))
	for i, m := range raw {
		var e batchEdit
		var lines *edit.Lines
		for k, v := range m {
			var dst *string
			switch k {
			case "file_path":
				dst = &e.FilePath
			case "new_content":
				dst = &e.NewContent
			case "expected_sha256":
				dst = &e.ExpectedSHA256
			case "expected_lines":
				if json.Unmarshal(v, &lines) != nil {
					return nil, tools.Errorf("expected_lines is {start_line: 1-based line number, text: the lines as you read them}.", "edits[%d].expected_lines is not such an object: %s", i, tools.Clip(string(v))).WithExample(example)
				}
				continue
			default:
				return nil, tools.Errorf("Each edit has file_path, new_content and optionally expected_sha256 or expected_lines — the fields of apply.", "edits[%d] has an unknown field %q", i, k).WithExample(example)
			}
			if json.Unmarshal(v, dst) != nil {
				return nil, tools.Errorf("file_path, new_content and expected_sha256 are strings.", "edits[%d].%s must be a string, got %s", i, k, tools.Clip(string(v))).WithExample(example)
			}
		}
		switch {
		case strings.TrimSpace(e.FilePath) == "":
			return nil, tools.Errorf("Each edit names its file: file_path relative to an ingest root.", "edits[%d] has no file_path", i).WithExample(example)
		case m["new_content"] == nil:
			return nil, tools.Errorf("Each edit carries the file's complete new contents in new_content (an empty string empties the file).", "edits[%d] (%s) has no new_content", i, e.FilePath).WithExample(example)
		}
		out = append(out, edit.Edit{Path: e.FilePath, Content: []byte(e.NewContent), ExpectedSHA256: e.ExpectedSHA256, ExpectedLines: lines})
	}
	return out, nil
}

// editStore is the session's journal store (made once).
func editStore(s *session.State) (*edit.Store, error) {
	h := session.Shared(s, editStoreKey, func() *storeHolder {
		st, err := edit.OpenStore(edit.DefaultDir(s.Config().RuntimeDir), s.Logf)
		if err == nil {
			st.Recover() // batches of servers that died since this one started
		}
		return &storeHolder{st, err}
	})
	return h.st, h.err
}

// storeHolder is the session's journal store, or why it could not open.
type storeHolder struct {
	st  *edit.Store
	err error
}

var editStoreKey = session.NewKey[*storeHolder]("edit-store")

// editError turns a refused edit into a teaching error.
func editError(err error, nEdits int) error {
	var ee *edit.Error
	if !errors.As(err, &ee) {
		return err
	}
	msg := ee.Msg
	if nEdits == 1 {
		msg = strings.TrimPrefix(msg, "edit 0: ")
	}
	e := tools.Errorf(ee.Hint+" Nothing was written.", "%s", msg)
	if len(ee.Extra) > 0 {
		e.Extra = ee.Extra
	}
	switch {
	case errors.Is(err, edit.ErrStale):
		e.SuggestedNextStep = "Re-read the file with surgical_context (it returns sha256), redo the edit on the current contents, and call again with the new expected_sha256."
	case errors.Is(err, edit.ErrDirectory):
		e.SuggestedNextStep = "Use glob to list the directory's files, then write one of them (or a new file inside it)."
	default:
		e.SuggestedNextStep = "Use glob to list the files that can be written, then retry with one of their paths."
	}
	return e
}

type applyOutput struct {
	BatchID       string `json:"batch_id" jsonschema:"Correlates the progress notifications and progress_events of this write."`
	Status        string `json:"status" jsonschema:"applied: the files hold the new contents; restored: verification found the batch BROKEN and every file was put back byte for byte."`
	StatusMessage string `json:"status_message"`
	PreviewID     string `json:"preview_id,omitempty" jsonschema:"The preview committed (edit_commit)."`
	// Results are the files in request order.
	Results        []editResult `json:"results"`
	FilesWritten   int          `json:"files_written"`
	UpdatedNodeIDs []string     `json:"updated_node_ids,omitzero" jsonschema:"Nodes of the written files in the refreshed graph (at most 200; detail full)."`
	RemovedNodeIDs []string     `json:"removed_node_ids,omitempty" jsonschema:"Nodes of the written files that the edit removed (detail full)."`
	Reingest       reingestInfo `json:"reingest"`
	// Verification (verify: true) and its flat fields.
	Verification *verificationReport `json:"verification,omitempty"`
	CompileCheck *edit.Check         `json:"compile_check,omitempty" jsonschema:"The first failing (else the first) layer B check (detail full)."`
	TestsRun     int                 `json:"tests_run,omitempty"`
	TestsPassed  int                 `json:"tests_passed,omitempty"`
	TestsFailed  int                 `json:"tests_failed,omitempty"`
	TestOutput   string              `json:"test_output,omitempty" jsonschema:"Output of failing test runs, trimmed to 2 KB (detail full; brief: the first failure of layer D)."`
	BlastRadius  []blastEntry        `json:"blast_radius,omitempty"`
	// BlastRadiusTotal, ProactiveInsightsTotal and ProgressEventsTotal
	// count a list the brief answer bounds (see brief).
	BlastRadiusTotal       int       `json:"blast_radius_total,omitempty" jsonschema:"Files in the blast radius, when blast_radius lists only the nearest (detail brief)."`
	ProactiveInsights      []insight `json:"proactive_insights" jsonschema:"Structural checks the write calls for: tests of the file left untouched, files that usually change with it, a wide blast radius."`
	ProactiveInsightsTotal int       `json:"proactive_insights_total,omitempty" jsonschema:"Insights in all, when proactive_insights lists only the first (detail brief)."`
	progressState
	ProgressEvents      []progressEvent `json:"progress_events,omitzero" jsonschema:"The progress notifications of this write, as sent (detail full)."`
	ProgressEventsTotal int             `json:"progress_events_total,omitempty" jsonschema:"Progress notifications sent, when progress_events is left out (detail brief)."`
	ElapsedMs           float64         `json:"elapsed_ms"`
	tools.Guidance
}

type editResult struct {
	FilePath     string       `json:"file_path" jsonschema:"The file as the graph names it."`
	AbsolutePath string       `json:"absolute_path" jsonschema:"The file on disk."`
	Root         string       `json:"root" jsonschema:"The ingest root the file was written under."`
	Action       string       `json:"action" jsonschema:"created, modified or unchanged."`
	Restored     bool         `json:"restored,omitempty" jsonschema:"Put back to its previous contents (BROKEN verdict)."`
	Bytes        int          `json:"bytes"`
	OldSHA256    string       `json:"old_sha256,omitempty"`
	NewSHA256    string       `json:"new_sha256" jsonschema:"Pass it as expected_sha256 to the next write of this file."`
	LinesAdded   int          `json:"lines_added"`
	LinesRemoved int          `json:"lines_removed"`
	Mode         string       `json:"mode,omitempty" jsonschema:"The file's permission bits, e.g. 0644 (detail full)."`
	Format       *edit.Format `json:"format,omitempty" jsonschema:"What was kept of the file's conventions (detail full)."`
	CreatedDirs  []string     `json:"created_dirs,omitempty"`
}

type reingestInfo struct {
	Ran         bool     `json:"ran"`
	Patched     bool     `json:"patched" jsonschema:"The graph was patched in place (few files changed contents) rather than rebuilt."`
	Prepared    int      `json:"prepared_files,omitempty" jsonschema:"Files whose new contents were parsed while the write waited on the disk, and not parsed again by the reingest."`
	WalkSkipped bool     `json:"walk_skipped,omitempty" jsonschema:"The reingest took the files from a stat of the graph's files instead of walking the tree again."`
	Roots       []string `json:"roots,omitempty"`
	Generation  uint64   `json:"graph_generation"`
	ElapsedMs   float64  `json:"elapsed_ms"`
	Error       string   `json:"error,omitempty"`
	Skipped     string   `json:"skipped,omitempty"`
}

type blastEntry struct {
	File      string `json:"file"`
	Distance  int    `json:"distance"`
	Direction string `json:"direction" jsonschema:"dependents (it depends on a written file) or dependencies (a written file depends on it)."`
	Via       string `json:"via,omitempty"`
	IsTest    bool   `json:"is_test,omitempty"`
}

type insight struct {
	Kind   string  `json:"kind" jsonschema:"untouched_test_companion, co_change_prediction, tremor_hotspot (its changes accelerate in git history), trust_drop (HighRisk trust from its fixes), antibody_recurrence (a stored bug shape matches it) or high_blast_radius."`
	File   string  `json:"file" jsonschema:"The written file."`
	Target string  `json:"target,omitempty" jsonschema:"The file the insight points at."`
	Detail string  `json:"detail"`
	Score  float64 `json:"score,omitempty"`
}

type verificationReport struct {
	Verdict string   `json:"verdict" jsonschema:"SAFE, RISKY (kept, with warnings) or BROKEN (restored)."`
	Reasons []string `json:"reasons"`
	Error   string   `json:"error,omitempty" jsonschema:"Why the batch was restored (BROKEN)."`
	// Layers is the brief answer's account of the layers; the full one
	// lists each layer's checks and findings instead.
	Layers    []layerSummary `json:"layers,omitzero" jsonschema:"One line per layer, A to E (detail brief)."`
	LayerA    []edit.Finding `json:"layer_a_stubs,omitzero" jsonschema:"Stubs replacing logic (detail full)."`
	LayerB    []edit.Check   `json:"layer_b_compile,omitzero" jsonschema:"Build, import, vet and type checks (detail full)."`
	LayerC    layerC         `json:"layer_c_blast_radius,omitzero" jsonschema:"The files within 2 hops of the written ones (detail full)."`
	LayerD    []edit.Check   `json:"layer_d_tests,omitzero" jsonschema:"Test runs (detail full)."`
	LayerE    []edit.Finding `json:"layer_e_anti_patterns,omitzero" jsonschema:"Anti-patterns in the diff (detail full)."`
	GraphDiff []graphDiff    `json:"graph_diff,omitzero" jsonschema:"What the graph held of each written file before and after (detail full)."`
	// RemovedNamesUsed and PreExistingFailures: see edit_verify.go.
	RemovedNamesUsed    []edit.Finding     `json:"removed_names_used,omitzero" jsonschema:"Names the edit removed or renamed that are still used: by the written Python or JavaScript file itself (a call is broken), or by files outside the batch (the graph's users of the written files, confirmed in their text: broken for an import or qualified use in code, warning for a use by name only, of a method, or in a test). A brief answer lists the first 5 that weigh on the verdict."`
	PreExistingFailures []edit.PreExisting `json:"pre_existing_failures,omitzero" jsonschema:"Failures that happen without the edit too (the same check run on the previous contents): listed, not blamed on the edit (detail full; a brief answer counts them per layer)."`
	ElapsedMs           float64            `json:"elapsed_ms"`
}

type layerC struct {
	Files       []blastEntry `json:"files"`
	Total       int          `json:"total"`
	TestFiles   []string     `json:"test_files" jsonschema:"Test files within 2 hops (layer D runs them)."`
	Unavailable string       `json:"unavailable,omitempty"`
}

type graphDiff struct {
	File         string   `json:"file"`
	NodesBefore  int      `json:"nodes_before"`
	NodesAfter   int      `json:"nodes_after"`
	EdgesBefore  int      `json:"edges_before"`
	EdgesAfter   int      `json:"edges_after"`
	RemovedNodes []string `json:"removed_nodes,omitempty"`
}

// batchRun is one write: validate → write → reingest → verify → done,
// each a method below in that order.
type batchRun struct {
	c       *tools.Call
	opt     writeOptions
	start   time.Time
	prog    *progress
	store   *edit.Store
	targets []*edit.Target
	paths   []string // graph path of each target
	before  map[string]fileGraph
	txn     *edit.Txn
	out     applyOutput
	// prepared is closed when the new contents have been extracted into
	// their roots' ingest caches (prepare).
	prepared chan struct{}
}

func runBatch(c *tools.Call, edits []edit.Edit, opt writeOptions, previewID string) (applyOutput, error) {
	b := &batchRun{c: c, opt: opt, start: time.Now()}
	b.out.BatchID = edit.NewBatchID()
	b.out.PreviewID = previewID
	phases := []string{"validate", "write"}
	if opt.Reingest {
		phases = append(phases, "reingest")
	}
	if opt.Verify {
		phases = append(phases, "verify")
	}
	b.prog = newProgress(c, b.out.BatchID, append(phases, "done"))
	if err := b.validate(edits); err != nil {
		return applyOutput{}, err
	}
	if opt.Reingest {
		b.prepare()
	}
	if err := b.write(); err != nil {
		return applyOutput{}, err
	}
	committed := make(chan struct{})
	if opt.Verify {
		close(committed)
	} else {
		// The write is final; refreshing the graph is not part of it. The
		// journal's removal (an fsync) runs beside the reingest, and the
		// answer waits for both: it acknowledges a durable write.
		go func() {
			defer close(committed)
			b.commit()
		}()
	}
	if opt.Reingest {
		b.reingest()
	}
	<-committed
	if opt.Verify {
		b.verify()
		if err := b.c.Ctx.Err(); err != nil && b.txn != nil {
			return applyOutput{}, b.abandonCancelled(err)
		}
		b.commit()
	}
	return b.done(), nil
}

// abandonCancelled restores a batch whose client gave up during
// verification: it never saw a verdict, so the disk goes back to what it
// last saw.
func (b *batchRun) abandonCancelled(cause error) error {
	_, err := b.txn.Rollback()
	b.txn = nil
	if b.opt.Reingest {
		c := *b.c
		c.Ctx = context.WithoutCancel(b.c.Ctx) // the graph must follow the disk back
		roots := map[string]bool{}
		for _, t := range b.targets {
			roots[t.Res.Root] = true
		}
		for _, root := range slices.Sorted(tools.MapsKeys(roots)) {
			if isCodeRoot(c.Session.Current().Roots, root) {
				tools.ReingestRoot(&c, root)
			}
		}
	}
	if err != nil {
		return tools.Errorf("The call was cancelled during verification; restoring the files failed and the journal is kept: the next server start finishes the restore.", "apply cancelled during verification (%v); restore failed: %v", cause, err)
	}
	return tools.Errorf("The call was cancelled during verification: every file was restored, as the verdict was never delivered.", "apply cancelled during verification: %v", cause).
		WithNext("Call again when ready; nothing needs undoing.")
}

// fileGraph is what the graph holds of one file: its nodes and the edges
// touching them.
type fileGraph struct {
	nodes []string
	edges int
}

func fileGraphOf(b *session.Bundle, gpath string) fileGraph {
	gf := tools.BundleGraphFiles(b)
	i, ok := gf.ByPath[gpath]
	if !ok {
		return fileGraph{}
	}
	g := b.Graph
	f := gf.Files[i]
	ids := slices.Clone(f.Nodes)
	if f.Node != graph.NoNode {
		ids = append(ids, f.Node)
	}
	var fg fileGraph
	for _, id := range ids {
		fg.nodes = append(fg.nodes, g.ExternalID(id))
		fg.edges += g.Degree(id)
	}
	slices.Sort(fg.nodes)
	return fg
}

func (b *batchRun) validate(edits []edit.Edit) error {
	b.prog.begin("validate")
	store, err := editStore(b.c.Session)
	if err != nil {
		return tools.Errorf("The server keeps a journal of each write so a crash can roll it back; it could not create one. Check the runtime directory's permissions and free space.", "cannot open the edit journal: %v", err)
	}
	b.store = store
	err = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		if err := tools.NeedRoots(bd); err != nil {
			return err
		}
		rs := tools.BundleSpace(bd)
		for i := range edits {
			edits[i].Path = rs.DiskPath(edits[i].Path)
		}
		ts, err := edit.Validate(tools.BundleGuard(bd), edits)
		if err != nil {
			return editError(err, len(edits))
		}
		if err := placeNewFiles(bd, ts); err != nil {
			return err
		}
		b.targets = ts
		b.before = map[string]fileGraph{}
		for _, t := range ts {
			gp := rs.GraphPath(t.Res.Root, t.RelReal) // a symlink's target is what the graph knows
			b.paths = append(b.paths, gp)
			b.before[gp] = fileGraphOf(bd, gp)
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.prog.end("validate", fmt.Sprintf("%d edits valid", len(b.targets)))
	return nil
}

func (b *batchRun) write() error {
	b.prog.begin("write")
	tools.StopWarmup(b.c.Session) // this write replaces the graph it would warm
	n := 0
	for _, t := range b.targets {
		if !t.Unchanged() {
			n++
		}
	}
	done := 0
	txn, err := b.store.Apply(b.c.Ctx, b.out.BatchID, b.targets, func(i int) {
		done++
		b.prog.file("write", b.paths[i], done, n)
	})
	if err != nil {
		var ee *edit.Error
		if errors.As(err, &ee) {
			return editError(err, len(b.targets))
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return tools.Errorf("The batch was cancelled between two files; every file it had written was restored, so the disk is as before the call.", "apply cancelled: %v", err).
				WithNext("Call again when ready; nothing needs undoing.")
		}
		return tools.Errorf("The write failed part-way and every file written so far was restored (the disk is as before the call). Check free space and permissions.", "write failed: %v", err).
			WithNext("Fix the cause, then call again with the same edits.")
	}
	b.txn = txn
	for i, t := range b.targets {
		b.out.Results = append(b.out.Results, resultOf(t, b.paths[i]))
		if !t.Unchanged() {
			b.out.FilesWritten++
		}
	}
	b.prog.end("write", fmt.Sprintf("%d files written", b.out.FilesWritten))
	return nil
}

func resultOf(t *edit.Target, gpath string) editResult {
	format := t.Format
	r := editResult{FilePath: gpath, AbsolutePath: t.Res.Abs, Root: t.Res.Root, Bytes: len(t.New), OldSHA256: t.OldSHA, NewSHA256: t.NewSHA,
		Mode: fmt.Sprintf("%04o", uint32(t.Mode.Perm())), Format: &format, CreatedDirs: t.NewDirs}
	switch {
	case !t.Existed:
		r.Action = "created"
	case t.Unchanged():
		r.Action = "unchanged"
	default:
		r.Action = "modified"
	}
	if !t.Unchanged() {
		added, removed := edit.Added(t.Old, t.New)
		r.LinesAdded, r.LinesRemoved = len(added), removed
	}
	return r
}

// commit makes the write final (drops the journal) and schedules a
// persist of the refreshed graph.
func (b *batchRun) commit() {
	if b.txn == nil {
		return
	}
	if err := b.txn.Commit(); err != nil {
		b.c.Session.Logf("edit batch %s: dropping the journal failed: %v", b.out.BatchID, err)
	}
	b.txn = nil
}

// prepare extracts the new contents of the files under code roots into the
// roots' ingest caches, beside the write (its fsyncs wait on the disk, the
// parsing on a core), so the reingest after it does not parse them again.
func (b *batchRun) prepare() {
	b.prepared = make(chan struct{})
	s := b.c.Session
	roots := s.Current().Roots
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for _, t := range b.targets {
		if t.Unchanged() || !isCodeRoot(roots, t.Res.Root) {
			continue
		}
		store, ok := session.RootSharedIfAny(s, t.Res.Root, tools.IngestCacheKey("code"))
		if !ok || store == nil {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			ingest.Prepare(store, t.Res.Rel, t.New)
		})
	}
	go func() {
		wg.Wait()
		close(b.prepared)
	}()
}

// reingest refreshes every code root written to.
func (b *batchRun) reingest() {
	b.prog.begin("reingest")
	start := time.Now()
	if b.prepared != nil {
		<-b.prepared
	}
	info := reingestInfo{Ran: true}
	if b.out.FilesWritten == 0 {
		info = reingestInfo{Skipped: "no file changed"}
	}
	roots := map[string]bool{}
	cur := b.c.Session.Current()
	for _, t := range b.targets {
		if !t.Unchanged() && isCodeRoot(cur.Roots, t.Res.Root) {
			roots[t.Res.Root] = true
		}
	}
	info.Patched = len(roots) > 0
	var st session.Staleness
	if len(roots) > 0 {
		// A stat of the graph's files tells what changed besides this
		// write; handed to the reingest, it spares a walk of the tree.
		st = b.c.Session.StalenessNow(cur)
	}
	for _, root := range slices.Sorted(tools.MapsKeys(roots)) {
		rc := *b.c
		rc.Ctx = tools.HintWalk(b.c.Ctx, cur, st, root)
		o, err := tools.ReingestRoot(&rc, root)
		if err != nil {
			info.Error = fmt.Sprintf("%s: %v", root, err)
			info.Patched = false
			break
		}
		info.Roots = append(info.Roots, root)
		tools.WarmIndexes(b.c, cur)
		info.Patched = info.Patched && o.Stats.Incremental != nil && o.Stats.Incremental.Patched
		if o.Stats.Incremental != nil {
			info.Prepared += o.Stats.Incremental.Prepared
			info.WalkSkipped = info.WalkSkipped || o.Stats.Incremental.WalkHinted
		}
	}
	if info.Ran && len(roots) == 0 && info.Error == "" {
		info = reingestInfo{Skipped: "the files are under no code root"}
	}
	info.Generation = b.c.Session.Current().Gen
	info.ElapsedMs = tools.Ms(time.Since(start))
	b.out.Reingest = info
	b.prog.end("reingest", "graph refreshed")
}

// placeNewFiles refuses a new file whose relative path does not say which
// root it belongs to: no part of it exists under any root, and two roots
// of the same kind (code, documents) could take it. The guard already
// put every other path under the root holding its deepest existing
// parent, code roots before document roots.
func placeNewFiles(bd *session.Bundle, ts []*edit.Target) error {
	for _, t := range ts {
		if t.Existed || len(t.Res.Tied) == 0 {
			continue
		}
		code := isCodeRoot(bd.Roots, t.Res.Root)
		var same []string
		for _, o := range t.Res.Tied {
			if isCodeRoot(bd.Roots, o) == code {
				same = append(same, o)
			}
		}
		if len(same) == 0 {
			continue
		}
		rs := tools.BundleSpace(bd)
		var ex []string
		for _, r := range append([]string{t.Res.Root}, same...) {
			if ns := rs.NamespaceOf(r); ns != "" {
				ex = append(ex, path.Join(ns, t.Res.Rel))
			} else {
				ex = append(ex, filepath.Join(r, filepath.FromSlash(t.Res.Rel)))
			}
		}
		e := tools.Errorf("Name the root the new file belongs to: prefix the path with its namespace or pass an absolute path. Nothing was written.",
			"%q is a new file and none of its directories exists under any ingest root, so it could belong to %s or %s", t.Given, t.Res.Root, strings.Join(same, ", "))
		e.Extra = map[string]any{"candidates": ex}
		e.SuggestedNextStep = "Call again with file_path set to one of the candidates."
		return e
	}
	return nil
}

func isCodeRoot(roots []session.Root, p string) bool {
	return slices.ContainsFunc(roots, func(r session.Root) bool { return r.Path == p && r.Adapter == "code" })
}

// done fills the answer from the graph as it now is.
func (b *batchRun) done() applyOutput {
	o := &b.out
	_ = b.c.Session.Read(context.WithoutCancel(b.c.Ctx), func(bd *session.Bundle) error {
		b.nodeChanges(bd)
		o.ProactiveInsights = b.insights(bd)
		return nil
	})
	b.promoteInsights(o.ProactiveInsights)
	if o.ProactiveInsights == nil {
		o.ProactiveInsights = []insight{}
	}
	if o.UpdatedNodeIDs == nil {
		o.UpdatedNodeIDs = []string{}
	}
	o.Status = "applied"
	o.StatusMessage = fmt.Sprintf("%d of %d files written", o.FilesWritten, len(b.targets))
	if v := o.Verification; v != nil {
		o.StatusMessage += ", verdict " + v.Verdict
		if v.Verdict == edit.Broken {
			o.Status = "restored"
			o.StatusMessage = fmt.Sprintf("verdict BROKEN: all %d files restored to their previous contents", len(b.targets))
		}
	}
	o.Guidance = b.guidance()
	if o.FilesWritten > 0 {
		b.c.Session.PersistSoon("apply") // a no-op for memory-only sessions
	}
	o.ElapsedMs = tools.Ms(time.Since(b.start))
	b.prog.finish(o)
	return *o
}

// nodeChanges lists the nodes of the written files now, and those gone.
func (b *batchRun) nodeChanges(bd *session.Bundle) {
	o := &b.out
	o.UpdatedNodeIDs = []string{}
	for _, p := range b.paths {
		now := fileGraphOf(bd, p)
		o.UpdatedNodeIDs = append(o.UpdatedNodeIDs, now.nodes...)
		for _, id := range b.before[p].nodes {
			if _, ok := slices.BinarySearch(now.nodes, id); !ok {
				o.RemovedNodeIDs = append(o.RemovedNodeIDs, id)
			}
		}
	}
	slices.Sort(o.UpdatedNodeIDs)
	o.UpdatedNodeIDs = slices.Compact(o.UpdatedNodeIDs)
	if len(o.UpdatedNodeIDs) > 200 {
		o.UpdatedNodeIDs = o.UpdatedNodeIDs[:200]
	}
	if len(o.RemovedNodeIDs) > 200 {
		o.RemovedNodeIDs = o.RemovedNodeIDs[:200]
	}
}

// testsOf lists the test files linked to file by "tests" edges.
func testsOf(g *graph.Graph, file graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	for _, n := range g.Neighbors(file) {
		if n.Incoming && n.Relation == "tests" && !slices.Contains(out, tools.FileOf(g, n.Node)) {
			out = append(out, tools.FileOf(g, n.Node))
		}
	}
	slices.Sort(out)
	return out
}

func directDependents(g *graph.Graph, file graph.NodeID) int {
	p := analysis.DefaultImpactParams()
	p.Level, p.MaxHops, p.IncludeCausalChains, p.TopK = analysis.LevelFile, 1, false, 0
	res, err := analysis.Impact(g, file, p)
	if err != nil {
		return 0
	}
	return res.Affected
}

func (b *batchRun) guidance() tools.Guidance {
	o := &b.out
	target := ""
	if len(b.paths) > 0 {
		target = b.paths[0]
	}
	reg := b.c.Registry
	switch {
	case o.Verification != nil && o.Verification.Verdict == edit.Broken:
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(reg, "surgical_context_v2", "view"), NextSuggestedTarget: target,
			NextStepHint: "The batch broke the build (see verification.reasons) and was restored: fix the cause and apply it again."}
	case o.Verification != nil && o.Verification.Verdict == edit.Risky:
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(reg, "view", "impact"), NextSuggestedTarget: target,
			NextStepHint: "The write is kept but verification found warnings (verification.reasons): review them before moving on."}
	case o.Reingest.Error != "":
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(reg, "ingest"),
			NextStepHint: "The files are written but the graph could not be refreshed (reingest.error): call ingest with incremental: true."}
	}
	hint := "Written and the graph refreshed. Check what depends on the change with impact"
	if !b.opt.Verify {
		hint += ", or write with verify: true to build and test before keeping it"
	}
	for _, in := range o.ProactiveInsights {
		if in.Kind == "untouched_test_companion" {
			hint = fmt.Sprintf("Written. %s tests the change and was not updated: view or run it.", in.Target)
			target = in.Target
			break
		}
	}
	return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(reg, "impact", "view"), NextSuggestedTarget: target, NextStepHint: hint + "."}
}

type progressState struct {
	ActivePhase         string      `json:"active_phase"`
	Phases              []phaseInfo `json:"phases,omitzero" jsonschema:"Each phase's status and time (detail full)."`
	PhaseCount          int         `json:"phase_count"`
	CompletedPhaseCount int         `json:"completed_phase_count"`
	RemainingPhaseCount int         `json:"remaining_phase_count"`
	ProgressPct         float64     `json:"progress_pct"`
	NextPhase           string      `json:"next_phase,omitempty"`
}

type phaseInfo struct {
	Name      string  `json:"name"`
	Status    string  `json:"status" jsonschema:"pending, running or completed."`
	ElapsedMs float64 `json:"elapsed_ms"`
	Detail    string  `json:"detail,omitempty"`
}

type progressEvent struct {
	BatchID             string  `json:"batch_id"`
	Event               string  `json:"event" jsonschema:"phase_started, file_written, phase_completed or batch_completed."`
	Phase               string  `json:"phase"`
	ActivePhase         string  `json:"active_phase"`
	CompletedPhaseCount int     `json:"completed_phase_count"`
	PhaseCount          int     `json:"phase_count"`
	RemainingPhaseCount int     `json:"remaining_phase_count"`
	ProgressPct         float64 `json:"progress_pct"`
	NextPhase           string  `json:"next_phase,omitempty"`
	FilePath            string  `json:"file_path,omitempty"`
	Message             string  `json:"message"`
	ElapsedMs           float64 `json:"elapsed_ms"`
	// batch_completed carries the handoff, for streaming clients.
	ProofState        string    `json:"proof_state,omitempty"`
	NextSuggestedTool string    `json:"next_suggested_tool,omitempty"`
	NextStepHint      string    `json:"next_step_hint,omitempty"`
	Verdict           string    `json:"verdict,omitempty"`
	ProactiveInsights []insight `json:"proactive_insights,omitempty"`
}

type progress struct {
	c      *tools.Call
	id     string
	start  time.Time
	st     progressState
	began  map[string]time.Time
	events []progressEvent
}

func newProgress(c *tools.Call, id string, phases []string) *progress {
	p := &progress{c: c, id: id, start: time.Now(), began: map[string]time.Time{}}
	for _, ph := range phases {
		p.st.Phases = append(p.st.Phases, phaseInfo{Name: ph, Status: "pending"})
	}
	p.st.PhaseCount = len(phases)
	return p
}

func (p *progress) index(phase string) int {
	return slices.IndexFunc(p.st.Phases, func(x phaseInfo) bool { return x.Name == phase })
}

func (p *progress) begin(phase string) {
	i := p.index(phase)
	p.st.Phases[i].Status = "running"
	p.began[phase] = time.Now()
	p.st.ActivePhase = phase
	p.emit("phase_started", phase, "", phase+" started", 0)
}

func (p *progress) file(phase, file string, done, total int) {
	p.emit("file_written", phase, file, fmt.Sprintf("wrote %s (%d/%d)", file, done, total), float64(done)/float64(max(total, 1)))
}

func (p *progress) end(phase, detail string) {
	i := p.index(phase)
	p.st.Phases[i].Status = "completed"
	p.st.Phases[i].Detail = detail
	p.st.Phases[i].ElapsedMs = tools.Ms(time.Since(p.began[phase]))
	p.st.CompletedPhaseCount = i + 1
	p.emit("phase_completed", phase, "", phase+": "+detail, 0)
}

// finish completes the done phase with the answer's handoff.
func (p *progress) finish(o *applyOutput) {
	p.begin("done")
	i := p.index("done")
	p.st.Phases[i].Status, p.st.CompletedPhaseCount = "completed", p.st.PhaseCount
	p.st.ActivePhase = "done"
	ev := p.event("batch_completed", "done", "", o.StatusMessage, 0)
	ev.ProofState, ev.NextSuggestedTool, ev.NextStepHint, ev.ProactiveInsights = o.ProofState, o.NextSuggestedTool, o.NextStepHint, o.ProactiveInsights
	if o.Verification != nil {
		ev.Verdict = o.Verification.Verdict
	}
	p.send(ev)
	o.progressState = p.st
	o.ProgressEvents = p.events
}

func (p *progress) event(kind, phase, file, msg string, within float64) progressEvent {
	st := &p.st
	st.RemainingPhaseCount = st.PhaseCount - st.CompletedPhaseCount
	st.ProgressPct = tools.R3(float32(100 * (float64(st.CompletedPhaseCount) + within) / float64(st.PhaseCount)))
	st.NextPhase = ""
	if st.CompletedPhaseCount < st.PhaseCount {
		next := st.CompletedPhaseCount
		if st.Phases[next].Status == "running" && next+1 < st.PhaseCount {
			next++
		}
		if st.Phases[next].Status != "running" {
			st.NextPhase = st.Phases[next].Name
		}
	}
	return progressEvent{BatchID: p.id, Event: kind, Phase: phase, ActivePhase: st.ActivePhase, CompletedPhaseCount: st.CompletedPhaseCount,
		PhaseCount: st.PhaseCount, RemainingPhaseCount: st.RemainingPhaseCount, ProgressPct: st.ProgressPct, NextPhase: st.NextPhase,
		FilePath: file, Message: msg, ElapsedMs: tools.Ms(time.Since(p.start))}
}

func (p *progress) emit(kind, phase, file, msg string, within float64) {
	p.send(p.event(kind, phase, file, msg, within))
}

func (p *progress) send(ev progressEvent) {
	p.events = append(p.events, ev)
	p.c.Progress(ev.ProgressPct, 100, fmt.Sprintf("%s %s: %s [%s, %d/%d phases, %.0f%%]", p.c.Tool.Name, p.id, ev.Message, ev.ActivePhase, ev.CompletedPhaseCount, ev.PhaseCount, ev.ProgressPct))
}
