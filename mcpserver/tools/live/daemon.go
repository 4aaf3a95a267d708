package live

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type daemonStartParams struct {
	WatchPaths     []string `json:"watch_paths" jsonschema:"Default: the ingest roots." help:"Directories to watch (default: the current ingest roots). Each must be an ingest root or inside one." tool:"maxitems=16"`
	PollIntervalMs int      `json:"poll_interval_ms" help:"Polling interval used when kernel watches cannot be had." tool:"default=500,min=50,max=600000"`
}

type daemonTickParams struct {
	MaxFiles int `json:"max_files" jsonschema:"Changed files listed (all are reconciled)." help:"Maximum changed files listed in ingested_files (every changed file is reconciled; a root is re-ingested in one incremental pass)." tool:"default=32,min=1,max=10000"`
}

type alertsListParams struct {
	IncludeAcked bool `json:"include_acked" help:"Also list acknowledged alerts." tool:"default=false"`
	Limit        int  `json:"limit" help:"Maximum alerts listed." tool:"default=50,min=1,max=1000"`
}

type alertsListOutput struct {
	Alerts   []daemon.Alert `json:"alerts"`
	Unacked  int            `json:"unacked"`
	Returned int            `json:"returned"`
}

type alertsAckParams struct {
	AlertIDs []string `json:"alert_ids"  help:"IDs from alerts_list (alert-12)." tool:"required,maxitems=1000"`
}

type alertsAckOutput struct {
	Acked   []string `json:"acked"`
	Unknown []string `json:"unknown"`
}

