package change

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type divergeParams struct {
	Baseline               string `json:"baseline" jsonschema:"A commit (hash, tag, HEAD~N), a date, \"last_session\" or a snapshot." help:"A commit (full or short hash, tag, branch, HEAD~N), an ISO date (2026-03-01 or 2026-03-01T12:00:00Z: the newest commit at or before it), \"last_session\" (the graph saved in the runtime directory), or a snapshot file name in the runtime directory." tool:"required,maxlen=256"`
	Scope                  string `json:"scope" jsonschema:"Path glob, e.g. \"src/**/*.go\"." help:"File path glob limiting the answer, e.g. \"backend/stormender*\" or \"src/**/*.go\"; none = every file." tool:"maxlen=1024"`
	IncludeCouplingChanges bool   `json:"include_coupling_changes" help:"Include co-change coupling that strengthened or weakened after the baseline (directory coupling for snapshot baselines)." tool:"default=true"`
	IncludeAnomalies       bool   `json:"include_anomalies" help:"Detect anomalies: test deficits, velocity spikes, dependents spikes, new coupling, awakened files, isolation." tool:"default=true"`
}

func registerDiverge(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "diverge",
		Title:       "Drift since a baseline",
		Description: "What moved since a commit, date or snapshot: files, structure, coupling, anomalies.",
		Details:     "What moved structurally since a baseline — a commit (hash, short hash, tag, branch, HEAD~3), a date (2026-03-01) or a graph snapshot (\"last_session\": the graph saved in the runtime directory; or a snapshot file there): files added, removed and modified (lines +/−, growth ratio, commits since, dependency fan-in and fan-out now; renames detected as git does, by similar content), a Jaccard structural drift score, co-change coupling that strengthened or weakened after the baseline, and anomalies — new or changed code without tests (test_deficit), files whose change rate jumped (velocity_spike), files that gained many dependents among the new files (dependents_spike), pairs newly coupled (new_coupling), files that changed after being dormant (awakened), files that lost every dependency link (isolation, snapshot baselines). Git baselines compare the baseline commit with the work tree: what is committed since, and what is changed on disk and not committed yet (uncommitted_nodes).",
		Class:       tools.Read,
		WhenToUse:   "At the start of a session (what moved since I last looked), in a sprint retrospective (how much did the architecture change), as a quality gate (new code without tests).",
		AvoidWhen:   "You need learned-weight drift only (drift) or a diff of two saved graphs (differential).",
		Next:        []string{"timeline", "impact", "differential"},
		Example:     map[string]any{"agent_id": "claude", "baseline": "HEAD~3", "scope": "backend/*"},
	}, runDiverge)
}

type modifiedJSON struct {
	File         string  `json:"file"`
	NodeID       string  `json:"node_id"`
	RenamedFrom  string  `json:"renamed_from,omitempty" jsonschema:"The path at the baseline when git's rename detection (60 % similar content) paired the file with one removed since."`
	Delta        string  `json:"delta" jsonschema:"+added/-deleted lines (git baselines) or edges (snapshot baselines)."`
	LinesAdded   int     `json:"lines_added"`
	LinesDeleted int     `json:"lines_deleted"`
	GrowthRatio  float64 `json:"growth_ratio,omitempty" jsonschema:"Lines now over lines at the baseline."`
	Uncommitted  bool    `json:"uncommitted,omitempty" jsonschema:"The file on disk differs from HEAD: part of the change is not committed (git baselines)."`
	CommitsSince int     `json:"commits_since"`
	FanIn        int     `json:"fan_in" jsonschema:"Files that depend on it now."`
	FanOut       int     `json:"fan_out" jsonschema:"Files it depends on now."`
}

type couplingChangeJSON struct {
	Pair        []string `json:"pair"`
	Was         float64  `json:"was" jsonschema:"Coupling before the baseline, in [0, 1]: joint commits over commits of either (directory link share for snapshot baselines)."`
	Now         float64  `json:"now"`
	Direction   string   `json:"direction" jsonschema:"strengthened or weakened."`
	JointBefore int      `json:"joint_before"`
	JointAfter  int      `json:"joint_after"`
}

type anomalyJSON struct {
	Type     string `json:"type" jsonschema:"test_deficit, velocity_spike, dependents_spike, new_coupling, awakened or isolation."`
	File     string `json:"file"`
	Detail   string `json:"detail"`
	Severity string `json:"severity" jsonschema:"info or warning."`
}

type divergeOutput struct {
	Baseline         string               `json:"baseline"`
	BaselineKind     string               `json:"baseline_kind" jsonschema:"commit, date or snapshot."`
	BaselineCommit   string               `json:"baseline_commit,omitempty"`
	BaselineTime     string               `json:"baseline_time,omitempty"`
	HeadCommit       string               `json:"head_commit,omitempty"`
	Scope            string               `json:"scope,omitempty"`
	StructuralDrift  float64              `json:"structural_drift" jsonschema:"1 − Jaccard similarity of the files (path and content) at the baseline and now, in scope; edges for snapshot baselines. In [0, 1]."`
	NewNodes         []string             `json:"new_nodes"`
	RemovedNodes     []string             `json:"removed_nodes"`
	ModifiedNodes    []modifiedJSON       `json:"modified_nodes" jsonschema:"Largest change first, at most 50."`
	UncommittedNodes []string             `json:"uncommitted_nodes,omitempty" jsonschema:"Files whose state on disk is not HEAD's (edited, new or deleted and not committed; git baselines). They are counted in new, removed and modified like committed changes."`
	CouplingChanges  []couplingChangeJSON `json:"coupling_changes"`
	Anomalies        []anomalyJSON        `json:"anomalies"`
	CommitsSince     int                  `json:"commits_since" jsonschema:"Commits after the baseline that the graph's history holds."`
	Counts           struct {
		New         int `json:"new"`
		Removed     int `json:"removed"`
		Modified    int `json:"modified"`
		Renamed     int `json:"renamed" jsonschema:"Of the modified files, those that moved (git baselines)."`
		Uncommitted int `json:"uncommitted" jsonschema:"Files whose state on disk is not HEAD's (git baselines)."`
		Unchanged   int `json:"unchanged"`
	} `json:"counts"`
	Summary   string  `json:"summary"`
	Note      string  `json:"note,omitempty"`
	ElapsedMs float64 `json:"elapsed_ms"`
	tools.Guidance
}

