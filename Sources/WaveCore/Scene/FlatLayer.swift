/// The flat layer model, on its way out: a layer is three independent
/// answers, content (which pixels are covered, in content space), paint
/// (what colour they get, in screen space) and motion (how the content
/// moves with time). The effects are moving to the layer tree
/// (`Tree/Layer.swift`, Core Animation's model); until each has moved, the
/// backends draw these kinds with their specialised batches.

public struct FlatLayer: Equatable, Sendable {
    public var content: Content
    public var paint: Fill
    public var motion: Motion

    public init(content: Content, paint: Fill, motion: Motion = .still) {
        self.content = content
        self.paint = paint
        self.motion = motion
    }
}

/// Which pixels a layer covers, before motion.
public enum Content: Equatable, Sendable {
    /// A band of rows filled below a curve that repeats along x (a waving band).
    case repeatingCurve(RepeatingCurve)

    /// The scene rows the content can cover.
    public func rows(sceneHeight: Int, sceneWidth: Int) -> Range<Int> {
        switch self {
        case let .repeatingCurve(c): c.rows.clamped(to: 0..<sceneHeight)
        }
    }
}

/// The rows `rows` of the scene filled from a curve down to the band's
/// bottom row: y >= curve(x), y measured from the band's top row. The curve
/// repeats every `period` pixels and is given as samples on a fixed grid of
/// `samplesPerPixel` points per pixel: sample m is the curve at content x =
/// m / samplesPerPixel, and the outline joins the samples with straight lines.
///
/// Because the grid is fixed in content space, a whole-pixel offset gives
/// exactly the same vertices moved by whole pixels, and with the integer
/// rasteriser exactly the same pixels moved: which is what lets a cached
/// picture, slid on the GPU, equal a redraw.
public struct RepeatingCurve: Equatable, Sendable {
    public var rows: Range<Int>
    /// `period * samplesPerPixel` values, one period of the curve.
    public var samples: [Double]
    /// Grid points per pixel: a power of two from 1 to 1024.
    public var samplesPerPixel: Int
    /// The curve repeats every `period` pixels.
    public var period: Int
    /// Pixel x of the band shows curve x + u + shift: bands that differ by a
    /// whole-pixel shift of the same samples share one cached picture.
    public var shift: Int

    public init(rows: Range<Int>, samples: [Double], samplesPerPixel: Int, period: Int, shift: Int = 0) {
        self.rows = rows
        self.samples = samples
        self.samplesPerPixel = samplesPerPixel
        self.period = period
        self.shift = shift
    }

    func validate(sceneHeight: Int) -> String? {
        guard !rows.isEmpty, rows.lowerBound >= 0, rows.upperBound <= sceneHeight else {
            return "rows \(rows) outside the scene's \(sceneHeight) rows"
        }
        guard period >= 1, samplesPerPixel >= 1, samplesPerPixel <= 1024, samplesPerPixel & (samplesPerPixel - 1) == 0 else {
            return "a period of \(period) px at \(samplesPerPixel) samples a pixel (expected a period of at least 1 and a power of two up to 1024)"
        }
        guard samples.count == period * samplesPerPixel else {
            return "\(samples.count) samples for a period of \(period) px at \(samplesPerPixel) a pixel"
        }
        guard samples.allSatisfy(\.isFinite) else { return "a curve sample that is not a finite number" }
        return nil
    }
}
