package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// The git history an ingest read (Bundle.Commits) is kept beside the graph
// in a file named by its content, history-<digest>.gob, and the graph's
// meta names that digest. A restart then serves the same history: without
// it, timeline, predict's co-change, trust and tremor answered "no git
// history" in every session but the one that ingested. Naming the file by
// content keeps the pair consistent without ordering tricks: a crash
// between the history file and the graph leaves the old graph's file in
// place, and files no graph names are removed after the graph is written.

const historyPrefix = "history-"

// commitsBlob is a bundle's commits encoded, with their digest.
type commitsBlob struct {
	digest string
	data   []byte
}

var commitsKey = NewKey[commitsBlob]("commits")

// encodedCommits returns b's commits encoded once per bundle; a bundle
// whose commits are the previous bundle's slice (a tick, a learn) reuses
// its encoding.
func (s *State) encodedCommits(b *Bundle) (commitsBlob, error) {
	if len(b.Commits) == 0 {
		return commitsBlob{}, nil
	}
	return Derive(b, commitsKey, func(*graph.Graph) (commitsBlob, error) {
		s.commitsMu.Lock()
		defer s.commitsMu.Unlock()
		if last := s.lastCommits; last.n == len(b.Commits) && last.first == &b.Commits[0] {
			return last.blob, nil
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(b.Commits); err != nil {
			return commitsBlob{}, err
		}
		sum := sha256.Sum256(buf.Bytes())
		blob := commitsBlob{digest: hex.EncodeToString(sum[:12]), data: buf.Bytes()}
		s.lastCommits = lastCommits{first: &b.Commits[0], n: len(b.Commits), blob: blob}
		return blob, nil
	})
}

// lastCommits remembers the last encoding by the slice it encoded.
type lastCommits struct {
	first *history.Commit
	n     int
	blob  commitsBlob
}

// historyPath is the file holding the commits of digest.
func (s *State) historyPath(digest string) string {
	return s.RuntimePath(historyPrefix + digest + ".gob")
}

// saveCommits writes the history file of blob unless it is on disk.
func (s *State) saveCommits(blob commitsBlob) error {
	if blob.digest == "" {
		return nil
	}
	path := s.historyPath(blob.digest)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	return snapshot.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		_, err := w.Write(blob.data)
		return err
	})
}

// dropOtherCommits removes history files no longer named by the graph on
// disk (keep is its digest, "" when it has none).
func (s *State) dropOtherCommits(keep string) {
	old, _ := filepath.Glob(s.RuntimePath(historyPrefix + "*.gob"))
	for _, p := range old {
		if d := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), historyPrefix), ".gob"); d != keep {
			os.Remove(p)
		}
	}
}

// loadCommits reads the history the graph's meta names; a missing or
// damaged file is said in the log and costs the history-based answers
// until the next ingest, nothing else.
func (s *State) loadCommits(digest string) []history.Commit {
	if digest == "" {
		return nil
	}
	data, err := os.ReadFile(s.historyPath(digest))
	if err == nil {
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:12]) != digest {
			err = fmt.Errorf("its contents do not match their digest")
		}
	}
	var cs []history.Commit
	if err == nil {
		err = gob.NewDecoder(bytes.NewReader(data)).Decode(&cs)
	}
	if err != nil {
		s.logf("git history of the saved graph not loaded (%v): timeline, predict and the risk signals answer without history until the next ingest", err)
		return nil
	}
	return cs
}
