package audit

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	ingestcache "github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/ingest/workspace"
	"github.com/m1nd-go/m1nd/mcpserver/extref"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Audit limits: what one cross_verify reads to classify new files and to
// count lines, so a huge tree costs a bounded amount.
const (
	verifyReadFiles = 5000
	verifyReadBytes = 256 << 20
)

// The three tools below share limit ("Maximum entries per list", 50 by
// default, 1 to 1000), spelled out in each input struct: toolset's
// TestBindAgreesWithAccessors looks a parameter up among a struct's own
// fields.

type crossVerifyParams struct {
	Scope           string   `json:"scope" help:"Path prefix (or glob) limiting the verification, e.g. \"backend/\"."`
	Check           []string `json:"check" jsonschema:"existence (missing, new files), loc (line counts), hash (content)." help:"Checks to run: existence (missing and new files), loc (line counts of changed files against the graph), hash (content of changed files against what was ingested, telling edits from touches)." tool:"default=existence|loc|hash,enum=existence|loc|hash"`
	IncludeDotfiles bool     `json:"include_dotfiles" help:"Count hidden files and directories on disk too (when the root was ingested with include_dotfiles)." tool:"default=false"`
	Limit           int      `json:"limit" help:"Maximum entries per list (counts always cover everything)." tool:"default=50,min=1,max=1000"`
}

type coverageSessionParams struct {
	Scope string `json:"scope" help:"Path prefix (or glob) limiting the report, e.g. \"backend/\"."`
	TopK  int    `json:"top_k" jsonschema:"Unread central files suggested." help:"Unvisited central files suggested." tool:"default=10,min=1,max=100"`
	Limit int    `json:"limit" help:"Maximum entries per list (counts always cover everything)." tool:"default=50,min=1,max=1000"`
}

type externalReferencesParams struct {
	Scope         string   `json:"scope" help:"Path prefix (or glob) of the files scanned, e.g. \"src/\"."`
	Kinds         []string `json:"kinds" help:"Kinds of reference reported." tool:"default=absolute_path|parent_escape|url|env_path|home_path|import,enum=absolute_path|parent_escape|url|env_path|home_path|import"`
	IncludeStdlib bool     `json:"include_stdlib" help:"List imports of the languages' standard libraries among the packages too (they are always counted)." tool:"default=false"`
	Limit         int      `json:"limit" help:"Maximum entries per list (counts always cover everything)." tool:"default=50,min=1,max=1000"`
}

func registerAudit(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "cross_verify",
		Title:       "Graph vs disk",
		Description: "Files missing, new or changed on disk since the ingest, and the ingest call that resyncs.",
		Details: "Compare the graph with the files on disk under the ingest roots: files the graph has that are gone (missing_on_disk), files an ingest would take that the graph lacks (not_in_graph; the ingest's skip rules and .gitignore apply), " +
			"files changed since they were ingested (modified: size or mtime differs; with the hash check, whether the content really changed), and files whose line count no longer matches the graph (loc_drift). " +
			"Ends with a verdict and the ingest call that brings the graph back in line.",
		Class:     tools.Read,
		WhenToUse: "Before trusting an answer on a repository that is changing: do the graph and the disk still agree? After edits made outside m1nd, a branch switch or a pull.",
		AvoidWhen: "You just ingested and nothing changed since (health shows stale false).",
		Next:      []string{"ingest", "health", "view"},
		Example:   map[string]any{"agent_id": "claude", "scope": "backend/", "check": []string{"existence", "loc", "hash"}},
	}, runCrossVerify)
	tools.Add(r, tools.Tool{
		Name:        "coverage_session",
		Title:       "Your coverage",
		Description: "What you have read this session per directory, and central files not read yet.",
		Details: "What the calling agent has read and seen in this session, against the graph: files whose content it read (view, batch_view), files and nodes other answers showed it, " +
			"the coverage ratio overall and per directory, and the most central files (PageRank) it has not read yet as suggestions.",
		Class:     tools.Read,
		WhenToUse: "In a long session: avoid re-reading files, see which parts of the repository you have not looked at, and get an unread-next list.",
		AvoidWhen: "At the start of a session (nothing is recorded yet): find code with seek or search first.",
		Next:      []string{"batch_view", "view", "seek"},
		Example:   map[string]any{"agent_id": "claude", "top_k": 5},
	}, runCoverageSession)
	tools.Add(r, tools.Tool{
		Name:        "external_references",
		Title:       "References outside the roots",
		Description: "Paths, URLs and packages the code points at outside the roots, with file and line.",
		Details: "What the code points at outside the ingest roots: absolute paths, ../ paths that climb out of the root, URLs (http, git, s3, databases…), paths under environment variables or ~, " +
			"and imports of packages the repository does not provide, grouped by package (with the dependencies its manifests declare). Each reference has its file, line, kind and value; groups are counted. " +
			"Found by a bounded scan of the indexed files' text.",
		Class:     tools.Read,
		WhenToUse: "Before bringing a sibling repository into the graph, or in an audit: which repositories, services, machine paths and third-party packages does this code depend on?",
		AvoidWhen: "You want the dependencies between files of the repository (impact, why).",
		Next:      []string{"ingest", "view", "search"},
		Example:   map[string]any{"agent_id": "claude", "kinds": []string{"url", "import", "parent_escape"}},
	}, runExternalReferences)
}

