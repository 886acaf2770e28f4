import Foundation
import WavePhysics
import XCTest

/// The crates' world against expectations that owe nothing to Chipmunk:
/// free fall's arrival time, resting crates inside the walls and apart,
/// no crate through a wall at the chapter's step even when thrown hard,
/// the same world at the same time whatever the frames, and y down.
final class PhysicsWorldTests: XCTestCase {
    private let step = 1.0 / 120

    /// A crate dropped from rest meets the floor when free fall says, within a step.
    func testADroppedCrateReachesTheFloorWhenFreeFallSays() {
        let g = 1000.0, top = 20.0, side = 32.0, floor = 300.0
        let world = PhysicsWorld(height: floor, gravity: (0, g))
        world.addWalls(width: 300, radius: 1, surface: CrateWorld.surface)
        world.addBox(x: 150, y: top + side / 2, width: side, height: side, mass: 100, surface: CrateWorld.surface)
        // Its bottom falls from `top + side` to the floor's top face (the wall's radius above the frame's edge).
        let distance = (floor - 1) - (top + side)
        let predicted = (2 * distance / g).squareRoot()
        var bounced: Double?
        for _ in 0..<240 {
            world.step(step)
            if world.velocity(0).y < 0 { bounced = world.time; break }
        }
        let time = try? XCTUnwrap(bounced, "the crate never bounced")
        XCTAssertEqual(time ?? 0, predicted, accuracy: 1.5 * step, "free fall of \(distance) px at \(g) px/s² takes \(predicted) s")
        XCTAssertGreaterThan(world.placement(0).y, top + side / 2, "y grows downwards")
    }

    /// Scene coordinates in and out: y down, angles clockwise on screen, as given.
    func testPlacementsReadBackInSceneCoordinates() {
        let world = PhysicsWorld(height: 200, gravity: (0, 0))
        world.addBox(x: 40, y: 30, width: 20, height: 10, angle: 0.3, mass: 1, surface: CrateWorld.surface)
        XCTAssertEqual(world.placement(0), PhysicsWorld.Placement(x: 40, y: 30, angle: 0.3))
        world.kick(0, x: 0, y: 120)
        world.step(0.5)
        XCTAssertEqual(world.placement(0).y, 90, accuracy: 1e-9, "moving down the screen at 120 px/s for 0.5 s")
    }

    /// The chapter's five crates after 10 s: at rest, inside the walls, none inside another.
    func testTheChaptersCratesComeToRestInsideTheWallsApart() {
        let scene = CrateWorld(width: 300, height: 300)
        XCTAssertEqual(scene.crates.count, 5)
        let world = scene.makeWorld()
        for _ in 0..<1200 { world.step(step) }
        assertInsideAndApart(world, width: 300, height: 300)
        for i in 0..<world.count {
            let v = world.velocity(i)
            XCTAssertLessThan((v.x * v.x + v.y * v.y).squareRoot(), 5, "crate \(i) still moving at \(v)")
        }
    }

    /// Twenty crates flung at 3000 px/s (25 px a step) with gravity four times the chapter's, tilted:
    /// a crate may sink into a wall within a step, but none gets past it, and after 5 s all are
    /// inside and apart. The chapter's walls of radius 1 alone let crates through (the reason walls are deep).
    func testNoCrateLeavesTheBoxWhenThrownHard() {
        func flung(_ world: PhysicsWorld) -> PhysicsWorld {
            for i in 0..<world.count {
                let angle = Double(i) * 2.399963
                world.kick(i, x: 3000 * cos(angle), y: 3000 * sin(angle))
            }
            return world
        }
        let scene = CrateWorld(width: 300, height: 300, gravity: (2000, 4000), extra: 15, seed: 7)
        let world = flung(scene.makeWorld())
        var deepest = 0.0
        for _ in 0..<600 {
            world.step(step)
            for i in 0..<world.count {
                let p = world.placement(i)
                deepest = max(deepest, -p.x, p.x - 300, -p.y, p.y - 300)
            }
        }
        XCTAssertLessThan(deepest, 30, "a crate's centre went \(deepest) px past a wall's face (a step's travel is 25 px)")
        assertInsideAndApart(world, width: 300, height: 300, slack: 3)

        let thin = PhysicsWorld(height: 300, gravity: scene.gravity)
        thin.addWalls(width: 300, radius: 1, surface: CrateWorld.surface)
        for c in scene.crates { thin.addBox(x: c.x, y: c.y, width: c.width, height: c.height, mass: 100, surface: CrateWorld.surface) }
        _ = flung(thin)
        for _ in 0..<600 { thin.step(step) }
        let lost = (0..<thin.count).filter { let p = thin.placement($0); return !(0...300).contains(p.x) || !(0...300).contains(p.y) }
        XCTAssertFalse(lost.isEmpty, "walls of radius 1 held crates flung at 25 px a step: the deep walls would not be needed")
    }

    /// The same world at 2 s whether reached by frames of 1/60 s, 1/144 s or irregular ones,
    /// or by one jump; and an earlier time after a later one starts again from 0.
    func testTheWorldAtATimeIsTheSameWhateverTheFrames() {
        let scene = CrateWorld(width: 300, height: 300, extra: 10, seed: 3)
        func placements(frames: [Double]) -> [PhysicsWorld.Placement] {
            let simulation = Simulation { scene.makeWorld() }
            var t = 0.0
            for d in frames { t += d; simulation.advance(to: t) }
            simulation.advance(to: 2)
            return (0..<simulation.world.count).map { simulation.world.placement($0) }
        }
        let jump = placements(frames: [])
        XCTAssertEqual(placements(frames: Array(repeating: 1.0 / 60, count: 119)), jump)
        XCTAssertEqual(placements(frames: Array(repeating: 1.0 / 144, count: 287)), jump)
        // Frames of 4 to 15 ms in a repeating, uneven order.
        var irregular: [Double] = []
        for k in 0..<100 {
            let share = Double((k * 7) % 5) / 4
            irregular.append(0.004 + 0.011 * share)
        }
        XCTAssertEqual(placements(frames: irregular), jump)
        let simulation = Simulation { scene.makeWorld() }
        simulation.advance(to: 3)
        simulation.advance(to: 2)
        XCTAssertEqual((0..<simulation.world.count).map { simulation.world.placement($0) }, jump, "back in time: stepped again from 0")
        XCTAssertEqual(simulation.world.steps, 240)
    }

