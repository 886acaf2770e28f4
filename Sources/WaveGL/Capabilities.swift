import CGL

/// What the driver allows, read once per context and passed as a plain
/// value to the planning code (`Pages`, `GLTreeDraw`'s plan), which is therefore
/// testable without a context (the bgfx `Caps::Limits` model).
public struct GLCapabilities: Equatable, Sendable {
    /// GL_MAX_TEXTURE_SIZE: the widest and tallest texture or render target.
    public var maxTextureSize: Int
    /// GL_MAX_ARRAY_TEXTURE_LAYERS.
    public var maxArrayLayers: Int
    /// The most coverage (bytes) a scene may cache on the GPU: past it, a
    /// scene is a limit (`auto` draws it with the CPU) rather than an
    /// allocation that could take the machine's memory.
    public var maxCoverageBytes: Int
    /// glCopyImageSubData is there (GL 4.3 or ARB_copy_image); without it
    /// whole-pixel copies into a texture go through glBlitFramebuffer (GL 3.0).
    public var copiesImages: Bool
    /// GL_MAX_TEXTURE_BUFFER_SIZE where buffers can stay mapped while the GPU
    /// reads them (GL 4.4 or ARB_buffer_storage): the most texels of a CPU
    /// frame shown from the memory it was drawn into; 0: none, every frame is copied.
    public var maxSharedFrameTexels: Int
    /// KHR_blend_equation_advanced with its coherent form: the blend modes
    /// (multiply, screen, overlay...) as blend equations, in draw order.
    public var advancedBlending: Bool

    public init(maxTextureSize: Int, maxArrayLayers: Int, maxCoverageBytes: Int = 512 << 20, copiesImages: Bool = true,
                maxSharedFrameTexels: Int = 0, advancedBlending: Bool = false) {
        self.maxTextureSize = maxTextureSize
        self.maxArrayLayers = maxArrayLayers
        self.maxCoverageBytes = maxCoverageBytes
        self.copiesImages = copiesImages
        self.maxSharedFrameTexels = maxSharedFrameTexels
        self.advancedBlending = advancedBlending
    }

    /// The current context's limits.
    public static func query() -> GLCapabilities {
        var size: GLint = 0, layers: GLint = 0, major: GLint = 0, minor: GLint = 0, extensions: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &size)
        glGetIntegerv(GLenum(GL_MAX_ARRAY_TEXTURE_LAYERS), &layers)
        glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
        glGetIntegerv(GLenum(GL_MINOR_VERSION), &minor)
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &extensions)
        func has(_ name: String) -> Bool {
            (0..<GLuint(max(0, extensions))).contains { i in glGetStringi(GLenum(GL_EXTENSIONS), i).map { String(cString: $0) == name } ?? false }
        }
        let copies = major > 4 || (major == 4 && minor >= 3) || has("GL_ARB_copy_image")
        var texels: GLint = 0
        if major > 4 || (major == 4 && minor >= 4) || has("GL_ARB_buffer_storage") {
            glGetIntegerv(GLenum(GL_MAX_TEXTURE_BUFFER_SIZE), &texels)
        }
        return GLCapabilities(maxTextureSize: Int(size), maxArrayLayers: Int(layers), copiesImages: copies,
                              maxSharedFrameTexels: Int(max(0, texels)), advancedBlending: has("GL_KHR_blend_equation_advanced_coherent"))
    }
}