// verifyFile is one file a verification reports.
type verifyFile struct {
	File   string `json:"file"`
	NodeID string `json:"node_id,omitempty"`
	// SizeIngested and SizeNow are the bytes at ingest and now.
	SizeIngested int64 `json:"size_ingested,omitempty"`
	SizeNow      int64 `json:"size_now,omitempty"`
	MtimeChanged bool  `json:"mtime_changed,omitempty"`
	// LocGraph is the line count the graph has; LocDisk the file's now.
	LocGraph int `json:"loc_graph,omitempty"`
	LocDisk  int `json:"loc_disk,omitempty"`
	// Content: "changed", "unchanged" (only touched) or "unknown" (no
	// ingest-time hash to compare with).
	Content string `json:"content,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// verifyList is a counted, bounded list of files.
type verifyList struct {
	Count     int          `json:"count"`
	Files     []verifyFile `json:"files"`
	Truncated bool         `json:"truncated"`
}

func (l *verifyList) add(f verifyFile, limit int) {
	l.Count++
	if len(l.Files) < limit {
		l.Files = append(l.Files, f)
	} else {
		l.Truncated = true
	}
}

type verifyRoot struct {
	Path      string `json:"path"`
	Namespace string `json:"namespace,omitempty"`
	Adapter   string `json:"adapter"`
	// Stamped: the ingest recorded size and mtime of its files, so changes
	// can be told.
	Stamped bool `json:"stamped"`
	// OnDisk counts the files a walk admits now (existence check).
	OnDisk        int    `json:"on_disk"`
	WalkTruncated string `json:"walk_truncated,omitempty"`
}

type verifyAction struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Why       string         `json:"why"`
}

type crossVerifyResponse struct {
	Scope         string       `json:"scope"`
	Checks        []string     `json:"checks"`
	Roots         []verifyRoot `json:"roots"`
	GraphFiles    int          `json:"graph_files"`
	InSync        int          `json:"in_sync"`
	MissingOnDisk verifyList   `json:"missing_on_disk"`
	NotInGraph    verifyList   `json:"not_in_graph"`
	Modified      verifyList   `json:"modified"`
	LocDrift      verifyList   `json:"loc_drift"`
	// Unverified counts files that could not be judged (refused by the
	// path guard, unreadable, or past the read budget).
	Unverified int `json:"unverified"`
	// Verdict: "in_sync", "drifted" or "unknown" (no code root).
	Verdict         string        `json:"verdict"`
	DriftRatio      float64       `json:"drift_ratio"`
	SuggestedAction *verifyAction `json:"suggested_action,omitempty"`
	ElapsedMs       float64       `json:"elapsed_ms"`
	tools.Guidance
}

// verifyRun is one cross_verify call.
type verifyRun struct {
	c      *tools.Call
	b      *session.Bundle
	in     crossVerifyParams
	scope  *tools.ScopeFilter
	rs     *tools.RootSpace
	out    *crossVerifyResponse
	checks map[string]bool
	// stamps: graph path → the stamp and root it was recorded under.
	stamps map[string]stampOf
	// read budget for classifying new files and counting lines.
	readFiles int
	readBytes int64
	drifted   map[string]bool // the root paths with a drifted file
	// graphUnverified counts indexed files that could not be judged.
	graphUnverified int
}

type stampOf struct {
	session.FileStamp
	root string
}

func runCrossVerify(c *tools.Call, in crossVerifyParams) (crossVerifyResponse, error) {
	start := time.Now()
	if len(in.Check) == 0 {
		return crossVerifyResponse{}, tools.Errorf("check lists the checks to run: existence, loc, hash (all three when absent).", "check is empty").
			WithExample(map[string]any{"agent_id": "claude", "check": []string{"existence", "loc", "hash"}})
	}
	out := &crossVerifyResponse{Roots: []verifyRoot{}, Checks: slices.Sorted(slices.Values(in.Check))}
	out.Checks = slices.Compact(out.Checks)
	v := &verifyRun{c: c, in: in, out: out, checks: map[string]bool{}, stamps: map[string]stampOf{}, drifted: map[string]bool{}}
	for _, ch := range in.Check {
		v.checks[ch] = true
	}
	err := readRootsScoped(c, in.Scope, func(b *session.Bundle, scope *tools.ScopeFilter) error {
		v.b, v.scope, v.rs = b, scope, tools.BundleSpace(b)
		out.Scope = scope.String()
		return v.run()
	})
	if err != nil {
		return crossVerifyResponse{}, err
	}
	v.verdict()
	out.ElapsedMs = tools.Ms(time.Since(start))
	return *out, nil
}

// readRootsScoped reads the session for the audits that walk the ingested
// roots' files: it refuses before any ingest and parses scope first.
func readRootsScoped(c *tools.Call, rawScope string, f func(b *session.Bundle, scope *tools.ScopeFilter) error) error {
	return c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		if err := tools.NeedRoots(b); err != nil {
			return err
		}
		scope, err := tools.ParseScope(b, rawScope)
		if err != nil {
			return err
		}
		return f(b, scope)
	})
}

func (v *verifyRun) run() error {
	for _, rf := range v.b.Files {
		for _, f := range rf.Files {
			v.stamps[v.rs.GraphPath(rf.Root, f.Rel)] = stampOf{f, rf.Root}
		}
	}
	stamped := map[string]bool{}
	for _, rf := range v.b.Files {
		stamped[rf.Root] = true
	}
	for _, r := range v.b.Roots {
		v.out.Roots = append(v.out.Roots, verifyRoot{Path: r.Path, Namespace: r.Namespace, Adapter: r.Adapter, Stamped: stamped[r.Path]})
	}
	if err := v.graphSide(); err != nil {
		return err
	}
	if v.checks["existence"] {
		return v.diskSide()
	}
	return nil
}

// graphSide checks every indexed file in scope: does it still exist, has
// it changed since it was ingested, does its line count still hold.
func (v *verifyRun) graphSide() error {
	g, gf := v.b.Graph, tools.BundleGraphFiles(v.b)
	batch := tools.BundleGuard(v.b).NewBatch()
	limit := v.in.Limit
	adapter := map[string]string{}
	for _, r := range v.b.Roots {
		adapter[r.Path] = r.Adapter
	}
	for i := range gf.Files {
		f := &gf.Files[i]
		if !v.scope.Match(f.Path) || f.Node == graph.NoNode {
			continue
		}
		if i%256 == 0 && v.c.Ctx.Err() != nil {
			return v.c.Ctx.Err()
		}
		res, err := batch.Resolve(v.rs.DiskPath(f.Path))
		if err == nil && adapter[res.Root] != "code" {
			continue // notes and descriptors: their nodes do not mirror files line by line
		}
		v.out.GraphFiles++
		vf := verifyFile{File: f.Path, NodeID: g.ExternalID(f.Node)}
		switch {
		case err != nil:
			v.graphUnverified++
			continue
		case !res.Exists:
			if v.checks["existence"] {
				vf.Reason = "deleted or moved since the ingest"
				v.out.MissingOnDisk.add(vf, limit)
				v.markDrift(res.Root)
			} else {
				v.graphUnverified++
			}
			continue
		}
		switch v.checkFile(f, res.Real, res.Root, vf) {
		case fileInSync:
			v.out.InSync++
		case fileUnverified:
			v.graphUnverified++
		}
	}
	return nil
}

// How a file compares.
const (
	fileInSync = iota
	fileDrifted
	fileUnverified
)

// checkFile compares one existing file with its stamp and the graph's
// line count.
func (v *verifyRun) checkFile(f *tools.GraphFile, real, root string, vf verifyFile) int {
	st, stampedFile := v.stamps[f.Path]
	fi, err := os.Lstat(real)
	if err != nil {
		return fileUnverified
	}
	changed := !stampedFile || fi.Size() != st.Size || fi.ModTime().UnixNano() != st.MTimeNS
	if !changed {
		return fileInSync // the stamp holds: size, mtime and so content as ingested
	}
	vf.SizeNow = fi.Size()
	if stampedFile {
		vf.SizeIngested, vf.MtimeChanged = st.Size, fi.ModTime().UnixNano() != st.MTimeNS
	}
	needData := v.checks["loc"] || (v.checks["hash"] && stampedFile)
	var data []byte
	if needData {
		if data = v.read(real); data == nil {
			return fileUnverified
		}
	}
	inSync := true
	if stampedFile {
		vf.Content = "unknown"
		if v.checks["hash"] {
			vf.Content = v.contentVerdict(st, data)
		}
		if vf.Content != "unchanged" {
			inSync = false
		}
	}
	if v.checks["loc"] {
		vf.LocGraph = int(v.b.Graph.Provenance(f.Node).LineEnd)
		vf.LocDisk = countLines(data)
		if vf.LocGraph != vf.LocDisk && !(vf.LocGraph == 1 && vf.LocDisk == 0) {
			v.out.LocDrift.add(verifyFile{File: vf.File, NodeID: vf.NodeID, LocGraph: vf.LocGraph, LocDisk: vf.LocDisk}, v.in.Limit)
			inSync = false
		}
	}
	if stampedFile {
		vf.Reason = modifiedReason(vf)
		v.out.Modified.add(vf, v.in.Limit)
	}
	if !inSync {
		v.markDrift(root)
		return fileDrifted
	}
	return fileInSync
}

func modifiedReason(vf verifyFile) string {
	var parts []string
	if vf.SizeIngested != vf.SizeNow {
		parts = append(parts, fmt.Sprintf("size %d → %d bytes", vf.SizeIngested, vf.SizeNow))
	}
	if vf.MtimeChanged {
		parts = append(parts, "modification time changed")
	}
	switch vf.Content {
	case "unchanged":
		parts = append(parts, "content as ingested (only touched)")
	case "changed":
		parts = append(parts, "content differs from what was ingested")
	}
	return strings.Join(parts, "; ")
}

// contentVerdict compares data with the hash the ingest recorded, when
// the root's ingest cache is in memory and describes the stamped version.
func (v *verifyRun) contentVerdict(st stampOf, data []byte) string {
	store, ok := session.RootSharedIfAny(v.c.Session, st.root, tools.IngestCacheKey("code"))
	if !ok || store == nil {
		return "unknown"
	}
	e, ok := store.Entry(st.Rel)
	if !ok || e.Size != st.Size || e.MTimeNS != st.MTimeNS {
		return "unknown"
	}
	if ingestcache.HashOf(data) == e.Hash {
		return "unchanged"
	}
	return "changed"
}

// read reads a file for verification within the call's budget (nil when
// over it or unreadable).
func (v *verifyRun) read(real string) []byte {
	if v.readFiles >= verifyReadFiles || v.readBytes >= verifyReadBytes {
		return nil
	}
	f, err := tools.BundleGuard(v.b).OpenReal(real)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, walk.DefaultMaxFileSize+1))
	if err != nil {
		return nil
	}
	v.readFiles++
	v.readBytes += int64(len(data))
	return data
}

// diskSide walks the code roots as an ingest would and lists the text
// files the graph lacks.
func (v *verifyRun) diskSide() error {
	gf := tools.BundleGraphFiles(v.b)
	for i, r := range v.b.Roots {
		if r.Adapter != "code" {
			continue
		}
		res, err := walk.Walk(v.c.Ctx, r.Path, walk.Options{IncludeDotfiles: v.in.IncludeDotfiles})
		if err != nil {
			if v.c.Ctx.Err() != nil {
				return v.c.Ctx.Err()
			}
			v.out.Roots[i].WalkTruncated = "walk failed: " + err.Error()
			continue
		}
		v.out.Roots[i].OnDisk, v.out.Roots[i].WalkTruncated = len(res.Files), res.Truncated
		for _, wf := range res.Files {
			p := v.rs.GraphPath(r.Path, wf.Rel)
			_, known := gf.ByPath[p]
			if _, st := v.stamps[p]; known || st || !v.scope.Match(p) {
				continue
			}
			data := v.read(wf.Abs)
			switch {
			case data == nil:
				v.out.Unverified++
			case walk.Classify(data) != walk.Text:
				// ingest skips binary and undecodable files too
			default:
				v.out.NotInGraph.add(verifyFile{File: p, SizeNow: wf.Size, LocDisk: countLines(data), Reason: "added since the ingest"}, v.in.Limit)
				v.markDrift(r.Path)
			}
		}
	}
	return nil
}

func (v *verifyRun) markDrift(root string) { v.drifted[root] = true }

// verdict sums up and names the ingest call that repairs the drift.
func (v *verifyRun) verdict() {
	o := v.out
	slices.SortFunc(o.NotInGraph.Files, func(a, b verifyFile) int { return strings.Compare(a.File, b.File) })
	o.Unverified += v.graphUnverified
	bad := o.GraphFiles - o.InSync - v.graphUnverified + o.NotInGraph.Count
	if o.GraphFiles+o.NotInGraph.Count > 0 {
		o.DriftRatio = tools.Round3(float64(bad) / float64(o.GraphFiles+o.NotInGraph.Count))
	}
	codeRoots := 0
	for _, r := range o.Roots {
		if r.Adapter == "code" {
			codeRoots++
		}
	}
	switch {
	case codeRoots == 0:
		o.Verdict = "unknown"
	case len(v.drifted) == 0:
		o.Verdict = "in_sync"
	default:
		o.Verdict = "drifted"
	}
	o.Guidance = v.guidance(codeRoots)
}

func (v *verifyRun) guidance(codeRoots int) tools.Guidance {
	o := v.out
	switch o.Verdict {
	case "unknown":
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(v.c.Registry, "health"),
			NextStepHint: "No code root is ingested (memory or json graphs have no files to compare); ingest the repository to verify it."}
	case "in_sync":
		hint := fmt.Sprintf("The graph matches the disk for %d files; its answers can be trusted as of now.", o.InSync)
		if o.Modified.Count > 0 {
			hint += " Some files were only touched (content as ingested)."
		}
		return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(v.c.Registry, "impact", "view"), NextStepHint: hint}
	}
	root := ""
	for _, r := range o.Roots {
		if v.drifted[r.Path] {
			root = r.Path
			break
		}
	}
	args := map[string]any{"agent_id": v.c.AgentID, "path": root, "incremental": true}
	if codeRoots > 1 {
		args["mode"] = "merge" // re-ingest this root without dropping the others
	}
	o.SuggestedAction = &verifyAction{Tool: "ingest", Arguments: args,
		Why: fmt.Sprintf("%d missing, %d new, %d modified, %d with other line counts: an incremental ingest re-reads only what changed.", o.MissingOnDisk.Count, o.NotInGraph.Count, o.Modified.Count, o.LocDrift.Count)}
	return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(v.c.Registry, "ingest"), NextSuggestedTarget: root,
		NextStepHint: "The graph no longer matches the disk: answers about the files listed may be wrong. Call ingest with suggested_action's arguments, then verify again."}
}

// countLines counts lines the way the extractors do (a last line without
// a newline counts).
func countLines(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

type coverageFile struct {
	File      string `json:"file"`
	Reads     int    `json:"reads"`
	FirstCall int    `json:"first_call"`
	LastCall  int    `json:"last_call"`
	LastTool  string `json:"last_tool"`
	InGraph   bool   `json:"in_graph"`
}

type coverageDir struct {
	Dir   string  `json:"dir"`
	Files int     `json:"files"`
	Read  int     `json:"read"`
	Seen  int     `json:"seen"`
	Ratio float64 `json:"ratio"`
}

type coverageHub struct {
	File     string  `json:"file"`
	NodeID   string  `json:"node_id"`
	PageRank float64 `json:"pagerank"`
	Degree   int     `json:"degree"`
	// Seen: an answer named the file (or its nodes), but it was not read.
	Seen bool `json:"seen"`
}

type coverageSessionResponse struct {
	AgentID string `json:"agent_id"`
	Scope   string `json:"scope"`
	// Calls counts this agent's read calls recorded (this one excluded);
	// Tools per tool.
	Calls int            `json:"calls"`
	Tools map[string]int `json:"tools"`
	// GraphFiles are the indexed files in scope; FilesRead those whose
	// content the agent read, FilesSeen those answers named (read or not).
	GraphFiles    int            `json:"graph_files"`
	FilesRead     int            `json:"files_read"`
	FilesSeen     int            `json:"files_seen"`
	NodesSeen     int            `json:"nodes_seen"`
	CoverageRatio float64        `json:"coverage_ratio"`
	SeenRatio     float64        `json:"seen_ratio"`
	Read          []coverageFile `json:"read"`
	ReadTruncated bool           `json:"read_truncated"`
	Directories   []coverageDir  `json:"directories"`
	DirsTruncated bool           `json:"directories_truncated"`
	UnvisitedHubs []coverageHub  `json:"unvisited_hubs"`
	// Capped: the record reached its memory cap; later visits were not all
	// recorded.
	Capped    bool    `json:"capped"`
	ElapsedMs float64 `json:"elapsed_ms"`
	tools.Guidance
}

func runCoverageSession(c *tools.Call, in coverageSessionParams) (coverageSessionResponse, error) {
	start := time.Now()
	snap, _ := c.Session.Coverage().Snapshot(c.AgentID)
	out := coverageSessionResponse{AgentID: c.AgentID, Calls: snap.Calls, Tools: snap.Tools, Capped: snap.Capped,
		Read: []coverageFile{}, Directories: []coverageDir{}, UnvisitedHubs: []coverageHub{}}
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		out.Scope = scope.String()
		coverageReport(b, scope, snap, in, &out)
		return nil
	})
	if err != nil {
		return coverageSessionResponse{}, err
	}
	out.Guidance = coverageGuidance(c, &out)
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// seenFiles maps what answers showed (node ids, paths) to indexed files,
// and counts the distinct nodes among them.
func seenFiles(b *session.Bundle, seen map[string]int) (map[string]bool, int) {
	g, gf := b.Graph, tools.BundleGraphFiles(b)
	files, nodes := map[string]bool{}, 0
	for k := range seen {
		if id, ok := g.Lookup(k); ok {
			nodes++
			if p := g.SourcePath(id); p != "" {
				if _, ok := gf.ByPath[p]; ok {
					files[p] = true
				}
			}
			continue
		}
		if _, ok := gf.ByPath[k]; ok {
			files[k] = true
		}
	}
	return files, nodes
}

func coverageReport(b *session.Bundle, scope *tools.ScopeFilter, snap session.CoverageSnapshot, in coverageSessionParams, out *coverageSessionResponse) {
	g, gf := b.Graph, tools.BundleGraphFiles(b)
	seen, nodes := seenFiles(b, snap.Seen)
	out.NodesSeen = nodes
	dirs := map[string]*coverageDir{}
	var hubs []coverageHub
	for i := range gf.Files {
		f := &gf.Files[i]
		if !scope.Match(f.Path) {
			continue
		}
		out.GraphFiles++
		_, read := snap.Read[f.Path]
		d := dirs[path.Dir(f.Path)]
		if d == nil {
			d = &coverageDir{Dir: path.Dir(f.Path)}
			dirs[d.Dir] = d
		}
		d.Files++
		if read {
			out.FilesRead++
			d.Read++
		}
		if read || seen[f.Path] {
			out.FilesSeen++
			d.Seen++
		}
		if !read && f.Node != graph.NoNode {
			hubs = append(hubs, coverageHub{File: f.Path, NodeID: g.ExternalID(f.Node), PageRank: tools.R3(g.PageRank(f.Node)), Degree: g.Degree(f.Node), Seen: seen[f.Path]})
		}
	}
	if out.GraphFiles > 0 {
		out.CoverageRatio = tools.Round3(float64(out.FilesRead) / float64(out.GraphFiles))
		out.SeenRatio = tools.Round3(float64(out.FilesSeen) / float64(out.GraphFiles))
	}
	for _, p := range sortedKeys(snap.Read) {
		if !scope.Match(p) {
			continue
		}
		if len(out.Read) == in.Limit {
			out.ReadTruncated = true
			break
		}
		v := snap.Read[p]
		_, ok := gf.ByPath[p]
		out.Read = append(out.Read, coverageFile{File: p, Reads: v.Reads, FirstCall: v.First, LastCall: v.Last, LastTool: v.Tool, InGraph: ok})
	}
	for _, d := range dirs {
		d.Ratio = tools.Round3(float64(d.Read) / float64(d.Files))
		out.Directories = append(out.Directories, *d)
	}
	// The biggest directories first: where unread code is.
	slices.SortFunc(out.Directories, func(a, b coverageDir) int {
		return cmp.Or(cmp.Compare(b.Files, a.Files), strings.Compare(a.Dir, b.Dir))
	})
	if len(out.Directories) > in.Limit {
		out.Directories, out.DirsTruncated = out.Directories[:in.Limit], true
	}
	slices.SortFunc(hubs, func(a, b coverageHub) int {
		return cmp.Or(cmp.Compare(b.PageRank, a.PageRank), cmp.Compare(b.Degree, a.Degree), strings.Compare(a.File, b.File))
	})
	out.UnvisitedHubs = append(out.UnvisitedHubs, hubs[:min(len(hubs), in.TopK)]...)
}

func coverageGuidance(c *tools.Call, out *coverageSessionResponse) tools.Guidance {
	if out.GraphFiles == 0 {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "ingest"),
			NextStepHint: "The graph has no files in scope; ingest the repository (or widen scope) first."}
	}
	if len(out.UnvisitedHubs) == 0 {
		return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "seek"),
			NextStepHint: "You have read every indexed file in scope."}
	}
	var names []string
	for _, h := range out.UnvisitedHubs[:min(3, len(out.UnvisitedHubs))] {
		names = append(names, h.File)
	}
	state := "triaging"
	if out.FilesRead > 0 {
		state = "proving"
	}
	next := tools.FirstTool(c.Registry, "batch_view", "view")
	return tools.Guidance{ProofState: state, NextSuggestedTool: next, NextSuggestedTarget: out.UnvisitedHubs[0].File,
		NextStepHint: fmt.Sprintf("You have read %d of %d files (%.0f%%). The most central ones not read yet: %s — read them with %s.", out.FilesRead, out.GraphFiles, 100*out.CoverageRatio, strings.Join(names, ", "), next)}
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Budget of one external_references scan.
const (
	extrefMaxFiles = 20_000
	extrefMaxBytes = 256 << 20
)

type extRef struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Kind  string `json:"kind"`
	Value string `json:"value"`
	Key   string `json:"key"`
	// Resolved is the absolute path a ../ escape leads to.
	Resolved string `json:"resolved,omitempty"`
}

type extGroup struct {
	Kind     string   `json:"kind"`
	Key      string   `json:"key"`
	Count    int      `json:"count"`
	Files    int      `json:"files"`
	Examples []extRef `json:"examples"`
}

type extPackage struct {
	Package   string `json:"package"`
	Ecosystem string `json:"ecosystem"`
	Stdlib    bool   `json:"stdlib"`
	// Declared: a manifest of the repository declares the dependency
	// (the graph has its package node).
	Declared bool     `json:"declared"`
	Count    int      `json:"count"`
	Files    int      `json:"files"`
	Modules  []string `json:"modules"`
	First    extRef   `json:"first"`
}

type extDeclared struct {
	Package   string `json:"package"`
	Ecosystem string `json:"ecosystem"`
	Version   string `json:"version,omitempty"`
	NodeID    string `json:"node_id"`
	Imported  bool   `json:"imported"`
}

type externalReferencesResponse struct {
	Scope        string         `json:"scope"`
	Kinds        []string       `json:"kinds"`
	FilesScanned int            `json:"files_scanned"`
	BytesScanned int64          `json:"bytes_scanned"`
	FilesSkipped int            `json:"files_skipped"`
	ByKind       map[string]int `json:"by_kind"`
	Total        int            `json:"total"`
	References   []extRef       `json:"references"`
	Groups       []extGroup     `json:"groups"`
	Packages     []extPackage   `json:"packages"`
	// StdlibImports and LocalImports count the import sites left out as
	// the standard library's and the repository's own.
	StdlibImports        int           `json:"stdlib_imports"`
	LocalImports         int           `json:"local_imports"`
	DeclaredDependencies []extDeclared `json:"declared_dependencies"`
	Truncated            bool          `json:"truncated"`
	// BudgetExhausted: the scan stopped at its file or byte budget.
	BudgetExhausted bool    `json:"budget_exhausted"`
	ElapsedMs       float64 `json:"elapsed_ms"`
	tools.Guidance
}

func runExternalReferences(c *tools.Call, in externalReferencesParams) (externalReferencesResponse, error) {
	start := time.Now()
	if len(in.Kinds) == 0 {
		return externalReferencesResponse{}, tools.Errorf("kinds lists the kinds to report: absolute_path, parent_escape, url, env_path, home_path, import (all when absent).", "kinds is empty").
			WithExample(map[string]any{"agent_id": "claude", "kinds": []string{"url", "parent_escape"}})
	}
	out := &externalReferencesResponse{ByKind: map[string]int{}, References: []extRef{}, Groups: []extGroup{}, Packages: []extPackage{}, DeclaredDependencies: []extDeclared{}}
	out.Kinds = slices.Compact(slices.Sorted(slices.Values(in.Kinds)))
	err := readRootsScoped(c, in.Scope, func(b *session.Bundle, scope *tools.ScopeFilter) error {
		out.Scope = scope.String()
		x := newExtScan(c, b, scope, in, out)
		if err := x.scan(); err != nil {
			return err
		}
		x.finish()
		return nil
	})
	if err != nil {
		return externalReferencesResponse{}, err
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	return *out, nil
}

// extScan is one external_references scan.
type extScan struct {
	c      *tools.Call
	b      *session.Bundle
	scope  *tools.ScopeFilter
	in     externalReferencesParams
	out    *externalReferencesResponse
	kinds  map[string]bool
	groups map[[2]string]*extGroupAcc
	pkgs   map[[2]string]*extPkgAcc
	// escapes are the parent_escape groups (guidance).
	escapes []*extGroupAcc
}

type extGroupAcc struct {
	extGroup
	files map[string]bool
	root  string // the root of the first file (for escapes)
}

type extPkgAcc struct {
	extPackage
	files   map[string]bool
	modules map[string]bool
}

func newExtScan(c *tools.Call, b *session.Bundle, scope *tools.ScopeFilter, in externalReferencesParams, out *externalReferencesResponse) *extScan {
	x := &extScan{c: c, b: b, scope: scope, in: in, out: out, kinds: map[string]bool{}, groups: map[[2]string]*extGroupAcc{}, pkgs: map[[2]string]*extPkgAcc{}}
	for _, k := range in.Kinds {
		x.kinds[k] = true
	}
	return x
}

// codeRootOf splits a graph path into its code root and the path relative
// to it ("" when no code root holds it).
func codeRootOf(b *session.Bundle, p string) (root, rel string) {
	rs := tools.BundleSpace(b)
	if ns, rest, ok := strings.Cut(p, "/"); ok && rs.RootOf[ns] != "" {
		return rs.RootOf[ns], rest
	}
	for _, r := range b.Roots {
		if r.Adapter == "code" && r.Namespace == "" {
			return r.Path, p
		}
	}
	return "", ""
}

// bundleRepos describes each code root for import classification (its
// files and manifests), once per graph.
var reposKey = session.NewKey[map[string]*extref.Repo]("extref.repos")

func bundleRepos(b *session.Bundle) map[string]*extref.Repo {
	v, _ := session.Derive(b, reposKey, func(*graph.Graph) (map[string]*extref.Repo, error) {
		files := map[string][]string{}
		for _, f := range tools.BundleGraphFiles(b).Files {
			if root, rel := codeRootOf(b, f.Path); root != "" {
				files[root] = append(files[root], rel)
			}
		}
		repos := map[string]*extref.Repo{}
		for root, fs := range files {
			repos[root] = extref.NewRepo(fs, workspace.Detect(root, fs))
		}
		return repos, nil
	})
	return v
}

func (x *extScan) scan() error {
	gf, disk := tools.BundleGraphFiles(x.b), tools.BundleDiskFiles(x.b)
	repos := bundleRepos(x.b)
	loader := tools.NewContentLoader(tools.BundleCache(x.b), tools.BundleGuard(x.b).OpenReal)
	for i := range gf.Files {
		f := &gf.Files[i]
		root, rel := codeRootOf(x.b, f.Path)
		if root == "" || !x.scope.Match(f.Path) {
			continue
		}
		if x.out.FilesScanned >= extrefMaxFiles || x.out.BytesScanned >= extrefMaxBytes {
			x.out.BudgetExhausted = true
			break
		}
		if i%256 == 0 && x.c.Ctx.Err() != nil {
			return x.c.Ctx.Err()
		}
		data := loader.Load(disk.Abs[i])
		delete(loader.Got, disk.Abs[i]) // each file is read once; keep no copy
		if data == nil {
			x.out.FilesSkipped++
			continue
		}
		x.out.FilesScanned++
		x.out.BytesScanned += int64(len(data))
		for _, r := range extref.Scan(rel, data) {
			x.add(f.Path, root, rel, r, repos[root])
		}
	}
	return nil
}

// add judges one reference found in file (graph path p, rel under root).
func (x *extScan) add(p, root, rel string, r extref.Ref, repo *extref.Repo) {
	ref := extRef{File: p, Line: r.Line, Kind: r.Kind, Value: r.Value, Key: r.Key}
	guard := tools.BundleGuard(x.b)
	switch r.Kind {
	case extref.Import:
		switch {
		case r.Stdlib:
			x.out.StdlibImports++
			if !x.in.IncludeStdlib {
				return
			}
		case repo != nil && repo.Local(r):
			x.out.LocalImports++
			return
		}
	case extref.AbsolutePath:
		if filepath.IsAbs(r.Value) && guard.Contains(r.Value) {
			return // inside the roots
		}
	case extref.ParentEscape:
		ref.Resolved = filepath.Join(root, filepath.FromSlash(path.Dir(rel)), filepath.FromSlash(strings.ReplaceAll(r.Value, `\`, "/")))
		if guard.Contains(ref.Resolved) {
			return // into another ingest root
		}
	}
	if !x.kinds[r.Kind] {
		return
	}
	x.out.Total++
	x.out.ByKind[r.Kind]++
	if r.Kind == extref.Import {
		x.addPackage(ref, r)
		return
	}
	if len(x.out.References) < x.in.Limit {
		x.out.References = append(x.out.References, ref)
	} else {
		x.out.Truncated = true
	}
	k := [2]string{r.Kind, r.Key}
	g := x.groups[k]
	if g == nil {
		g = &extGroupAcc{extGroup: extGroup{Kind: r.Kind, Key: r.Key, Examples: []extRef{}}, files: map[string]bool{}, root: root}
		x.groups[k] = g
	}
	g.Count++
	g.files[p] = true
	if len(g.Examples) < 3 {
		g.Examples = append(g.Examples, ref)
	}
}

func (x *extScan) addPackage(ref extRef, r extref.Ref) {
	k := [2]string{r.Ecosystem, r.Key}
	pk := x.pkgs[k]
	if pk == nil {
		pk = &extPkgAcc{extPackage: extPackage{Package: r.Key, Ecosystem: r.Ecosystem, Stdlib: r.Stdlib, First: ref}, files: map[string]bool{}, modules: map[string]bool{}}
		x.pkgs[k] = pk
	}
	pk.Count++
	pk.files[ref.File] = true
	if len(pk.modules) < 5 {
		pk.modules[r.Value] = true
	}
}

// finish sorts and bounds the groups and packages, matches packages with
// the dependencies the manifests declare, and adds guidance.
func (x *extScan) finish() {
	o, limit := x.out, x.in.Limit
	for _, g := range x.groups {
		g.Files = len(g.files)
		o.Groups = append(o.Groups, g.extGroup)
		if g.Kind == extref.ParentEscape {
			x.escapes = append(x.escapes, g)
		}
	}
	slices.SortFunc(o.Groups, func(a, b extGroup) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)), strings.Compare(a.Key, b.Key))
	})
	declared := x.declared()
	for _, p := range x.pkgs {
		p.Files, p.Modules = len(p.files), sortedKeys(p.modules)
		p.Declared = declaredMatch(declared, p.Ecosystem, p.Package, p.First.Value)
		o.Packages = append(o.Packages, p.extPackage)
	}
	slices.SortFunc(o.Packages, func(a, b extPackage) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Ecosystem, b.Ecosystem), strings.Compare(a.Package, b.Package))
	})
	for i := range declared {
		d := &declared[i]
		for _, p := range o.Packages {
			if declaredMatch(declared[i:i+1], p.Ecosystem, p.Package, p.First.Value) {
				d.Imported = true
				break
			}
		}
	}
	if len(o.Groups) > limit {
		o.Groups, o.Truncated = o.Groups[:limit], true
	}
	if len(o.Packages) > limit {
		o.Packages, o.Truncated = o.Packages[:limit], true
	}
	if len(declared) > limit {
		declared, o.Truncated = declared[:limit], true
	}
	o.DeclaredDependencies = append(o.DeclaredDependencies, declared...)
	o.Guidance = x.guidance()
}

func kindOrder(k string) int { return slices.Index(extref.Kinds, k) }

// declared lists the external dependencies the graph has package nodes
// for (declared in go.mod, package.json, Cargo.toml, pyproject.toml).
func (x *extScan) declared() []extDeclared {
	g := x.b.Graph
	var out []extDeclared
	for _, id := range g.NodesByTag("external") {
		if !g.HasTag(id, "package") {
			continue
		}
		eco := ""
		for _, t := range g.Tags(id) {
			if t != "package" && t != "external" {
				eco = t
				break
			}
		}
		out = append(out, extDeclared{Package: g.Label(id), Ecosystem: eco, Version: g.Provenance(id).Excerpt, NodeID: g.ExternalID(id)})
	}
	slices.SortFunc(out, func(a, b extDeclared) int {
		return cmp.Or(strings.Compare(a.Ecosystem, b.Ecosystem), strings.Compare(a.Package, b.Package))
	})
	return slices.CompactFunc(out, func(a, b extDeclared) bool { return a.Ecosystem == b.Ecosystem && a.Package == b.Package })
}

// declaredMatch reports whether an imported package is among the declared
// dependencies (Python distributions and import names compared loosely).
func declaredMatch(declared []extDeclared, eco, pkg, module string) bool {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	for _, d := range declared {
		switch {
		case eco == "go" && d.Ecosystem == "go":
			if module == d.Package || strings.HasPrefix(module, d.Package+"/") {
				return true
			}
		case eco == "python" && (d.Ecosystem == "pypi" || d.Ecosystem == "python"),
			eco == "npm" && d.Ecosystem == "npm",
			eco == "cargo" && d.Ecosystem == "cargo":
			if norm(d.Package) == norm(pkg) {
				return true
			}
		}
	}
	return false
}

func (x *extScan) guidance() tools.Guidance {
	o := x.out
	if g := x.siblingEscape(); g != nil {
		target := filepath.Join(g.root, filepath.FromSlash(g.Key))
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(x.c.Registry, "ingest"), NextSuggestedTarget: target,
			NextStepHint: fmt.Sprintf("%s climb out of the roots into %s (e.g. %s:%d); to follow them, ingest that directory with mode merge.", tools.Plural(g.Count, "reference"), target, g.Examples[0].File, g.Examples[0].Line)}
	}
	if len(o.References) > 0 {
		r := o.References[0]
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(x.c.Registry, "view"), NextSuggestedTarget: r.File,
			NextStepHint: fmt.Sprintf("%s outside the roots in %s; read them in context with view (first: %s:%d).", tools.Plural(o.Total-o.ByKind[extref.Import], "reference"), tools.Plural(len(o.Groups), "group"), r.File, r.Line)}
	}
	if len(o.Packages) > 0 {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(x.c.Registry, "search"), NextSuggestedTarget: o.Packages[0].Package,
			NextStepHint: fmt.Sprintf("The code imports %s the repository does not provide; %s is used most (%s). search for it to see where.", tools.Plural(len(o.Packages), "package"), o.Packages[0].Package, tools.Plural(o.Packages[0].Count, "import"))}
	}
	return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(x.c.Registry, "impact", "seek"),
		NextStepHint: "No reference outside the roots was found in scope: the code is self-contained as far as its text shows."}
}

// siblingEscape is the escape group most worth ingesting: the most used
// one whose directory exists (groups are sorted by count), else the most
// used.
func (x *extScan) siblingEscape() *extGroupAcc {
	slices.SortFunc(x.escapes, func(a, b *extGroupAcc) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Key, b.Key))
	})
	for _, g := range x.escapes {
		if fi, err := os.Stat(filepath.Join(g.root, filepath.FromSlash(g.Key))); err == nil && fi.IsDir() {
			return g
		}
	}
	if len(x.escapes) > 0 {
		return x.escapes[0]
	}
	return nil
}
