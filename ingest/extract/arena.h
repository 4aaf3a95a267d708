// A bump arena for one file's parse (flatten.go and arena.go include it).
//
// A full ingest flattens each tree and throws it away. With libc's
// allocator that costs a malloc per subtree while parsing and a walk over
// every subtree again to free it (ts_tree_delete): go-std measured ~9 % of
// the full ingest's CPU in glibc's malloc and free and ~4 % in the
// delete. In an arena the parser, its tree and everything the parse
// allocates are bump-allocated, free is a no-op and the whole file's
// memory is taken back at once.
//
// The arena is active on a thread only inside the C calls that parse into
// it and tear it down (m1_cur, thread-local), so every other parser in the
// process (kept trees, other threads, the benchmark's bare parse) still
// goes to libc.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

typedef struct m1_chunk {
	struct m1_chunk *next;
	size_t cap, used;
	// data follows, 16-byte aligned
} m1_chunk;

typedef struct {
	m1_chunk *first; // the list of chunks, in the order they are filled
	m1_chunk *head;  // chunk being filled; the ones after it are spare
	char *last;      // start of the newest block (realloc grows it in place)
	size_t bytes;    // bytes handed out since the last reset
	size_t peak;     // most bytes handed out for one file
	size_t held;     // bytes of chunks owned
	size_t keep;     // bytes of chunks a reset keeps; 0: M1_ARENA_KEEP
	uint64_t files;  // files parsed in it
} m1_arena;

#define M1_CHUNK_HDR ((sizeof(m1_chunk) + 15) & ~(size_t)15)
#define M1_CHUNK_MIN ((size_t)256 << 10)
#define M1_CHUNK_MAX ((size_t)4 << 20)
// M1_ARENA_KEEP bounds what an arena keeps between files: a large file's
// chunks past it are unmapped at the reset. A large extraction raises an
// arena's bound (keep, arena.go's WideArenas): every chunk unmapped is
// mapped and faulted in again by the next large file.
#define M1_ARENA_KEEP ((size_t)2 << 20)

// Chunks are mapped from the kernel, not taken from libc: a chunk freed
// goes back at once, where glibc kept chunks below its (rising) mmap
// threshold in its own heaps, resident until a trim.
static m1_chunk *m1_chunk_map(size_t cap) {
#ifdef _WIN32
	return malloc(M1_CHUNK_HDR + cap);
#else
	void *p = mmap(NULL, M1_CHUNK_HDR + cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
#endif
}

static void m1_chunk_unmap(m1_chunk *c) {
#ifdef _WIN32
	free(c);
#else
	munmap(c, M1_CHUNK_HDR + c->cap);
#endif
}

// m1_arena_new returns an empty arena.
static m1_arena *m1_arena_new(void) { return calloc(1, sizeof(m1_arena)); }

// m1_arena_trim unmaps the chunks past the first keep bytes (the first
// chunk always stays) and makes the first chunk the one to fill.
static void m1_arena_trim(m1_arena *a, size_t keep) {
	size_t held = 0;
	m1_chunk **link = &a->first;
	while (*link != NULL) {
		m1_chunk *c = *link;
		if (held + c->cap > keep && held > 0) {
			*link = c->next;
			a->held -= c->cap;
			m1_chunk_unmap(c);
			continue;
		}
		held += c->cap;
		c->used = 0;
		link = &c->next;
	}
	a->head = a->first;
}

// m1_arena_free frees the arena and its chunks.
static void m1_arena_free(m1_arena *a) {
	for (m1_chunk *c = a->first; c != NULL;) {
		m1_chunk *next = c->next;
		m1_chunk_unmap(c);
		c = next;
	}
	free(a);
}

// The allocator and the thread's current arena are in flatten.go's unit
// only (arena.go includes this file for the type and m1_arena_new/free).
#ifndef M1_ARENA_POOL_ONLY

static _Thread_local m1_arena *m1_cur;

static inline char *m1_chunk_data(m1_chunk *c) { return (char *)c + M1_CHUNK_HDR; }

// m1_arena_grow makes head a chunk with room for need bytes: the next
// spare chunk if it fits, else a new one (double the last up to
// M1_CHUNK_MAX, at least need).
static m1_chunk *m1_arena_grow(m1_arena *a, size_t need) {
	m1_chunk *h = a->head;
	if (h != NULL && h->next != NULL && h->next->cap >= need) {
		h = h->next;
		h->used = 0;
		a->head = h;
		return h;
	}
	size_t cap = h != NULL ? h->cap * 2 : M1_CHUNK_MIN;
	if (cap > M1_CHUNK_MAX) {
		cap = M1_CHUNK_MAX;
	}
	if (cap < need) {
		cap = need;
	}
	m1_chunk *c = m1_chunk_map(cap);
	if (c == NULL) {
		return NULL;
	}
	c->cap = cap;
	c->used = 0;
	if (h == NULL) {
		c->next = NULL;
		a->first = c;
	} else {
		c->next = h->next;
		h->next = c;
	}
	a->head = c;
	a->held += cap;
	return c;
}

// Each block carries its size in the 16 bytes before it (realloc copies
// that much) and keeps malloc's 16-byte alignment.
static void *m1_arena_alloc(m1_arena *a, size_t n) {
	size_t need = 16 + ((n + 15) & ~(size_t)15);
	m1_chunk *h = a->head;
	if (h == NULL || h->cap - h->used < need) {
		h = m1_arena_grow(a, need);
		if (h == NULL) {
			return NULL;
		}
	}
	char *b = m1_chunk_data(h) + h->used;
	h->used += need;
	a->bytes += need;
	*(size_t *)b = n;
	a->last = b + 16;
	return b + 16;
}

static void *m1_malloc(size_t n) {
	m1_arena *a = m1_cur;
	return a != NULL ? m1_arena_alloc(a, n) : malloc(n);
}

static void *m1_calloc(size_t k, size_t n) {
	m1_arena *a = m1_cur;
	if (a == NULL) {
		return calloc(k, n);
	}
	if (n != 0 && k > SIZE_MAX / n) {
		return NULL;
	}
	void *p = m1_arena_alloc(a, k * n);
	if (p != NULL) {
		memset(p, 0, k * n);
	}
	return p;
}

static void *m1_realloc(void *p, size_t n) {
	m1_arena *a = m1_cur;
	if (a == NULL) {
		return realloc(p, n);
	}
	if (p == NULL) {
		return m1_arena_alloc(a, n);
	}
	size_t *size = (size_t *)((char *)p - 16);
	size_t old = (*size + 15) & ~(size_t)15;
	size_t grown = (n + 15) & ~(size_t)15;
	m1_chunk *h = a->head;
	// The newest block grows or shrinks in place while its chunk has room.
	if ((char *)p == a->last && (char *)p + grown <= m1_chunk_data(h) + h->cap) {
		h->used = h->used - old + grown;
		a->bytes = a->bytes - old + grown;
		*size = n;
		return p;
	}
	void *q = m1_arena_alloc(a, n);
	if (q != NULL) {
		memcpy(q, p, *size < n ? *size : n);
	}
	return q;
}

static void m1_free(void *p) {
	if (m1_cur == NULL) {
		free(p);
	}
}

// m1_arena_reset takes back everything handed out since the last reset,
// keeping chunks up to the arena's bound for the next file.
static void m1_arena_reset(m1_arena *a) {
	if (a->bytes > a->peak) {
		a->peak = a->bytes;
	}
	a->bytes = 0;
	a->last = NULL;
	a->files++;
	m1_arena_trim(a, a->keep != 0 ? a->keep : M1_ARENA_KEEP);
}

#endif
