// Package report is the report tool family: panoramic (one-screen overview of a repository's risks), savings (what the graph saved this session) and report (the session in Markdown).
package report

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the report family's tools to r.
func Register(r *tools.Registry) {
	registerPanoramic(r)
	registerSavings(r)
	registerReport(r)
}
