import ArgumentParser
import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveGL

/// The options that pick and shape an effect, shared by every command, and
/// the parsers that turn option text into values with messages that say what
/// is accepted.

extension BackendChoice: ExpressibleByArgument {}
extension Direction: ExpressibleByArgument {}
extension EffectName: ExpressibleByArgument {
    public init?(argument: String) {
        guard Effects.named(EffectName(rawValue: argument)) != nil else { return nil }
        self.init(rawValue: argument)
    }

    public static var allValueStrings: [String] { Effects.names }
    public var defaultValueDescription: String { rawValue }
}

/// Refuses an option the scene does not take, naming the scenes that do (the registry's lists).
func onlyWith(_ scene: EffectName, option: String, value: String) throws {
    let takers = Effects.taking(option)
    guard !takers.isEmpty, !takers.contains(scene) else { return }
    throw UsageError(option: option, value: value, accepted: "only with " + takers.map { "--scene \($0)" }.joined(separator: " or "))
}

/// Whether the scene takes the option (its registry entry lists it).
func takes(_ scene: EffectName, _ option: String) -> Bool { Effects.named(scene)?.options.contains(option) ?? false }
extension SplitMethod: ExpressibleByArgument {}
extension SubpixelMode: ExpressibleByArgument {}

/// Pixel size as WxH, parsed with a message that says what is accepted.
struct PixelSize: ExpressibleByArgument, CustomStringConvertible {
    let width: Int
    let height: Int

    init(width: Int, height: Int) { self.width = width; self.height = height }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    var description: String { "\(width)x\(height)" }

    /// Both sides whole numbers from 1 to `limit`.
    func validated(option: String = "--size", limit: Int = Scene.maxRenderDimension) throws -> PixelSize {
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw UsageError(option: option, value: description,
                             accepted: "WxH with each side a whole number from 1 to \(limit)")
        }
        return self
    }
}

/// Parses a size option, turning ArgumentParser's "invalid value" into our message.
/// ArgumentParser prefixes this with the option and the value.
struct Expected: Error, CustomStringConvertible {
    let accepted: String
    var description: String { "expected \(accepted)" }
}

func parseSize(_ text: String) throws -> PixelSize {
    guard let size = PixelSize(argument: text) else {
        throw Expected(accepted: "WxH with each side a whole number from 1 to \(Scene.maxRenderDimension), for example 800x200")
    }
    return size
}

func parseWhole(_ accepted: String) -> (String) throws -> Int {
    { text in
        guard let value = Int(text) else { throw Expected(accepted: accepted) }
        return value
    }
}

func parseColor(_ text: String) throws -> RGBA8 {
    guard let color = RGBA8(hex: text) else { throw Expected(accepted: "a colour as #RRGGBB or #RRGGBBAA") }
    return color
}

/// The scene options every command shares (the bench takes its cells as a list).
struct WaveOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The effect to draw: " + Effects.all.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ") + "."))
    var scene: EffectName = .sine

    @Option(parsing: .unconditional, help: "Wave amplitude as a fraction of the cell height, 0 to 0.5.")
    var amplitude: Double = WaveParameters().amplitude

    @Option(parsing: .unconditional, help: "Wave baseline as a fraction of the cell height from its top, 0 to 1.")
    var baseline: Double = WaveParameters().baseline

    @Option(parsing: .unconditional, help: "Whole cycles across the width (only whole cycles wrap without a seam) (default 1).",
            transform: parseWhole("a whole number of cycles from 1: only whole cycles make the wave wrap without a seam"))
    var cycles: Int = WaveParameters().cycles

    @Option(parsing: .unconditional, help: "Seconds for one full width of travel.")
    var period: Double = WaveParameters().period

    @Option(help: "Direction of travel: left or right.")
    var direction: Direction = .left

    @Option(help: "Fill colour, #RRGGBB or #RRGGBBAA (default #3A9BFF; dots and voice: #FFFFFF, which dots multiply by their tint).", transform: parseColor)
    var color: RGBA8?

    @Option(help: "Background colour, #RRGGBB or #RRGGBBAA (default #10182A).", transform: parseColor)
    var background: RGBA8 = Scene.defaultBackground

    @Flag(help: "Round the offset to whole pixels (removes amplitude phasing; slow motion steps).")
    var snap = false

    @Option(name: .customLong("subpixel"), help: "How the GL backend moves cached curves by fractions of a pixel: exact (pictures pre-rasterised at 16 sub-pixel phases, the nearest shown at a whole-pixel offset: the CPU's pixels, no blur; on a software GL driver, sine cells are painted per phase and copied by whole pixels, no shader pass) or linear (bilinear filtering in a shader: a steep edge blurs at half-pixel offsets). A layer tree's cached shapes (waveform bars, an outline) get the same phases where they are only translated; pictures, and turned or scaled shapes, are filtered. (default: exact)")
    var subpixelChoice: SubpixelMode?

    /// The mode asked for, exact when none was.
    var subpixel: SubpixelMode { subpixelChoice ?? .exact }

    /// Says so on stderr when exact was asked for by name but the GL renderer filters instead.
    func reportSubpixel(of renderer: Renderer) {
        guard subpixelChoice == .exact, let notice = (renderer as? GLRenderer)?.subpixelNotice else { return }
        printError("waves: \(notice)")
    }

    @Option(help: "--scene outline: a file of SVG path data in pixels (- for standard input): M, L, H, V, Q, T, C, S, Z, absolute or relative; cubic curves are drawn as quadratic ones; arcs (A) are refused.")
    var outline: String?

    @Option(parsing: .unconditional, help: "--scene outline: pixels per second the outline travels left (negative: right), at most 1000000 either way.")
    var speed: Double = 0
}

