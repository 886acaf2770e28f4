/// WavesGL, the library product for the render-once strategy: everything in
/// WavesKit and the GL renderer, its contexts (headless EGL, a GLFW window,
/// or a context the app made) and its targets, through one `import WavesGL`.
/// Documentation: WavesGL.docc beside this file.
@_exported import WaveGL
@_exported import WavesKit