    /// A coarser step from some time on and a tilt of gravity are timed
    /// inputs: the world at a later time is the same reached in frames or
    /// at a jump, or again after going back; and each input does change it.
    func testStepChangesAndTiltsAreReplayedTheSame() {
        let scene = CrateWorld(width: 300, height: 300, extra: 10, seed: 5)
        func placements(_ simulation: Simulation) -> [PhysicsWorld.Placement] {
            (0..<simulation.world.count).map { simulation.world.placement($0) }
        }
        func run(frames: Int, coarsen: Bool, tilt: Bool) -> Simulation {
            let simulation = Simulation { scene.makeWorld() }
            for k in 1...frames {
                simulation.advance(to: 1.5 * Double(k) / Double(frames))
                if k == frames / 3, coarsen { simulation.changeStep(to: 1.0 / 60) }
                if k == frames / 2, tilt { simulation.setGravity((900, 300), from: 1.5 * Double(k) / Double(frames)) }
            }
            return simulation
        }
        let inFrames = run(frames: 90, coarsen: true, tilt: true)
        let reference = placements(inFrames)
        XCTAssertEqual(inFrames.schedule.count, 2)
        XCTAssertEqual(inFrames.schedule[1].from, 0.5, accuracy: 1e-9, "the change holds from the time the world had reached")
        XCTAssertEqual(inFrames.world.gravity.x, 900)
        // Back to 0.2 s (stepped again from 0 with the same inputs), then on to 1.5 s in one jump.
        inFrames.advance(to: 0.2)
        XCTAssertEqual(inFrames.world.gravity.x, 0, "the tilt comes later")
        XCTAssertEqual(inFrames.gravity.x, 900, "the gravity asked for last")
        inFrames.advance(to: 1.5)
        XCTAssertEqual(placements(inFrames), reference)
        // A different frame rate, the inputs at the same scene times: the same world.
        XCTAssertEqual(placements(run(frames: 180, coarsen: true, tilt: true)), reference)
        // Each input matters: without it the world differs.
        XCTAssertNotEqual(placements(run(frames: 90, coarsen: false, tilt: true)), reference)
        let untilted = placements(run(frames: 90, coarsen: true, tilt: false))
        XCTAssertNotEqual(untilted, reference)
        // A time a hair under a step already taken (as sums of frame times land) is not a step back: nothing replays.
        let steps = inFrames.stepsRun
        inFrames.advance(to: 1.5 - 5e-12)
        XCTAssertEqual(inFrames.stepsRun, steps)
        // The tilt pushes the crates right (gravity 900 px/s² that way for 0.75 s).
        let meanX = { (p: [PhysicsWorld.Placement]) in p.map(\.x).reduce(0, +) / Double(p.count) }
        XCTAssertGreaterThan(meanX(reference), meanX(untilted) + 20)
    }

    /// Every crate's corners inside the frame (less `slack`), and no two crates overlapping by more than `slack` px.
    private func assertInsideAndApart(_ world: PhysicsWorld, width: Double, height: Double, slack: Double = 1,
                                      file: StaticString = #filePath, line: UInt = #line) {
        let boxes = (0..<world.count).map { corners(world.placement($0), world.sizes[$0]) }
        for (i, box) in boxes.enumerated() {
            for p in box {
                XCTAssertTrue(p.x > -slack && p.x < width + slack && p.y > -slack && p.y < height + slack,
                              "crate \(i)'s corner \(p) is outside", file: file, line: line)
            }
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let depth = overlap(boxes[i], boxes[j])
                XCTAssertLessThanOrEqual(depth, slack, "crates \(i) and \(j) overlap by \(depth) px", file: file, line: line)
            }
        }
    }

    private func corners(_ p: PhysicsWorld.Placement, _ size: (width: Double, height: Double)) -> [(x: Double, y: Double)] {
        let c = cos(p.angle), s = sin(p.angle), hw = size.width / 2, hh = size.height / 2
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { (p.x + $0.0 * c - $0.1 * s, p.y + $0.0 * s + $0.1 * c) }
    }

    /// The smallest overlap of two convex quads along their edges' normals (separating axes); 0 or less: apart.
    private func overlap(_ a: [(x: Double, y: Double)], _ b: [(x: Double, y: Double)]) -> Double {
        var least = Double.infinity
        for quad in [a, b] {
            for k in 0..<4 {
                let e = (x: quad[(k + 1) % 4].x - quad[k].x, y: quad[(k + 1) % 4].y - quad[k].y)
                let length = (e.x * e.x + e.y * e.y).squareRoot()
                let n = (x: -e.y / length, y: e.x / length)
                let pa = a.map { $0.x * n.x + $0.y * n.y }, pb = b.map { $0.x * n.x + $0.y * n.y }
                least = Swift.min(least, Swift.min(pa.max()!, pb.max()!) - Swift.max(pa.min()!, pb.min()!))
            }
        }
        return least
    }
}
