package session

// RootSharedIfAny returns the object RootShared keeps for root under key,
// without making one when there is none: readers that only profit from a
// root's ingest cache (cross_verify's content hashes) must not create it.
// Until every caller uses Keys, it also finds an object RootShared (the
// function) keeps for root under a Key of that name.
//
// Deprecated: use the function RootSharedIfAny with the Key.
func (s *State) RootSharedIfAny(root, key string) (any, bool) {
	s.sharedMu.Lock()
	defer s.sharedMu.Unlock()
	if v, ok := s.shared[rootKey{root, key}]; ok {
		return v, true
	}
	for k, v := range s.shared {
		if rk, ok := k.(rootKey); ok && rk.root == root {
			if n, ok := rk.key.(named); ok && n.keyName() == key {
				return v, true
			}
		}
	}
	return nil, false
}
