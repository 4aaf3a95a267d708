// Package ui is serve mode's web UI: a single page built from src/ by
// `npm ci && npm run build` (esbuild bundles sigma and graphology) into
// dist/, which is committed and embedded, so the binary needs no network
// and `go install` users get the page.
package ui

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// FS holds index.html, app.js and style.css.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded at build time
	}
	return sub
}
