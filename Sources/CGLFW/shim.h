// GLFW without its own GL header: CGL provides the one copy.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
