import Foundation
import WaveCore

/// The effects, in one list: what the command line's `--scene`, the demo's
/// E key, the benchmark's sweeps and the tests know of each. Adding an
/// effect is its file in this module and one entry here.

/// An effect's name, as `--scene` spells it.
public struct EffectName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let sine = EffectName(rawValue: "sine")
    public static let outline = EffectName(rawValue: "outline")
    public static let waveform = EffectName(rawValue: "waveform")
    public static let dots = EffectName(rawValue: "dots")
    public static let voice = EffectName(rawValue: "voice")
    public static let jelly = EffectName(rawValue: "jelly")
    public static let crates = EffectName(rawValue: "crates")
    public static let table = EffectName(rawValue: "table")
    public static let ball = EffectName(rawValue: "ball")
    public static let lottie = EffectName(rawValue: "lottie")
}

/// Everything an effect is made from besides the request: one template per
/// effect (sizes and counts come from the request), the colours, and the
/// inputs the command line opened.
public struct EffectSettings: Sendable {
    public var background = Scene.defaultBackground
    /// The fill colour asked for (nil: each effect's own).
    public var color: RGBA8?
    public var outline: Outline?
    /// The waveform's audio or peaks, opened (nil: the effect cannot be drawn).
    public var waveformSource: (any WaveformSource)?
    /// The level the dots and the voice follow.
    public var level = Level.constant(Voice.defaultLevel)
    /// The effect's declared parameters as typed (by name, without dashes; a flag's text is ignored).
    public var given: [String: String] = [:]
    /// Changes a caller makes to an effect's settings after its parameters (a bench's fixed layout), by settings type;
    /// every effect's scene is made from its settings so changed.
    private var adjustments: [@Sendable (inout Any) -> Void] = []

    /// Changes `Model` (an effect's settings) after its parameters are applied.
    public mutating func adjust<Model>(_ type: Model.Type, _ change: @escaping @Sendable (inout Model) -> Void) {
        adjustments.append { value in
            guard var model = value as? Model else { return }
            change(&model)
            value = model
        }
    }

    /// `model` with the adjustments made to its type.
    public func adjusted<Model>(_ model: Model) -> Model {
        var value: Any = model
        for adjustment in adjustments { adjustment(&value) }
        return value as? Model ?? model
    }

    public init() {}
}

/// What an effect's declared parameters set: the effect's own settings
/// (`base`), and the shared inputs some effects take, declared once each: the
/// level (dots, voice) and the frame loop (jelly, crates, ball).
public struct EffectModel<Base>: @unchecked Sendable {
    public var base: Base
    public var level = LevelInput()
    package var loop = FrameLoopSettings()
    public var inputs = EffectInputs()

    public init(_ base: Base) { self.base = base }
}

extension ParameterList {
    /// An effect's parameters: its own, then the shared ones it takes (the level; the frame loop's, by name).
    package static func effect<Base>(_ own: ParameterList<Base>, inputs: [String] = [], level: Bool = false, loop: [String] = [])
        -> ParameterList<EffectModel<Base>> where Model == EffectModel<Base> {
        var list = ParameterList<EffectModel<Base>>.empty
        if !inputs.isEmpty { list = list.with(EffectInputs.parameters.only(inputs), at: \.inputs) }
        list = list.with(own, at: \.base)
        if level { list = list.with(LevelInput.parameters, at: \.level) }
        if !loop.isEmpty { list = list.with(FrameLoopSettings.parameters.only(loop), at: \.loop) }
        return list
    }
}

