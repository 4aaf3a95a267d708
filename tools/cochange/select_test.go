package cochange

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelectRepos(t *testing.T) {
	path := filepath.Join(t.TempDir(), "repos.tsv")
	tsv := "name\trepo\tcommit\tlanguage\tsplit\n" +
		"a\to/a\t1111111\tgo\ttune\n" +
		"b\to/b\t2222222\tpython\theld-out\n" +
		"c\to/c\t3333333\tgo\ttune\n"
	if err := os.WriteFile(path, []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, only, split string
		want              []string
	}{
		{"all", "", "", []string{"a", "b", "c"}},
		{"split", "", "tune", []string{"a", "c"}},
		{"only, spaced", " c, b ", "", []string{"b", "c"}},
		{"only within split", "a,b", "held-out", []string{"b"}},
		{"unknown name", "z", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repos, err := SelectRepos(path, tc.only, tc.split)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range repos {
				got = append(got, r.Name)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("SelectRepos(%q, %q) (-want +got):\n%s", tc.only, tc.split, d)
			}
		})
	}
	if _, err := SelectRepos(filepath.Join(t.TempDir(), "none.tsv"), "", ""); err == nil {
		t.Error("SelectRepos of a missing file: want an error")
	}
}
