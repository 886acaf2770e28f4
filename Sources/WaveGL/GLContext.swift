import CEGL
import CGL
import CGLFW
import Foundation

/// An OpenGL 3.3 core context that can be made current on this thread.
public protocol GLContext: AnyObject {
    func makeCurrent() throws
    /// The driver's limits, read once (the first time they are asked for, with the context current).
    var capabilities: GLCapabilities { get }
    /// How the context was made, for messages ("EGL device", "EGL surfaceless (Mesa)", "GLFW window").
    var platform: String { get }
}

extension GLContext {
    /// GL_RENDERER of the current context.
    public var renderer: String { glString(GL_RENDERER) }
    public var version: String { glString(GL_VERSION) }
}

func glString(_ name: Int32) -> String {
    guard let p = glGetString(GLenum(name)) else { return "unknown" }
    return String(cString: p)
}

/// A context with no window and no X server, rendering into framebuffer
/// objects. Tries EGL_EXT_platform_device (NVIDIA's path), then
/// EGL_MESA_platform_surfaceless (Mesa's llvmpipe).
public final class HeadlessGLContext: GLContext {
    public let platform: String
    private let display: EGLDisplay
    private let context: EGLContext
    public private(set) lazy var capabilities = GLCapabilities.query()

    public init() throws {
        // Mesa prints loader chatter for every device it probes; our errors say what matters.
        setenv("EGL_LOG_LEVEL", "fatal", 0)
        var failures: [String] = []
        var made: (String, EGLDisplay, EGLContext)?
        for (name, display) in Self.candidateDisplays() {
            do {
                let context = try Self.makeContext(on: display)
                guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
                    let code = eglGetError()
                    eglDestroyContext(display, context)
                    throw GLError.egl(step: "eglMakeCurrent (no surface)", code: code)
                }
                made = (name, display, context)
                break
            } catch {
                failures.append("\(name): \(error)")
            }
        }
        guard let (name, display, context) = made else {
            if failures.isEmpty { failures.append("no EGL device or surfaceless platform (is libegl-mesa0 installed?)") }
            throw GLContextError.noHeadlessContext(failures.joined(separator: "; "))
        }
        self.platform = name
        self.display = display
        self.context = context
    }

    /// The display is not terminated: EGL hands every caller the same display
    /// for a platform, so terminating it would end other contexts too.
    deinit {
        if eglGetCurrentContext() == context { eglMakeCurrent(display, nil, nil, nil) }
        eglDestroyContext(display, context)
    }

    public func makeCurrent() throws {
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            throw GLError.egl(step: "eglMakeCurrent (no surface)", code: eglGetError())
        }
    }

    /// Device displays first, then Mesa's surfaceless display.
    private static func candidateDisplays() -> [(String, EGLDisplay)] {
        var result: [(String, EGLDisplay)] = []
        var devices = [EGLDeviceEXT?](repeating: nil, count: 8)
        var count: EGLint = 0
        if waves_egl_query_devices(8, &devices, &count) == EGL_TRUE {
            for device in devices.prefix(Int(count)) {
                // Mesa's software "device" is the same llvmpipe surfaceless gives; skip it here.
                let extensions = waves_egl_query_device_string(device, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
                if extensions.contains("EGL_MESA_device_software") { continue }
                let display = waves_egl_platform_display(EGLenum(EGL_PLATFORM_DEVICE_EXT), device)
                if display != nil { result.append(("EGL device", display!)) }
            }
        }
        let surfaceless = waves_egl_platform_display(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil)
        if surfaceless != nil { result.append(("EGL surfaceless (Mesa)", surfaceless!)) }
        return result
    }

    private static func makeContext(on display: EGLDisplay) throws -> EGLContext {
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
            throw GLError.egl(step: "eglInitialize", code: eglGetError())
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else {
            throw GLError.egl(step: "eglBindAPI(EGL_OPENGL_API)", code: eglGetError())
        }
        let attributes: [EGLint] = [
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
        ]
        let extensions = eglQueryString(display, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
        var config: EGLConfig? = nil // EGL_NO_CONFIG_KHR
        if !extensions.contains("EGL_KHR_no_config_context") {
            let wanted: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE]
            var found: EGLint = 0
            guard eglChooseConfig(display, wanted, &config, 1, &found) == EGL_TRUE, found > 0 else {
                throw GLError.egl(step: "eglChooseConfig (OpenGL, pbuffer)", code: eglGetError())
            }
        }
        guard let context = eglCreateContext(display, config, nil, attributes) else {
            throw GLError.egl(step: "eglCreateContext (OpenGL 3.3 core)", code: eglGetError())
        }
        return context
    }
}