/// One effect: its name and summary, what its count counts, the options
/// that shape it, and how its scene is made.
public struct Effect: Sendable {
    public let name: EffectName
    /// One line for `--help` and the docs.
    public let summary: String
    /// What the request's count means, nil for an effect without one.
    public let count: Count?
    /// Options (command-line names) that only this effect, and others listing them, take.
    package var options: [String] { (count.map { [$0.option] } ?? []) + parameters.map(\.option) }
    /// The parameters it declares (its count's besides), in the order its help lists them.
    public var parameters: [ParameterInfo] { infos() }
    /// The declared parameters, made when first read (a command reads only its own effect's).
    private let infos: @Sendable () -> [ParameterInfo]
    /// Refuses given parameters that are not of their kind or out of range (before any size is known).
    package let checkGiven: @Sendable ([String: String]) throws -> Void
    /// An input it cannot be drawn without (the demo leaves it out when absent).
    public let needs: String?
    /// Whether a bench sweep or the pacing preset may run it.
    package let paced: Bool
    /// The states it can be switched between (`SceneRequest.states`), in the order the demo's keys 1, 2, 3... name them.
    public let states: [String]
    /// How close the GL strategy's frames are to the CPU's.
    package let agreement: Agreement
    package let make: @Sendable (EffectSettings, SceneRequest) throws -> Scene

    /// The most a GL frame of the effect differs from the CPU's frame, on
    /// the 0...255 scale of a channel: the mean over every channel of every
    /// pixel, the largest anywhere, and why it is not 0.
    package struct Agreement: Sendable {
        package let mean: Double
        package let max: Int
        package let why: String

        /// Coverage computed by the same rule on both (or cached and moved by whole pixels).
        package static let sameCoverage = Agreement(mean: 1, max: 8, why: "the same coverage rule, in single precision on the GPU")
        /// Pictures painted once and turned or moved between pixels on the GPU.
        package static let sampledPictures = Agreement(
            mean: 1, max: 64,
            why: "turned pictures are sampled bilinearly between their texels (as Core Animation samples a rasterized layer)")
    }

    public struct Count: Sendable {
        /// "cells", "dots", "panels".
        public let unit: String
        /// The option that sets it.
        package let option: String
        /// The counts a bench sweep runs when none are given.
        package let sweep: [Int]
        /// The largest count a sweep may ask for.
        package let sweepLimit: Int
        /// Whether more of them stack the scene taller (cells, panels), or share one screen (dots).
        public let stacks: Bool
        /// The most one scene may ask for.
        package let most: Int
        /// What the count option does, for its help.
        package let help: String
        /// The count when none is asked for, in words.
        package let standardText: String
        /// The count when none is asked for (a request's 0).
        public let standard: @Sendable (EffectSettings, SceneRequest) -> Int
        /// The largest count for a request's size (the demo's Up key).
        public let limit: @Sendable (EffectSettings, SceneRequest) -> Int
    }

    /// An effect: its model (the effect's settings with every default,
    /// `model`, and the shared inputs) takes the given values of its declared
    /// parameters, checked, then the settings' adjustments to the effect's
    /// own settings (`EffectSettings.adjust`), and the scene is made from it.
    package init<Base>(name: EffectName, summary: String, count: Count? = nil,
                       parameters declare: @autoclosure @escaping @Sendable () -> ParameterList<EffectModel<Base>>,
                       model: @escaping @Sendable () -> Base, needs: String? = nil,
                       paced: Bool = false, states: [String] = [], agreement: Agreement = .sameCoverage,
                       make: @escaping @Sendable (EffectModel<Base>, EffectSettings, SceneRequest) throws -> Scene) {
        self.name = name; self.summary = summary; self.count = count; self.needs = needs
        self.paced = paced; self.states = states; self.agreement = agreement
        let parameters = Declaration(declare)
        self.infos = { parameters.list.infos }
        self.checkGiven = { given in _ = try parameters.list.applying(given, to: EffectModel(model())) }
        self.make = { settings, request in
            var given = try parameters.list.applying(settings.given, to: EffectModel(model()))
            given.base = settings.adjusted(given.base)
            return try make(given, settings, request)
        }
    }

    /// The count option as a parameter, for the command line's help and the docs.
    package var countInfo: ParameterInfo? {
        guard let count else { return nil }
        return ParameterInfo(name: String(count.option.dropFirst(2)),
                             help: count.help + "; waves bench: the counts to sweep, a comma-separated list", valueName: "n",
                             accepted: count.accepted,
                             defaultText: count.standardText + "; waves bench: " + count.sweep.map(String.init).joined(separator: ","), isFlag: false, choices: [], scope: .scene,
                             requires: nil)
    }

