import CGL

/// A linked GL program built from two embedded `Shaders/` files. Compile and
/// link failures throw with the driver's info log.
package final class ShaderProgram {
    package let id: GLuint
    package let name: String

    /// The program of two `Shaders/` files, by file name, both shaders
    /// specialised by `defines` (each becomes `#define NAME` after its
    /// version line); a fragment shader that reads timeline records (it
    /// names `KIND_BASIC`) gets the generated constants after them
    /// (`TimelineCodeGLSL`). A line `#include "name"` becomes that file of
    /// `Shaders/` (GLSL has no include of its own).
    package convenience init(vertex: String, fragment: String, defines: [String] = []) throws {
        guard let vertexSource = try EmbeddedShaders.files[vertex].map(Self.includingFiles) else { throw Self.missing(vertex) }
        guard let fragmentSource = try EmbeddedShaders.files[fragment].map(Self.includingFiles) else { throw Self.missing(fragment) }
        let lines = defines.map { "#define \($0)\n" }.joined()
        let prelude = fragmentSource.contains("KIND_BASIC") ? TimelineCodeGLSL.source : ""
        func named(_ file: String) -> String { defines.isEmpty ? file : file + " [" + defines.joined(separator: " ") + "]" }
        try self.init(vertex: (named(vertex), Self.inserting(lines, after: vertexSource)),
                      fragment: (named(fragment), Self.inserting(lines + prelude, after: fragmentSource)))
    }

    /// `source` with each line `#include "name"` replaced by the embedded file of that name.
    private static func includingFiles(_ source: String) throws -> String {
        guard source.contains("#include \"") else { return source }
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("#include \""), let name = line.split(separator: "\"").dropFirst().first else {
                lines.append(line)
                continue
            }
            guard let file = EmbeddedShaders.files[String(name)] else { throw missing(String(name)) }
            lines.append(Substring(file))
        }
        return lines.joined(separator: "\n")
    }

    /// `source` with `lines` after its first (version) line.
    private static func inserting(_ lines: String, after source: String) -> String {
        guard !lines.isEmpty, let versionEnd = source.firstIndex(of: "\n") else { return source }
        var source = source
        source.insert(contentsOf: lines, at: source.index(after: versionEnd))
        return source
    }

    /// The program of two sources, each with a name for messages.
    package init(vertex: (name: String, source: String), fragment: (name: String, source: String)) throws {
        name = "\(vertex.name) + \(fragment.name)"
        let vs = try Self.compile(vertex.source, named: vertex.name, type: GLenum(GL_VERTEX_SHADER))
        defer { glDeleteShader(vs) }
        let fs = try Self.compile(fragment.source, named: fragment.name, type: GLenum(GL_FRAGMENT_SHADER))
        defer { glDeleteShader(fs) }
        id = glCreateProgram()
        glAttachShader(id, vs)
        glAttachShader(id, fs)
        glLinkProgram(id)
        var ok: GLint = 0
        glGetProgramiv(id, GLenum(GL_LINK_STATUS), &ok)
        if ok == GL_FALSE {
            let log = Self.log(id, glGetProgramiv, glGetProgramInfoLog)
            glDeleteProgram(id)
            throw GLError.link(program: name, log: log)
        }
    }

    deinit { glDeleteProgram(id) }

    /// The location of a uniform (-1 if the linker dropped it).
    package func uniform(_ name: String) -> GLint { glGetUniformLocation(id, name) }

    /// Every shader the project has, by file name.
    package static var sources: [String: String] { EmbeddedShaders.files }

    private static func missing(_ file: String) -> GLError {
        GLError.shader(name: file, log: "no such file in Shaders/ (run 'make shaders')")
    }

    static func compile(_ source: String, named file: String, type: GLenum) throws -> GLuint {
        let shader = glCreateShader(type)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == GL_FALSE {
            let log = Self.log(shader, glGetShaderiv, glGetShaderInfoLog)
            glDeleteShader(shader)
            throw GLError.shader(name: file, log: log)
        }
        return shader
    }

    private static func log(
        _ object: GLuint,
        _ getParameter: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
    ) -> String {
        var length: GLint = 0
        getParameter(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        var buffer = [GLchar](repeating: 0, count: Int(max(length, 1)))
        getLog(object, GLsizei(buffer.count), nil, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