public enum GLContextError: Error, CustomStringConvertible {
    case noHeadlessContext(String)
    case noWindow(String)

    public var description: String {
        switch self {
        case let .noHeadlessContext(why): "no headless OpenGL 3.3 context: \(why)"
        case let .noWindow(why): "no window: \(why)"
        }
    }
}

/// A GLFW window with an OpenGL 3.3 core context and vsync on: the
/// display-synchronised tick.
public final class WindowGLContext: GLContext {
    public let platform = "GLFW window"
    public let window: OpaquePointer
    public private(set) lazy var capabilities = GLCapabilities.query()

    nonisolated(unsafe) private static var lastError: (code: Int32, message: String)?

    public init(title: String, width: Int, height: Int, visible: Bool = true) throws {
        if getenv("DISPLAY") == nil && getenv("WAYLAND_DISPLAY") == nil {
            throw GLContextError.noWindow("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)")
        }
        glfwSetErrorCallback { code, message in
            WindowGLContext.lastError = (code, message.map { String(cString: $0) } ?? "")
        }
        guard glfwInit() == GLFW_TRUE else { throw Self.failure("glfwInit") }
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE)
        guard let window = glfwCreateWindow(Int32(width), Int32(height), title, nil, nil) else {
            let error = Self.failure("glfwCreateWindow (OpenGL 3.3 core)")
            glfwTerminate()
            throw error
        }
        self.window = window
        glfwMakeContextCurrent(window)
        glfwSwapInterval(1)
    }

    deinit {
        glfwDestroyWindow(window)
        glfwTerminate()
    }

    public func makeCurrent() throws { glfwMakeContextCurrent(window) }

    /// 1: each swap waits for the display's refresh (vsync); 0: it does not.
    public func setSwapInterval(_ interval: Int32) { glfwSwapInterval(interval) }

    /// Shows the frame drawn into the window's framebuffer, and handles events.
    public func swapBuffers() {
        glfwSwapBuffers(window)
        glfwPollEvents()
    }

    /// The monitor's refresh rate, or nil where GLFW does not know it.
    public var refreshRate: Double? {
        guard let monitor = glfwGetPrimaryMonitor(), let mode = glfwGetVideoMode(monitor),
              mode.pointee.refreshRate > 0 else { return nil }
        return Double(mode.pointee.refreshRate)
    }

    public var framebufferSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        glfwGetFramebufferSize(window, &width, &height)
        return (Int(width), Int(height))
    }

    private static func failure(_ step: String) -> Error {
        let error = lastError ?? (0, "unknown GLFW error")
        return GLContextError.noWindow(GLError.glfw(step: step, code: error.code, message: error.message).description)
    }
}

/// A context the app made itself (its own GLFW, SDL or Qt window, say), for
/// a `GLRenderer` to draw with: OpenGL 3.3 core or later, made current by
/// the app's own call. The renderer makes it current before it prepares a
/// scene; the app keeps it current on the thread that draws.
///
/// ```swift
/// let renderer = try GLRenderer(context: AppGLContext { glfwMakeContextCurrent(window) })
/// ```
public final class AppGLContext: GLContext {
    public let platform: String
    private let makeCurrentBody: () throws -> Void
    public private(set) lazy var capabilities = GLCapabilities.query()

    /// `makeCurrent` makes the app's context current on this thread; it is
    /// called once here, and again whenever the renderer needs the context.
    public init(platform: String = "the app's context", makeCurrent: @escaping () throws -> Void) throws {
        self.platform = platform
        makeCurrentBody = makeCurrent
        try makeCurrent()
    }

    public func makeCurrent() throws { try makeCurrentBody() }
}

extension GLContext {
    /// Waits until every GL command issued on the current context is done.
    public func finish() { glFinish() }
}
