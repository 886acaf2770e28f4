#include <png.h>

// PNG_FORMAT_RGBA is a macro of macros, which Swift does not import.
static const unsigned int WAVES_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
