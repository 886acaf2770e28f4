import Foundation
import Synchronization

/// A level from 0 to 1 (how loud the input is) as a function of scene time:
/// a source that driven properties of a layer tree read. Smoothing is by
/// attack and release time constants in seconds, so it reaches the same
/// value at the same time whatever the frame rate (a lerp of a fixed
/// fraction a frame runs twice as fast on a 120 Hz screen; this does not).

/// Exponential smoothing toward a target: after dt seconds the distance to
/// the target is multiplied by exp(-dt / tau), tau the attack time while
/// rising and the release time while falling. Steps compose exactly:
/// two steps of dt equal one of 2 dt, which is the frame-rate independence.
public struct LevelSmoothing: Equatable, Hashable, Sendable {
    /// Seconds to rise 63% of the way to a louder level.
    public var attack: Double
    /// Seconds to fall 63% of the way to a quieter level.
    public var release: Double

    public init(attack: Double = 0.05, release: Double = 0.3) {
        self.attack = attack
        self.release = release
    }

    @inline(__always)
    public func step(_ value: Double, toward target: Double, seconds dt: Double) -> Double {
        guard dt > 0 else { return value }
        let tau = target > value ? attack : release
        guard tau > 0 else { return target }
        return target + (value - target) * exp(-dt / tau)
    }

    var isValid: Bool { attack.isFinite && release.isFinite && attack >= 0 && release >= 0 }
}

/// A level precomputed on a fixed grid of times (`rate` values a second from
/// time 0, already smoothed), read by linear interpolation: a pure function
/// of the time. What `--level-from FILE` becomes.
public struct LevelEnvelope: Equatable, Sendable {
    public var rate: Double
    public var values: [Double]

    public init(rate: Double, values: [Double]) {
        self.rate = rate
        self.values = values
    }

    /// Smooths raw per-grid-point targets from `start` at time 0.
    public init(rate: Double, targets: [Double], smoothing: LevelSmoothing, start: Double = 0) {
        var level = start
        let dt = 1 / rate
        var values: [Double] = []
        values.reserveCapacity(targets.count)
        for (n, target) in targets.enumerated() {
            if n > 0 { level = smoothing.step(level, toward: target, seconds: dt) } else { level = target }
            values.append(level)
        }
        self.init(rate: rate, values: values)
    }

    @inline(__always)
    public func value(at t: Double) -> Double {
        // Not `values.last`: in a debug build it allocates, and this runs per copy per frame.
        guard !values.isEmpty else { return 0 }
        let last = values[values.count - 1]
        let position = t * rate
        guard position > 0 else { return values[0] }
        guard position < Double(values.count - 1) else { return last }
        let n = Int(position), f = position - Double(n)
        return values[n] + (values[n + 1] - values[n]) * f
    }
}

/// A level fed while frames are drawn (`--level-from -`, `mic`): a reader
/// sets the target from any thread; each frame's query smooths toward it
/// over the scene time since the previous query, or, with a `ramp`, moves
/// to each new target in a straight line over `ramp` seconds from the value
/// it had when the frame first saw it (the chapter's 0.1 s animation from
/// the presentation value). Live input is not reproducible by nature; the
/// motion still depends on time, not on the frame count.
public final class LiveLevel: Sendable {
    private struct State {
        var target: Double
        var value: Double
        var time: Double?
        /// The ramp under way: from, to, and when it began.
        var from: Double, to: Double, began: Double
    }

    private let state: Mutex<State>
    public let smoothing: LevelSmoothing
    /// Seconds each new target is ramped to (nil: exponential smoothing).
    public let ramp: Double?

