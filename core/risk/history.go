package risk

// MaxCommitFiles: a commit touching more files is a mass edit (a rename,
// a licence header, a formatter run), not evidence about any one module;
// trust and tremor skip it.
const MaxCommitFiles = 50

// Commit is one commit as the risk signals read it.
type Commit[K comparable] struct {
	// Time is Unix seconds.
	Time    int64
	Subject string
	Modules []K
}

// HistoryEvidence builds each module's trust evidence from commits: every
// commit is a change of the modules it touched, and a fix (IsFix on its
// subject) a defect found in them, aged from now (Unix seconds); a
// module is exposed from its first commit. Commits
// after now and mass edits are skipped.
func HistoryEvidence[K comparable](commits []Commit[K], now int64) map[K]*Evidence {
	out := map[K]*Evidence{}
	for _, c := range commits {
		if c.Time > now || len(c.Modules) > MaxCommitFiles {
			continue
		}
		fix := IsFix(c.Subject)
		for _, m := range c.Modules {
			e := out[m]
			if e == nil {
				e = &Evidence{LastDefectHours: -1}
				out[m] = e
			}
			e.Changes++
			e.Expose(float64(now-c.Time) / 3600)
			if fix {
				e.Fixes++
				e.SeeDefect(float64(now-c.Time) / 3600)
			}
		}
	}
	return out
}

// ChangeAges lists, per module, the ages in seconds before now of the
// commits that touched it (tremor's input). Commits after now and mass
// edits are skipped.
func ChangeAges[K comparable](commits []Commit[K], now int64) map[K][]float64 {
	out := map[K][]float64{}
	for _, c := range commits {
		if c.Time > now || len(c.Modules) > MaxCommitFiles {
			continue
		}
		for _, m := range c.Modules {
			out[m] = append(out[m], float64(now-c.Time))
		}
	}
	return out
}
