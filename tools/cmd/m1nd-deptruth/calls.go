package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/tools/deptruth"
)

// runCalls prints, per Go repository, the recall and precision of m1nd's
// function-level call edges against go/types.
func runCalls(repos []deptruth.Repo, reposDir string, goos []string, jsonOut string, quiet bool) error {
	ctx := context.Background()
	o := deptruth.Options{GOOS: goos}
	if !quiet {
		o.Log = func(format string, a ...any) { fmt.Fprintf(os.Stderr, format+"\n", a...) }
	}
	all := map[string]deptruth.CallScore{}
	fmt.Println("| repository | truth edges | unmapped | m1nd edges | found | recall | precision |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range repos {
		if r.Lang != deptruth.Go {
			continue
		}
		root := filepath.Join(reposDir, r.Name)
		tracked, err := deptruth.TrackedFiles(root)
		if err != nil {
			return err
		}
		truth, err := deptruth.GoCallTruth(ctx, root, tracked, o)
		if err != nil {
			return err
		}
		m, err := deptruth.M1ndCalls(ctx, root)
		if err != nil {
			return err
		}
		s := deptruth.ScoreCalls(truth, m, 40)
		all[r.Name] = s
		fmt.Printf("| %s | %d | %d | %d | %d | %.3f | %.3f |\n", r.Name, s.TruthEdges, s.Unmapped, s.M1ndEdges, s.Found, s.Recall, s.Precision)
	}
	if jsonOut == "" {
		return nil
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(jsonOut, b, 0o644)
}
