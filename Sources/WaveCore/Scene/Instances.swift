import Foundation

/// Instances of one small shape (the replicated dots): copies laid out on a
/// grid, each running the same animation delayed by its index times
/// `delay` (Core Animation's CAReplicatorLayer with instanceDelay), so one
/// animation becomes a travelling wave. Copy i at time t looks exactly like
/// copy 0 at time t - i * delay. Everything is a pure function of time and
/// the level.

/// A rectangle with rounded corners, centred on its position. Scaled by
/// (sx, sy) about its centre it becomes a rectangle of width * sx by
/// height * sy with elliptical corners of radii (radius * sx, radius * sy).
public struct RoundedRect: Equatable, Hashable, Sendable {
    public var width: Double
    public var height: Double
    public var cornerRadius: Double

    public init(width: Double, height: Double, cornerRadius: Double) {
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
    }
}

/// Where copy i sits: rows of `perRow` copies, `spacing` pixels apart,
/// rows `rowPitch` apart, copy 0's centre at `origin`. Copy i is in row
/// i / perRow, column i % perRow (left to right, then the next row down).
public struct InstanceGrid: Equatable, Hashable, Sendable {
    public var count: Int
    public var perRow: Int
    public var origin: Point
    public var spacing: Double
    public var rowPitch: Double

    public init(count: Int, perRow: Int, origin: Point, spacing: Double, rowPitch: Double) {
        self.count = count; self.perRow = perRow; self.origin = origin; self.spacing = spacing; self.rowPitch = rowPitch
    }

    public var rows: Int { perRow > 0 ? (count + perRow - 1) / perRow : 0 }

    @inline(__always)
    public func centre(of i: Int) -> Point {
        Point(origin.x + Double(i % perRow) * spacing, origin.y + Double(i / perRow) * rowPitch)
    }
}

/// The copies' animation (the chapter's dot): scale from 1 to (maxScaleX,
/// maxScaleY) and back, opacity from 1 to `fade` and back, tint from
/// `tintFrom` to `tintTo` and back; the level (0...1) scales how far the
/// scale swings: at level 1 it reaches the full maximum, at 0 the dot stays
/// its size.
public struct InstanceAnimation: Equatable, Sendable {
    /// Progress of the scale swing (0 at scale 1, 1 at the maximum).
    public var scale: Autoreversing
    public var maxScaleX: Double
    public var maxScaleY: Double
    /// The opacity itself (from 1 to the fade).
    public var opacity: Autoreversing
    /// Progress of the tint from `tintFrom` (0) to `tintTo` (1).
    public var tint: Autoreversing
    public var tintFrom: RGBA8
    public var tintTo: RGBA8
    /// Seconds copy i runs behind copy 0, per index.
    public var delay: Double
    public var level: Level

    /// The chapter's values: scale x 1 to 1.4 and y 1 to 15, ease-out,
    /// 0.33 s each way; opacity 1 to 0.2, ease-out, 0.33 s each way, from
    /// 0.33 s; tint magenta to cyan, 0.66 s each way; 0.02 s between copies.
    public init(level: Level = .constant(1), delay: Double = 0.02) {
        scale = Autoreversing(from: 0, to: 1, duration: 0.33, timing: .easeOut)
        maxScaleX = 1.4
        maxScaleY = 15
        opacity = Autoreversing(from: 1, to: 0.2, duration: 0.33, begin: 0.33, timing: .easeOut)
        tint = Autoreversing(from: 0, to: 1, duration: 0.66, timing: .easeInEaseOut)
        tintFrom = RGBA8(0xFF, 0x00, 0xFF)
        tintTo = RGBA8(0x00, 0xFF, 0xFF)
        self.delay = delay
        self.level = level
    }

    /// One copy's look at one moment.
    public struct State: Equatable, Sendable {
        public var scaleX: Double
        public var scaleY: Double
        public var opacity: Double
        /// 0 = `tintFrom`, 1 = `tintTo`.
        public var tint: Double
    }

    /// Copy `index` at time t with level `level` (read once per frame by the caller).
    @inline(__always)
    public func state(of index: Int, at t: Double, level: Double) -> State {
        let local = t - Double(index) * delay
        let swing = scale.progress(at: local) * level
        return State(scaleX: 1 + (maxScaleX - 1) * swing, scaleY: 1 + (maxScaleY - 1) * swing,
                     opacity: opacity.value(at: local), tint: tint.value(at: local))
    }

    /// The largest scale any copy reaches at `level`.
    public func maxScale(level: Double) -> (x: Double, y: Double) {
        (Swift.max(1, 1 + (maxScaleX - 1) * level), Swift.max(1, 1 + (maxScaleY - 1) * level))
    }

    /// The tint's colour for progress m, 0...255 per channel, not rounded.
    @inline(__always)
    public func tintColor(_ m: Double) -> ColorValue { ColorValue(tintFrom).mixed(with: ColorValue(tintTo), m) }
}

/// The content kind: a shape, a grid and an animation.
public struct Instances: Equatable, Sendable {
    public var shape: RoundedRect
    public var grid: InstanceGrid
    public var animation: InstanceAnimation

    public init(shape: RoundedRect, grid: InstanceGrid, animation: InstanceAnimation) {
        self.shape = shape
        self.grid = grid
        self.animation = animation
    }

    /// The scene rows any copy can cover (at the largest scale at level 1).
    public func rows(sceneHeight: Int) -> Range<Int> {
        guard grid.count > 0 else { return 0..<0 }
        let reach = shape.height / 2 * Swift.max(1, animation.maxScaleY) + 1
        let top = grid.origin.y - reach, bottom = grid.centre(of: grid.count - 1).y + reach
        let first = Int(Swift.max(0, Swift.min(Double(sceneHeight), top.rounded(.down))))
        let last = Int(Swift.max(Double(first), Swift.min(Double(sceneHeight), bottom.rounded(.up))))
        return first..<last
    }

    /// The most copies a scene may hold.
    public static let maxCount = 1 << 20

    func validate() -> String? {
        let s = shape, g = grid, a = animation
        guard [s.width, s.height, s.cornerRadius].allSatisfy(\.isFinite), s.width > 0, s.height > 0,
              s.cornerRadius >= 0, s.cornerRadius <= Swift.min(s.width, s.height) / 2 else {
            return "a dot of \(s.width)x\(s.height) with corner radius \(s.cornerRadius) (expected positive sizes and a radius from 0 to half the smaller side)"
        }
        guard (1...Self.maxCount).contains(g.count), g.perRow >= 1 else {
            return "\(g.count) copies, \(g.perRow) a row (expected 1 to \(Self.maxCount) copies and at least 1 a row)"
        }
        guard [g.origin.x, g.origin.y, g.spacing, g.rowPitch].allSatisfy({ $0.isFinite && abs($0) <= Strip.maxExtent }) else {
            return "a dot grid with a position or spacing that is not a finite number of pixels"
        }
        guard a.scale.isValid, a.opacity.isValid, a.tint.isValid,
              [a.maxScaleX, a.maxScaleY, a.delay].allSatisfy(\.isFinite), a.maxScaleX > 0, a.maxScaleY > 0,
              a.maxScaleX <= 1000, a.maxScaleY <= 1000, a.delay >= 0, a.level.isValid else {
            return "a dot animation with a number that is not finite (or a duration that is not positive, or a scale outside 0 to 1000)"
        }
        return nil
    }
}
