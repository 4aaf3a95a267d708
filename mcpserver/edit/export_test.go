package edit

// ErrCrash and SetFail let tests stop a batch dead at any step.
var ErrCrash = errCrash

func (s *Store) SetFail(f func(step string, i int) error) { s.fail = f }

// OnLockMade runs f between a batch's lock file creation and its flock.
func (s *Store) OnLockMade(f func(name string)) { s.lockMade = f }

// Impatient makes the store ask another process's lock once.
func (s *Store) Impatient() { s.impatient = true }