// divergeRun is one diverge call.
type divergeRun struct {
	c     *tools.Call
	b     *session.Bundle
	g     *graph.Graph
	in    divergeParams
	scope *tools.GlobMatcher
	deps  *analysis.DepGraph
	out   *divergeOutput
	// base is the baseline's time (Unix seconds), head the newest commit's.
	base, head int64
	// since holds the commits of the first-parent chain after the
	// baseline (nil: the baseline is off the chain; times decide).
	since    map[string]bool
	added    map[graph.NodeID]bool
	modified map[graph.NodeID]*modifiedJSON
	// baseTree and basePath (node id → path at the baseline) give the
	// listed files' growth where git counted their lines.
	baseTree *object.Tree
	basePath map[string]string
	baseHash string
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})?)?$`)

func runDiverge(c *tools.Call, in divergeParams) (divergeOutput, error) {
	in.Baseline = strings.TrimSpace(in.Baseline)
	if in.Baseline == "" {
		return divergeOutput{}, baselineError(nil, "baseline is empty")
	}
	run := &divergeRun{c: c, in: in, out: &divergeOutput{Baseline: in.Baseline, Scope: in.Scope}}
	if in.Scope != "" {
		gm, err := tools.CompileGlob(in.Scope)
		if err != nil {
			return divergeOutput{}, tools.Errorf("scope is a path glob such as \"backend/*\" or \"src/**/*.go\".", "scope %q: %v", in.Scope, err)
		}
		run.scope = gm
	}
	var snap *graph.Graph
	if isSnapshotName(in.Baseline) {
		name := in.Baseline
		if name == "last_session" {
			name = c.Session.Config().GraphSource
		}
		var err error
		if snap, err = loadSnapshot(c, name, "baseline"); err != nil {
			return divergeOutput{}, err
		}
		if snap == nil {
			return divergeOutput{}, baselineError(nil, "baseline \"current\" is the graph itself: nothing can have moved since")
		}
	}
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		start := time.Now()
		run.b, run.g = b, b.Graph
		d, err := depGraph(b, true)
		if err != nil {
			return err
		}
		run.deps = d
		if snap != nil {
			err = run.fromSnapshot(snap)
		} else {
			err = run.fromGit()
		}
		if err != nil {
			return err
		}
		run.finish()
		run.out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return *run.out, err
}

func isSnapshotName(s string) bool {
	return s == "last_session" || strings.HasSuffix(s, ".bin") || strings.HasSuffix(s, ".json")
}

// baselineError teaches the baseline forms, with the newest commits when
// there is a history.
func baselineError(x *history.Index, format string, args ...any) *tools.Error {
	e := tools.Errorf("baseline is a commit (full or short hash, tag, branch, HEAD~3), an ISO date (2026-03-01), \"last_session\" or a snapshot file in the runtime directory (graph.bin).", format, args...)
	if x != nil && x.Len() > 0 {
		var recent []string
		for i := 0; i < min(x.Len(), 5); i++ {
			cm := x.Commit(i)
			recent = append(recent, fmt.Sprintf("%s %s %s", shortHash(cm.Hash), time.Unix(cm.Time, 0).UTC().Format("2006-01-02"), cm.Subject))
		}
		oldest := x.Commit(x.Len() - 1)
		e.Extra = map[string]any{"recent_commits": recent, "oldest_commit": fmt.Sprintf("%s %s", shortHash(oldest.Hash), time.Unix(oldest.Time, 0).UTC().Format("2006-01-02"))}
	}
	return e.WithExample(map[string]any{"agent_id": "claude", "baseline": "HEAD~3"})
}

func shortHash(h string) string { return h[:min(len(h), 7)] }

// gitRoot is the served root whose repository diverge reads: the first
// code root with git history.
func (r *divergeRun) gitRoot() (session.Root, bool) {
	for _, root := range r.b.Roots {
		if root.Adapter == "code" && root.GitHead != "" {
			return root, true
		}
	}
	return session.Root{}, false
}

// fromGit compares the baseline commit's tree with HEAD's.
func (r *divergeRun) fromGit() error {
	root, ok := r.gitRoot()
	if !ok {
		return baselineError(nil, "no served root is a git repository, so a commit or date baseline has nothing to read; use a snapshot baseline (\"last_session\") instead")
	}
	repo, err := git.PlainOpenWithOptions(root.Path, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return tools.Errorf("The root's repository could not be opened; re-ingest it.", "open the repository of %s: %v", root.Path, err)
	}
	x := r.b.History()
	baseC, kind, err := r.resolveBaseline(repo, root.Path, x)
	if err != nil {
		return err
	}
	headRef, err := repo.Head()
	if err != nil {
		return tools.Errorf("The repository has no HEAD commit.", "resolve HEAD: %v", err)
	}
	headC, err := repo.CommitObject(headRef.Hash())
	if err != nil {
		return tools.Errorf("HEAD's commit could not be read.", "read HEAD: %v", err)
	}
	o := r.out
	o.BaselineKind, o.BaselineCommit, o.HeadCommit = kind, shortHash(baseC.Hash.String()), shortHash(headC.Hash.String())
	// The baseline is in place from when it was committed (a date picks
	// it by that time too); head is an author time, as history's are.
	r.base, r.head = baseC.Committer.When.Unix(), max(headC.Author.When.Unix(), x.Head())
	r.since = r.chainSince(root.Path, baseC.Hash.String())
	o.BaselineTime = baseC.Committer.When.UTC().Format(time.RFC3339)
	if headRef.Hash().String() != root.GitHead && root.GitHead != "" {
		o.Note = "HEAD moved since the last ingest; the graph (fan-in, fan-out, tests) describes the ingested state. "
	}
	prefix, err := repoPrefix(repo, root.Path)
	if err != nil {
		return err
	}
	if err := r.treeDiff(baseC, headC, root.Path, prefix); err != nil {
		return err
	}
	r.history(x)
	return nil
}

// resolveBaseline finds the baseline commit: a date's newest commit at or
// before it by committer date on the first-parent chain, else a revision go-git resolves, else a unique hash prefix
// of the history.
func (r *divergeRun) resolveBaseline(repo *git.Repository, rootPath string, x *history.Index) (*object.Commit, string, error) {
	bl := r.in.Baseline
	if isoDate.MatchString(bl) {
		t, err := parseDate(bl)
		if err != nil {
			return nil, "", baselineError(x, "baseline %q is not a valid date: %v", bl, err)
		}
		// By committer date on the first-parent chain: what the branch
		// held at t, not what was authored by then.
		h, err := gitmeta.LastBefore(r.c.Ctx, rootPath, t)
		if err != nil {
			return nil, "", tools.Errorf("The repository's history could not be read; re-ingest it.", "find the commit at %s: %v", bl, err)
		}
		if c, err := repo.CommitObject(plumbing.NewHash(h)); h != "" && err == nil {
			return c, "date", nil
		}
		return nil, "", baselineError(x, "baseline %s is before the repository's first commit", bl)
	}
	if h, err := repo.ResolveRevision(plumbing.Revision(bl)); err == nil {
		if c, err := repo.CommitObject(*h); err == nil {
			return c, "commit", nil
		}
	}
	if len(bl) >= 4 && strings.Trim(strings.ToLower(bl), "0123456789abcdef") == "" {
		var match []string
		for i := 0; i < x.Len(); i++ {
			if h := x.Commit(i).Hash; strings.HasPrefix(h, strings.ToLower(bl)) && !slices.Contains(match, h) {
				match = append(match, h)
			}
		}
		if len(match) == 1 {
			if c, err := repo.CommitObject(plumbing.NewHash(match[0])); err == nil {
				return c, "commit", nil
			}
		}
		if len(match) > 1 {
			return nil, "", baselineError(x, "baseline %q matches %d commits; give more of the hash", bl, len(match))
		}
	}
	return nil, "", baselineError(x, "baseline %q is not a commit, tag, branch or date of this repository", bl)
}

func parseDate(s string) (time.Time, error) {
	var err error
	for _, layout := range []string{"2006-01-02", time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05-0700"} {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			if layout == "2006-01-02" {
				t = t.Add(24*time.Hour - time.Second) // the whole day
			}
			return t, nil
		}
	}
	return time.Time{}, err
}

// repoPrefix is the root's path inside its repository ("" at the top).
func repoPrefix(repo *git.Repository, rootPath string) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", tools.Errorf("diverge needs a repository with a work tree.", "%v", err)
	}
	top, _ := filepath.EvalSymlinks(wt.Filesystem.Root())
	rp, _ := filepath.EvalSymlinks(rootPath)
	if top == "" || rp == "" {
		top, rp = wt.Filesystem.Root(), rootPath
	}
	rel, err := filepath.Rel(top, rp)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", tools.Errorf("The root is not inside its repository's work tree.", "root %s is outside %s", rootPath, top)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel) + "/", nil
}

// maxChurnFiles bounds the modified files whose line changes are counted.
const maxChurnFiles = 300

// treeDiff lists the files added, removed and modified between the two
// trees, in the root and the scope, and scores the drift.
func (r *divergeRun) treeDiff(baseC, headC *object.Commit, rootPath, prefix string) error {
	bt, err := baseC.Tree()
	if err != nil {
		return err
	}
	ht, err := headC.Tree()
	if err != nil {
		return err
	}
	changes, err := r.changes(baseC, headC, bt, ht, rootPath)
	if err != nil {
		return err
	}
	idOf := r.pathIDs(rootPath, prefix)
	o := r.out
	r.added, r.modified = map[graph.NodeID]bool{}, map[graph.NodeID]*modifiedJSON{}
	r.baseTree, r.basePath, r.baseHash = bt, map[string]string{}, baseC.Hash.String()
	lines, linesErr := gitmeta.DiffLines(r.c.Ctx, rootPath, baseC.Hash.String(), headC.Hash.String(), renameScore, renameLimit)
	churned, capped := 0, false
	for _, ch := range changes {
		switch ch.Status {
		case 'A':
			if _, id, ok := idOf(ch.To); ok {
				o.NewNodes = append(o.NewNodes, id)
				if v, ok := r.g.Lookup(id); ok {
					r.added[v] = true
				}
			}
		case 'D':
			if _, id, ok := idOf(ch.From); ok {
				o.RemovedNodes = append(o.RemovedNodes, id)
			}
		default:
			gp, id, ok := idOf(ch.To)
			if !ok {
				// Renamed out of the scope: gone from it.
				if _, from, in := idOf(ch.From); in && ch.From != ch.To {
					o.RemovedNodes = append(o.RemovedNodes, from)
				}
				continue
			}
			m := &modifiedJSON{File: gp, NodeID: id}
			if ch.From != ch.To {
				m.RenamedFrom = strings.TrimPrefix(ch.From, prefix)
				if from, _, ok := idOf(ch.From); ok {
					m.RenamedFrom = from
				}
				o.Counts.Renamed++
			}
			switch d, ok := lines[ch.To]; {
			case linesErr == nil:
				if ok && !d.Binary {
					setDelta(m, d.Added, d.Deleted)
					r.basePath[id] = ch.From
				}
			case churned < maxChurnFiles:
				churned++
				lineStats(r.c.Ctx, bt, ht, ch, m)
			default:
				capped = true
			}
			o.ModifiedNodes = append(o.ModifiedNodes, *m)
			if v, ok := r.g.Lookup(id); ok {
				r.modified[v] = &o.ModifiedNodes[len(o.ModifiedNodes)-1]
			}
		}
	}
	// Files at HEAD in scope, from the tree entries (no blob is read).
	total := 0
	headFiles := map[string]plumbing.Hash{}
	w := object.NewTreeWalker(ht, true, nil)
	defer w.Close()
	for {
		name, entry, err := w.Next()
		if err != nil {
			break
		}
		if entry.Mode.IsFile() {
			if _, _, ok := idOf(name); ok {
				total++
				headFiles[name] = entry.Hash
			}
		}
	}
	total += r.workTree(bt, rootPath, prefix, idOf, headFiles)
	o.Counts.New, o.Counts.Removed, o.Counts.Modified = len(o.NewNodes), len(o.RemovedNodes), len(o.ModifiedNodes)
	o.Counts.Unchanged = max(total-o.Counts.New-o.Counts.Modified, 0)
	if union := o.Counts.Unchanged + o.Counts.New + o.Counts.Removed + 2*o.Counts.Modified; union > 0 {
		o.StructuralDrift = tools.R3(1 - float32(o.Counts.Unchanged)/float32(union))
	}
	if capped {
		o.Note += fmt.Sprintf("Line changes counted for the first %d modified files only (no git command). ", maxChurnFiles)
	}
	return nil
}

// renameScore and renameLimit are git's defaults for diff: a rename is a
// pair at least 60 % similar, sought among at most 1,000 added and 1,000
// deleted files.
const renameScore, renameLimit = 60, 1000

// changes lists the files changed between the two commits, renames
// detected: by the git command (gitmeta.DiffTrees), else by go-git.
func (r *divergeRun) changes(baseC, headC *object.Commit, bt, ht *object.Tree, rootPath string) ([]gitmeta.TreeChange, error) {
	cs, err := gitmeta.DiffTrees(r.c.Ctx, rootPath, baseC.Hash.String(), headC.Hash.String(), renameScore, renameLimit)
	if err == nil || r.c.Ctx.Err() != nil {
		return cs, err
	}
	gc, err := object.DiffTreeWithOptions(r.c.Ctx, bt, ht, &object.DiffTreeOptions{DetectRenames: true, RenameScore: renameScore, RenameLimit: renameLimit})
	if err != nil {
		return nil, tools.Errorf("The trees could not be compared.", "diff %s..%s: %v", shortHash(baseC.Hash.String()), shortHash(headC.Hash.String()), err)
	}
	for _, ch := range gc {
		action, err := ch.Action()
		if err != nil {
			continue
		}
		c := gitmeta.TreeChange{Status: 'M', From: ch.From.Name, To: ch.To.Name}
		switch action {
		case merkletrie.Insert:
			c.Status = 'A'
		case merkletrie.Delete:
			c.Status = 'D'
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// pathIDs maps a repository path to its graph path and file node id, or
// false for a path outside the root or the scope, and for one the ingest
// leaves out (hidden, vendored, ignored): such a file is no node, its
// history and links are unknown, so listing it would answer commits_since
// 0 and fan_in 0 for what git says moved.
func (r *divergeRun) pathIDs(rootPath, prefix string) func(string) (string, string, bool) {
	rs := tools.BundleSpace(r.b)
	return func(repoPath string) (string, string, bool) {
		rel, ok := strings.CutPrefix(repoPath, prefix)
		if !ok {
			return "", "", false
		}
		gp := rs.GraphPath(rootPath, rel)
		if r.scope != nil && !r.scope.Match(gp) {
			return "", "", false
		}
		id := rs.FileID(gp)
		if _, in := r.g.Lookup(id); !in {
			if ok, _ := walk.Admit(rootPath, rel, walk.Options{}); !ok {
				return "", "", false
			}
		}
		return gp, id, true
	}
}

// workTree lays the work tree over the baseline..HEAD diff: the graph is
// the disk, so what moved since the baseline includes what is changed and
// not committed. A file of the graph whose contents are not HEAD's blob is
// new since the baseline (not in its tree) or modified since (its lines
// counted against the baseline's); a HEAD file gone from disk is removed
// (or, added since the baseline, no longer new). It returns how many more
// files of the scope the disk has than HEAD (for the drift's union).
func (r *divergeRun) workTree(bt *object.Tree, rootPath, prefix string, idOf func(string) (string, string, bool), headFiles map[string]plumbing.Hash) int {
	o := r.out
	var rf *session.RootFiles
	for i := range r.b.Files {
		if r.b.Files[i].Root == rootPath {
			rf = &r.b.Files[i]
		}
	}
	if rf == nil {
		return 0
	}
	hashes := blobHashCache(r.c.Session)
	modIdx := map[string]int{}
	for i, m := range o.ModifiedNodes {
		modIdx[m.NodeID] = i
	}
	untracked := 0
	var pending []uncommittedFile
	mark := func(id string) {
		o.UncommittedNodes = append(o.UncommittedNodes, id)
		o.Counts.Uncommitted++
	}
	for _, f := range rf.Files {
		repoPath := prefix + f.Rel
		gp, id, ok := idOf(repoPath)
		if !ok {
			continue
		}
		abs := filepath.Join(rootPath, filepath.FromSlash(f.Rel))
		h, err := hashes.of(abs)
		if err != nil {
			continue // gone: the HEAD pass below
		}
		head, inHead := headFiles[repoPath]
		if inHead && h == head {
			continue
		}
		if !inHead {
			untracked++
		}
		mark(id)
		base, err := bt.File(repoPath)
		if err != nil { // not at the baseline: new since
			if !slices.Contains(o.NewNodes, id) {
				o.NewNodes = append(o.NewNodes, id)
				if v, ok := r.g.Lookup(id); ok {
					r.added[v] = true
				}
			}
			continue
		}
		i, ok := modIdx[id]
		if !ok {
			o.ModifiedNodes = append(o.ModifiedNodes, modifiedJSON{File: gp, NodeID: id})
			i = len(o.ModifiedNodes) - 1
			modIdx[id] = i
			if v, ok := r.g.Lookup(id); ok {
				r.modified[v] = &o.ModifiedNodes[i]
			}
		}
		m := &o.ModifiedNodes[i]
		m.Uncommitted = true
		m.LinesAdded, m.LinesDeleted, m.Delta, m.GrowthRatio = 0, 0, "", 0
		delete(r.basePath, id)
		pending = append(pending, uncommittedFile{i, repoPath, abs, base})
	}
	r.uncommittedLines(rootPath, pending)
	for repoPath := range headFiles {
		rel := strings.TrimPrefix(repoPath, prefix)
		if _, err := os.Lstat(filepath.Join(rootPath, filepath.FromSlash(rel))); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		_, id, _ := idOf(repoPath)
		mark(id)
		untracked--
		if i := slices.Index(o.NewNodes, id); i >= 0 { // added since the baseline, deleted again
			o.NewNodes = slices.Delete(o.NewNodes, i, i+1)
			continue
		}
		if !slices.Contains(o.RemovedNodes, id) {
			o.RemovedNodes = append(o.RemovedNodes, id)
		}
		if i, ok := modIdx[id]; ok {
			o.ModifiedNodes[i].NodeID = "" // dropped below
		}
	}
	o.ModifiedNodes = slices.DeleteFunc(o.ModifiedNodes, func(m modifiedJSON) bool { return m.NodeID == "" })
	slices.Sort(o.UncommittedNodes)
	return untracked
}

// uncommittedFile is a modified file whose disk differs from HEAD: its
// index among the modified, its paths, its blob at the baseline.
type uncommittedFile struct {
	i        int
	repoPath string
	abs      string
	baseBlob *object.File
}

// uncommittedLines counts the lines each file changed from the baseline to
// the disk: git's count in one command, else each text compared here.
func (r *divergeRun) uncommittedLines(rootPath string, files []uncommittedFile) {
	if len(files) == 0 {
		return
	}
	paths := make([]string, len(files))
	for k, f := range files {
		paths[k] = ":(top,literal)" + f.repoPath
	}
	lines, err := gitmeta.DiffLines(r.c.Ctx, rootPath, r.baseHash, "", renameScore, renameLimit, paths...)
	for _, f := range files {
		m := &r.out.ModifiedNodes[f.i]
		if err == nil {
			if d, ok := lines[f.repoPath]; ok && !d.Binary {
				setDelta(m, d.Added, d.Deleted)
				r.basePath[m.NodeID] = f.repoPath
			}
			continue
		}
		if bin, _ := f.baseBlob.IsBinary(); bin || f.baseBlob.Size > 1<<20 {
			continue
		}
		was, err1 := f.baseBlob.Contents()
		now, err2 := os.ReadFile(f.abs)
		if err1 == nil && err2 == nil && len(now) <= 1<<20 {
			setLines(m, was, string(now))
		}
	}
}

// blobHashes remembers the git blob hash of files on disk by size and
// modification time, so that diverge reads a file again only when it
// changed.
type blobHashes struct {
	mu sync.Mutex
	m  map[string]blobStamp
}

type blobStamp struct {
	size, mtime int64
	hash        plumbing.Hash
}

var blobHashesKey = session.NewKey[*blobHashes]("diverge-blob-hashes")

func blobHashCache(s *session.State) *blobHashes {
	return session.Shared(s, blobHashesKey, func() *blobHashes { return &blobHashes{m: map[string]blobStamp{}} })
}

// of returns the file's blob hash, reading the file only when its size
// or modification time changed since the last time.
func (c *blobHashes) of(abs string) (plumbing.Hash, error) {
	fi, err := os.Lstat(abs)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	c.mu.Lock()
	st, ok := c.m[abs]
	c.mu.Unlock()
	if ok && st.size == fi.Size() && st.mtime == fi.ModTime().UnixNano() {
		return st.hash, nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := plumbing.ComputeHash(plumbing.BlobObject, data)
	c.mu.Lock()
	if len(c.m) > 200_000 {
		clear(c.m)
	}
	c.m[abs] = blobStamp{fi.Size(), fi.ModTime().UnixNano(), h}
	c.mu.Unlock()
	return h, nil
}

// lineStats fills a modified file's line changes and growth from the two
// blobs (binary or huge ones are left at zero).
func lineStats(ctx context.Context, bt, ht *object.Tree, ch gitmeta.TreeChange, m *modifiedJSON) {
	if ctx.Err() != nil {
		return
	}
	from, err1 := bt.File(ch.From)
	to, err2 := ht.File(ch.To)
	if err1 != nil || err2 != nil || from.Size > 1<<20 || to.Size > 1<<20 {
		return
	}
	if bin, _ := from.IsBinary(); bin {
		return
	}
	if bin, _ := to.IsBinary(); bin {
		return
	}
	a, err1 := from.Contents()
	b, err2 := to.Contents()
	if err1 != nil || err2 != nil {
		return
	}
	setLines(m, a, b)
}

// setLines fills a modified file's line changes and growth from its text
// at the baseline and now.
func setLines(m *modifiedJSON, was, now string) {
	a, d := lineDelta(was, now)
	setDelta(m, a, d)
	if before := lineCount(was); before > 0 {
		m.GrowthRatio = tools.R3(float32(lineCount(now)) / float32(before))
	}
}

// setDelta sets a modified file's line changes.
func setDelta(m *modifiedJSON, added, deleted int) {
	m.LinesAdded, m.LinesDeleted = added, deleted
	m.Delta = fmt.Sprintf("+%d/-%d", added, deleted)
}

// growth fills the growth ratio of the listed files whose lines git
// counted: lines at the baseline (its blob), now that plus the net change.
func (r *divergeRun) growth() {
	for i := range r.out.ModifiedNodes {
		m := &r.out.ModifiedNodes[i]
		from, ok := r.basePath[m.NodeID]
		if !ok || m.GrowthRatio != 0 || r.c.Ctx.Err() != nil {
			continue
		}
		f, err := r.baseTree.File(from)
		if err != nil || f.Size > 1<<20 {
			continue
		}
		text, err := f.Contents()
		if before := lineCount(text); err == nil && before > 0 {
			m.GrowthRatio = tools.R3(float32(before+m.LinesAdded-m.LinesDeleted) / float32(before))
		}
	}
}

func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// lineDelta counts lines added and deleted between two texts: lines are
// compared as a multiset (a moved line counts as neither), which is what
// a reader of "+450/−30" wants and costs a map, not a diff.
func lineDelta(before, now string) (added, deleted int) {
	count := map[string]int{}
	for _, l := range strings.SplitAfter(before, "\n") {
		if l != "" {
			count[strings.TrimSuffix(l, "\n")]++
		}
	}
	for _, l := range strings.SplitAfter(now, "\n") {
		if l == "" {
			continue
		}
		k := strings.TrimSuffix(l, "\n")
		if count[k] > 0 {
			count[k]--
		} else {
			added++
		}
	}
	for _, n := range count {
		deleted += n
	}
	return added, deleted
}

// history splits the commits at the baseline: commits since, per-file
// counts, and co-change coupling before and after.
func (r *divergeRun) history(x *history.Index) {
	type stat struct {
		before, after int
		lastBefore    int64 // newest commit before the baseline
	}
	files := map[graph.NodeID]*stat{}
	type pair struct{ a, b graph.NodeID }
	joint := map[pair]*stat{}
	oldest := r.base
	for i := 0; i < x.Len(); i++ {
		cm := x.Commit(i)
		oldest = min(oldest, cm.Time)
		after := r.after(cm)
		if after {
			r.out.CommitsSince++
		}
		fs := x.CommitFiles(i)
		var in []graph.NodeID
		for _, f := range fs {
			if r.inScope(f) {
				in = append(in, f)
			}
		}
		for _, f := range in {
			s := files[f]
			if s == nil {
				s = &stat{}
				files[f] = s
			}
			if after {
				s.after++
			} else {
				s.before++
				s.lastBefore = max(s.lastBefore, cm.Time)
			}
		}
		if len(fs) > 30 { // a sweeping commit says little about pairs
			continue
		}
		for i, a := range in {
			for _, b := range in[i+1:] {
				p := pair{min(a, b), max(a, b)}
				s := joint[p]
				if s == nil {
					s = &stat{}
					joint[p] = s
				}
				if after {
					s.after++
				} else {
					s.before++
				}
			}
		}
	}
	for v, m := range r.modified {
		if s := files[v]; s != nil {
			m.CommitsSince = s.after
		}
	}
	daysAfter := max(float64(r.head-r.base)/86400, 1)
	daysBefore := max(float64(r.base-oldest)/86400, 1)
	if r.in.IncludeAnomalies {
		for _, v := range sortedIDs(files) {
			s := files[v]
			quiet := float64(r.base-s.lastBefore) / 86400 // days since its last change before the baseline
			r.velocity(v, s.before, s.after, quiet, daysBefore, daysAfter)
		}
	}
	if !r.in.IncludeCouplingChanges && !r.in.IncludeAnomalies {
		return
	}
	for p, s := range joint {
		fa, fb := files[p.a], files[p.b]
		jac := func(j, x, y int) float32 {
			if u := x + y - j; u > 0 {
				return float32(j) / float32(u)
			}
			return 0
		}
		was, now := jac(s.before, fa.before, fb.before), jac(s.after, fa.after, fb.after)
		if max(s.before, s.after) < 2 || (now-was < 0.2 && was-now < 0.2) {
			continue
		}
		// Weakened only when they changed apart since: two files left
		// alone after the baseline have not decoupled.
		if now < was && fa.after+fb.after-2*s.after < 2 {
			continue
		}
		cc := couplingChangeJSON{Pair: []string{r.g.ExternalID(p.a), r.g.ExternalID(p.b)}, Was: tools.R3(was), Now: tools.R3(now), JointBefore: s.before, JointAfter: s.after, Direction: "strengthened"}
		if now < was {
			cc.Direction = "weakened"
		}
		if r.in.IncludeCouplingChanges {
			r.out.CouplingChanges = append(r.out.CouplingChanges, cc)
		}
		if r.in.IncludeAnomalies && s.before == 0 && s.after >= 2 && r.linked(p.a, p.b) {
			r.anomaly("new_coupling", p.a, "info", fmt.Sprintf("now coupled with %s: a dependency links them and they changed together %d times since the baseline, never before", tools.ShortID(r.g, p.b), s.after))
		}
	}
}

func (r *divergeRun) inScope(v graph.NodeID) bool {
	if r.scope == nil {
		return true
	}
	return r.scope.Match(strings.TrimPrefix(r.g.ExternalID(v), "file::"))
}

// linked reports a dependency either way between two files.
func (r *divergeRun) linked(a, b graph.NodeID) bool {
	return slices.Contains(r.deps.Dependencies(a), b) || slices.Contains(r.deps.Dependencies(b), a)
}

// after reports whether a commit of the history came after the baseline:
// by the first-parent chain when the baseline is on it (a rebased
// commit's author date lies), else by time.
func (r *divergeRun) after(cm history.Commit) bool {
	if r.since != nil {
		return r.since[cm.Hash]
	}
	return cm.Time > r.base
}

// chainSince is the set of commits after base on the first-parent chain
// (nil when base is not on it or git cannot say).
func (r *divergeRun) chainSince(dir, base string) map[string]bool {
	hs, ok, err := gitmeta.ChainSince(r.c.Ctx, dir, base)
	if err != nil || !ok {
		return nil
	}
	set := make(map[string]bool, len(hs))
	for _, h := range hs {
		set[h] = true
	}
	return set
}

// velocity flags a file whose change rate jumped after the baseline, and
// one that changes again after lying dormant (quiet days before the
// baseline, at least 30 and at least the span since).
func (r *divergeRun) velocity(v graph.NodeID, before, after int, quiet, daysBefore, daysAfter float64) {
	if after < 2 || r.added[v] || before == 0 {
		return
	}
	rateA, rateB := float64(after)/daysAfter, float64(before)/daysBefore
	lines := 0
	if m := r.modified[v]; m != nil {
		lines = m.LinesAdded
	}
	switch {
	case quiet >= max(30, daysAfter):
		r.anomaly("awakened", v, "info", fmt.Sprintf("%d commits in the %.0f days since the baseline after %.0f quiet days", after, daysAfter, quiet))
	case after >= 3 && rateA >= 3*rateB:
		sev := "info"
		if lines >= 300 {
			sev = "warning"
		}
		r.anomaly("velocity_spike", v, sev, fmt.Sprintf("%d commits (%d lines added) in %.0f days since the baseline, %.1f× its earlier rate", after, lines, daysAfter, rateA/max(rateB, 1e-9)))
	}
}

func (r *divergeRun) anomaly(kind string, v graph.NodeID, sev, detail string) {
	r.out.Anomalies = append(r.out.Anomalies, anomalyJSON{Type: kind, File: strings.TrimPrefix(r.g.ExternalID(v), "file::"), Detail: detail, Severity: sev})
}

// structuralAnomalies: new or modified code without tests, and files that
// gained many dependents among the new files.
func (r *divergeRun) structuralAnomalies() {
	g := r.g
	check := func(v graph.NodeID, isNew bool) {
		if !tools.HoldsCode(g, v) || isTestNode(g, v) || r.tested(v) {
			return
		}
		if isNew {
			r.anomaly("test_deficit", v, "warning", "new file with no test depending on it")
		} else {
			r.anomaly("test_deficit", v, "info", "modified since the baseline; no test depends on it")
		}
	}
	for _, v := range sortedIDs(r.added) {
		check(v, true)
	}
	for _, v := range sortedIDs(r.modified) {
		check(v, false)
	}
	if len(r.added) == 0 {
		return
	}
	gained := map[graph.NodeID]int{}
	for v := range r.added {
		for _, t := range r.deps.Dependencies(v) {
			if !r.added[t] {
				gained[t]++
			}
		}
	}
	for _, t := range sortedIDs(gained) {
		n, all := gained[t], len(r.deps.Dependents(t))
		if n >= 3 && 2*n >= all && r.inScope(t) {
			r.anomaly("dependents_spike", t, "info", fmt.Sprintf("%d of its %d dependents are files added since the baseline", n, all))
		}
	}
}

// tested: a test depends on the file (directly, or through one more file).
func (r *divergeRun) tested(v graph.NodeID) bool {
	for _, d := range r.deps.Dependents(v) {
		if isTestNode(r.g, d) {
			return true
		}
		for _, d2 := range r.deps.Dependents(d) {
			if isTestNode(r.g, d2) {
				return true
			}
		}
	}
	return false
}

func sortedIDs[V any](m map[graph.NodeID]V) []graph.NodeID {
	out := make([]graph.NodeID, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// fromSnapshot compares a saved graph with the served one.
func (r *divergeRun) fromSnapshot(snap *graph.Graph) error {
	o := r.out
	o.BaselineKind = "snapshot"
	p := analysis.DefaultDiffParams()
	p.MaxListed = 0
	res, err := analysis.Diff(snap, r.g, p)
	if err != nil {
		return err
	}
	g := r.g
	r.added, r.modified = map[graph.NodeID]bool{}, map[graph.NodeID]*modifiedJSON{}
	for _, id := range res.NewNodes {
		if v, ok := g.Lookup(id); ok && g.Type(v) == graph.File && r.inScope(v) {
			o.NewNodes = append(o.NewNodes, id)
			r.added[v] = true
		}
	}
	for _, id := range res.RemovedNodes {
		if v, ok := snap.Lookup(id); ok && snap.Type(v) == graph.File && r.inScopePath(id) {
			o.RemovedNodes = append(o.RemovedNodes, id)
		}
	}
	touch := func(ext string, added bool) {
		v, ok := g.Lookup(ext)
		if !ok {
			return
		}
		f := tools.FileOf(g, v)
		if g.Type(f) != graph.File || r.added[f] || !r.inScope(f) {
			return
		}
		m := r.modified[f]
		if m == nil {
			m = &modifiedJSON{File: strings.TrimPrefix(g.ExternalID(f), "file::"), NodeID: g.ExternalID(f)}
			r.modified[f] = m
		}
		if added {
			m.LinesAdded++
		} else {
			m.LinesDeleted++
		}
	}
	for _, e := range res.NewEdges {
		touch(e.Source, true)
	}
	for _, e := range res.RemovedEdges {
		touch(e.Source, false)
	}
	for _, f := range sortedIDs(r.modified) {
		m := r.modified[f]
		m.Delta = fmt.Sprintf("+%d/-%d edges", m.LinesAdded, m.LinesDeleted)
		m.LinesAdded, m.LinesDeleted = 0, 0
		o.ModifiedNodes = append(o.ModifiedNodes, *m)
	}
	o.Counts.New, o.Counts.Removed, o.Counts.Modified = len(o.NewNodes), len(o.RemovedNodes), len(o.ModifiedNodes)
	o.Counts.Unchanged = max(countFiles(g)-o.Counts.New-o.Counts.Modified, 0)
	before, added, removed := liveEdges(snap), res.Counts.NewEdges, res.Counts.RemovedEdges
	if union := before + added; union > 0 {
		o.StructuralDrift = tools.R3(1 - float32(before-removed)/float32(union))
	}
	if r.in.IncludeCouplingChanges {
		for _, d := range res.CouplingDeltas {
			cc := couplingChangeJSON{Pair: []string{d.CommunityA, d.CommunityB}, Was: tools.R3(d.OldCoupling), Now: tools.R3(d.NewCoupling), JointBefore: d.OldLinks, JointAfter: d.NewLinks, Direction: "strengthened"}
			if d.Delta < 0 {
				cc.Direction = "weakened"
			}
			o.CouplingChanges = append(o.CouplingChanges, cc)
		}
	}
	if r.in.IncludeAnomalies {
		for _, id := range res.BecameIsolated {
			if v, ok := g.Lookup(id); ok && r.inScope(v) {
				r.anomaly("isolation", v, "warning", "had dependency links in the baseline, has none now")
			}
		}
		for _, d := range res.CouplingDeltas {
			if d.OldLinks == 0 && d.NewLinks > 0 {
				o.Anomalies = append(o.Anomalies, anomalyJSON{Type: "new_coupling", File: d.CommunityA, Detail: fmt.Sprintf("%s and %s had no dependency link; now %d", d.CommunityA, d.CommunityB, d.NewLinks), Severity: "info"})
			}
		}
	}
	o.Note = "A snapshot baseline has no time: no velocity anomalies, no commits since. "
	return nil
}

func (r *divergeRun) inScopePath(ext string) bool {
	if r.scope == nil {
		return true
	}
	return r.scope.Match(strings.TrimPrefix(ext, "file::"))
}

func countFiles(g *graph.Graph) int {
	n := 0
	for v := 0; v < g.NumNodes(); v++ {
		if g.Type(graph.NodeID(v)) == graph.File {
			n++
		}
	}
	return n
}

func liveEdges(g *graph.Graph) int {
	n := 0
	for e := graph.EdgeIdx(0); int(e) < g.NumEdges(); e++ {
		if !g.IsMirror(e) {
			n++
		}
	}
	return n
}

// finish adds the fan-in and fan-out, the structural anomalies, sorts
// every list and writes the summary and guidance.
func (r *divergeRun) finish() {
	o := r.out
	for i := range o.ModifiedNodes {
		m := &o.ModifiedNodes[i]
		if v, ok := r.g.Lookup(m.NodeID); ok {
			m.FanIn, m.FanOut = len(r.deps.Dependents(v)), len(r.deps.Dependencies(v))
			if p := r.modified[v]; p != nil {
				m.CommitsSince = p.CommitsSince
			}
		}
	}
	if r.in.IncludeAnomalies {
		r.structuralAnomalies()
	}
	slices.Sort(o.NewNodes)
	slices.Sort(o.RemovedNodes)
	slices.SortFunc(o.ModifiedNodes, func(a, b modifiedJSON) int {
		return cmp.Or(cmp.Compare(b.LinesAdded+b.LinesDeleted, a.LinesAdded+a.LinesDeleted), cmp.Compare(a.File, b.File))
	})
	slices.SortFunc(o.CouplingChanges, func(a, b couplingChangeJSON) int {
		return cmp.Or(cmp.Compare(abs64(b.Now-b.Was), abs64(a.Now-a.Was)), cmp.Compare(a.Pair[0], b.Pair[0]), cmp.Compare(a.Pair[1], b.Pair[1]))
	})
	sev := map[string]int{"warning": 0, "info": 1}
	slices.SortFunc(o.Anomalies, func(a, b anomalyJSON) int {
		return cmp.Or(cmp.Compare(sev[a.Severity], sev[b.Severity]), cmp.Compare(a.Type, b.Type), cmp.Compare(a.File, b.File), cmp.Compare(a.Detail, b.Detail))
	})
	o.ModifiedNodes = o.ModifiedNodes[:min(len(o.ModifiedNodes), 50)]
	r.growth()
	o.CouplingChanges = o.CouplingChanges[:min(len(o.CouplingChanges), 30)]
	o.Anomalies = o.Anomalies[:min(len(o.Anomalies), 50)]
	for _, l := range []*[]string{&o.NewNodes, &o.RemovedNodes} {
		if *l == nil {
			*l = []string{}
		}
	}
	if o.ModifiedNodes == nil {
		o.ModifiedNodes = []modifiedJSON{}
	}
	if o.CouplingChanges == nil {
		o.CouplingChanges = []couplingChangeJSON{}
	}
	if o.Anomalies == nil {
		o.Anomalies = []anomalyJSON{}
	}
	o.Note = strings.TrimSpace(o.Note)
	o.Summary = r.summary()
	o.Guidance = r.guidance()
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func (r *divergeRun) summary() string {
	o := r.out
	parts := []string{fmt.Sprintf("%.0f%% structural drift", 100*o.StructuralDrift)}
	if o.Counts.New+o.Counts.Removed+o.Counts.Modified == 0 {
		return parts[0] + ": nothing moved"
	}
	deficit := 0
	for _, a := range o.Anomalies {
		if a.Type == "test_deficit" && a.Severity == "warning" {
			deficit++
		}
	}
	nw := fmt.Sprintf("%d new file(s)", o.Counts.New)
	if deficit > 0 {
		nw += fmt.Sprintf(" (%d untested)", deficit)
	}
	parts = append(parts, nw, fmt.Sprintf("%d removed", o.Counts.Removed), fmt.Sprintf("%d modified", o.Counts.Modified))
	up, down := 0, 0
	for _, c := range o.CouplingChanges {
		if c.Direction == "strengthened" {
			up++
		} else {
			down++
		}
	}
	if up+down > 0 {
		parts = append(parts, fmt.Sprintf("coupling %d strengthened, %d weakened", up, down))
	}
	if n := len(o.Anomalies); n > 0 {
		parts = append(parts, fmt.Sprintf("%d anomal%s", n, map[bool]string{true: "y", false: "ies"}[n == 1]))
	}
	return strings.Join(parts, ", ")
}

func (r *divergeRun) guidance() tools.Guidance {
	o, c := r.out, r.c
	for _, a := range o.Anomalies {
		if a.Severity == "warning" {
			return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view", "impact"), NextSuggestedTarget: "file::" + a.File,
				NextStepHint: fmt.Sprintf("%s: %s — %s. Look at it first.", a.Type, a.File, a.Detail)}
		}
	}
	if len(o.ModifiedNodes) > 0 {
		top := o.ModifiedNodes[0]
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "timeline", "impact"), NextSuggestedTarget: top.NodeID,
			NextStepHint: fmt.Sprintf("%s changed most since the baseline (%s): see its timeline and what depends on it.", top.File, top.Delta)}
	}
	if len(o.NewNodes) > 0 {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "view"), NextSuggestedTarget: o.NewNodes[0],
			NextStepHint: "New files since the baseline: check how they are wired in."}
	}
	return tools.Guidance{ProofState: "ready_to_edit", NextStepHint: "Nothing moved in scope since the baseline."}
}
