#ifndef WAVES_MALLOC_COUNTER_H
#define WAVES_MALLOC_COUNTER_H
#include <stdint.h>
// Counts heap allocations (malloc, calloc, realloc, posix_memalign,
// aligned_alloc, memalign) made by the calling thread between start and stop.
// The executable's definitions of these functions interpose glibc's for the
// whole process and forward to glibc's own (__libc_*) allocator.

void waves_malloc_counter_start(void);
/// Stops counting on this thread and returns the allocations since start.
uint64_t waves_malloc_counter_stop(void);
/// 1 when the interposed allocator is the one in use (it has seen a call).
int waves_malloc_counter_active(void);
#endif