/// Every option that picks and shapes an effect: the shared ones
/// (`WaveOptions`, read through as if they were this struct's own) and
/// each effect's group. A command declares the groups side by side (one
/// `@OptionGroup` each) and joins them here: groups nested in groups make
/// ArgumentParser's checks of a debug build revisit each inner group once
/// per outer check (`waves render` took 1 to 2.5 s to start).
@dynamicMemberLookup
struct EffectOptions {
    var wave: WaveOptions
    var waveform: WaveformOptions
    var dotsAndVoice: DotsAndVoiceOptions
    var jelly: JellyOptions
    var crates: CratesOptions
    var table: TableOptions
    /// The ball's group, where the command has one (the demo and the bench: `render` draws the ideal ball).
    var ball: BallOptions? = nil

    subscript<T>(dynamicMember key: WritableKeyPath<WaveOptions, T>) -> T {
        get { wave[keyPath: key] }
        set { wave[keyPath: key] = newValue }
    }

    subscript<T>(dynamicMember key: KeyPath<WaveOptions, T>) -> T { wave[keyPath: key] }

    func reportSubpixel(of renderer: Renderer) { wave.reportSubpixel(of: renderer) }

    /// The effect's scene for `request`, validated against the contract.
    func makeScene(_ request: SceneRequest) throws -> Scene {
        guard let effect = Effects.named(self.scene) else {
            throw UsageError(option: "--scene", value: self.scene.rawValue, accepted: Effects.names.joined(separator: ", "))
        }
        return try effect.scene(try settings(), request)
    }

    /// What the options say of every effect, the inputs the chosen one needs
    /// opened (`openingInputs` false: none, for what does not draw).
    func settings(openingInputs: Bool = true) throws -> EffectSettings {
        var settings = EffectSettings()
        settings.background = self.background
        settings.color = self.color
        settings.sine.amplitude = self.amplitude
        settings.sine.baseline = self.baseline
        settings.sine.cycles = self.cycles
        settings.sine.period = self.period
        settings.sine.direction = self.direction
        if openingInputs && self.scene == .outline {
            var outline = Outline(width: 1, height: 1, path: try outlinePath())
            outline.pixelsPerSecond = self.speed
            settings.outline = outline
        }
        settings.waveform = try waveform.template()
        if openingInputs && self.scene == .waveform { settings.waveformSource = try waveform.input() }
        settings.dots = dotsAndVoice.dots(width: 1, height: 1, level: .constant(1))
        settings.voice.style = dotsAndVoice.style
        if openingInputs && takes(self.scene, "--level") { settings.level = try dotsAndVoice.levelSource() }
        settings.jelly = try jelly.template()
        settings.crates.gravity = crates.gravity
        settings.crates.step = jelly.physicsStep ?? settings.crates.step
        settings.table = table.template()
        settings.ball = ball?.template(step: jelly.physicsStep) ?? settings.ball
        return settings
    }

