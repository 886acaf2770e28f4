// A 4-byte memset for pixel runs: the C library's wmemset, which glibc
// vectorises for the machine it runs on (Swift's Glibc module leaves out
// <wchar.h>, so it is reached through this header).
#ifndef WAVES_PIXEL_FILL_H
#define WAVES_PIXEL_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

static inline void waves_fill_pixels(uint32_t *start, uint32_t value, size_t count) {
    _Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wchar_t is 4 bytes on Linux");
    wmemset((wchar_t *)start, (wchar_t)value, count);
}

#endif
