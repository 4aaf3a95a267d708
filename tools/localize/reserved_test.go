package localize

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoBenchmarkOnReservedRepositories: the repositories kept for an
// independent evaluation (../shared/RESERVED-REPOSITORIES.md) are never
// mined, tuned on or tested against: no suite's repos.tsv names one, and
// no claims file asks about one.
func TestNoBenchmarkOnReservedRepositories(t *testing.T) {
	root, _ := filepath.Abs("../..")
	text, err := os.ReadFile(filepath.Join(root, "..", "shared", "RESERVED-REPOSITORIES.md"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI runs with ../shared beside the checkout: %v", err)
		}
		t.Skip("no ../shared/RESERVED-REPOSITORIES.md beside this checkout")
	}
	reserved, names := map[string]bool{}, map[string]bool{}
	for _, m := range regexp.MustCompile(`([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)`).FindAllStringSubmatch(string(text), -1) {
		reserved[strings.ToLower(m[0])] = true
		names[strings.ToLower(m[2])] = true
	}
	if len(reserved) < 10 {
		t.Fatalf("read only %d reserved repositories: has the file's form changed?", len(reserved))
	}
	suites, _ := filepath.Glob(filepath.Join(root, "benchmarks", "*", "*.tsv"))
	for _, f := range suites {
		rel, _ := filepath.Rel(root, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			cols := strings.Split(line, "\t")
			if strings.HasPrefix(line, "#") || len(cols) < 2 {
				continue
			}
			hit := ""
			switch {
			case reserved[strings.ToLower(cols[1])]:
				hit = cols[1]
			case strings.HasPrefix(filepath.Base(f), "claims") && names[strings.ToLower(cols[0])]:
				hit = cols[0]
			}
			if hit != "" {
				t.Errorf("%s:%d names %s, a repository reserved for independent evaluation: use another repository", rel, i+1, hit)
			}
		}
	}
}
