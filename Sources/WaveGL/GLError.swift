import CEGL
import CGL

/// GL failures, carrying what a person needs: the EGL/GLFW error code and
/// the driver's message, or the shader info log.
package enum GLError: Error, CustomStringConvertible {
    case egl(step: String, code: Int32)
    case glfw(step: String, code: Int32, message: String)
    case shader(name: String, log: String)
    case link(program: String, log: String)
    case framebuffer(status: UInt32)
    case limit(what: String, needed: Int, available: Int)
    case glErrors(after: String, codes: [UInt32])

    package var description: String {
        switch self {
        case let .egl(step, code):
            "EGL: \(step) failed with \(eglErrorName(code)) (0x\(String(code, radix: 16)))"
        case let .glfw(step, code, message):
            "GLFW: \(step) failed (0x\(String(code, radix: 16))): \(message)"
        case let .shader(name, log):
            "GL: shader \(name) did not compile: \(log.trimmingCharacters())"
        case let .link(program, log):
            "GL: program \(program) did not link: \(log.trimmingCharacters())"
        case let .framebuffer(status):
            "GL: framebuffer incomplete (0x\(String(status, radix: 16)))"
        case let .limit(what, needed, available):
            "GL: \(what) needs \(needed) but this driver allows \(available)"
        case let .glErrors(step, codes):
            "GL: errors after \(step): " + codes.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")
        }
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace || last == "\0" { s = s.dropLast() }
        return s.replacingOccurrences(of: "\n", with: " | ")
    }
}

private extension Substring {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

func eglErrorName(_ code: Int32) -> String {
    switch code {
    case EGL_SUCCESS: "EGL_SUCCESS"
    case EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED"
    case EGL_BAD_ACCESS: "EGL_BAD_ACCESS"
    case EGL_BAD_ALLOC: "EGL_BAD_ALLOC"
    case EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE"
    case EGL_BAD_CONFIG: "EGL_BAD_CONFIG"
    case EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT"
    case EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY"
    case EGL_BAD_MATCH: "EGL_BAD_MATCH"
    case EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER"
    case EGL_BAD_SURFACE: "EGL_BAD_SURFACE"
    default: "EGL error"
    }
}

/// Every pending glGetError code (the queue can hold several).
package func pendingGLErrors() -> [UInt32] {
    var codes: [UInt32] = []
    while codes.count < 16 {
        let code = glGetError()
        if code == GLenum(GL_NO_ERROR) { break }
        codes.append(code)
    }
    return codes
}

/// Throws if GL reported any error since the last check.
package func checkGLErrors(_ step: String) throws {
    let codes = pendingGLErrors()
    if !codes.isEmpty { throw GLError.glErrors(after: step, codes: codes) }
}
