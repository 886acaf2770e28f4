// GLFW for the gl-window example: a window and its context, no GL header
// (the example draws through WavesGL, never calls GL itself).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
