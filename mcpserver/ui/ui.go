// Package ui is serve mode's web UI: a single page served from dist/ —
// index.html and style.css as written, app.js bundled from src/app.js by
// `npm ci && npm run build` (esbuild with sigma and graphology). dist/ is
// committed and embedded, so the binary needs no network and `go install`
// users get the page; its name makes ingests skip it as build output.
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
