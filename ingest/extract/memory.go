package extract

import "runtime/debug"

// ReleaseMemory returns memory a finished ingest no longer needs to the
// system: the Go heap's free pages and the C heap's (tree-sitter's
// parsers allocate outside Go). It costs a full garbage collection, so
// callers run it once per ingest, not per file.
func ReleaseMemory() {
	debug.FreeOSMemory()
	freeIdleArenas()
	trimC()
}

// ReleaseParserMemory returns the C heap's free memory to the system
// without a Go collection. Parsing a tree's worth of files leaves glibc
// holding what tree-sitter freed — 190 MB after go-std's extraction, kept
// resident under everything the ingest builds next — so the code adapter
// calls it when extraction parsed many files. Idle parse arenas are freed
// first (the next parse makes one again).
func ReleaseParserMemory() {
	freeIdleArenas()
	trimC()
}