    /// Every parameter the command line shows for the effect: its count first, then its declared parameters.
    public var allParameters: [ParameterInfo] { (countInfo.map { [$0] } ?? []) + parameters }
    /// The scene for a request (a count of 0: the effect's standard count).
    public func scene(_ settings: EffectSettings, _ request: SceneRequest) throws -> Scene {
        try make(settings, request)
    }
}

extension Effect.Count {
    package init(unit: String, option: String, sweep: [Int], sweepLimit: Int, most: Int? = nil, stacks: Bool,
                 help: String = "", standardText: String = "",
                 standard: @escaping @Sendable (EffectSettings, SceneRequest) -> Int,
                 limit: @escaping @Sendable (EffectSettings, SceneRequest) -> Int) {
        self.unit = unit; self.option = option; self.sweep = sweep; self.sweepLimit = sweepLimit; self.most = most ?? sweepLimit
        self.stacks = stacks; self.help = help; self.standardText = standardText; self.standard = standard; self.limit = limit
    }

    /// What one scene's count accepts.
    package var accepted: String { "a whole number of \(unit) from 1 to \(most)" }

    /// One count as typed, checked.
    package func value(_ text: String) throws -> Int {
        guard let value = Int(text), (1...most).contains(value) else {
            throw ValueError(parameter: String(option.dropFirst(2)), value: text, accepted: accepted)
        }
        return value
    }
}

/// An effect's parameter list, declared when first read: building every
/// effect's lists (their key paths and texts) costs a process that draws
/// one effect about a millisecond.
private final class Declaration<Model>: @unchecked Sendable {
    private let declare: @Sendable () -> ParameterList<Model>
    private let lock = NSLock()
    private var made: ParameterList<Model>?

    init(_ declare: @escaping @Sendable () -> ParameterList<Model>) { self.declare = declare }

    var list: ParameterList<Model> {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let list = declare()
        made = list
        return list
    }
}

