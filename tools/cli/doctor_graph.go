package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// health is the part of the health tool's answer doctor reads.
type health struct {
	Status      string `json:"status"`
	Nodes       int    `json:"node_count"`
	Edges       int    `json:"edge_count"`
	Persistence struct {
		GraphSource string `json:"graph_source"`
	} `json:"persistence"`
	LastPersistError *string `json:"last_persist_error"`
	Roots            []struct {
		Path       string    `json:"path"`
		Files      int       `json:"files"`
		IngestedAt time.Time `json:"ingested_at"`
		GitBranch  string    `json:"git_branch"`
		GitHead    string    `json:"git_head"`
		Exists     bool      `json:"exists"`
		NowHead    string    `json:"current_git_head"`
		Stale      bool      `json:"stale"`
	} `json:"ingest_roots"`
	Disk struct {
		Checked  bool           `json:"checked"`
		Stale    bool           `json:"stale"`
		Reason   string         `json:"reason"`
		Counts   map[string]int `json:"counts"`
		Modified []string       `json:"modified"`
		Deleted  []string       `json:"deleted"`
		Added    []string       `json:"added"`
	} `json:"files_on_disk"`
}

// checkGraph opens the runtime directory (or talks to its server), asks
// health, and checks the lock, the saved snapshot, and the graph's
// freshness against the repositories it was built from.
func checkGraph(ctx context.Context, e *env, inv *invocation, rt runtimeDir) []check {
	b, err := open(ctx, e, inv, rt, nil)
	if err != nil {
		return []check{{Name: "lock", Status: statusAttention, Detail: err.Error(), Fix: "stop the process holding it, or pass another --runtime-dir"}}
	}
	lock := check{Name: "lock", Status: statusOK, Detail: "free: no server holds " + filepath.Join(rt.Path, session.LockFileName)}
	if r, ok := b.(*remote); ok {
		lock = check{Name: "lock", Status: statusInfo, Detail: fmt.Sprintf("held by a server (pid %d), which answers on its socket: commands talk to it", r.pid)}
	}
	text, isErr, err := b.Call(ctx, "health", json.RawMessage(`{"agent_id":"`+AgentID+`"}`), nil)
	b.Close()
	var h health
	switch {
	case err == nil && !isErr:
		err = json.Unmarshal([]byte(text), &h)
	case err == nil:
		err = fmt.Errorf("%s", text)
	}
	if err != nil {
		return []check{lock, {Name: "graph", Status: statusAttention, Detail: "health failed: " + err.Error()}}
	}
	out := []check{lock, checkSnapshot(rt, h), checkNodes(h, e.Cwd)}
	out = append(out, checkRoots(h, rt, repoRoot(e.Cwd))...)
	return append(out, checkDisk(h))
}

func checkSnapshot(rt runtimeDir, h health) check {
	p := h.Persistence.GraphSource
	if p == "" {
		p = filepath.Join(rt.Path, session.DefaultGraphFile)
	}
	c := check{Name: "snapshot", Status: statusOK}
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		c.Status, c.Detail, c.Fix = statusAttention, p+" not saved yet", "m1nd ingest"
	default:
		c.Detail = fmt.Sprintf("%s, %s, saved %s ago", p, bytesHuman(fi.Size()), age(fi.ModTime()))
	}
	if h.LastPersistError != nil {
		c.Status, c.Detail = statusAttention, c.Detail+"; last save failed: "+*h.LastPersistError
	}
	return c
}

func checkNodes(h health, cwd string) check {
	if h.Nodes == 0 {
		return check{Name: "graph", Status: statusAttention, Detail: "empty", Fix: "m1nd ingest " + repoRoot(cwd)}
	}
	return check{Name: "graph", Status: statusOK, Detail: fmt.Sprintf("%d nodes, %d edges (%s)", h.Nodes, h.Edges, h.Status)}
}

// checkRoots reports each ingested root against its repository's HEAD now,
// and whether the graph describes this repository at all.
func checkRoots(h health, rt runtimeDir, repo string) []check {
	var out []check
	here := false
	for _, r := range h.Roots {
		c := check{Name: "root", Status: statusOK, Detail: fmt.Sprintf("%s: %s, ingested %s ago", r.Path, plural(r.Files, "file", "files"), age(r.IngestedAt))}
		if r.GitHead != "" {
			c.Detail += fmt.Sprintf(" at %s@%s", r.GitBranch, short(r.GitHead))
		}
		switch {
		case !r.Exists:
			c.Status, c.Detail, c.Fix = statusAttention, r.Path+" no longer exists", "m1nd ingest PATH (the repository it moved to)"
		case r.Stale:
			c.Status, c.Fix = statusAttention, "m1nd ingest --incremental "+r.Path
			c.Detail += fmt.Sprintf("; HEAD is now %s", short(r.NowHead))
		}
		here = here || sameDir(r.Path, repo)
		out = append(out, c)
	}
	if len(h.Roots) > 0 && !here {
		c := check{Name: "this repository", Status: statusInfo, Detail: fmt.Sprintf("the graph does not describe %s", repo)}
		if rt.Source == "default" { // its own .m1nd: it should
			c.Status, c.Fix = statusAttention, "m1nd ingest "+repo
		}
		out = append(out, c)
	}
	return out
}

func checkDisk(h health) check {
	d := h.Disk
	switch {
	case !d.Checked:
		return check{Name: "files on disk", Status: statusInfo, Detail: "not checked: " + d.Reason}
	case !d.Stale:
		return check{Name: "files on disk", Status: statusOK, Detail: "unchanged since the graph was built"}
	}
	var some []string
	for _, l := range [][]string{d.Modified, d.Deleted, d.Added} {
		some = append(some, l...)
	}
	detail := fmt.Sprintf("%d modified, %d deleted, %d added since the graph was built (%s)",
		d.Counts["modified"], d.Counts["deleted"], d.Counts["added"], strings.Join(some[:min(len(some), 5)], ", "))
	return check{Name: "files on disk", Status: statusAttention, Detail: detail, Fix: "m1nd ingest --incremental"}
}

func sameDir(a, b string) bool {
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	return real(a) == real(b)
}

func short(h string) string { return h[:min(len(h), 12)] }

func age(t time.Time) string {
	d := time.Since(t)
	switch {
	case t.IsZero():
		return "an unknown time"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func bytesHuman(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
