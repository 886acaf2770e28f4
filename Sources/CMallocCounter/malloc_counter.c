#include "waves_malloc_counter.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

// Per-thread, so driver threads and other work do not count against the
// frame being measured. Initial-exec TLS: no allocation to reach it.
static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread uint64_t count __attribute__((tls_model("initial-exec")));
static volatile int seen_call;

void waves_malloc_counter_start(void) { count = 0; counting = 1; }
uint64_t waves_malloc_counter_stop(void) { counting = 0; return count; }
int waves_malloc_counter_active(void) { return seen_call; }

static inline void note(void) {
    seen_call = 1;
    if (counting) count++;
}

void *malloc(size_t size) { note(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { note(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { note(); return __libc_realloc(p, size); }
void *memalign(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    note();
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
