import Foundation
import WaveCore
import WavePhysics

/// The timer chapter's crates: boxes falling under gravity in a walled
/// frame, stepped by Chipmunk in fixed steps from time 0 (so the picture at
/// any time is the same however it was reached). A composition of the layer
/// tree: each crate is a box layer (a plank frame: a border over a wooden
/// fill, a diagonal plank under it) whose position and rotation are driven
/// by the simulation's channels (3k, 3k + 1, 3k + 2: x, y and the angle of
/// crate k), rasterized (`shouldRasterize`: the GL strategy paints each size
/// of crate once and draws them all in one instanced draw). The first five
/// are the chapter's, scaled to the frame; more come from a seeded generator.
public struct Crates: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    /// The wood; the border and the plank are darker shades of it.
    public var color = RGBA8(0xC8, 0x8A, 0x48)
    /// Crates in all: the chapter's five first (fewer: the first of them), then seeded ones.
    public var count = CrateWorld.chapterFrames.count
    /// Pixels per second squared, y down (nil: the chapter's 1000 downwards, scaled to the frame).
    public var gravity: Point?
    /// Seconds a physics step (the chapter's 1/120).
    public var step = 1.0 / 120
    public var seed: UInt64 = 1

    /// The most crates a scene holds.
    public static let maxCount = 10_000
    /// The most simulated work a frame may cost, in crate-steps (a crate
    /// through one step: about 1.2 microseconds here, so about half a minute),
    /// and the latest scene time drawn whatever the count (an hour).
    public static let workBudget = 30_000_000.0, latestTimeCap = 3600.0

    /// The latest scene time a frame may be drawn at: every step from 0 is
    /// simulated to reach a time, each costing in proportion to the crates.
    public var latestTime: Double { Swift.min(Self.latestTimeCap, Self.workBudget * step / Double(Swift.max(1, count))) }

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The crates' own parameter, declared once (their count is the effect's; the step is the frame loop's).
    public static let parameters = ParameterList(defaults: Crates(width: 1, height: 1), [
        .value("gravity", \.gravity, valueName: "x,y",
               accepted: "X,Y: two finite numbers of pixels per second squared, y down, each at most 1000000 either way (for example 0,1000)",
               help: "Gravity X,Y in pixels per second squared, y down.",
               defaultText: "0,1000 in the chapter's 300x300 box, scaled to the frame",
               parse: { text in
                   let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                   guard parts.count == 2, let x = ParameterText.parseNumber(String(parts[0])),
                         let y = ParameterText.parseNumber(String(parts[1])) else { return nil }
                   return .some(Point(x, y))
               },
               show: { $0.map { ParameterText.number($0.x) + "," + ParameterText.number($0.y) } },
               holds: { $0.map { abs($0.x) <= 1e6 && abs($0.y) <= 1e6 } ?? true }),
    ])

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard (1...Self.maxCount).contains(count) else {
            throw ValueError(parameter: "crates", value: "\(count)", accepted: "a whole number of crates from 1 to \(Self.maxCount)")
        }
        let fits = CrateWorld.capacity(width: Double(width), height: Double(height))
        guard count <= fits else {
            throw ValueError(parameter: "crates", value: "\(count)",
                             accepted: "at most \(fits) crates in a \(width)x\(height) frame (each at least 2 px)")
        }
        try Self.parameters.check(self)
        guard step.isFinite, step >= 0.0001, step <= 0.1 else {
            throw ValueError(parameter: "physics-step", value: "\(step)", accepted: "seconds from 0.0001 to 0.1")
        }
    }

    /// The world these options describe, at time 0.
    package var world: CrateWorld {
        var world = CrateWorld(width: Double(width), height: Double(height), gravity: gravity.map { ($0.x, $0.y) },
                               extra: Swift.max(0, count - CrateWorld.chapterFrames.count), seed: seed)
        world.crates = Array(world.crates.prefix(count))
        return world
    }

    public func scene() throws -> Scene {
        try validate()
        let world = world
        let simulation = CrateSimulation(Simulation(step: step) { world.makeWorld() })
        var sources: [Level] = []
        var crates: [Layer] = []
        let shade = { (f: Double) in RGBA8(UInt8(Double(color.r) * f), UInt8(Double(color.g) * f), UInt8(Double(color.b) * f), color.a) }
        for (k, c) in world.crates.enumerated() {
            let border = Swift.max(1, Swift.min(c.width, c.height) / 8)
            var plank = Layer(name: "plank \(k)", frame: Rect(x: c.width / 2 - (c.width + c.height) * 0.3, y: c.height / 2 - border / 2,
                                                            width: (c.width + c.height) * 0.6, height: border),
                              contents: .box(Box(color: shade(0.75))))
            plank.transform.rotation = .constant(atan2(c.height, c.width))
            var crate = Layer(name: "crate \(k)", frame: Rect(x: c.x - c.width / 2, y: c.y - c.height / 2, width: c.width, height: c.height),
                              contents: .box(Box(color: color, borderWidth: border, borderColor: shade(0.55))), sublayers: [plank])
            // Drawn once and moved (the GL strategy); redrawn every frame (the CPU strategy).
            crate.shouldRasterize = true
            // x, y and the angle, each a channel of the simulation read at the layer's time.
            for (n, driven) in [0, 1, 2].enumerated() {
                sources.append(.simulated(SimulatedChannel(simulation, channel: 3 * k + driven)))
                let timeline = Timeline(0.0, animations: [.driven(Driven(source: sources.count - 1, from: 0, to: 1))])
                switch n {
                case 0: crate.position.x = timeline
                case 1: crate.position.y = timeline
                default: crate.transform.rotation = timeline
                }
            }
            crates.append(crate)
        }
        let root = Layer(name: "crates", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: crates)
        var scene = Scene(width: width, height: height, background: background, tree: LayerTree(root: root, sources: sources))
        scene.latestTime = Scene.LatestTime(seconds: latestTime, why: "\(count) crates simulated from time 0 at \(String(format: "%g", step)) s a step cost work in proportion to the time (at most \(Int(Self.workBudget / 1_000_000)) million crate-steps, and an hour)")
        return scene
    }
}

/// The crates' simulation as the layer tree's driven values: channel 3k + c
/// is crate k's x (c = 0), y (1) or angle (2) at the time last advanced to.
final class CrateSimulation: SimulatedValues {
    private let simulation: Simulation

    init(_ simulation: Simulation) { self.simulation = simulation }

    func advance(to t: Double) { simulation.advance(to: t) }

    var cost: (steps: Int, seconds: Double) { (simulation.stepsRun, simulation.steppingSeconds) }

    var step: Double { simulation.step }

    func changeStep(to step: Double) -> Bool { simulation.changeStep(to: step) }

    var gravity: Point? { Point(simulation.gravity.x, simulation.gravity.y) }

    func setGravity(_ gravity: Point, from t: Double) { simulation.setGravity((gravity.x, gravity.y), from: t) }

    func value(_ channel: Int) -> Double {
        guard channel >= 0, channel / 3 < simulation.world.count else { return 0 }
        let p = simulation.world.placement(channel / 3)
        switch channel % 3 {
        case 0: return p.x
        case 1: return p.y
        default: return p.angle
        }
    }
}