public enum Effects {
    /// Every effect, in the order the demo's E key cycles through them.
    public static let all: [Effect] = [
        Effect(name: .sine, summary: "waving cells: a sine band moved by one translation (the replicator post's waving view)",
               count: Effect.Count(unit: "cells", option: "--cells", sweep: [1, 10, 100, 1000], sweepLimit: 10_000, most: Scene.maxHeight,
                                   stacks: true, help: "Cells stacked vertically, each with its own phase (k/N of a cycle)", standardText: "1",
                                   standard: { _, _ in 1 }, limit: { _, r in Swift.max(1, r.height) }),
               parameters: .effect(WaveParameters.parameters), model: { WaveParameters() }, paced: true) { model, s, r in
            var wave = model.base
            wave.color = s.color ?? wave.color
            var request = r
            request.count = Swift.max(1, r.count)
            return try SineCells(request, wave: wave, background: s.background).scene()
        },
        Effect(name: .table, summary: "a scrolling table of waving cells, only the rows in view made, reused as they scroll (the waving-view post's table)",
               count: Effect.Count(unit: "rows", option: "--rows", sweep: [10, 100, 1000, 10_000], sweepLimit: Table.maxRows, stacks: false,
                                   help: "Rows in the table, only the rows in view having cells", standardText: "100",
                                   standard: { _, _ in 100 }, limit: { _, _ in Table.maxRows }),
               parameters: .effect(Table.parameters), model: { Table(width: 1, height: 1) }, paced: true) { model, s, r in
            var table = model.base
            (table.width, table.height) = (r.width, r.height)
            table.rows = r.count > 0 ? r.count : 100
            table.wave.color = s.color ?? table.wave.color
            table.background = s.background
            table.snapToPixel = r.snapsToPixel
            return try table.scene()
        },
        Effect(name: .dots, summary: "a replicated row of dots, each one animation a little later, curling (the replicator chapter)",
               count: Effect.Count(unit: "dots", option: "--dots", sweep: [10, 100, 1000, 10_000], sweepLimit: 100_000, stacks: false,
                                   help: "Dots in all, more than fit one row continuing on further rows",
                                   standardText: "as many as fit one row of the width",
                                   standard: { s, r in Swift.max(1, Int(Double(r.width) / Dots.parameters.applyingLeniently(s.given, to: Dots(width: 1, height: 1)).spacing)) },
                                   limit: { _, _ in Dots.maxCount }),
               parameters: .effect(Dots.parameters, level: true), model: { Dots(width: 1, height: 1) },
               paced: true, states: Dots.State.allCases.map(\.rawValue)) { model, s, r in
            var dots = model.base
            dots.width = r.width
            dots.height = r.height
            dots.count = r.count > 0 ? r.count : nil
            dots.background = s.background
            dots.color = s.color ?? dots.color
            dots.level = s.level
            // The demo's keys: the states asked for (or the level's own state) until the first key, then each key's state at its time.
            let keyed = r.states.compactMap { k in k.at >= 0 ? Dots.State(rawValue: k.name).map { Dots.StateSwitch($0, at: k.at) } : nil }
            if let first = keyed.first {
                let initial = dots.states ?? [Dots.StateSwitch(dots.isMicrophone ? .listen : .speak, at: 0)]
                dots.states = initial.filter { $0.at < first.at } + keyed
            }
            return try dots.scene()
        },
        Effect(name: .voice, summary: "layered curves along an attenuated sine following a level (siriwave)",
               count: Effect.Count(unit: "panels", option: "--cells", sweep: [1, 10, 100], sweepLimit: 10_000, most: Scene.maxHeight,
                                   stacks: true, help: "Panels stacked vertically, each with its own phase", standardText: "1",
                                   standard: { _, _ in 1 }, limit: { _, r in Voice.maxCount(height: r.height) }),
               parameters: .effect(Voice.parameters, level: true), model: { Voice(width: 1, height: 1) },
               paced: true) { model, s, r in
            var voice = model.base
            voice.width = r.width
            voice.height = r.height
            voice.count = Swift.max(1, r.count)
            voice.background = s.background
            voice.color = s.color ?? voice.color
            voice.level = s.level
            return try voice.scene()
        },
        Effect(name: .jelly, summary: "a block on a spring whose edges bow as it moves (the CADisplayLink post)",
               parameters: .effect(Jelly.parameters, loop: ["physics-step", "max-steps"]),
               model: { Jelly(width: 1, height: 1) }, paced: true) { model, s, r in
            var jelly = model.base
            jelly.width = r.width
            jelly.height = r.height
            jelly.background = s.background
            jelly.color = s.color ?? jelly.color
            return try jelly.scene()
        },
        Effect(name: EffectName(rawValue: "ring"), summary: "a ring of dots turning, a pulse running round it (a replicator turned about its centre)",
               count: Effect.Count(unit: "dots", option: "--dots", sweep: [10, 100, 1000], sweepLimit: 100_000, stacks: false,
                                   help: "Dots round the ring", standardText: "12",
                                   standard: { _, _ in 12 }, limit: { _, _ in Replicator.maxCount }),
               parameters: .effect(Ring.parameters), model: { Ring(width: 1, height: 1) }, paced: true) { model, s, r in
            var ring = model.base
            (ring.width, ring.height, ring.count) = (r.width, r.height, r.count > 0 ? r.count : 12)
            (ring.background, ring.color) = (s.background, s.color ?? ring.color)
            return try ring.scene()
        },
        Effect(name: .crates, summary: "crates falling in a walled box, stepped by Chipmunk at a fixed step (the timer chapter's physics)",
               count: Effect.Count(unit: "crates", option: "--crates", sweep: [10, 100, 1000, 5000], sweepLimit: Crates.maxCount,
                                   stacks: false, help: "Crates in all, the chapter's five first, then seeded ones", standardText: "5",
                                   standard: { _, _ in 5 }, limit: { _, _ in Crates.maxCount }),
               parameters: .effect(Crates.parameters, loop: ["physics-step", "max-steps", "physics-budget"]),
               model: { Crates(width: 1, height: 1) }, paced: true, agreement: .sampledPictures) { model, s, r in
            var crates = model.base
            (crates.width, crates.height) = (r.width, r.height)
            crates.count = r.count > 0 ? r.count : 5
            crates.step = model.loop.physicsStep ?? crates.step
            crates.background = s.background
            crates.color = s.color ?? crates.color
            return try crates.scene()
        },
        Effect(name: .ball, summary: "the timer chapter's bouncing ball, its frames timed by a display link, a 1/60 s timer or fixed steps",
               parameters: .effect(Ball.parameters, loop: ["busy", "busy-pattern", "frame-interval", "physics-step", "max-steps"]),
               model: { Ball(width: 1, height: 1) }, paced: true) { model, s, r in
            var ball = model.base
            (ball.width, ball.height) = (r.width, r.height)
            ball.step = model.loop.physicsStep ?? ball.step
            ball.background = s.background
            ball.color = s.color ?? ball.color
            return try ball.scene()
        },
        Effect(name: .waveform, summary: "an audio track's bars, played and unplayed either side of a playhead (SoundCloud's waveform)",
               parameters: .effect(Waveform.parameters, inputs: ["audio", "peaks", "start", "end", "jobs", "force"]),
               model: { Waveform(width: 1, height: 1, peaks: [], duration: 1) }) { model, s, r in
            guard let source = s.waveformSource else {
                throw ValueError(parameter: "audio", value: "(none)", accepted: "an audio file or a peaks file")
            }
            var waveform = model.base
            waveform.width = r.width
            waveform.height = r.height
            // A scheme's background stands where no --background was given.
            waveform.background = s.background == Scene.defaultBackground ? waveform.colorScheme?.background ?? s.background : s.background
            waveform.snapToPixel = r.snapsToPixel
            waveform.startTime = model.inputs.start ?? 0
            return try waveform.scene(from: source)
        },
        Effect(name: .outline, summary: "a user's outline from SVG path data, travelling",
               parameters: .effect(Outline.parameters, inputs: ["outline"]),
               model: { Outline(width: 1, height: 1, path: PathBuilder().path) }, needs: "--outline") { model, s, r in
            guard var outline = s.outline else {
                throw ValueError(parameter: "outline", value: "(none)", accepted: "a file of SVG path data")
            }
            outline.width = r.width
            outline.height = r.height
            outline.pixelsPerSecond = model.base.pixelsPerSecond
            outline.background = s.background
            outline.color = s.color ?? outline.color
            outline.snapToPixel = r.snapsToPixel
            return try outline.scene()
        },
        Effect(name: .lottie, summary: "a Lottie animation (Bodymovin's JSON) as a layer tree, scaled to fit",
               parameters: .effect(LottieEffect.parameters), model: { LottieEffect() }, needs: "--file", paced: true,
               agreement: .sampledPictures) { model, s, r in
            try model.base.scene(width: r.width, height: r.height, background: s.background)
        },
        Effect(name: EffectName(rawValue: "ripple"), summary: "ripples growing from the centre and fading, one after another (a replicator's pulse)",
               count: Effect.Count(unit: "ripples", option: "--ripples", sweep: [1, 10, 100], sweepLimit: Replicator.maxCount, stacks: false,
                                   help: "Ripples growing at once, evenly spaced over one growth", standardText: "3",
                                   standard: { _, _ in 3 }, limit: { _, _ in Replicator.maxCount }),
               parameters: .effect(Ripple.parameters), model: { Ripple(width: 1, height: 1) }, paced: true) { model, s, r in
            var ripple = model.base
            (ripple.width, ripple.height, ripple.count) = (r.width, r.height, r.count > 0 ? r.count : 3)
            (ripple.background, ripple.color) = (s.background, s.color ?? ripple.color)
            return try ripple.scene()
        },
    ]

    /// The effect of that name.
    public static func named(_ name: EffectName) -> Effect? { all.first { $0.name == name } }

    /// Every name, in order.
    public static var names: [String] { all.map(\.name.rawValue) }

    /// The effects an option shapes (empty: an option every effect takes).
    package static func taking(_ option: String) -> [EffectName] { all.filter { $0.options.contains(option) }.map(\.name) }
}
