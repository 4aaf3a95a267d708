package edit

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Preview bounds: how long a preview waits for its commit, and how many
// (and how many bytes of contents) a session keeps.
const (
	previewTTL      = 15 * time.Minute
	previewMaxCount = 64
	previewMaxBytes = 64 << 20
	previewDiffMax  = 64 << 10
)

type editPreviewParams struct {
	FilePath       string `json:"file_path" jsonschema:"Under an ingest root; may be new." help:"Path relative to an ingest root or absolute inside one (a new file is allowed)." tool:"required"`
	NewContent     string `json:"new_content" jsonschema:"The complete new file." help:"Candidate replacement content (the complete file)." tool:"required,maxlen=4194304"`
	Description    string `json:"description" help:"Human-readable summary of the edit, kept with the preview." tool:"maxlen=2000"`
	PreserveFormat bool   `json:"preserve_format" help:"Keep the file's line endings and trailing newline (as apply does)." tool:"default=true"`
}

type editCommitParams struct {
	PreviewID string `json:"preview_id" help:"The handle edit_preview returned." tool:"required,maxlen=64"`
	Confirm   bool   `json:"confirm" jsonschema:"Must be true to write." tool:"required"`
	Reingest  bool   `json:"reingest" help:"Refresh the graph from the written file." tool:"default=true"`
}

func registerPreview(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "edit_preview",
		Title:       "Preview a file write",
		Description: "A write's diff and a preview_id for edit_commit, without touching disk.",
		Details:     "Preview a full-file write without touching disk: validates it as apply would (path inside the roots, no symlink escape, not a directory, sizes), and returns a preview_id, the unified diff, the SHA-256 of the file it was computed against (the freshness snapshot), what would be kept of the file's format, and stub or anti-pattern warnings in the new content. edit_commit writes it later only if the file is unchanged.",
		Class:       tools.Write, // keeps the preview; the disk is never touched
		Hints:       &tools.Hints{},
		WhenToUse:   "Before a risky write, when a human or another agent should see the diff first, or when stale-source protection matters (two-phase edit).",
		AvoidWhen:   "You are sure of the write and nobody reviews it: apply does it in one call.",
		Next:        []string{"edit_commit"},
		Example:     map[string]any{"agent_id": "claude", "file_path": "backend/slugs.py", "new_content": "def slugify(text):\n    return \"-\".join(text.lower().split())\n", "description": "add slugify"},
	}, runEditPreview)
	tools.Add(r, tools.Tool{
		Name:        "edit_commit",
		Title:       "Commit a previewed edit",
		Description: "Write a previewed edit if the file is unchanged; a preview lasts 15 minutes, once.",
		Details:     "Write a previewed edit after an explicit confirmation, only if the file still has the contents the preview was computed against (else a teaching error naming what changed since). Previews expire after 15 minutes and are used once. The write is apply's: atomic, journaled, format kept, graph refreshed.",
		Class:       tools.Write,
		Hints:       &tools.Hints{Destructive: true},
		WhenToUse:   "After the preview's diff was approved.",
		AvoidWhen:   "The preview is older than 15 minutes or the file changed: preview again.",
		Next:        []string{"impact", "view"},
		Example:     map[string]any{"agent_id": "claude", "preview_id": "preview-0123456789abcdef", "confirm": true},
	}, runEditCommit)
}

type editPreviewOutput struct {
	PreviewID     string         `json:"preview_id"`
	FilePath      string         `json:"file_path"`
	AbsolutePath  string         `json:"absolute_path"`
	Root          string         `json:"root" jsonschema:"The ingest root the file would be written under."`
	Action        string         `json:"action" jsonschema:"create, modify or unchanged."`
	BaseSHA256    string         `json:"base_sha256" jsonschema:"SHA-256 of the file the preview was computed against (\"absent\" for a new file): edit_commit requires it still."`
	NewSHA256     string         `json:"new_sha256"`
	Diff          string         `json:"diff" jsonschema:"Unified diff from the current file to the new content."`
	DiffTruncated bool           `json:"diff_truncated"`
	LinesAdded    int            `json:"lines_added"`
	LinesRemoved  int            `json:"lines_removed"`
	Description   string         `json:"description,omitempty"`
	Format        edit.Format    `json:"format" jsonschema:"What the write would keep of the file's conventions."`
	Warnings      []edit.Finding `json:"warnings" jsonschema:"Stubs replacing logic (layer A) and anti-patterns (layer E) in the new content."`
	Freshness     freshness      `json:"freshness"`
	ExpiresAt     string         `json:"expires_at"`
	TTLSeconds    int            `json:"ttl_seconds"`
	ElapsedMs     float64        `json:"elapsed_ms"`
	tools.Guidance
}

