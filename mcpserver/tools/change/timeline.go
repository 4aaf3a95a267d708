package change

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type timelineParams struct {
	Node             string `json:"node" jsonschema:"A file (external id or path) or an entity in it." help:"The file (external id file::path, or a path) or an entity inside it." tool:"required"`
	Depth            string `json:"depth" help:"Window before the repository's newest commit." tool:"default=30d,enum=7d|30d|90d|all"`
	IncludeCoChanges bool   `json:"include_co_changes" help:"Include co-changed files with coupling scores." tool:"default=true"`
	IncludeChurn     bool   `json:"include_churn" help:"Include lines added/deleted per commit (reads the diffs from git)." tool:"default=true"`
	TopK             int    `json:"top_k" jsonschema:"Co-change partners listed (and files per commit)." help:"Maximum co-change partners (and files listed per commit)." tool:"default=10,min=1,max=100"`
}

type changeJSON struct {
	Date      string   `json:"date"`
	Commit    string   `json:"commit"`
	Author    string   `json:"author,omitempty"`
	Subject   string   `json:"subject,omitempty"`
	Delta     string   `json:"delta,omitempty" jsonschema:"+added/-deleted lines (absent without churn; \"binary\" for binary content)."`
	CoChanged []string `json:"co_changed"`
	// FilesInCommit counts every file of the commit (co_changed lists top_k).
	FilesInCommit int `json:"files_in_commit"`
}

type partnerJSON struct {
	File           string  `json:"file"`
	NodeID         string  `json:"node_id"`
	Times          int     `json:"times"`
	CouplingDegree float64 `json:"coupling_degree" jsonschema:"Share of this file's commits in the window that also changed the partner, in [0, 1]."`
}

type churnJSON struct {
	LinesAdded   int `json:"lines_added"`
	LinesDeleted int `json:"lines_deleted"`
}

type timelineOutput struct {
	Node                string        `json:"node"`
	Depth               string        `json:"depth"`
	WindowStart         string        `json:"window_start,omitempty" jsonschema:"First day of the window (the window ends at the repository's newest commit)."`
	Changes             []changeJSON  `json:"changes"`
	CoChangedWith       []partnerJSON `json:"co_changed_with"`
	Velocity            string        `json:"velocity" jsonschema:"accelerating, decelerating or stable."`
	StabilityScore      float64       `json:"stability_score" jsonschema:"In [0, 1]; below 0.3 is a hotspot."`
	Pattern             string        `json:"pattern" jsonschema:"expanding, shrinking, churning, dormant or stable."`
	TotalChurn          *churnJSON    `json:"total_churn,omitempty"`
	CommitCountInWindow int           `json:"commit_count_in_window"`
	CommitCountAll      int           `json:"commit_count_all"`
	Note                string        `json:"note,omitempty"`
	ElapsedMs           float64       `json:"elapsed_ms"`
	tools.Guidance
}

// maxTimelineCommits bounds the commits listed (and diffed for churn).
const maxTimelineCommits = 100

func depthDays(d string) float64 {
	switch d {
	case "7d":
		return 7
	case "90d":
		return 90
	case "all":
		return 0
	}
	return 30
}

