#define _GNU_SOURCE
#include "waves_malloc_counter.h"
#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

// Per-thread, so driver threads and other work do not count against the
// frame being measured. Initial-exec TLS: no allocation to reach it.
static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread uint64_t count __attribute__((tls_model("initial-exec")));
static __thread uint64_t foreign __attribute__((tls_model("initial-exec")));
static __thread uint64_t bytes __attribute__((tls_model("initial-exec")));
static __thread uint64_t largest __attribute__((tls_model("initial-exec")));
static volatile int seen_call;

// Executable segments of the project's own code, found once with
// dl_iterate_phdr (outside the hooks: the loader lock is never taken in malloc).
#define MAX_RANGES 64
static struct { uintptr_t low, high; } own_code[MAX_RANGES];
static int own_count = -1;

static int is_own_object(const char *name) {
    if (name == NULL || name[0] == '\0') return 1; // the executable itself
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    return strncmp(base, "libswift", 8) == 0 || strstr(base, "Foundation") != NULL ||
           strncmp(base, "libdispatch", 11) == 0 || strncmp(base, "libBlocksRuntime", 16) == 0;
}

static int note_object(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size; (void)unused;
    if (!is_own_object(info->dlpi_name)) return 0;
    for (int i = 0; i < info->dlpi_phnum && own_count < MAX_RANGES; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
        own_code[own_count].low = info->dlpi_addr + segment->p_vaddr;
        own_code[own_count].high = own_code[own_count].low + segment->p_memsz;
        own_count++;
    }
    return 0;
}

static int is_own_code(uintptr_t address) {
    for (int i = 0; i < own_count; i++)
        if (address >= own_code[i].low && address < own_code[i].high) return 1;
    return 0;
}

void waves_malloc_counter_start(void) {
    if (own_count < 0) {
        own_count = 0;
        dl_iterate_phdr(note_object, NULL);
    }
    count = 0;
    foreign = 0;
    bytes = 0;
    largest = 0;
    counting = 1;
}
uint64_t waves_malloc_counter_stop(void) { counting = 0; return count; }
uint64_t waves_malloc_counter_foreign(void) { return foreign; }
uint64_t waves_malloc_counter_bytes(void) { return bytes; }
uint64_t waves_malloc_counter_largest(void) { return largest; }
int waves_malloc_counter_active(void) { return seen_call; }

// Inlined into each hook, so the return address is the hook's caller.
#define NOTE(size)                                                               \
    do {                                                                         \
        seen_call = 1;                                                           \
        if (counting) {                                                          \
            count++;                                                             \
            uint64_t asked = (size);                                             \
            bytes += asked;                                                      \
            if (asked > largest) largest = asked;                                \
            if (!is_own_code((uintptr_t)__builtin_return_address(0))) foreign++; \
        }                                                                        \
    } while (0)

static size_t product(size_t n, size_t size) {
    size_t total;
    return __builtin_mul_overflow(n, size, &total) ? SIZE_MAX : total;
}

// The process's live heap: every block's usable size, added when it is
// handed out and taken away when it comes back, and the most it reached.
static _Atomic int64_t live_bytes, peak_bytes;

static void *held(void *p) {
    if (p) {
        int64_t size = (int64_t)malloc_usable_size(p);
        int64_t now = atomic_fetch_add_explicit(&live_bytes, size, memory_order_relaxed) + size;
        int64_t peak = atomic_load_explicit(&peak_bytes, memory_order_relaxed);
        while (now > peak && !atomic_compare_exchange_weak_explicit(&peak_bytes, &peak, now, memory_order_relaxed, memory_order_relaxed)) {}
    }
    return p;
}
static void released(void *p) {
    if (p) atomic_fetch_sub_explicit(&live_bytes, (int64_t)malloc_usable_size(p), memory_order_relaxed);
}

int64_t waves_heap_live(void) { return atomic_load_explicit(&live_bytes, memory_order_relaxed); }
int64_t waves_heap_peak(void) { return atomic_load_explicit(&peak_bytes, memory_order_relaxed); }
void waves_heap_peak_reset(void) { atomic_store_explicit(&peak_bytes, waves_heap_live(), memory_order_relaxed); }

void *malloc(size_t size) { NOTE(size); return held(__libc_malloc(size)); }
void *calloc(size_t n, size_t size) { NOTE(product(n, size)); return held(__libc_calloc(n, size)); }
void *realloc(void *p, size_t size) {
    NOTE(size);
    // The old block's size is taken away only once it is known to be gone (a failed realloc keeps it); a block
    // that moved is counted with the old one first, as both were held while it was copied.
    int64_t old = p ? (int64_t)malloc_usable_size(p) : 0;
    void *moved = __libc_realloc(p, size);
    if (moved && moved != p) held(moved);
    if (moved || size == 0) atomic_fetch_sub_explicit(&live_bytes, old, memory_order_relaxed);
    if (moved && moved == p) held(moved);
    return moved;
}
void free(void *p) { released(p); __libc_free(p); }
void *memalign(size_t alignment, size_t size) { NOTE(size); return held(__libc_memalign(alignment, size)); }
void *aligned_alloc(size_t alignment, size_t size) { NOTE(size); return held(__libc_memalign(alignment, size)); }
void *valloc(size_t size) { NOTE(size); return held(__libc_valloc(size)); }
void *pvalloc(size_t size) { NOTE(size); return held(__libc_pvalloc(size)); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    NOTE(size);
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = held(__libc_memalign(alignment, size));
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
