package session

import "github.com/m1nd-go/m1nd/mcpserver/edit"

// recoverEdits rolls back the file batches (apply, apply_batch,
// edit_commit) a server killed mid-write left behind — in this runtime
// directory and in the per-user one memory-only servers use — before the
// graph is loaded, so the disk is never a mix of old and new files. A
// batch another live server is writing is left alone (its lock is held).
func (s *State) recoverEdits() {
	dirs := []string{edit.DefaultDir("")}
	if s.cfg.RuntimeDir != "" {
		dirs = append([]string{edit.DefaultDir(s.cfg.RuntimeDir)}, dirs...)
	}
	for _, dir := range dirs {
		st, err := edit.OpenStore(dir, s.logf)
		if err != nil {
			continue
		}
		s.editsRecovered = append(s.editsRecovered, st.Recover()...)
	}
}

// EditsRecovered lists the interrupted edit batches rolled back when the
// session opened.
func (s *State) EditsRecovered() []edit.Recovered { return s.editsRecovered }
