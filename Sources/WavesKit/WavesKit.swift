/// WavesKit, the library product an app imports: the scene model and the CPU
/// renderer (WaveCore), the effects and their registry (WaveEffects), audio
/// in and its peaks (WaveAudio) and PNG files (WaveImageIO), all through
/// one `import WavesKit`. Documentation: WavesKit.docc beside this file.
@_exported import WaveAudio
@_exported import WaveCore
@_exported import WaveEffects
@_exported import WaveImageIO
