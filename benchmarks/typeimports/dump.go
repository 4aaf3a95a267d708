//go:build ignore

// Command dump prints, for every import statement the extractor saw, the
// file, line and whether all its import edges are type-only.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

func main() {
	root := os.Args[1]
	exts := strings.Split(os.Args[2], ",")
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		ok := false
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				ok = true
			}
		}
		if !ok {
			return nil
		}
		src, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		r, err := extract.ExtractFile(filepath.ToSlash(rel), src)
		if err != nil {
			return nil
		}
		lines := map[uint32][2]int{}
		for _, e := range r.Edges {
			if e.Relation == extract.RelImports || e.Relation == extract.RelTypeImports {
				c := lines[e.Line]
				c[0]++
				if e.Relation == extract.RelTypeImports {
					c[1]++
				}
				lines[e.Line] = c
			}
		}
		for l, c := range lines {
			out = append(out, fmt.Sprintf("%s\t%d\t%v", filepath.ToSlash(rel), l, c[0] == c[1]))
		}
		return nil
	})
	sort.Strings(out)
	fmt.Println(strings.Join(out, "\n"))
}