    /// Checks that hold whatever the size: every option given belongs to
    /// the scene (the registry's lists), the input it needs is there, read
    /// and parsed, so a bad input costs nothing.
    func check() throws {
        if let needs = Effects.named(self.scene)?.needs, needs == "--outline", self.outline == nil {
            throw UsageError(option: needs, value: "(none)", accepted: "a file of SVG path data with --scene \(self.scene)")
        }
        if let outline = self.outline { try onlyWith(self.scene, option: "--outline", value: outline) }
        if self.scene == .outline { _ = try outlinePath() }
        try waveform.check(scene: self.scene)
        try dotsAndVoice.check(scene: self.scene)
        try jelly.check(scene: self.scene)
        try crates.check(scene: self.scene)
        try table.check(scene: self.scene)
        try ball?.check(scene: self.scene)
    }

    /// The count an effect's own option asks for (`--dots`, `--crates`), nil where it is not given or not one.
    func count(from option: String) -> Int? {
        switch option {
        case "--dots": dotsAndVoice.dots
        case "--crates": crates.crates
        case "--rows": table.rows
        default: nil
        }
    }

    /// The outline file, read and parsed: a missing file is 66, bytes that
    /// are not path data (or a coordinate that is not finite) 65.
    func outlinePath() throws -> Path {
        guard let outline = self.outline else { throw UsageError(option: "--outline", value: "(none)", accepted: "a file of SVG path data") }
        let input = try InputFile.open(outline)
        var data = try input.bytes(limit: 16 << 20)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AudioError.unreadable(path: input.name, reason: "it is not UTF-8 text")
        }
        do {
            let path = try PathData.parse(text)
            guard !path.isEmpty else { throw AudioError.unreadable(path: input.name, reason: "it holds no path") }
            return path
        } catch let error as PathData.SyntaxError {
            throw AudioError.unreadable(path: input.name, reason: "\(error)")
        } catch let error as PathError {
            throw AudioError.unreadable(path: input.name, reason: "\(error)")
        }
    }
}

/// The effect's options plus the number of cells (render and demo).
struct SceneOptions {
    var wave: EffectOptions
    var cells: Int

    /// The effect's count: cells (or voice panels), or for dots `--dots` (0: as many as fit a row).
    var request: (Int, Int) -> SceneRequest {
        // The option that sets the scene's count (the registry names it).
        let option = Effects.named(wave.scene)?.count?.option ?? "--cells"
        let count = option == "--cells" ? cells : (wave.count(from: option) ?? 0)
        return { SceneRequest(width: $0, height: $1, count: count, snapsToPixel: wave.snap) }
    }

    func makeScene(width: Int, height: Int) throws -> Scene {
        try wave.makeScene(request(width, height))
    }
}

/// A time option must be a finite number.
func checkFinite(_ value: Double, option: String) throws {
    guard value.isFinite else {
        throw UsageError(option: option, value: "\(value)", accepted: "a finite number of seconds")
    }
}

/// `--scene waveform`: the track and how its bars look. See README.md, "The waveform".
struct WaveformOptions: ParsableArguments {
    @Option(help: "An audio file (WAV, FLAC, Ogg/Vorbis, Opus, MP3: anything libsndfile reads, recognised by content), or - for standard input; default: a generated 3-minute track.")
    var audio: String?

    @Option(help: "An audiowaveform peaks file (JSON or .dat, recognised by content), or - for standard input, instead of --audio.")
    var peaks: String?

    /// The bar options' defaults, in one place (the options and the preset's check read them).
    static let defaults = (barWidth: 2, barGap: 1, pixelsPerSecond: 50.0, amplitudeScale: "auto", barRadius: 0.0, playhead: 0.5)

    @Option(name: .customLong("bar-width"), parsing: .unconditional, help: "Bar width in whole pixels.")
    var barWidth: Int = Self.defaults.barWidth

    @Option(name: .customLong("bar-gap"), parsing: .unconditional, help: "Gap between bars in whole pixels.")
    var barGap: Int = Self.defaults.barGap

    @Option(name: .customLong("pixels-per-second"), parsing: .unconditional, help: "Scroll speed, and so the bar grid: samples per bar = round(rate * (width + gap) / pps).")
    var pixelsPerSecond: Double = Self.defaults.pixelsPerSecond

    @Option(name: .customLong("amplitude-scale"), help: "Bar height per unit of peak as a fraction of the height, or auto (the loudest bar full height).")
    var amplitudeScale: String = Self.defaults.amplitudeScale

    @Option(name: .customLong("bar-radius"), parsing: .unconditional, help: "Rounded bar ends: corner radius in pixels (0: square).")
    var barRadius: Double = Self.defaults.barRadius

    @Option(parsing: .unconditional, help: "The fixed playhead's column as a fraction of the width, 0 to 1 (scroll mode).")
    var playhead: Double = Self.defaults.playhead

