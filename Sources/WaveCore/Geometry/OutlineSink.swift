/// Where an outline goes as it is rebuilt: pen moves and straight lines in
/// pixel coordinates (y down), sub-paths closed. The rasteriser is one sink;
/// the benchmark's cairo peer is another, so both fill exactly the same
/// polygon, built by the same code.
public protocol OutlineSink: AnyObject {
    func move(to x: Double, _ y: Double)
    func line(to x: Double, _ y: Double)
    /// Closes the current sub-path back to its start.
    func close()
}

extension CoverageRasterizer: OutlineSink {}
