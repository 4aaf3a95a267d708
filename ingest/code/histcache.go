package code

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"

	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
)

// The git history of a HEAD is kept in the store's directory too, so a new
// process serving the same HEAD (a restart) does not walk the commits
// again: on a repository of a few thousand commits that walk is most of an
// ingest that reuses every extraction.

// historyFile is the history's file in the cache directory.
const historyFile = "history.gob"

type historyOnDisk struct {
	// Key is readHistory's key: repository, subdirectory, commit bound
	// and the m1nd build; State is HEAD (reference and commit) when H was
	// read. A history for another HEAD is still worth loading: the
	// commits since are read onto it (gitmeta.Extend).
	Key, State string
	H          *gitmeta.History
}

// loadHistory returns the history the store's directory holds for key
// (nil h when none).
func loadHistory(store *cache.Store, key string) cachedHistory {
	data, err := store.ReadFile(historyFile)
	if err != nil {
		return cachedHistory{}
	}
	var d historyOnDisk
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&d) != nil || d.Key != key || d.H == nil {
		return cachedHistory{}
	}
	if d.H.Files == nil {
		d.H.Files = map[string]gitmeta.FileStats{}
	}
	return cachedHistory{key: d.Key, state: d.State, h: d.H}
}

// saveHistory keeps c in the store's directory (behind the caller when the
// store writes behind). A failure costs the next process a walk of the
// commits, nothing else.
func saveHistory(store *cache.Store, c cachedHistory) {
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(historyOnDisk{Key: c.key, State: c.state, H: c.h}) != nil {
		return
	}
	_ = store.PutFile(historyFile, buf.Bytes())
}

// digest shortens a key that names paths and builds to a fixed-size name.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}
