/// Peaks per bar: bar i covers samples [i*S, (i+1)*S) of the track and its
/// peak is the largest |sample| there. Bars are anchored to sample indices,
/// never to a view, so they do not change as the view scrolls. Streaming:
/// memory holds one chunk and the peaks, whatever the track's length.
public struct BarPeaks: Equatable, Sendable {
    /// One value per bar, 0...1.
    public var peaks: [Float]
    /// Each bar's least and greatest sample, -1...1 (what a line from max to
    /// min draws: the waveform's `normal` style); empty where only `peaks` are known.
    public var lows: [Float], highs: [Float]
    public var samplesPerBar: Int
    public var sampleRate: Int
    /// Samples in the track.
    public var sampleCount: Int

    public init(peaks: [Float], lows: [Float] = [], highs: [Float] = [], samplesPerBar: Int, sampleRate: Int, sampleCount: Int) {
        self.peaks = peaks
        (self.lows, self.highs) = (lows, highs)
        self.samplesPerBar = samplesPerBar
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
    }

    /// Bar i's least and greatest sample (-peak, peak where only peaks are known).
    public func range(_ i: Int) -> (low: Float, high: Float) {
        i < lows.count && i < highs.count ? (lows[i], highs[i]) : (-peaks[i], peaks[i])
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
        var peaks: [Float] = [], lows: [Float] = [], highs: [Float] = []
        var low = Float.infinity, high = -Float.infinity, inBar = 0, total = 0
        // (No closure here: one capturing the counters would box them, checked on every sample.)
        func close(_ low: inout Float, _ high: inout Float, _ inBar: inout Int) {
            // A bar of NaN samples alone is silence.
            if low > high { (low, high) = (0, 0) }
            peaks.append(min(max(-low, high, 0), 1)); lows.append(max(low, -1)); highs.append(min(high, 1))
            (low, high, inBar) = (.infinity, -.infinity, 0)
        }
        while peaks.count <= maxBars {
            let n = try source.read(into: chunk)
            if n == 0 { break }
            for i in 0..<n {
                // NaN samples (a broken decoder) count as silence, never as a peak.
                let v = chunk[i]
                if v < low { low = v }
                if v > high { high = v }
                inBar += 1
                if inBar == samplesPerBar { close(&low, &high, &inBar) }
            }
            total += n
        }
        if inBar > 0 { close(&low, &high, &inBar) }
        return BarPeaks(peaks: peaks, lows: lows, highs: highs, samplesPerBar: samplesPerBar, sampleRate: source.sampleRate, sampleCount: total)
    }

    /// `scan` of a track whose samples are integers, read and mixed as the
    /// peaks are (`AudioReader.readMix`: the sum over the channels,
    /// truncated toward zero): bar i's peak is the largest |mix| / 32768.
    static func scanIntegers(_ reader: AudioReader, samplesPerBar: Int, maxBars: Int) throws -> BarPeaks {
        let chunk = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 65536)
        defer { chunk.deallocate() }
        var peaks: [Float] = [], lows: [Float] = [], highs: [Float] = []
        var low = Int32.max, high = Int32.min, inBar = 0, total = 0
        func close(_ low: inout Int32, _ high: inout Int32, _ inBar: inout Int) {
            peaks.append(min(Float(max(-low, high, 0)) / 32768, 1)); lows.append(Float(low) / 32768); highs.append(min(Float(high) / 32768, 1))
            (low, high, inBar) = (.max, .min, 0)
        }
        while peaks.count <= maxBars {
            let n = try reader.readMix(into: chunk)
            if n == 0 { break }
            var i = 0
            while i < n {
                let end = min(n, i + (samplesPerBar - inBar))
                for j in i..<end { low = min(low, chunk[j]); high = max(high, chunk[j]) }
                inBar += end - i
                i = end
                if inBar == samplesPerBar { close(&low, &high, &inBar) }
            }
            total += n
        }
        if inBar > 0 { close(&low, &high, &inBar) }
        return BarPeaks(peaks: peaks, lows: lows, highs: highs, samplesPerBar: samplesPerBar, sampleRate: reader.sampleRate, sampleCount: total)
    }
}
