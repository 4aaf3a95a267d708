//go:build linux && cgo

package extract

/*
#include <malloc.h>
*/
import "C"

// trimC returns the C heap's free memory to the system. Parsing runs on
// many threads, and glibc keeps what each thread's arena freed; after an
// ingest that is megabytes per thread a long-lived server never uses
// again.
func trimC() { C.malloc_trim(0) }
