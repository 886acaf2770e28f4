import Foundation

/// The timer chapter's crates as a world: a walled frame, gravity, boxes
/// of the chapter's sizes and surfaces, and for scale more boxes from a
/// seeded generator (the same count and seed give the same crates).
/// Values from the chapter (../shared/BACKGROUND.md): a 300x300 space,
/// gravity 1000 px/s² downwards, crates of 32 and 64 px (mass 100,
/// friction 0.5, elasticity 0.8), walls of radius 1 with the same surface.
package struct CrateWorld: Equatable, Sendable {
    /// A crate: its centre and size in scene pixels (y down), at rest at time 0.
    package struct Crate: Equatable, Sendable {
        package var x: Double, y: Double, width: Double, height: Double
    }

    package static let chapterSize = 300.0
    package static let chapterGravity = 1000.0
    package static let surface = PhysicsWorld.Surface(friction: 0.5, elasticity: 0.8)
    package static let mass = 100.0
    package static let wallRadius = 1.0
    /// How much deeper than the chapter's the walls are, outwards: a crate would have to cross 100 px in a step
    /// (12,000 px/s at 1/120 s) to pass the middle of one.
    package static let wallDepth = 100.0
    /// The chapter's five crates as view frames (x, y, side) in its 300x300 view, y down.
    package static let chapterFrames: [(x: Double, y: Double, side: Double)] = [
        (0, 0, 32), (32, 0, 32), (64, 0, 64), (128, 0, 32), (0, 32, 64),
    ]

    package var width: Double
    package var height: Double
    /// Pixels per second squared, y down.
    package var gravity: (x: Double, y: Double)
    package var crates: [Crate]

    package static func == (a: CrateWorld, b: CrateWorld) -> Bool {
        a.width == b.width && a.height == b.height && a.gravity == b.gravity && a.crates == b.crates
    }

    /// The chapter's scene scaled to `width` x `height` (sizes, positions and
    /// gravity by the smaller side's ratio to 300), plus `extra` seeded crates.
    package init(width: Double, height: Double, gravity: (x: Double, y: Double)? = nil, extra: Int = 0, seed: UInt64 = 1) {
        self.width = width
        self.height = height
        let scale = Swift.min(width, height) / Self.chapterSize
        self.gravity = gravity ?? (0, Self.chapterGravity * scale)
        crates = Self.chapterFrames.map { f in
            Crate(x: (f.x + f.side / 2) * scale, y: (f.y + f.side / 2) * scale, width: f.side * scale, height: f.side * scale)
        }
        // More crates for scale, seeded: one a cell of a grid filling the frame below the chapter's crates
        // (100 px of its 300) from the bottom up, each 60-100% of its cell's side less a margin, jittered in it.
        // Cells are the chapter's small crate (32 px, scaled) and a half, or smaller where that many do not fit.
        if extra > 0 {
            let cell = Self.cellSide(width: width, height: height, extra: extra)
            var random = SplitMix64(seed: seed)
            let columns = Swift.max(1, Int(width / cell))
            for k in 0..<extra {
                // Five sizes (60, 70, 80, 90 or 100%): a few pictures for the GL strategy to paint, as the chapter had two.
                let side = cell / 1.5 * (0.6 + 0.1 * Double(random.next() % 5))
                let room = cell - side
                let jitter = (x: room * Double(random.next() % 1000) / 1000, y: room * Double(random.next() % 1000) / 1000)
                let column = Double(k % columns), row = Double(k / columns)
                crates.append(Crate(x: column * cell + jitter.x + side / 2, y: height - (row + 1) * cell + jitter.y + side / 2,
                                    width: side, height: side))
            }
        }
    }

    /// The side of a seeded crate's cell: the chapter's small crate and a half (scaled), or less where `extra`
    /// cells do not fit the frame below the chapter's crates; nil where they would be under 3 px.
    package static func cellSide(width: Double, height: Double, extra: Int) -> Double {
        let scale = Swift.min(width, height) / chapterSize
        let below = height - 100 * scale
        var cell = 32 * scale * 1.5
        while cell > 3 && Double(Int(width / cell)) * Double(Int(below / cell)) < Double(extra) { cell *= 0.95 }
        return cell
    }

    /// The most crates a `width` x `height` frame holds (cells of at least 3 px).
    package static func capacity(width: Double, height: Double) -> Int {
        let scale = Swift.min(width, height) / chapterSize
        return chapterFrames.count + Int(width / 3) * Swift.max(0, Int((height - 100 * scale) / 3))
    }

    /// A world holding these walls and crates at rest, at time 0.
    package func makeWorld() -> PhysicsWorld {
        let world = PhysicsWorld(height: height, gravity: gravity)
        // The chapter's radius-1 walls, deep enough outwards that no crate passes through one (see addWalls).
        world.addWalls(width: width, radius: Self.wallRadius, depth: Self.wallDepth, surface: Self.surface)
        for c in crates {
            world.addBox(x: c.x, y: c.y, width: c.width, height: c.height, mass: Self.mass, surface: Self.surface)
        }
        return world
    }
}

/// A small deterministic generator (SplitMix64): the same seed, the same numbers, on every machine.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
