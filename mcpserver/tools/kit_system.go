package tools

import "github.com/m1nd-go/m1nd/ingest"

// RootPath is the absolute path an ingest run reads (set by Target), and
// Output what its Build produced (nil before): the ingest tool builds its
// typed answer from them (mcpserver/tools/system).
func (r *IngestRun) RootPath() string { return r.root }

// Output is what the run's Build produced (nil before it).
func (r *IngestRun) Output() *ingest.Output { return r.out }
