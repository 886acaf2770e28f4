import Foundation
import WaveCore

/// The replicator chapter's dots, as the book builds them: one dot (6x6,
/// lightGray, a white 0.5 px border, corner radius 1.5) at the right edge
/// in a replicator of W / 8 copies, each 8 px further left and 0.02 s
/// later. On the dot: scale to (1.4, 15) over 0.33 s, easeOut, autoreverse,
/// forever; opacity 1 to 0.2 over 0.33 s from +0.33 s, easeOut,
/// autoreverse, forever; background magenta to cyan over 0.66 s from
/// +0.28 s with fill mode backwards, easeInEaseOut, autoreverse, forever.
/// On the replicator: the instance transform's rotation 0 to 0.01 over
/// 0.33 s easeOut (kept), then 0.01 to -0.01 over 0.99 s from +0.33 s,
/// easeInEaseOut, autoreverse, forever: copy k turns k times as much, so
/// the row curls.
///
/// A constant level (0...1) scales how far the scale swings. A level from a
/// file or a live stream is the chapter's microphone: the dot green, its
/// scale.y the meter's `max(0.2, dB + 50) / 2` (the level 0...1 standing
/// for -60...0 dB, as `--level-from` measures it), nothing else animating, and the replicator's delay
/// making the row show the recent past. More dots than fit a row continue
/// on further rows (a replicator of rows), which share the height (or sit
/// `rowPitch` apart). See docs/contract.md, "The dots".
public struct Dots: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    /// Dots in all (nil: the chapter's W / spacing, one row).
    public var count: Int?
    /// A dot's side at scale 1, in pixels.
    public var dotSize = 6.0
    public var spacing = 8.0
    public var cornerRadius = 1.5
    /// The white border's width (the chapter's 0.5 px).
    public var borderWidth = 0.5
    /// Seconds each dot runs behind the one to its right.
    public var delay = 0.02
    /// The scale a dot swings to at level 1.
    public var maxScale = Scale(x: 1.4, y: 15)
    /// The opacity a dot fades to.
    public var fade = 0.2
    /// Seconds of one scale swing (and of the fade; the tint takes twice as long).
    public var beat = 0.33
    public var tint = ColorRamp(from: RGBA8(0xFF, 0x00, 0xFF), to: RGBA8(0x00, 0xFF, 0xFF))
    /// The rotation each copy adds at the curl's height, radians (0: a straight row).
    public var curl = 0.01
    /// The level: constant (scales the swing), or recorded or live (the microphone).
    public var level: Level = .constant(1)
    /// Pixels from one row's centre to the next (nil: the rows share the height).
    public var rowPitch: Double?
    /// Multiplies every copy's colour (the replicator's instanceColor; white: none).
    public var color = RGBA8(0xFF, 0xFF, 0xFF)
    /// The voice assistant's states in turn (nil: one state for ever, the
    /// level's: listening to a recorded or live one, speaking otherwise).
    public var states: [StateSwitch]?

    /// What the dots do: rest (the chapter's stop: grey, identity), the
    /// replicated animation, or follow the level (the microphone).
    public enum State: String, CaseIterable, Sendable {
        case idle, speak, listen
    }

    /// A state from a scene time on.
    public struct StateSwitch: Equatable, Sendable {
        public var state: State
        public var at: Double
        public init(_ state: State, at: Double) { self.state = state; self.at = at }
    }

    /// Seconds a switch of state takes to move each property from where it is to the next state's start.
    public static let handOff = 0.33

    /// The chapter's idle dot and border colours, and the microphone's dot.
    public static let lightGray = RGBA8(0xAA, 0xAA, 0xAA)
    public static let microphoneGreen = RGBA8(0x00, 0xFF, 0x00)
    /// The most dots a scene may hold.
    public static let maxCount = Replicator.maxCount

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The row's own parameters, declared once (the replicated dot's are `ReplicatedDot`'s, shared with the ring).
    public static let parameters = ParameterList(defaults: Dots(width: 1, height: 1), replicaParameters() + [
        .number("dot-spacing", \.spacing, 1...100_000, what: "pixels", valueName: "pixels",
                help: "Pixels from one dot's centre to the next."),
        .value("corner-radius", \.cornerRadius, valueName: "pixels", accepted: "pixels from 0 to half the dot size",
               help: "The dot's corner radius in pixels.", parse: { ParameterText.parseNumber($0) }, show: { ParameterText.number($0) },
               holds: { $0 >= 0 }, acceptedFor: { "pixels from 0 to half the dot size (\(ParameterText.number($0.dotSize / 2)))" },
               holdsIn: { $0.cornerRadius <= $0.dotSize / 2 }),
        .value("dot-scale", \.maxScale, valueName: "XxY", accepted: "XxY, two numbers above 0 up to 1000, for example 1.4x15",
               help: "The scale XxY a dot swings to at level 1.",
               parse: { text in
                   let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                   guard parts.count == 2, let x = ParameterText.parseNumber(String(parts[0])),
                         let y = ParameterText.parseNumber(String(parts[1])) else { return nil }
                   return Scale(x: x, y: y)
               },
               show: { ParameterText.number($0.x) + "x" + ParameterText.number($0.y) },
               holds: { [$0.x, $0.y].allSatisfy { $0 > 0 && $0 <= 1000 } }),
        .number("curl", \.curl, -Double.pi...Double.pi, what: "radians", valueName: "radians",
                help: "Radians each dot turns more than the one before at the height of the row's curl, 0 for a straight row."),
        .number("dot-fade", \.fade, 0...1, what: "an opacity", valueName: "opacity", help: "The opacity a dot fades to."),
        .value("states", \.states, valueName: "states",
               accepted: "NAME@SECONDS separated by commas, NAME idle, speak or listen, each later than the last, at most 1000 (for example speak@0,listen@3,idle@6)",
               help: "The voice assistant's states in turn, NAME@SECONDS separated by commas: idle (grey, at rest), speak (the replicated animation) or listen (following the level); each switch moves every property from where it is to the next state's start over 0.33 s.",
               defaultText: "one state, listen with --level-from, else speak",
               parse: { text in
                   var switches: [StateSwitch] = []
                   for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                       let parts = item.split(separator: "@", omittingEmptySubsequences: false)
                       guard parts.count == 2, let state = State(rawValue: parts[0].trimmingCharacters(in: .whitespaces)),
                             let at = ParameterText.parseNumber(String(parts[1])) else { return nil }
                       switches.append(StateSwitch(state, at: at))
                   }
                   return .some(switches)
               },
               show: { $0.map { $0.map { "\($0.state.rawValue)@\(ParameterText.number($0.at))" }.joined(separator: ",") } },
               holds: { states in
                   guard let states else { return true }
                   let times = states.map(\.at)
                   return !states.isEmpty && states.count <= 1000 && times.allSatisfy { $0 >= 0 && $0 <= 1e6 }
                       && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }
               }),
    ])

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        try Self.parameters.check(self)
        if let count, !(1...Self.maxCount).contains(count) {
            throw ValueError(parameter: "dots", value: "\(count)", accepted: "a whole number from 1 to \(Self.maxCount)")
        }
        guard borderWidth.isFinite, borderWidth >= 0, borderWidth <= dotSize / 2 else {
            throw ValueError(parameter: "border-width", value: "\(borderWidth)", accepted: "pixels from 0 to half the dot size")
        }
    }

    /// Dots that fit one row of the width (the chapter's W / 8).
    public var perRow: Int { Swift.max(1, Int(Double(width) / spacing)) }
    public var dotCount: Int { count ?? perRow }
    public var rows: Int { (dotCount + perRow - 1) / perRow }
    public var pitch: Double { rowPitch ?? Double(height) / Double(rows) }

    /// Copy i's centre at scale 1 before the curl turns it (right to left from the right edge, then the next row).
    public func centre(of i: Int) -> Point {
        Point(Double(width) - spacing / 2 - Double(i % perRow) * spacing, (pitch / 2).rounded() + Double(i / perRow) * pitch)
    }

    /// Whether a level from a file or a stream drives the dots (the microphone).
    public var isMicrophone: Bool {
        if case .constant = level { return false }
        return true
    }

    public func scene() throws -> Scene {
        try validate()
        let across = Swift.min(dotCount, perRow)
        let rowFrame = { (y: Double) in Rect(x: 0, y: y, width: Double(self.width), height: self.pitch) }
        // The states joined once for every row.
        let look = states.map(sequencedLook)
        let dot = self.dot(look), step = instanceTransform(look)
        let row = { (y: Double, copies: Int) -> Layer in
            var layer = Layer(name: "row", frame: rowFrame(y), sublayers: [dot])
            layer.replicator = Replicator(count: copies, instanceTransform: step, instanceDelay: self.delay,
                                          instanceColor: Tint(self.color))
            return layer
        }
        let full = dotCount / across, rest = dotCount % across
        var layers: [Layer] = []
        if full == 1 {
            layers.append(row(0, across))
        } else {
            var grid = Layer(name: "rows", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: [row(0, across)])
            grid.replicator = Replicator(count: full, instanceTransform: AnimatableTransform(translationY: pitch),
                                         instanceDelay: Double(across) * delay)
            layers.append(grid)
        }
        if rest > 0 {
            // The last, shorter row: its copies' times run on from the rows above.
            var last = row(Double(full) * pitch, rest)
            last.timing = MediaTiming(duration: .infinity, timeOffset: -Double(full * across) * delay, fillMode: .both)
            layers.append(last)
        }
        let root = Layer(name: "dots", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: layers)
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: root, sources: [level]))
    }

    /// One state's dot: its colour, scale, opacity, and the row's turn a copy.
    struct Look {
        var fill: Timeline<ColorValue>
        var scaleX: Timeline<Double>, scaleY: Timeline<Double>, opacity: Timeline<Double>, rotation: Timeline<Double>
    }

    func look(_ state: State) -> Look {
        switch state {
        case .idle:
            return Look(fill: Timeline(ColorValue(Self.lightGray)), scaleX: Timeline(1), scaleY: Timeline(1), opacity: Timeline(1),
                        rotation: Timeline(0))
        case .listen:
            return Look(fill: Timeline(ColorValue(Self.microphoneGreen)), scaleX: Timeline(1),
                        scaleY: Timeline(1, animations: [.driven(Driven(source: 0, from: 0, to: 1, gain: 30, bias: -5, lower: 0.1))]),
                        opacity: Timeline(1), rotation: Timeline(0))
        case .speak:
            let reach: Double
            if case let .constant(c) = level { reach = c } else { reach = 1 }
            let swing = { (to: Double) -> Timeline<Double> in
                Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: to, duration: self.beat, function: .easeOut,
                                                               repeatCount: .infinity, autoreverses: true))])
            }
            let fill = Timeline(ColorValue(Self.lightGray), animations: [
                .basic(BasicAnimation(from: ColorValue(tint.from), to: ColorValue(tint.to), duration: 2 * beat, beginTime: 0.28 * beat / 0.33,
                                      function: .easeInEaseOut, repeatCount: .infinity, autoreverses: true, fillMode: .backwards)),
            ])
            let opacity = Timeline(1.0, animations: [.basic(BasicAnimation(from: 1, to: fade, duration: beat, beginTime: beat, function: .easeOut,
                                                                           repeatCount: .infinity, autoreverses: true))])
            let rotation = curl == 0 ? Timeline(0.0) : Timeline(0.0, animations: [
                .basic(BasicAnimation(from: 0, to: curl, duration: beat, function: .easeOut, fillMode: .forwards)),
                .basic(BasicAnimation(from: curl, to: -curl, duration: 3 * beat, beginTime: beat, function: .easeInEaseOut,
                                      repeatCount: .infinity, autoreverses: true)),
            ])
            return Look(fill: fill, scaleX: swing(1 + (maxScale.x - 1) * reach), scaleY: swing(1 + (maxScale.y - 1) * reach),
                        opacity: opacity, rotation: rotation)
        }
    }

    /// The states' looks joined by hand-offs (`Timeline.sequence`), one property at a time.
    func sequencedLook(_ states: [StateSwitch]) -> Look {
        let looks = states.map { (start: $0.at, look: look($0.state)) }
        let sources = DrivenSources([level])
        func join<V>(_ property: KeyPath<Look, Timeline<V>>) -> Timeline<V> {
            Timeline.sequence(looks.map { ($0.start, $0.look[keyPath: property]) }, handOff: Self.handOff, sources: sources)
        }
        return Look(fill: join(\.fill), scaleX: join(\.scaleX), scaleY: join(\.scaleY), opacity: join(\.opacity), rotation: join(\.rotation))
    }

    /// The chapter's dot, in its row's coordinates (`look`: the states' joined look, where there are states).
    func dot(_ look: Look?) -> Layer {
        let c = centre(of: 0)
        let frame = Rect(x: c.x - dotSize / 2, y: (pitch / 2).rounded() - dotSize / 2, width: dotSize, height: dotSize)
        let white = ColorValue(RGBA8(0xFF, 0xFF, 0xFF))
        if let look {
            var dot = Layer(name: "dot", frame: frame, contents: .box(Box(fillColor: look.fill, cornerRadius: cornerRadius,
                                                                          borderWidth: borderWidth, borderColor: white)))
            (dot.transform.scaleX, dot.transform.scaleY, dot.opacity) = (look.scaleX, look.scaleY, look.opacity)
            return dot
        }
        if isMicrophone {
            var dot = Layer(name: "dot", frame: frame, contents: .box(Box(color: Self.microphoneGreen, cornerRadius: cornerRadius,
                                                                          borderWidth: borderWidth, borderColor: RGBA8(0xFF, 0xFF, 0xFF))))
            // scaleFactor = max(0.2, dB + 50) / 2, the level L standing for dB = 60 (L - 1) (-60 dB at 0, 0 dB at 1):
            // max(0.1, 30 L - 5).
            dot.transform.scaleY = Timeline(1, animations: [.driven(Driven(source: 0, from: 0, to: 1, gain: 30, bias: -5, lower: 0.1))])
            return dot
        }
        let swing = { (to: Double) -> Timeline<Double> in
            Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: to, duration: self.beat, function: .easeOut,
                                                           repeatCount: .infinity, autoreverses: true))])
        }
        let reach = level.value(at: 0)
        let fill = Timeline(ColorValue(Self.lightGray), animations: [
            .basic(BasicAnimation(from: ColorValue(tint.from), to: ColorValue(tint.to), duration: 2 * beat, beginTime: 0.28 * beat / 0.33,
                                  function: .easeInEaseOut, repeatCount: .infinity, autoreverses: true, fillMode: .backwards)),
        ])
        var dot = Layer(name: "dot", frame: frame, contents: .box(Box(fillColor: fill, cornerRadius: cornerRadius,
                                                                      borderWidth: borderWidth, borderColor: white)))
        dot.transform.scaleX = swing(1 + (maxScale.x - 1) * reach)
        dot.transform.scaleY = swing(1 + (maxScale.y - 1) * reach)
        dot.opacity = Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: fade, duration: beat, beginTime: beat, function: .easeOut,
                                                                     repeatCount: .infinity, autoreverses: true))])
        return dot
    }

    /// The replicator's step: 8 px left, and the curl (none for the microphone; the states' turn where there are states).
    func instanceTransform(_ look: Look?) -> AnimatableTransform {
        var step = AnimatableTransform(translationX: -spacing)
        if let look {
            step.rotation = look.rotation
            return step
        }
        guard curl != 0, !isMicrophone else { return step }
        step.rotation = Timeline(0, animations: [
            .basic(BasicAnimation(from: 0, to: curl, duration: beat, function: .easeOut, fillMode: .forwards)),
            .basic(BasicAnimation(from: curl, to: -curl, duration: 3 * beat, beginTime: beat, function: .easeInEaseOut,
                                  repeatCount: .infinity, autoreverses: true)),
        ])
        return step
    }

    /// Room for the tallest swing, and a little more: the benchmark's rows.
    public var roomyRowPitch: Double { (dotSize * Swift.max(1, maxScale.y)).rounded(.up) + 8 }

    /// The height that gives each row of `count` dots `roomyRowPitch` (the
    /// benchmark's screen for a dot count at a width).
    public static func height(count: Int, width: Int, dots: Dots) -> Int {
        var sized = dots
        sized.width = width
        let rows = (count + sized.perRow - 1) / sized.perRow
        return rows * Int(dots.roomyRowPitch)
    }
}

