package session

import (
	"encoding/json"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// The snapshot's meta is json.Marshal(stateMeta), byte for byte, but
// assembled in a buffer of its final size from three parts: the members
// before the file stamps, the stamps (encoded once per bundle: they are
// the bundle's and never change) and the members after them. Marshal
// grew its buffer to ≈ 2 MB and copied it for go-std's 1.43 MB meta,
// ≈ 6 MB a save and the largest piece of the deferred auto-save's peak
// left after the sparse cut (activate-speed9.md).

// metaHead and metaTail are stateMeta's members before and after Files,
// in order, with the same names and options (TestMetaPartsMirrorStateMeta).
type metaHead struct {
	Format     int                         `json:"m1nd_state"`
	Save       uint64                      `json:"save"`
	Stamp      string                      `json:"stamp"`
	SavedAt    time.Time                   `json:"saved_at"`
	Roots      []Root                      `json:"roots"`
	JournalSeq uint64                      `json:"journal_seq"`
	IngestSeq  uint64                      `json:"ingest_seq,omitempty"`
	Feedback   []plasticity.FeedbackRecord `json:"feedback"`
}

type metaTail struct {
	QueryMemory []plasticity.QueryRecord `json:"query_memory,omitempty"`
	Commits     string                   `json:"commits,omitempty"`
}

var filesJSONKey = NewKey[[]byte]("meta file stamps JSON")

// encodeMeta returns json.Marshal(m) for a snapshot of b, whose Files m
// carries.
func encodeMeta(b *Bundle, m stateMeta) ([]byte, error) {
	head, err := json.Marshal(metaHead{m.Format, m.Save, m.Stamp, m.SavedAt, m.Roots, m.JournalSeq, m.IngestSeq, m.Feedback})
	if err != nil {
		return nil, err
	}
	tail, err := json.Marshal(metaTail{m.QueryMemory, m.Commits})
	if err != nil {
		return nil, err
	}
	var files []byte
	if len(m.Files) > 0 {
		files, err = Derive(b, filesJSONKey, func(*graph.Graph) ([]byte, error) { return json.Marshal(b.Files) })
		if err != nil {
			return nil, err
		}
	}
	return joinMeta(head, files, tail), nil
}

// joinMeta splices the file stamps (none: omitted, as omitempty does) and
// the tail's members into head's object.
func joinMeta(head, files, tail []byte) []byte {
	out := make([]byte, 0, len(head)+len(`,"files":`)+len(files)+len(tail))
	out = append(out, head[:len(head)-1]...)
	if len(files) > 0 {
		out = append(out, `,"files":`...)
		out = append(out, files...)
	}
	if len(tail) > 2 { // not "{}"
		out = append(out, ',')
		out = append(out, tail[1:len(tail)-1]...)
	}
	return append(out, '}')
}
