/// A Lottie outline that changes (a morph, a trim, an animated size), made
/// once at every frame it changes over and drawn from those: a dynamic path
/// that copies the frame's points into the sink, allocating nothing.

import WaveCore

/// The outline at each frame it changes over: the frame the layer's time
/// falls in (parameter 0, its local frame) is drawn, the first and last held outside.
struct SampledOutline: DynamicPath, Equatable {
    let firstFrame: Int
    let frames: [Path]
    let rate: Double
    /// The most points a frame has, and the box holding every frame's outline: worked out once (read every frame).
    let maxPoints: Int
    private let box: Rect
    /// Per frame, the first frame of the run of equal outlines it belongs to (`outlineIdentity`).
    private let sameAs: [Int]

    init(firstFrame: Int, frames: [Path], rate: Double) {
        self.firstFrame = firstFrame
        self.frames = frames
        self.rate = rate
        maxPoints = frames.map(Self.points).max() ?? 0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for path in frames {
            guard let b = path.bounds else { continue }
            minX = Swift.min(minX, b.minX); minY = Swift.min(minY, b.minY); maxX = Swift.max(maxX, b.maxX); maxY = Swift.max(maxY, b.maxY)
        }
        box = minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : Rect(x: 0, y: 0, width: 0, height: 0)
        var sameAs = Array(frames.indices)
        for i in frames.indices.dropFirst() where frames[i] == frames[i - 1] { sameAs[i] = sameAs[i - 1] }
        self.sameAs = sameAs
    }

    /// The points `outline` emits for a path: a quad as the chords the sink cuts it into, a sub-path's close one more.
    static func points(_ path: Path) -> Int {
        var count = 0, pen = Point(0, 0)
        for element in path.elements {
            switch element {
            case let .move(p): count += 2; pen = p
            case let .line(p): count += 1; pen = p
            case let .quad(control, end): count += CoverageRasterizer.quadSegments(pen, control, end); pen = end
            }
        }
        return count + 1
    }

    static func == (a: SampledOutline, b: SampledOutline) -> Bool { a.firstFrame == b.firstFrame && a.frames == b.frames }

    /// Parameter 0: the layer's local time in frames (over a million seconds either way: a span small enough that a
    /// whole frame comes out within a millionth of a frame).
    static func frameTimeline(rate: Double) -> Timeline<Double> {
        Timeline(0, animations: [.basic(BasicAnimation(from: -1e6 * rate, to: 1e6 * rate, duration: 2e6, beginTime: -1e6, fillMode: .both))])
    }

    /// The frame the time falls in; a time a thousandth of a frame short of a whole frame is that frame.
    private func frame(_ input: ShapeInput) -> Int {
        let f = input.parameters.x + 1e-3
        return f.isFinite ? Swift.max(0, Swift.min(frames.count - 1, Int(holding: f - Double(firstFrame), to: 0...Swift.max(0, frames.count - 1)))) : 0
    }

    /// Frames whose outlines are equal (the first and last held outside, a run of equal ones inside) share a number.
    func outlineIdentity(_ input: ShapeInput) -> Int? { frames.isEmpty ? 0 : sameAs[frame(input)] }

    func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) { storedOutline(input)?.emit(into: sink) }

    func storedOutline(_ input: ShapeInput) -> Path? { frames.isEmpty ? nil : frames[frame(input)] }

    func reach(size: Size) -> Rect { box }
}