/// A scale on each axis.
public struct Scale: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// Two colours an animation runs between.
/// A replicated dot's look and beat (the dots' row, the ring), its parameters declared once.
public protocol ReplicatedDot {
    var dotSize: Double { get set }
    var delay: Double { get set }
    var beat: Double { get set }
    var tint: ColorRamp { get set }
}

extension ReplicatedDot {
    static func replicaParameters() -> [Parameter<Self>] {
        [
            .number("dot-size", \.dotSize, 0...1000, above: true, what: "a size in pixels", valueName: "pixels",
                    help: "A dot's side in pixels at scale 1."),
            .number("instance-delay", \.delay, 0...60, what: "seconds", valueName: "seconds",
                    help: "Seconds each dot runs behind the one before."),
            .number("dot-beat", \.beat, 0.001...3600, what: "seconds", valueName: "seconds",
                    help: "Seconds of one scale swing (and of the fade; the tint takes twice as long)."),
            .value("dot-tint", \.tint, valueName: "colors",
                   accepted: "two colours FROM,TO as #RRGGBB or #RRGGBBAA, for example '#FF00FF,#00FFFF'",
                   help: "The tint's two colours FROM,TO.",
                   parse: { text in
                       let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                       guard parts.count == 2, let a = RGBA8(hex: String(parts[0])), let b = RGBA8(hex: String(parts[1])) else { return nil }
                       return ColorRamp(from: a, to: b)
                   },
                   show: { $0.from.hex + "," + $0.to.hex }),
        ]
    }
}

extension Dots: ReplicatedDot {}

public struct ColorRamp: Equatable, Sendable {
    public var from: RGBA8
    public var to: RGBA8

    public init(from: RGBA8, to: RGBA8) { self.from = from; self.to = to }
}

extension Tint {
    /// A colour as multipliers (0...1 per channel).
    public init(_ c: RGBA8) {
        self.init(r: Double(c.r) / 255, g: Double(c.g) / 255, b: Double(c.b) / 255, a: Double(c.a) / 255)
    }
}
