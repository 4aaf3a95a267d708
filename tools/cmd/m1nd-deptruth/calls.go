package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/tools/deptruth"
)

// runCalls prints, per Go and Java repository, the recall and precision of
// m1nd's function-level call edges against go/types or javac.
func runCalls(repos []deptruth.Repo, reposDir, scripts string, goos []string, jsonOut string, quiet bool) error {
	ctx := context.Background()
	o := deptruth.Options{GOOS: goos, ScriptsDir: scripts}
	if !quiet {
		o.Log = func(format string, a ...any) { fmt.Fprintf(os.Stderr, format+"\n", a...) }
	}
	all := map[string]deptruth.CallScore{}
	fmt.Println("| repository | truth edges | unmapped | m1nd edges | found | recall | precision |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range repos {
		if r.Lang != deptruth.Go && r.Lang != deptruth.Java {
			continue
		}
		root := filepath.Join(reposDir, r.Name)
		truth, m, err := callGraphs(ctx, r.Lang, root, o)
		if errors.Is(err, deptruth.ErrNoJava) {
			fmt.Fprintf(os.Stderr, "m1nd-deptruth: %s skipped: %v\n", r.Name, err)
			continue
		}
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

// callGraphs is the truth's and m1nd's call graph of the checkout at root.
func callGraphs(ctx context.Context, lang, root string, o deptruth.Options) (truth, m *deptruth.CallGraph, err error) {
	if lang == deptruth.Java {
		if truth, err = deptruth.JavaCallTruth(ctx, root, o); err != nil {
			return nil, nil, err
		}
		m, err = deptruth.M1ndCallsOf(ctx, root, ".java")
		return truth, m, err
	}
	tracked, err := deptruth.TrackedFiles(root)
	if err != nil {
		return nil, nil, err
	}
	if truth, err = deptruth.GoCallTruth(ctx, root, tracked, o); err != nil {
		return nil, nil, err
	}
	m, err = deptruth.M1ndCalls(ctx, root)
	return truth, m, err
}
