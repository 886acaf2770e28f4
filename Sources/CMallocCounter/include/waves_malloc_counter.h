#ifndef WAVES_MALLOC_COUNTER_H
#define WAVES_MALLOC_COUNTER_H
#include <stdint.h>
// Counts heap allocations (malloc, calloc, realloc, posix_memalign,
// aligned_alloc, memalign) made by the calling thread between start and stop,
// and the bytes they ask for; and, for the whole process, the heap in use
// and its peak (free is interposed too).
// The executable's definitions of these functions interpose glibc's for the
// whole process and forward to glibc's own (__libc_*) allocator.
//
// Each counted allocation is attributed by its caller's address: the
// project's own code (the executable and the Swift runtime and Foundation
// libraries) or any other library (on llvmpipe, the GL driver allocates
// inside GL calls on the calling thread).

void waves_malloc_counter_start(void);
/// Stops counting on this thread and returns all allocations since start.
uint64_t waves_malloc_counter_stop(void);
/// Of the allocations since the last start, those whose caller lies outside
/// the project's own code (read after stop).
uint64_t waves_malloc_counter_foreign(void);
/// Bytes those allocations asked for (a realloc counts its new size; read after stop).
uint64_t waves_malloc_counter_bytes(void);
/// The largest single allocation among them, in bytes (read after stop).
uint64_t waves_malloc_counter_largest(void);
/// The whole process's heap in use (the usable size of every block handed
/// out and not yet freed; blocks from before the process's first call are
/// not in it), and the most it has been since the last reset.
int64_t waves_heap_live(void);
int64_t waves_heap_peak(void);
void waves_heap_peak_reset(void);
/// 1 when the interposed allocator is the one in use (it has seen a call).
int waves_malloc_counter_active(void);
#endif
