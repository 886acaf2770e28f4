// Every core OpenGL entry point as a direct call (glvnd's libGL dispatches to
// whichever context is current, GLX or EGL).
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
