// libgd (Debian libgd-dev): the raster audiowaveform draws its images with,
// and its built-in small font, so waves audiowaveform's PNGs are its pixels.
#include <gd.h>
#include <gdfonts.h>
