package session

// RootSharedIfAny returns the object RootShared keeps for root under key,
// without making one when there is none: readers that only profit from a
// root's ingest cache (cross_verify's content hashes) must not create it.
func (s *State) RootSharedIfAny(root, key string) (any, bool) {
	s.sharedMu.Lock()
	defer s.sharedMu.Unlock()
	v, ok := s.shared[rootKeyPrefix+root+"\x00"+key]
	return v, ok
}
