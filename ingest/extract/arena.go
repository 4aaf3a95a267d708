package extract

/*
#cgo CFLAGS: -I${SRCDIR}/include -std=c11
// mmap's MAP_ANONYMOUS (arena.h) is outside strict C11.
#define _DEFAULT_SOURCE
#define M1_ARENA_POOL_ONLY
#include "arena.h"
*/
import "C"

import "sync"

// arena is a parse arena (arena.h).
type arena = *C.m1_arena

// arenas holds the parse arenas no parse is using. They are shared by every
// grammar's workers, so there are as many as parses ever ran at once, not
// one per worker a sync.Pool made and dropped.
var arenas struct {
	sync.Mutex
	idle []arena
}

// takeArena returns an idle arena, or a new one.
func takeArena() arena {
	arenas.Lock()
	defer arenas.Unlock()
	if n := len(arenas.idle); n > 0 {
		a := arenas.idle[n-1]
		arenas.idle = arenas.idle[:n-1]
		return a
	}
	return C.m1_arena_new()
}

// giveArena makes a, reset by its last parse, idle again.
func giveArena(a arena) {
	arenas.Lock()
	arenas.idle = append(arenas.idle, a)
	arenas.Unlock()
}

// freeIdleArenas frees the idle arenas and their chunks: the code adapter
// releases parser memory during and after extraction (ReleaseParserMemory),
// and a server between ingests holds none.
func freeIdleArenas() {
	arenas.Lock()
	idle := arenas.idle
	arenas.idle = nil
	arenas.Unlock()
	for _, a := range idle {
		C.m1_arena_free(a)
	}
}

// arenaStats reports the idle arenas: how many, the bytes of chunks they
// hold, the most bytes one file's parse took in any, and the files parsed.
func arenaStats() (count, held, peak, files int) {
	arenas.Lock()
	defer arenas.Unlock()
	for _, a := range arenas.idle {
		held += int(a.held)
		peak = max(peak, int(a.peak))
		files += int(a.files)
	}
	return len(arenas.idle), held, peak, files
}

// arenaKeep is the most an idle arena keeps between files (M1_ARENA_KEEP).
const arenaKeep = C.M1_ARENA_KEEP
