import CGL

/// What the driver allows, read once per context and passed as a plain
/// value to the planning code (`ScenePlan`, `Pages`), which is therefore
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

    public init(maxTextureSize: Int, maxArrayLayers: Int, maxCoverageBytes: Int = 512 << 20) {
        self.maxTextureSize = maxTextureSize
        self.maxArrayLayers = maxArrayLayers
        self.maxCoverageBytes = maxCoverageBytes
    }

    /// The current context's limits.
    public static func query() -> GLCapabilities {
        var size: GLint = 0, layers: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &size)
        glGetIntegerv(GLenum(GL_MAX_ARRAY_TEXTURE_LAYERS), &layers)
        return GLCapabilities(maxTextureSize: Int(size), maxArrayLayers: Int(layers))
    }
}
