import Foundation
import WaveCore
import WaveEffects
import WavesKit

/// A track's waveform as one image: what `waves render waveform` draws for
/// each track of a batch, and `waves batch` for a render item.
extension TrackBatch {
    /// The waveform of one track at `time`, drawn by the CPU strategy (what a
    /// batch's job does, on its own thread: nothing here is shared).
    package static func drawWaveform(_ track: String, settings: EffectSettings, request: SceneRequest, time: Double,
                          start: Double, end: Double?, peaks: String?) throws -> RenderTarget {
        var settings = settings
        settings.waveformSource = try EffectInputs.track(audio: track, peaks: peaks, start: start, end: end)
        let scene = try Effects.named(.waveform)!.scene(settings, request)
        let renderer = try BackendChooser.make(.cpu, for: scene).renderer
        let target = try renderer.makeTarget()
        try renderer.draw(time: time, into: target)
        return target
    }
}
