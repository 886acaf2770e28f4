// The header's function is inline; this file gives the target its one source.
#include "pixel_fill.h"