func registerDaemon(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "daemon_start",
		Title:       "Start watching",
		Description: "Keep the graph in step with the disk as files change; alerts go to alerts_list.",
		Details:     "Watch the ingest roots (or watch_paths) and keep the graph in step with the disk: file events (inotify/FSEvents; polling every poll_interval_ms when kernel watches are unavailable) are debounced and coalesced, then reconciled through an incremental ingest — a branch switch touching thousands of files is one update. Drift alerts (a file in a lock's region or one an agent has read changed on disk, a hub file deleted, HEAD moved, an ingest failed, kernel watches unavailable) go to alerts_list. The daemon state is persisted: a restarted server resumes watching.",
		Class:       tools.Write,
		WhenToUse:   "At the start of a long session in which files will change (edits, branch switches, pulls): answers stay about the code on disk.",
		AvoidWhen:   "A one-off question on a tree that does not change (ingest once instead).",
		Next:        []string{"daemon_status", "alerts_list"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runDaemonStart)
	tools.Add(r, tools.Tool{
		Name:        "daemon_stop",
		Title:       "Stop watching",
		Description: "Stop watching. Alerts are kept; the graph stays as it is.",
		Class:       tools.Write,
		WhenToUse:   "End of a daemon-backed session, or before a bulk operation you will re-ingest after.",
		Next:        []string{"daemon_status"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runDaemonStop)
	tools.Add(r, tools.Tool{
		Name:        "daemon_status",
		Title:       "Watcher daemon status",
		Description: "Whether the daemon runs, what it watches, its ticks and alerts.",
		Details:     "Whether the daemon is active, what it watches and with which backend (notify or polling, and why), tick counts and the last tick's duration, changed/deleted files and alerts, and alert counts.",
		Class:       tools.Read,
		WhenToUse:   "To check that the daemon runs and reconciles, or why alerts are silent.",
		Next:        []string{"daemon_tick", "alerts_list"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runDaemonStatus)
	tools.Add(r, tools.Tool{
		Name:        "daemon_tick",
		Title:       "Reconcile once",
		Description: "Bring the graph in line with the disk once, now, and emit drift alerts.",
		Details:     "Run one reconciliation now, whether or not the daemon is active: compare the graph's files with the disk, re-ingest the roots with changes incrementally (one pass per root, however many files changed), detect deletions and HEAD moves, emit drift alerts.",
		Class:       tools.Exclusive,
		WhenToUse:   "To make sure the graph matches the disk before a query, deterministically (tests, scripts), or to debug the daemon.",
		Next:        []string{"daemon_status", "alerts_list"},
		Example:     map[string]any{"agent_id": "claude", "max_files": 32},
	}, runDaemonTick)
	tools.Add(r, tools.Tool{
		Name:        "alerts_list",
		Title:       "Alerts",
		Description: "Drift alerts, newest first: locked or read files changed, hubs deleted, HEAD moved.",
		Details:     "Drift and proactive alerts, newest first: files in a lock's region changed on disk (locked_region_changed: lock_diff shows what moved), files an agent has read changed on disk (hot_region_changed: its view is stale), a hub file deleted, HEAD moved, an ingest failed, the watch degraded to polling, and strong insights of writes (a file whose commits accelerate, a wide blast radius). An unacknowledged alert is not repeated. Persisted across restarts.",
		Class:       tools.Read,
		WhenToUse:   "After daemon_tick reports alerts, or at the start of a session on a watched repository.",
		Next:        []string{"alerts_ack", "impact"},
		Example:     map[string]any{"agent_id": "claude", "limit": 20},
	}, runAlertsList)
	tools.Add(r, tools.Tool{
		Name:        "alerts_ack",
		Title:       "Acknowledge alerts",
		Description: "Mark alerts handled (alerts_list hides them unless include_acked).",
		Class:       tools.Write,
		WhenToUse:   "Once an alert has been looked at.",
		Next:        []string{"alerts_list"},
		Example:     map[string]any{"agent_id": "claude", "alert_ids": []string{"alert-1"}},
	}, runAlertsAck)
}

// ResumeDaemon restarts the watcher when the runtime directory says it
// was active at the last shutdown.
func ResumeDaemon(d *tools.Dispatcher) {
	if d.Session.RuntimePath("") == "" {
		return
	}
	dm := tools.DaemonOf(d)
	if ok, err := dm.Resume(); err != nil {
		d.Session.Logf("daemon: not resumed: %v", err)
	} else if ok {
		d.Session.Logf("daemon: resumed watching %v", dm.Status().WatchPaths)
	}
}

func runDaemonStart(c *tools.Call, in daemonStartParams) (daemon.Status, error) {
	b := c.Session.Current()
	paths := in.WatchPaths
	if len(paths) == 0 {
		for _, r := range b.Roots {
			if len(b.Files) > 0 && slices.ContainsFunc(b.Files, func(f session.RootFiles) bool { return f.Root == r.Path }) && !slices.Contains(paths, r.Path) {
				paths = append(paths, r.Path) // once: docs merged from a code root share its path
			}
		}
	}
	if len(paths) == 0 {
		return daemon.Status{}, tools.Errorf("The daemon watches the roots of the graph: ingest a repository first, or pass watch_paths inside one.",
			"nothing to watch: the graph has no code root on disk").WithNext("Call ingest with the repository path, then daemon_start.")
	}
	var clean []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil || !slices.ContainsFunc(b.Roots, func(r session.Root) bool {
			return abs == r.Path || strings.HasPrefix(abs, r.Path+string(filepath.Separator))
		}) {
			return daemon.Status{}, tools.Errorf("watch_paths must be ingest roots or directories inside them (health lists the roots).", "watch path %q is not inside an ingest root", p).
				WithExample(map[string]any{"agent_id": c.AgentID})
		}
		clean = append(clean, abs)
	}
	st, err := tools.DaemonOf(tools.CallDispatcher(c)).Start(clean, time.Duration(in.PollIntervalMs)*time.Millisecond)
	if err != nil {
		return daemon.Status{}, tools.Errorf("Each watch path must be an existing directory.", "daemon not started: %v", err)
	}
	return st, nil
}

func runDaemonStop(c *tools.Call, _ struct{}) (daemon.Status, error) {
	return tools.DaemonOf(tools.CallDispatcher(c)).Stop(), nil
}

func runDaemonStatus(c *tools.Call, _ struct{}) (daemon.Status, error) {
	return tools.DaemonOf(tools.CallDispatcher(c)).Status(), nil
}

func runDaemonTick(c *tools.Call, in daemonTickParams) (daemon.TickResult, error) {
	return tools.DaemonOf(tools.CallDispatcher(c)).Tick(c.Ctx, in.MaxFiles), nil
}

func runAlertsList(c *tools.Call, in alertsListParams) (alertsListOutput, error) {
	list, unacked := tools.DaemonOf(tools.CallDispatcher(c)).Alerts.List(in.IncludeAcked, in.Limit)
	if list == nil {
		list = []daemon.Alert{}
	}
	return alertsListOutput{Alerts: list, Unacked: unacked, Returned: len(list)}, nil
}

func runAlertsAck(c *tools.Call, in alertsAckParams) (alertsAckOutput, error) {
	if len(in.AlertIDs) == 0 {
		return alertsAckOutput{}, tools.Errorf("alert_ids lists IDs from alerts_list.", "alert_ids is empty").WithExample(map[string]any{"agent_id": c.AgentID, "alert_ids": []string{"alert-1"}})
	}
	acked, unknown := tools.DaemonOf(tools.CallDispatcher(c)).Alerts.Ack(c.AgentID, in.AlertIDs)
	if len(acked) == 0 && len(unknown) > 0 {
		return alertsAckOutput{}, tools.Errorf("Call alerts_list (include_acked: true) for the IDs that exist.", "no such alert: %s", strings.Join(unknown, ", "))
	}
	return alertsAckOutput{Acked: tools.NonNil(acked), Unknown: tools.NonNil(unknown)}, nil
}
