/// The effects `--scene` names; each is one file of this module that turns
/// its options into layers.
public enum EffectName: String, CaseIterable, Sendable {
    /// Waving table cells (`SineCells`).
    case sine
    /// A user's outline from SVG path data, travelling (`Outline`).
    case outline
    /// An audio track's waveform as bars, played and unplayed either side of a playhead (`Waveform`).
    case waveform
    /// A row of dots, each running one animation a little later (`Dots`).
    case dots
    /// Layered attenuated curves driven by a level (`Voice`).
    case voice
    /// A block on a spring whose edges bulge as it moves (`Jelly`).
    case jelly

    /// Whether the effect listens to a level (`--level`, `--level-from`).
    public var usesLevel: Bool { self == .dots || self == .voice }
}
