// EGL plus the extension entry points headless rendering needs. Extensions
// are reached through eglGetProcAddress, which Swift cannot cast to a typed
// function pointer on its own; these small prefixed shims do it.
#include <EGL/egl.h>
#include <EGL/eglext.h>

static inline EGLBoolean waves_egl_query_devices(EGLint max, EGLDeviceEXT *devices, EGLint *count) {
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!query) return EGL_FALSE;
    return query(max, devices, count);
}

static inline const char *waves_egl_query_device_string(EGLDeviceEXT device, EGLint name) {
    PFNEGLQUERYDEVICESTRINGEXTPROC query =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (!query) return 0;
    return query(device, name);
}

static inline EGLDisplay waves_egl_platform_display(EGLenum platform, void *native) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get) return EGL_NO_DISPLAY;
    return get(platform, native, 0);
}
