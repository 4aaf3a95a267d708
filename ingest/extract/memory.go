package extract

import "runtime/debug"

// ReleaseMemory returns memory a finished ingest no longer needs to the
// system: the Go heap's free pages and the C heap's (tree-sitter's
// parsers allocate outside Go). It costs a full garbage collection, so
// callers run it once per ingest, not per file.
func ReleaseMemory() {
	debug.FreeOSMemory()
	trimC()
}