func runTimeline(c *tools.Call, in timelineParams) (timelineOutput, error) {
	var out timelineOutput
	var churnFile, onDisk string
	var hashes []string
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		_, file, err := fileNode(b, in.Node, "node")
		if err != nil {
			return err
		}
		if g.Type(file) != graph.File {
			return tools.Errorf("timeline reads a file's history: name a file or an entity inside one.", "%s is a %s, not a file", g.ExternalID(file), tools.TypeName(g.Type(file))).
				WithExample(map[string]any{"agent_id": c.AgentID, "node": "file::src/app.py"})
		}
		start := time.Now()
		x := b.History()
		out = buildTimeline(g, x, file, in)
		if x.Len() > 0 {
			onDisk = diskPath(b, file)
		}
		if in.IncludeChurn && len(out.Changes) > 0 {
			churnFile = onDisk
			for _, ch := range out.Changes {
				hashes = append(hashes, ch.Commit)
			}
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	if err != nil {
		return timelineOutput{}, err
	}
	start := time.Now()
	if onDisk != "" && gitmeta.IsShallow(filepath.Dir(onDisk)) {
		out.Note = strings.TrimSpace(out.Note + " The repository is a shallow clone: the counts cover the history it holds, not the commits before its boundary (git fetch --unshallow, then ingest again).")
	}
	if churnFile != "" {
		addChurn(c, &out, churnFile, hashes)
	}
	out.Pattern = timelinePattern(out)
	out.ElapsedMs += tools.Ms(time.Since(start))
	out.Guidance = timelineGuidance(c, out)
	return out, nil
}

// buildTimeline lists the file's commits in the window, its partners,
// velocity and stability.
func buildTimeline(g *graph.Graph, x *history.Index, file graph.NodeID, in timelineParams) timelineOutput {
	out := timelineOutput{Node: g.ExternalID(file), Depth: in.Depth, Changes: []changeJSON{}, CoChangedWith: []partnerJSON{}}
	all := x.FileCommits(file)
	out.CommitCountAll = len(all)
	if x.Len() == 0 {
		out.Note = "The graph has no git history for this file's root (not a repository, or ingested without history)."
		out.Velocity, out.StabilityScore = "stable", 1
		return out
	}
	days := depthDays(in.Depth)
	var since int64
	if days > 0 {
		since = x.Head() - int64(days*86400)
		out.WindowStart = time.Unix(since, 0).UTC().Format("2006-01-02")
	}
	var times []int64
	for _, ci := range all {
		cm := x.Commit(int(ci))
		if cm.Time < since {
			continue
		}
		times = append(times, cm.Time)
		if len(out.Changes) >= maxTimelineCommits {
			continue
		}
		ch := changeJSON{Date: time.Unix(cm.Time, 0).UTC().Format("2006-01-02"), Commit: cm.Hash, Author: cm.Author, Subject: cm.Subject, CoChanged: []string{}}
		fs := x.CommitFiles(int(ci))
		ch.FilesInCommit = len(fs)
		for _, o := range fs {
			if o != file && len(ch.CoChanged) < in.TopK {
				ch.CoChanged = append(ch.CoChanged, tools.ShortID(g, o))
			}
		}
		out.Changes = append(out.Changes, ch)
	}
	out.CommitCountInWindow = len(times)
	if len(times) > len(out.Changes) {
		out.Note = fmt.Sprintf("The newest %d of the window's %d commits are listed; total_churn and pattern count those only.", len(out.Changes), len(times))
	}
	if in.IncludeCoChanges {
		for _, p := range x.Partners(file, since, 0, in.TopK) {
			out.CoChangedWith = append(out.CoChangedWith, partnerJSON{File: tools.ShortID(g, p.Node), NodeID: g.ExternalID(p.Node), Times: p.Times, CouplingDegree: tools.Round3(p.Coupling)})
		}
	}
	span := days
	if span == 0 && len(all) > 0 {
		span = max(float64(x.Head()-x.Commit(int(all[len(all)-1])).Time)/86400, 1)
	}
	out.Velocity = velocityOf(times, x.Head(), span)
	// Commits per 30 days: one a month is stable (0.67), four are a hotspot (0.33).
	rate := float64(len(times)) / max(span, 1) * 30
	out.StabilityScore = tools.Round3(1 / (1 + rate/2))
	return out
}

// velocityOf compares the newer half of the window with the older half.
func velocityOf(times []int64, head int64, spanDays float64) string {
	if len(times) < 3 || spanDays <= 0 {
		return "stable"
	}
	mid := head - int64(spanDays*86400/2)
	newer := 0
	for _, t := range times {
		if t >= mid {
			newer++
		}
	}
	older := len(times) - newer
	switch {
	case float64(newer) >= 1.5*float64(older)+1:
		return "accelerating"
	case float64(older) >= 1.5*float64(newer)+1:
		return "decelerating"
	}
	return "stable"
}

// diskPath is the file's absolute path on disk ("" when no root holds
// it).
func diskPath(b *session.Bundle, file graph.NodeID) string {
	rel := b.Graph.SourcePath(file)
	if rel == "" {
		return ""
	}
	p := tools.BundleSpace(b).DiskPath(rel)
	if filepath.IsAbs(p) {
		return p
	}
	for _, r := range b.Roots {
		if r.Namespace == "" && r.Adapter == "code" {
			return filepath.Join(r.Path, filepath.FromSlash(p))
		}
	}
	return ""
}

// addChurn reads each listed commit's diff of the file from git.
func addChurn(c *tools.Call, out *timelineOutput, file string, hashes []string) {
	churn, err := gitmeta.FileChurn(c.Ctx, file, hashes)
	if err != nil {
		out.Note = strings.TrimSpace(out.Note + " Churn unavailable: " + err.Error())
		return
	}
	total := churnJSON{}
	for i := range out.Changes {
		ch, ok := churn[out.Changes[i].Commit]
		switch {
		case !ok:
		case ch.Binary:
			out.Changes[i].Delta = "binary"
		default:
			out.Changes[i].Delta = "+" + strconv.Itoa(ch.Added) + "/-" + strconv.Itoa(ch.Deleted)
			total.LinesAdded += ch.Added
			total.LinesDeleted += ch.Deleted
		}
	}
	out.TotalChurn = &total
}

// timelinePattern classifies the window's changes.
func timelinePattern(out timelineOutput) string {
	n := out.CommitCountInWindow
	if n <= 1 {
		return "dormant"
	}
	if t := out.TotalChurn; t != nil {
		sum := t.LinesAdded + t.LinesDeleted
		net := t.LinesAdded - t.LinesDeleted
		switch {
		case sum == 0:
			return "stable"
		case n >= 4 && math.Abs(float64(net)) < 0.3*float64(sum):
			return "churning"
		case float64(net) > 0.5*float64(sum):
			return "expanding"
		case float64(net) < -0.5*float64(sum):
			return "shrinking"
		}
		return "stable"
	}
	if out.StabilityScore < 0.3 {
		return "churning"
	}
	return "stable"
}

func timelineGuidance(c *tools.Call, out timelineOutput) tools.Guidance {
	if len(out.CoChangedWith) > 0 && out.CoChangedWith[0].CouplingDegree > 0.6 {
		p := out.CoChangedWith[0]
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "predict", "view"), NextSuggestedTarget: out.Node,
			NextStepHint: filepath.Base(p.File) + " changes with this file most of the time: a change here likely needs one there."}
	}
	if out.StabilityScore < 0.3 {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "view"), NextSuggestedTarget: out.Node,
			NextStepHint: "A hotspot: it changes often. Check what depends on it before changing it again."}
	}
	return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "view", "impact"), NextSuggestedTarget: out.Node,
		NextStepHint: "Read the file, or ask predict what usually changes with it."}
}
