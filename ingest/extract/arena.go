package extract

/*
#cgo CFLAGS: -I${SRCDIR}/include -std=c11
// mmap's MAP_ANONYMOUS (arena.h) is outside strict C11.
#define _DEFAULT_SOURCE
#define M1_ARENA_POOL_ONLY
#include "arena.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
)

// arena is a parse arena (arena.h).
type arena = *C.m1_arena

// arenas holds the parse arenas no parse is using. They are shared by every
// grammar's workers, so there are as many as parses ever ran at once, not
// one per worker a sync.Pool made and dropped.
var arenas struct {
	sync.Mutex
	idle []arena
}

// wideRuns counts the WideArenas calls not yet released.
var wideRuns atomic.Int32

// wideKeep is what an arena keeps between files while a large extraction
// runs. go-std's full ingest faulted 330 K pages with arenas keeping
// arenaKeep and 155 K keeping 32 MB (64 MB: 150 K), 2.5 s of its 20 s of
// CPU on a 2-core KVM.
const wideKeep = 32 << 20

// WideArenas lets parse arenas keep up to 32 MB between files instead of
// 2 MB until release is called: an extraction of many files calls it so
// its large files reuse the pages the previous ones faulted in. Idle
// arenas go back to 2 MB when the last caller releases; release may be
// called more than once.
func WideArenas() (release func()) {
	wideRuns.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			if wideRuns.Add(-1) == 0 {
				arenas.Lock()
				for _, a := range arenas.idle {
					narrow(a)
				}
				arenas.Unlock()
			}
		})
	}
}

// narrow gives a the default bound and unmaps its chunks past it.
func narrow(a arena) {
	a.keep = 0
	if a.held > arenaKeep {
		C.m1_arena_trim(a, arenaKeep)
	}
}

// takeArena returns an idle arena, or a new one, bounded as WideArenas
// says now.
func takeArena() arena {
	var a arena
	arenas.Lock()
	if n := len(arenas.idle); n > 0 {
		a = arenas.idle[n-1]
		arenas.idle = arenas.idle[:n-1]
	}
	arenas.Unlock()
	if a == nil {
		a = C.m1_arena_new()
	}
	if a != nil && wideRuns.Load() > 0 {
		a.keep = wideKeep
	}
	return a
}

// giveArena makes a, reset by its last parse, idle again. Under the lock
// WideArenas' release narrows the idle arenas under, so an arena given
// back after the last release is narrowed here.
func giveArena(a arena) {
	arenas.Lock()
	if wideRuns.Load() == 0 {
		narrow(a)
	}
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
