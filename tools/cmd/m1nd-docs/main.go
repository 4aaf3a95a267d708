// Command m1nd-docs writes the tool reference generated from the live
// registry: m1nd-docs -o docs/tools.md
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/m1nd-go/m1nd/tools/docsgen"
)

func main() {
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	md := docsgen.Markdown(toolset.Builtin())
	if *out == "" {
		fmt.Print(md)
		return
	}
	if err := os.WriteFile(*out, []byte(md), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
