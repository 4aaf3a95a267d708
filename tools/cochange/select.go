package cochange

import (
	"os"
	"strings"
)

// SelectRepos reads the repos.tsv at path and keeps the repositories
// named in only (comma-separated; empty keeps all) of split ("tune" or
// "held-out"; empty keeps both), in the file's order.
func SelectRepos(path, only, split string) ([]Repo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	all, err := ReadRepos(f)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			keep[n] = true
		}
	}
	var out []Repo
	for _, r := range all {
		if (len(keep) == 0 || keep[r.Name]) && (split == "" || r.Split == split) {
			out = append(out, r)
		}
	}
	return out, nil
}
