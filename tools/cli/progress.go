package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// ui owns stderr: the progress bar, notes and the session's log lines, so
// a log line never lands in the middle of a bar.
type ui struct {
	mu      sync.Mutex
	w       io.Writer
	width   int  // terminal width; 0: not a terminal (plain lines)
	quiet   bool // --json: no plain progress lines
	verbose bool // --verbose: every session log line
	st      style

	phase    string
	done     float64
	total    float64
	pct      float64 // never goes back
	seen     bool    // progress was reported since the last finish
	finished bool    // the call was answered: late notifications are dropped
	barShown bool
	last     time.Time
}

// phaseWeights split the bar between ingest's phases (shares of 100, in
// order): extraction is most of the work.
var phaseWeights = []struct {
	name   string
	weight float64
}{{"walk", 5}, {"extract", 65}, {"build", 5}, {"resolve", 10}, {"enrich", 10}, {"finalize", 5}}

// overall maps a phase's done/total onto the whole bar (0..1).
func overall(phase string, done, total float64) float64 {
	if phase == "done" {
		return 1
	}
	base := 0.0
	for _, p := range phaseWeights {
		if p.name == phase {
			frac := 0.0
			if total > 0 {
				frac = min(max(done/total, 0), 1)
			}
			return (base + p.weight*frac) / 100
		}
		base += p.weight
	}
	return -1 // an unknown phase: keep the bar where it is
}

// progress is a tools.Progress: a bar on a terminal, else (unless quiet)
// one plain line per phase, printed when the phase ends.
func (u *ui) progress(done, total float64, msg string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.finished {
		return // a notification that arrived after the answer
	}
	if msg != u.phase && u.phase != "" && u.width == 0 && !u.quiet {
		// A new phase began, so the last one is complete even if its
		// final count was never reported.
		u.done = u.total
		fmt.Fprintln(u.w, "m1nd: "+u.phaseLine())
	}
	changed := msg != u.phase
	u.seen = true
	u.phase, u.done, u.total = msg, done, total
	if o := overall(msg, done, total); o > u.pct {
		u.pct = o
	}
	if u.width == 0 {
		return
	}
	// Redraw at most 20 times a second, but always on a new phase.
	if now := time.Now(); changed || now.Sub(u.last) >= 50*time.Millisecond {
		u.last = now
		u.draw()
	}
}

func (u *ui) phaseLine() string {
	if u.total > 0 {
		return fmt.Sprintf("%s %d/%d", u.phase, int(u.done), int(u.total))
	}
	return u.phase
}

// draw writes the bar over the current line:
// [#########           ]  45% extract 1234/2900
func (u *ui) draw() {
	const cells = 24
	n := int(u.pct * cells)
	bar := "[" + strings.Repeat("#", n) + strings.Repeat(" ", cells-n) + "]"
	line := fmt.Sprintf("%s %3d%% %s", bar, int(u.pct*100), u.phaseLine())
	if len(line) > u.width-1 {
		line = line[:max(u.width-1, 0)]
	}
	fmt.Fprint(u.w, "\r"+line+"\x1b[K")
	u.barShown = true
}

// finish completes the bar (at 100% when ok) and ends its line; in plain
// mode it prints the last phase's line. Nothing when no progress came.
// The CLI makes one call per process, so progress after it is ignored.
func (u *ui) finish(ok bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.finished = true
	if !u.seen {
		return
	}
	switch {
	case u.width > 0:
		if ok && u.phase != "done" {
			u.phase, u.total = "done", 0
		}
		if ok {
			u.pct = 1
		}
		u.draw()
		fmt.Fprintln(u.w)
	case u.phase != "done" && !u.quiet:
		fmt.Fprintln(u.w, "m1nd: "+u.phaseLine())
	}
	u.seen, u.barShown, u.phase, u.pct = false, false, "", 0
}

// clearBar removes a bar being drawn so a message can take the line; the
// next progress event draws it again.
func (u *ui) clearBar() {
	if u.barShown {
		fmt.Fprint(u.w, "\r\x1b[K")
		u.barShown = false
	}
}

// notef tells the user what m1nd is doing (which runtime dir, which server).
func (u *ui) notef(format string, a ...any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.clearBar()
	fmt.Fprintln(u.w, u.st.dim("m1nd: "+fmt.Sprintf(format, a...)))
}

// routineLog are the session's status lines that every start prints; the
// CLI shows them only with --verbose, and everything else (warnings, kept
// copies, replays) always. The work behind an ingest's answer (warm-ups,
// the wait for the seek index, the seek documents saved at close) logs from
// another goroutine or after the bar: shown, it could land between the
// finished bar and the summary.
var routineLog = []string{"loaded graph ", "plasticity state: ", "feedback memory: ", "no graph snapshot at ",
	"warm-up ", "ingest: the answer waited ", "seek index documents of "}

// logf receives the session's status lines.
func (u *ui) logf(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if !u.verbose && slices.ContainsFunc(routineLog, func(p string) bool { return strings.HasPrefix(msg, p) }) {
		return
	}
	u.notef("%s", msg)
}
