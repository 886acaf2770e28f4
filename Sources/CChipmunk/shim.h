// Chipmunk 7 (Debian libchipmunk-dev, which ships no pkg-config file):
// the rigid-body world the crates fall in.
#include <chipmunk/chipmunk.h>
