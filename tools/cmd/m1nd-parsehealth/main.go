// Command m1nd-parsehealth counts, per language, the files of a tree whose
// parse left syntax errors after the extractor's repairs — a file with
// errors can lose declarations or file them under the wrong owner.
//
//	m1nd-parsehealth [-v] DIR...
//
// -v lists each such file with its error count. Vendored, node_modules
// and dot directories are skipped, as ingest skips them.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

type tally struct{ files, bad int }

func main() {
	verbose := flag.Bool("v", false, "list each file with errors")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: m1nd-parsehealth [-v] DIR... (e.g. m1nd-parsehealth -v ~/src/kotlinpoet)")
		os.Exit(2)
	}
	for _, root := range flag.Args() {
		counts := map[string]*tally{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") {
					return filepath.SkipDir
				}
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			e := extract.For(rel)
			if e == nil || e.Language() == "" || e.Language() == "generic" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			r, err := extract.ExtractFile(filepath.ToSlash(rel), src)
			if err != nil || r == nil {
				return nil
			}
			t := counts[e.Language()]
			if t == nil {
				t = &tally{}
				counts[e.Language()] = t
			}
			t.files++
			if r.ParseErrors > 0 {
				t.bad++
				if *verbose {
					fmt.Printf("%s\t%s\t%d\n", root, rel, r.ParseErrors)
				}
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		langs := make([]string, 0, len(counts))
		for l := range counts {
			langs = append(langs, l)
		}
		sort.Strings(langs)
		for _, l := range langs {
			fmt.Printf("%s\t%s\tfiles %d\twith errors %d\n", root, l, counts[l].files, counts[l].bad)
		}
	}
}