type freshness struct {
	BaseSHA256 string `json:"base_sha256"`
	Bytes      int    `json:"bytes"`
	Lines      int    `json:"lines"`
	CheckedAt  string `json:"checked_at"`
}

var previewsKey = session.NewKey[*edit.Previews]("edit-previews")

// previewStore is the session's previews.
func previewStore(s *session.State) *edit.Previews {
	return session.Shared(s, previewsKey, func() *edit.Previews { return edit.NewPreviews(previewTTL, previewMaxCount, previewMaxBytes) })
}

func runEditPreview(c *tools.Call, in editPreviewParams) (editPreviewOutput, error) {
	start := time.Now()
	e := edit.Edit{Path: in.FilePath, Content: []byte(in.NewContent), Raw: !in.PreserveFormat}
	var t *edit.Target
	var gpath string
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		if err := tools.NeedRoots(b); err != nil {
			return err
		}
		rs := tools.BundleSpace(b)
		given := e
		given.Path = rs.DiskPath(e.Path)
		ts, err := edit.Validate(tools.BundleGuard(b), []edit.Edit{given})
		if err != nil {
			return editError(err, 1)
		}
		if err := placeNewFiles(b, ts); err != nil {
			return err
		}
		t, gpath = ts[0], rs.GraphPath(ts[0].Res.Root, ts[0].RelReal)
		return nil
	})
	if err != nil {
		return editPreviewOutput{}, err
	}
	p := &edit.Preview{Agent: c.AgentID, Description: in.Description, Edit: e, Target: t}
	store := previewStore(c.Session)
	id := store.Put(p)
	out := editPreviewOutput{PreviewID: id, FilePath: gpath, AbsolutePath: t.Res.Abs, Root: t.Res.Root, BaseSHA256: p.BaseSHA(), NewSHA256: t.NewSHA,
		Description: in.Description, Format: t.Format, ExpiresAt: p.Expires.UTC().Format(time.RFC3339), TTLSeconds: int(store.TTL().Seconds())}
	out.Diff, out.LinesAdded, out.LinesRemoved, out.DiffTruncated = edit.Unified(gpath, t.Old, t.New, 3, previewDiffMax)
	switch {
	case !t.Existed:
		out.Action = "create"
	case t.Unchanged():
		out.Action = "unchanged"
	default:
		out.Action = "modify"
	}
	out.Warnings = append(edit.Stubs(gpath, t.Old, t.New, t.Existed), edit.AntiPatterns(gpath, t.Old, t.New)...)
	if out.Warnings == nil {
		out.Warnings = []edit.Finding{}
	}
	out.Freshness = freshness{BaseSHA256: p.BaseSHA(), Bytes: len(t.Old), Lines: editLines(t.Old), CheckedAt: p.Created.UTC().Format(time.RFC3339)}
	hint := fmt.Sprintf("Review the diff (+%d −%d lines), then call edit_commit with preview_id %q and confirm: true within %d minutes.", out.LinesAdded, out.LinesRemoved, id, int(previewTTL.Minutes()))
	if len(out.Warnings) > 0 {
		hint = fmt.Sprintf("The new content has %d warnings (stubs or anti-patterns): check them, then commit with edit_commit or preview a fixed version.", len(out.Warnings))
	}
	out.Guidance = tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(c.Registry, "edit_commit"), NextSuggestedTarget: id, NextStepHint: hint}
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

