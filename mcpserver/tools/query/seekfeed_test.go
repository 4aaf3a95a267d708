package query_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSeekIndexFedByIngest: the first seek index after an ingest takes
// every file's body documents from the ingest's reads (SeekFeed), and
// answers as an index reading the tree does.
func TestSeekIndexFedByIngest(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	s := d.Session
	x, err := tools.SeekIndex(s, s.Current())
	if err != nil {
		t.Fatal(err)
	}
	st := x.Stats()
	if st.FilesRead == 0 || st.FilesReused != st.FilesRead+st.FilesSkipped {
		t.Errorf("files read %d, skipped %d, taken from the ingest %d: want all taken", st.FilesRead, st.FilesSkipped, st.FilesReused)
	}
	o := seek.DefaultOptions()
	o.ReadFile = func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }
	read, err := seek.Build(context.Background(), x.Graph(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"validate user credentials", "session token store", "router handle login request"} {
		p := seek.Params{TopK: 20, GraphRerank: true}
		if diff := cmp.Diff(read.SearchText(q, p), x.SearchText(q, p)); diff != "" {
			t.Errorf("query %q (-read +fed):\n%s", q, diff)
		}
	}
}
