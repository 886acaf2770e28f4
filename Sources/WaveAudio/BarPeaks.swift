/// Peaks per bar: bar i covers samples [i*S, (i+1)*S) of the track and its
/// peak is the largest |sample| there. Bars are anchored to sample indices,
/// never to a view, so they do not change as the view scrolls. Streaming:
/// memory holds one chunk and the peaks, whatever the track's length.
public struct BarPeaks: Equatable, Sendable {
    /// One value per bar, 0...1.
    public var peaks: [Float]
    public var samplesPerBar: Int
    public var sampleRate: Int
    /// Samples in the track.
    public var sampleCount: Int

    public init(peaks: [Float], samplesPerBar: Int, sampleRate: Int, sampleCount: Int) {
        self.peaks = peaks
        self.samplesPerBar = samplesPerBar
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
    }

    /// The track's length in seconds.
    public var duration: Double { Double(sampleCount) / Double(sampleRate) }

    /// S = round(sampleRate * pitch / pixelsPerSecond), at least 1.
    public static func samplesPerBar(sampleRate: Int, pitch: Int, pixelsPerSecond: Double) -> Int {
        let s = (Double(sampleRate) * Double(pitch) / pixelsPerSecond).rounded()
        return s.isFinite ? max(1, Int(min(s, Double(Int32.max)))) : 1
    }

    /// Reads `source` to its end, or until it has more than `maxBars` bars
    /// (then `peaks.count > maxBars` and the track is at least that long).
    public static func scan(_ source: SampleSource, samplesPerBar: Int, maxBars: Int = .max) throws -> BarPeaks {
        precondition(samplesPerBar >= 1)
        if let reader = source as? AudioReader, reader.readsIntegers {
            return try scanIntegers(reader, samplesPerBar: samplesPerBar, maxBars: maxBars)
        }
        let chunk = UnsafeMutableBufferPointer<Float>.allocate(capacity: 65536)
        defer { chunk.deallocate() }
        var peaks: [Float] = []
        var current: Float = 0, inBar = 0, total = 0
        while peaks.count <= maxBars {
            let n = try source.read(into: chunk)
            if n == 0 { break }
            for i in 0..<n {
                let a = abs(chunk[i])
                // NaN samples (a broken decoder) count as silence, never as a peak.
                if a > current { current = min(a, 1) }
                inBar += 1
                if inBar == samplesPerBar {
                    peaks.append(current)
                    current = 0
                    inBar = 0
                }
            }
            total += n
        }
        if inBar > 0 { peaks.append(current) }
        return BarPeaks(peaks: peaks, samplesPerBar: samplesPerBar, sampleRate: source.sampleRate, sampleCount: total)
    }

    /// `scan` of a track whose samples are integers, read and mixed as the
    /// peaks are (`AudioReader.readMix`: the sum over the channels,
    /// truncated toward zero): bar i's peak is the largest |mix| / 32768.
    static func scanIntegers(_ reader: AudioReader, samplesPerBar: Int, maxBars: Int) throws -> BarPeaks {
        let chunk = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 65536)
        defer { chunk.deallocate() }
        var peaks: [Float] = []
        var current: Int32 = 0, inBar = 0, total = 0
        while peaks.count <= maxBars {
            let n = try reader.readMix(into: chunk)
            if n == 0 { break }
            var i = 0
            while i < n {
                let end = min(n, i + (samplesPerBar - inBar))
                for j in i..<end { current = max(current, abs(chunk[j])) }
                inBar += end - i
                i = end
                if inBar == samplesPerBar {
                    peaks.append(min(Float(current) / 32768, 1))
                    current = 0
                    inBar = 0
                }
            }
            total += n
        }
        if inBar > 0 { peaks.append(min(Float(current) / 32768, 1)) }
        return BarPeaks(peaks: peaks, samplesPerBar: samplesPerBar, sampleRate: reader.sampleRate, sampleCount: total)
    }
}