    public init(start: Double, smoothing: LevelSmoothing, ramp: Double? = nil) {
        state = Mutex(State(target: start, value: start, time: nil, from: start, to: start, began: 0))
        self.smoothing = smoothing
        self.ramp = ramp.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// The level as the last frame saw it, without moving it on (a scene being made reads it).
    public var current: Double { state.withLock { $0.value } }

    /// A new target (clamped to 0...1), from the reader.
    public func set(_ target: Double) {
        let clamped = Swift.min(1, Swift.max(0, target))
        state.withLock { $0.target = clamped }
    }

    /// The smoothed level at scene time t. Time going backwards (a new
    /// run, a seek) restarts the smoothing clock without a jump.
    public func value(at t: Double) -> Double {
        state.withLock { s in
            if let ramp {
                @inline(__always) func along(_ t: Double) -> Double {
                    t >= s.began + ramp ? s.to : s.from + (s.to - s.from) * Swift.max(0, t - s.began) / ramp
                }
                if let last = s.time, t < last { (s.from, s.began) = (s.value, t) }
                if s.target != s.to { (s.from, s.to, s.began) = (along(t), s.target, t) }
                s.value = along(t)
            } else if let last = s.time, t > last {
                s.value = smoothing.step(s.value, toward: s.target, seconds: t - last)
            }
            s.time = t
            return s.value
        }
    }
}

/// Values computed at any scene time from timed inputs (a simulation's
/// bodies, a scroll view's offset), numbered by channel. `advance(to:)` is
/// called once a frame before any channel is read at that time; the same
/// time again costs nothing.
public protocol ComputedValues: AnyObject {
    func advance(to t: Double)
    func value(_ channel: Int) -> Double
}

/// Values a physics simulation gives (a rigid body's x, y and angle), with
/// what stepping costs and the inputs it takes.
public protocol SimulatedValues: ComputedValues {
    /// What stepping has cost since the simulation was made: steps run and seconds of this thread's CPU.
    var cost: (steps: Int, seconds: Double) { get }
    /// Seconds a step now.
    var step: Double { get }
    /// Steps of `step` seconds from the time it has reached on; false where it cannot (it is back in time).
    func changeStep(to step: Double) -> Bool
    /// Gravity last asked for, pixels per second squared, y down (nil: the simulation has none).
    var gravity: Point? { get }
    /// Gravity from time t on, a timed input (replayed the same when time goes back).
    func setGravity(_ gravity: Point, from t: Double)
}

extension Scene {
    /// Its computed sources of one kind (simulations, scroll views), each once however many channels read it.
    package func computedValues<Kind>(_ kind: Kind.Type) -> [Kind] {
        var found: [Kind] = []
        for source in tree?.sources ?? [] {
            guard case let .simulated(s) = source, let values = s.simulation as? Kind,
                  !found.contains(where: { ($0 as AnyObject) === s.simulation }) else { continue }
            found.append(values)
        }
        return found
    }

    /// Its simulations, each once.
    private var simulations: [SimulatedValues] { computedValues(SimulatedValues.self) }

    /// Seconds a physics step now (nil: no simulation).
    package var physicsStep: Double? { simulations.first?.step }

    /// Gravity in its simulations now (nil: none has gravity).
    package var gravity: Point? { simulations.lazy.compactMap(\.gravity).first }

    /// Tilts: gravity from time t on in every simulation (the demo's arrow keys).
    package func setGravity(_ gravity: Point, from t: Double) {
        for s in simulations { s.setGravity(gravity, from: t) }
    }

    /// Makes every simulation step `step` seconds from the time it has reached on (see `PhysicsBudget`);
    /// false where one could not (it was back in time), and the loop keeps its step.
    @discardableResult
    package func changePhysicsStep(to step: Double) -> Bool {
        simulations.reduce(true) { $1.changeStep(to: step) && $0 }
    }

    /// The steps its simulations have run and the thread CPU seconds they took, each simulation counted once.
    package var simulationCost: (steps: Int, seconds: Double)? {
        let all = simulations
        guard !all.isEmpty else { return nil }
        return all.reduce((0, 0.0)) { ($0.0 + $1.cost.steps, $0.1 + $1.cost.seconds) }
    }
}

/// One channel of computed values (a simulation, a scroll view).
public struct SimulatedChannel: @unchecked Sendable {
    public let simulation: ComputedValues
    public let channel: Int

    public init(_ simulation: ComputedValues, channel: Int) {
        self.simulation = simulation
        self.channel = channel
    }
}

/// Where a layer's level comes from.
public enum Level: Equatable, Sendable {
    case constant(Double)
    case envelope(LevelEnvelope)
    case live(LiveLevel)
    /// A simulation's or scroll view's channel: any finite number (not held to 0...1), the state at the frame's time.
    case simulated(SimulatedChannel)

    /// The level at time t, in 0...1 (a simulated channel: its value, whatever it is).
    @inline(__always)
    public func value(at t: Double) -> Double {
        let v: Double
        switch self {
        case let .constant(c): v = c
        case let .envelope(e): v = e.value(at: t.isFinite ? t : 0)
        case let .live(l): v = l.value(at: t.isFinite ? t : 0)
        case let .simulated(s):
            s.simulation.advance(to: t.isFinite ? t : 0)
            let x = s.simulation.value(s.channel)
            return x.isFinite ? x : 0
        }
        return v.isFinite ? Swift.min(1, Swift.max(0, v)) : 0
    }

    public static func == (a: Level, b: Level) -> Bool {
        switch (a, b) {
        case let (.constant(x), .constant(y)): x == y
        case let (.envelope(x), .envelope(y)): x == y
        case let (.live(x), .live(y)): x === y
        case let (.simulated(x), .simulated(y)): x.simulation === y.simulation && x.channel == y.channel
        default: false
        }
    }

    var isValid: Bool {
        switch self {
        case let .constant(c): c.isFinite && (0...1).contains(c)
        case let .envelope(e): e.rate.isFinite && e.rate > 0 && !e.values.isEmpty && e.values.allSatisfy(\.isFinite)
        case .live: true
        case let .simulated(s): s.channel >= 0
        }
    }
}
