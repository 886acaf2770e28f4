import CChipmunk
import WaveCore


/// A rigid-body world in scene pixels (x right, y down, angles clockwise),
/// stepped by Chipmunk 7: gravity, static segment walls and box bodies.
/// Chipmunk's y-up space is met in one place (`toChipmunk`, `toScene`):
/// nothing else here or above knows which way its y points.
///
/// Deterministic: the same bodies stepped by the same steps give the same
/// state, bit for bit (Chipmunk is single-threaded here and uses no clock).
package final class PhysicsWorld {
    /// A box body's placement in the scene: its centre and its angle in radians (clockwise on screen).
    package struct Placement: Equatable, Sendable {
        package var x: Double
        package var y: Double
        package var angle: Double

        package init(x: Double, y: Double, angle: Double) {
            self.x = x
            self.y = y
            self.angle = angle
        }
    }

    /// How a surface meets another: Chipmunk's friction and elasticity.
    package struct Surface: Equatable, Sendable {
        package var friction: Double
        package var elasticity: Double

        package init(friction: Double, elasticity: Double) {
            self.friction = friction
            self.elasticity = elasticity
        }
    }

    /// The frame's height: Chipmunk's y is `height - y`.
    package let height: Double
    private let space: OpaquePointer
    private var shapes: [OpaquePointer] = []
    private var bodies: [OpaquePointer] = []
    /// Every box's size, in the order added.
    package private(set) var sizes: [(width: Double, height: Double)] = []
    /// Seconds simulated: the steps taken, added up.
    package private(set) var time = 0.0
    package private(set) var steps = 0

    /// An empty world `height` pixels tall (its y-flip) with `gravity` in pixels per second squared, y down.
    package init(height: Double, gravity: (x: Double, y: Double)) {
        self.height = height
        // Debian's Chipmunk is a debug build: its first space prints two lines on stdout.
        space = QuietOutput.stdout.run { cpSpaceNew() }
        self.gravity = gravity
        cpSpaceSetGravity(space, cpVect(x: gravity.x, y: -gravity.y))
    }

    deinit {
        for shape in shapes { cpSpaceRemoveShape(space, shape); cpShapeFree(shape) }
        for body in bodies { cpSpaceRemoveBody(space, body); cpBodyFree(body) }
        cpSpaceFree(space)
    }

    /// Gravity in scene pixels per second squared, y down (the accelerometer's tilt).
    package var gravity: (x: Double, y: Double) {
        didSet { cpSpaceSetGravity(space, cpVect(x: gravity.x, y: -gravity.y)) }
    }

    // MARK: The one place y flips

    @inline(__always) private func toChipmunk(_ x: Double, _ y: Double) -> cpVect { cpVect(x: x, y: height - y) }
    @inline(__always) private func toScene(_ v: cpVect) -> (x: Double, y: Double) { (v.x, height - v.y) }

    // MARK: Building

    /// A static wall from (x0, y0) to (x1, y1), `radius` pixels thick on each side.
    package func addWall(from x0: Double, _ y0: Double, to x1: Double, _ y1: Double, radius: Double, surface: Surface) {
        let shape = cpSegmentShapeNew(cpSpaceGetStaticBody(space), toChipmunk(x0, y0), toChipmunk(x1, y1), radius)!
        cpShapeSetFriction(shape, surface.friction)
        cpShapeSetElasticity(shape, surface.elasticity)
        cpSpaceAddShape(space, shape)
        shapes.append(shape)
    }

    /// Four walls on the edges of a `width` x `height` frame, their inner faces `radius` pixels inside it
    /// (the chapter's segments of that radius on the edges), each `depth` pixels thicker outwards: Chipmunk
    /// has no continuous collision, so a crate moving further in a step than half its size plus a wall's
    /// thickness would pass through it; a deep wall pushes it back in instead.
    package func addWalls(width: Double, radius: Double, depth: Double = 0, surface: Surface) {
        let d = depth, r = radius + depth
        addWall(from: -d, -d, to: width + d, -d, radius: r, surface: surface)
        addWall(from: width + d, -d, to: width + d, height + d, radius: r, surface: surface)
        addWall(from: width + d, height + d, to: -d, height + d, radius: r, surface: surface)
        addWall(from: -d, height + d, to: -d, -d, radius: r, surface: surface)
    }

    /// A box `width` x `height` of `mass` (its moment a box's) centred at (x, y), at rest; its index.
    @discardableResult
    package func addBox(x: Double, y: Double, width: Double, height: Double, angle: Double = 0, mass: Double,
                       surface: Surface) -> Int {
        let body = cpBodyNew(mass, cpMomentForBox(mass, width, height))!
        cpBodySetPosition(body, toChipmunk(x, y))
        cpBodySetAngle(body, -angle)
        cpSpaceAddBody(space, body)
        let shape = cpBoxShapeNew(body, width, height, 0)!
        cpShapeSetFriction(shape, surface.friction)
        cpShapeSetElasticity(shape, surface.elasticity)
        cpSpaceAddShape(space, shape)
        bodies.append(body)
        shapes.append(shape)
        sizes.append((width, height))
        return bodies.count - 1
    }

    package var count: Int { bodies.count }

    // MARK: Stepping and reading

    /// One step of `seconds` (a fixed step: the same steps give the same world).
    package func step(_ seconds: Double) {
        cpSpaceStep(space, seconds)
        time += seconds
        steps += 1
    }

    /// Box `index`'s placement in the scene.
    package func placement(_ index: Int) -> Placement {
        let body = bodies[index]
        let (x, y) = toScene(cpBodyGetPosition(body))
        return Placement(x: x, y: y, angle: -cpBodyGetAngle(body))
    }

    /// Sets box `index` moving at (x, y) pixels per second, y down.
    package func kick(_ index: Int, x: Double, y: Double) {
        cpBodySetVelocity(bodies[index], cpVect(x: x, y: -y))
    }

    /// Box `index`'s velocity in scene pixels per second, y down.
    package func velocity(_ index: Int) -> (x: Double, y: Double) {
        let v = cpBodyGetVelocity(bodies[index])
        return (v.x, -v.y)
    }
}
