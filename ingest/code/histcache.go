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
	// Key is readHistory's key: repository, subdirectory, commit bound,
	// HEAD (reference and commit) and the m1nd build.
	Key string
	H   *gitmeta.History
}

// loadHistory returns the history the store's directory holds for key,
// or nil.
func loadHistory(store *cache.Store, key string) *gitmeta.History {
	data, err := store.ReadFile(historyFile)
	if err != nil {
		return nil
	}
	var d historyOnDisk
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&d) != nil || d.Key != key || d.H == nil {
		return nil
	}
	if d.H.Files == nil {
		d.H.Files = map[string]gitmeta.FileStats{}
	}
	return d.H
}

// saveHistory keeps h for key in the store's directory (behind the caller
// when the store writes behind). A failure costs the next process a walk
// of the commits, nothing else.
func saveHistory(store *cache.Store, key string, h *gitmeta.History) {
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(historyOnDisk{Key: key, H: h}) != nil {
		return
	}
	_ = store.PutFile(historyFile, buf.Bytes())
}

// digest shortens a key that names paths and builds to a fixed-size name.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}