func editLines(b []byte) int {
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

func runEditCommit(c *tools.Call, in editCommitParams) (applyOutput, error) {
	store := previewStore(c.Session)
	p, err := store.Take(in.PreviewID)
	switch {
	case errors.Is(err, edit.ErrNoPreview):
		return applyOutput{}, tools.Errorf("A preview_id comes from edit_preview and is used once; previews live 15 minutes and a server keeps the latest 64.", "no preview %q: it was never made, was already committed, or was dropped", in.PreviewID).
			WithNext("Call edit_preview with the file and its new content, then edit_commit with the preview_id it returns.").
			WithExample(map[string]any{"agent_id": "claude", "preview_id": "preview-…", "confirm": true})
	case errors.Is(err, edit.ErrPreviewExpired):
		return applyOutput{}, tools.Errorf("Previews expire so that a stale review is never written; the file may have changed since.", "preview %s of %s expired at %s", p.ID, p.Edit.Path, p.Expires.UTC().Format(time.RFC3339)).
			WithNext("Call edit_preview again with the same content to get a fresh preview of the file as it is now.")
	}
	if !in.Confirm {
		store.Restore(p)
		return applyOutput{}, tools.Errorf("edit_commit writes only with confirm: true; the preview is kept until it expires.", "confirm is false: preview %s was not written", p.ID).
			WithExample(map[string]any{"agent_id": "claude", "preview_id": p.ID, "confirm": true})
	}
	if _, sha, refused := currentContents(c, p); refused != nil {
		return applyOutput{}, tools.GuardError(refused, "file_path")
	} else if sha != p.BaseSHA() {
		return applyOutput{}, staleCommit(c, p)
	}
	// The write checks the hash again, under the journal's lock.
	e := p.Edit
	e.ExpectedSHA256 = p.BaseSHA()
	return runBatch(c, []edit.Edit{e}, writeOptions{Reingest: in.Reingest, PreserveFormat: !e.Raw}, p.ID)
}

// staleCommit is the teaching error of a commit whose file moved since
// the preview: what changed, as a diff from the preview's base to now.
func staleCommit(c *tools.Call, p *edit.Preview) error {
	now, nowSHA, _ := currentContents(c, p)
	diff, add, rem, _ := edit.Unified(p.Edit.Path, p.Target.Old, now, 2, 2048)
	what := fmt.Sprintf("now sha256 %s, %d lines: +%d −%d lines since", nowSHA, editLines(now), add, rem)
	if nowSHA == "absent" {
		what = "the file was deleted"
	} else if !p.Target.Existed {
		what = fmt.Sprintf("the file was created meanwhile (sha256 %s, %d lines)", nowSHA, editLines(now))
	}
	e := tools.Errorf("The file changed after the preview, so the previewed diff no longer describes what the write would do. Nothing was written.",
		"%s changed since preview %s: the preview was computed against sha256 %s (%d lines); %s", p.Edit.Path, p.ID, p.BaseSHA(), editLines(p.Target.Old), what).
		WithNext("Re-read the file (surgical_context or view), redo the edit on its current contents, and call edit_preview again.").
		WithCall("edit_preview", map[string]any{"agent_id": "claude", "file_path": p.Edit.Path, "new_content": "…"})
	e.Extra = map[string]any{"base_sha256": p.BaseSHA(), "current_sha256": nowSHA, "changed_since_preview": diff}
	return e
}

// currentContents reads the previewed file as it is now (guarded);
// refused is the guard's refusal when the path no longer may be written
// (a directory on the way swapped for a symlink leading out, say).
func currentContents(c *tools.Call, p *edit.Preview) (data []byte, sha string, refused error) {
	found := false
	_ = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		res, err := tools.BundleGuard(b).Resolve(tools.BundleSpace(b).DiskPath(p.Edit.Path))
		if err != nil {
			refused = err
			return nil
		}
		if !res.Exists {
			return nil
		}
		if d, _, err := tools.ReadGuarded(res, "file_path"); err == nil {
			data, found = d, true
		}
		return nil
	})
	if !found {
		return nil, "absent", refused
	}
	return data, edit.SHA256(data), nil
}
