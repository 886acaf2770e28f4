// libgd's declarations (Debian libgd-dev): the raster audiowaveform draws its
// images with, and its small font. Not linked: WaveCatalogue's GDLibrary
// finds the calls with dlopen when an image is drawn.
#include <gd.h>
#include <gdfonts.h>