    @Flag(help: "Fit the whole track to the width; nothing moves and the playhead crosses it.")
    var fit = false

    @Option(name: .customLong("played-color"), help: "Played bars: the gradient's top colour (default #FF5500).", transform: parseColor)
    var playedColor: RGBA8 = RGBA8(0xFF, 0x55, 0x00)

    @Option(name: .customLong("played-color-bottom"), help: "Played bars: the gradient's bottom colour (default: the top colour).", transform: parseColor)
    var playedColorBottom: RGBA8?

    @Option(name: .customLong("unplayed-color"), help: "Unplayed bars' colour (default #B0B0B8).", transform: parseColor)
    var unplayedColor: RGBA8 = RGBA8(0xB0, 0xB0, 0xB8)

    @Option(help: "How each painting of the bars is held to its side of the playhead, on both backends: two-clips (two clip layers; scissors on GL) or mask (a mask layer each; drawn into a mask texture first on GL) (default two-clips).")
    var split: SplitMethod?

    /// Opened once: decoding is the expensive part.
    nonisolated(unsafe) private static var inputs: [String: AudioInput] = [:]

    func input() throws -> AudioInput {
        let key = "\(audio ?? "")|\(peaks ?? "")"
        if let input = Self.inputs[key] { return input }
        let input = try AudioInput(audio: audio, peaks: peaks)
        Self.inputs[key] = input
        return input
    }

    /// Inputs given to a scene that does not take them are a usage error;
    /// with one that does, the input is opened.
    func check(scene: EffectName) throws {
        if let audio { try onlyWith(scene, option: "--audio", value: audio) }
        if let peaks { try onlyWith(scene, option: "--peaks", value: peaks) }
        if let split { try onlyWith(scene, option: "--split", value: split.rawValue) }
        guard takes(scene, "--audio") else { return }
        _ = try scale()
        _ = try input()
    }

    /// Refuses options that change the bars, for callers that fix them.
    func refuseGeometry(reason: String) throws {
        let defaults = Self.defaults
        let given: [(String, String, Bool)] = [
            ("--bar-width", "\(barWidth)", barWidth != defaults.barWidth), ("--bar-gap", "\(barGap)", barGap != defaults.barGap),
            ("--pixels-per-second", "\(pixelsPerSecond)", pixelsPerSecond != defaults.pixelsPerSecond),
            ("--amplitude-scale", amplitudeScale, amplitudeScale != defaults.amplitudeScale),
            ("--bar-radius", "\(barRadius)", barRadius != defaults.barRadius), ("--playhead", "\(playhead)", playhead != defaults.playhead),
            ("--fit", "", fit),
        ]
        if let (option, value, _) = given.first(where: { $0.2 }) {
            throw UsageError(option: option, value: value, accepted: "nothing here: \(reason)")
        }
    }

    func scale() throws -> Double? {
        if amplitudeScale == "auto" { return nil }
        guard let value = Double(amplitudeScale), value.isFinite, value > 0 else {
            throw UsageError(option: "--amplitude-scale", value: amplitudeScale, accepted: "a positive, finite number, or auto")
        }
        return value
    }

    /// The bars' look and motion (the size, track and background come later).
    func template() throws -> Waveform {
        var effect = Waveform(width: 1, height: 1, peaks: [], duration: 1)
        effect.barWidth = barWidth
        effect.barGap = barGap
        effect.pixelsPerSecond = pixelsPerSecond
        effect.amplitudeScale = try scale()
        effect.barRadius = barRadius
        effect.playhead = playhead
        effect.fit = fit
        effect.playedTop = playedColor
        effect.playedBottom = playedColorBottom
        effect.unplayed = unplayedColor
        effect.composition = split ?? effect.composition
        return effect
    }
}

/// The command line's audio input is the waveform's source.
extension AudioInput: WaveformSource, @unchecked Sendable {
    func samplesPerBar(pitch: Int, pixelsPerSecond: Double) -> Int {
        BarPeaks.samplesPerBar(sampleRate: sampleRate, pitch: pitch, pixelsPerSecond: pixelsPerSecond)
    }

    func bars(samplesPerBar: Int, maxBars: Int) throws -> (peaks: [Float], sampleCount: Int, duration: Double) {
        let bars = try barPeaks(samplesPerBar: samplesPerBar, maxBars: maxBars)
        return (bars.peaks, bars.sampleCount, bars.duration)
    }
}
