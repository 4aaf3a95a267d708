package localize

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FindServer resolves the m1nd-mcp binary the benchmark harnesses drive to
// an absolute path: the -server flag's value when given, else m1nd-mcp
// beside the running harness (make build puts them together), else on PATH.
func FindServer(flagVal string) (string, error) {
	if flagVal != "" {
		p, err := exec.LookPath(flagVal)
		if err != nil {
			return "", err
		}
		return filepath.Abs(p)
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "m1nd-mcp")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("m1nd-mcp")
	if err != nil {
		return "", fmt.Errorf("m1nd-mcp not found: build it (make build) and pass -server bin/m1nd-mcp")
	}
	return filepath.Abs(p)
}

// WriteReports writes a harness's markdown summary to mdPath and v as
// indented JSON to jsonPath; an empty path skips that file.
func WriteReports(md string, v any, mdPath, jsonPath string) error {
	if mdPath != "" {
		if err := os.WriteFile(mdPath, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if jsonPath != "" {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonPath, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Repo is one line of a harness's repos.tsv.
type Repo struct {
	// Name is the checkout's directory under the repos dir.
	Name string `json:"name"`
	// Slug is owner/name on GitHub.
	Slug   string `json:"repo"`
	Commit string `json:"commit"`
	Lang   string `json:"language"`
	// Split is the harness's: "tune", "held-out", ….
	Split string `json:"split"`
}

// ReadRepos reads a harness's repos.tsv: tab-separated name, repo, commit,
// language and split; blank lines, lines starting with # and a header line
// starting with "name" are skipped. check judges each line (nil: any); its
// error is reported with the line's number.
func ReadRepos(r io.Reader, check func(Repo) error) ([]Repo, error) {
	var out []Repo
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "name\t") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("repos.tsv line %d: want 5 tab-separated fields (name, repo, commit, language, split), got %d", line, len(f))
		}
		rp := Repo{Name: f[0], Slug: f[1], Commit: f[2], Lang: f[3], Split: f[4]}
		if check != nil {
			if err := check(rp); err != nil {
				return nil, fmt.Errorf("repos.tsv line %d: %w", line, err)
			}
		}
		out = append(out, rp)
	}
	return out, sc.Err()
}
