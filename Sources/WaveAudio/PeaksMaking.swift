import Foundation
import WaveCore

/// Peaks made, scaled, converted and written as BBC audiowaveform 1.10.3
/// makes them (its WaveformGenerator, WaveformUtil and WaveformBuffer, read
/// for their algorithm and formats), so `waves peaks` and `waves
/// audiowaveform` write its bytes:
///
/// - samples are read as 16-bit integers (`AudioReader.readShorts`);
/// - mono: each frame's channels summed and divided by their count,
///   truncated toward zero; `splitChannels`: each channel its own;
/// - a pair is the least and greatest value of `samplesPerPixel` frames (the
///   last pair: of what is left);
/// - 8-bit values are the 16-bit ones / 256, truncated toward zero;
/// - `.dat` is version 1 for one channel, 2 for several.
extension WaveformData {
    /// The most channels a peaks file holds (audiowaveform's).
    public static let maxChannels = 24

    /// A track's peaks at 16 bits, mixed to one channel or one a channel.
    package static func make(_ reader: PCM16Source, samplesPerPixel: Int, splitChannels: Bool) throws -> WaveformData {
        precondition(samplesPerPixel >= 2)
        let channels = reader.channels, outputs = splitChannels ? channels : 1
        guard channels <= maxChannels || !splitChannels else {
            throw AudioError.unreadable(path: reader.path, reason: "\(channels) channels: at most \(maxChannels) can be split")
        }
        let frames = max(1, 65536 / channels)
        let chunk = UnsafeMutableBufferPointer<Int16>.allocate(capacity: frames * channels)
        defer { chunk.deallocate() }
        var data = try reservedPeaks(frames: reader.announcedFrames.map { $0 * outputs }, samplesPerPixel: samplesPerPixel)
        // Each output's least and greatest value of the group so far (mono: index 0).
        let low = UnsafeMutableBufferPointer<Int32>.allocate(capacity: outputs), high = UnsafeMutableBufferPointer<Int32>.allocate(capacity: outputs)
        defer { low.deallocate(); high.deallocate() }
        low.initialize(repeating: 32767); high.initialize(repeating: -32768)
        var inGroup = 0
        while true {
            let n = try reader.readShorts(into: chunk)
            if n == 0 { break }
            let samples = UnsafePointer(chunk.baseAddress!)
            var i = 0
            while i < n {
                // The rest of this group, or of the chunk: no count kept a frame.
                let end = min(n, i + (samplesPerPixel - inGroup))
                if outputs == 1 {
                    mixedRange(samples, channels: channels, frames: i..<end, low: &low[0], high: &high[0])
                } else {
                    for c in 0..<channels { channelRange(samples, channel: c, of: channels, frames: i..<end, low: &low[c], high: &high[c]) }
                }
                inGroup += end - i
                i = end
                if inGroup == samplesPerPixel {
                    appendGroup(to: &data, low: low, high: high)
                    inGroup = 0
                }
            }
        }
        if inGroup > 0 { appendGroup(to: &data, low: low, high: high) }
        return WaveformData(sampleRate: reader.sampleRate, samplesPerPixel: samplesPerPixel, bits: 16, channels: outputs, data: data)
    }

    /// Each output's pair appended, and the pairs started again.
    private static func appendGroup(to data: inout [Int], low: UnsafeMutableBufferPointer<Int32>, high: UnsafeMutableBufferPointer<Int32>) {
        for c in low.indices {
            data.append(Int(low[c])); data.append(Int(high[c]))
            low[c] = 32767; high[c] = -32768
        }
    }

    /// The least and greatest of `frames`' mixes (the channels summed and
    /// divided by their count toward zero, as C's int division does) into `low` and `high`.
    private static func mixedRange(_ samples: UnsafePointer<Int16>, channels: Int, frames: Range<Int>, low: inout Int32, high: inout Int32) {
        var lo = low, hi = high
        // One and two channels, the common cases, 16 and 8 frames at a time; what is left (and more channels) one by one.
        var first = frames.lowerBound
        switch channels {
        case 1:
            if frames.count >= 32 {
                var low16 = SIMD16<Int16>(repeating: Int16(lo)), high16 = SIMD16<Int16>(repeating: Int16(hi))
                while first + 16 <= frames.upperBound {
                    let v = UnsafeRawPointer(samples + first).loadUnaligned(as: SIMD16<Int16>.self)
                    low16 = pointwiseMin(low16, v); high16 = pointwiseMax(high16, v)
                    first += 16
                }
                (lo, hi) = (Int32(low16.min()), Int32(high16.max()))
            }
            for j in first..<frames.upperBound { let v = Int32(samples[j]); lo = min(lo, v); hi = max(hi, v) }
        case 2:
            if frames.count >= 32 {
                // In 16 bits throughout: the floor of the half sum is a/2 + b/2 (both floored) + (a & b & 1);
                // an odd negative sum is then one too low, and takes its 1 back (toward zero).
                var low16 = SIMD16<Int16>(repeating: Int16(lo)), high16 = SIMD16<Int16>(repeating: Int16(hi))
                while first + 16 <= frames.upperBound {
                    let pairs = UnsafeRawPointer(samples + 2 &* first).loadUnaligned(as: SIMD32<Int16>.self)
                    let (a, b) = (pairs.evenHalf, pairs.oddHalf)
                    let floorHalf = (a &>> 1) &+ (b &>> 1) &+ (a & b & 1)
                    let v = floorHalf &+ ((a ^ b) & 1 & (floorHalf &>> 15))
                    low16 = pointwiseMin(low16, v); high16 = pointwiseMax(high16, v)
                    first += 16
                }
                (lo, hi) = (Int32(low16.min()), Int32(high16.max()))
            }
            for j in first..<frames.upperBound { let v = (Int32(samples[2 &* j]) &+ Int32(samples[2 &* j &+ 1])) / 2; lo = min(lo, v); hi = max(hi, v) }
        default:
            let count = Int32(channels)
            for j in frames {
                var sum: Int32 = 0
                for c in 0..<channels { sum &+= Int32(samples[j &* channels &+ c]) }
                let v = sum / count
                lo = min(lo, v); hi = max(hi, v)
            }
        }
        (low, high) = (lo, hi)
    }

    /// The least and greatest of one channel's samples in `frames` into `low` and `high`.
    private static func channelRange(_ samples: UnsafePointer<Int16>, channel: Int, of channels: Int, frames: Range<Int>,
                                     low: inout Int32, high: inout Int32) {
        var lo = low, hi = high
        for j in frames { let v = Int32(samples[j &* channels &+ channel]); lo = min(lo, v); hi = max(hi, v) }
        (low, high) = (lo, hi)
    }

    /// The same values at `bits`: 16 to 8 divides by 256 toward zero, 8 to 16 multiplies by 256.
    public func atBits(_ bits: Int) -> WaveformData {
        guard bits != self.bits else { return self }
        var converted = self
        converted.bits = bits
        converted.data = bits == 8 ? data.map { $0 / 256 } : data.map { $0 * 256 }
        return converted
    }

    /// `--amplitude-scale auto`, as audiowaveform computes it on the 16-bit
    /// values: the size of the smaller of 32767 / the greatest maximum and
    /// 32767 / the least minimum (1 for a side that is 0). A track whose
    /// least value is negative is thus scaled by its negative side.
    public var fullScaleFactor: Double { fullScaleFactor(over: 0..<length) }

    /// `fullScaleFactor` over the pairs `pairs` only (audiowaveform's images
    /// scale `auto` by what they show); 1 where there are none.
    public func fullScaleFactor(over pairs: Range<Int>) -> Double {
        let values = atBits(16).data, width = 2 * max(1, channels)
        let pairs = pairs.clamped(to: 0..<length)
        guard !pairs.isEmpty else { return 1 }
        var low = Int.max, high = Int.min
        for i in (pairs.lowerBound * width)..<(pairs.upperBound * width) {
            if i % 2 == 0 { low = min(low, values[i]) } else { high = max(high, values[i]) }
        }
        let fromHigh = high == 0 ? 1 : 32767 / Double(high), fromLow = low == 0 ? 1 : 32767 / Double(low)
        return abs(min(fromHigh, fromLow))
    }

    /// Every 16-bit value times `factor`, held to -32768...32767 and truncated
    /// toward zero (audiowaveform's `MathUtil::scale`); at 16 bits.
    public func scaled(by factor: Double) -> WaveformData {
        var scaled = atBits(16)
        scaled.data = scaled.data.map { Self.scale($0, by: factor) }
        return scaled
    }

    /// One 16-bit value times `factor`, held to -32768...32767 and truncated
    /// toward zero (a product that is not a number is 0): what peaks and
    /// audiowaveform's images scale by.
    public static func scale(_ value: Int, by factor: Double) -> Int {
        let product = Double(value) * factor
        return product.isNaN ? 0 : Int(min(32767, max(-32768, product)))
    }

    /// The peaks at a coarser `samplesPerPixel` (greater than this one's), at
    /// 16 bits, as audiowaveform rescales (its WaveformRescaler, after
    /// Audacity's): output pair k covers the input pairs from k·out/in
    /// (truncated) to before (k+1)·out/in; a pair that starts inside the
    /// previous one's last input pair also takes that pair's values.
    public func rescaled(to samplesPerPixel: Int) -> WaveformData {
        precondition(samplesPerPixel > self.samplesPerPixel)
        let input = atBits(16), inSpp = self.samplesPerPixel, outSpp = samplesPerPixel
        let channels = max(1, self.channels), width = 2 * channels
        var out: [Int] = []
        out.reserveCapacity(length * width * inSpp / outSpp + width)
        var low = [Int](repeating: 32767, count: channels), high = [Int](repeating: -32768, count: channels)
        if length > 0 {
            for c in 0..<channels { low[c] = input.data[2 * c]; high[c] = input.data[2 * c + 1] }
        }
        var inIndex = 0, outIndex = 0, lastInIndex = 0
        while inIndex < length {
            while outIndex * outSpp / inSpp == inIndex {
                if outIndex > 0 { for c in 0..<channels { out.append(low[c]); out.append(high[c]) } }
                lastInIndex = inIndex
                outIndex += 1
                if outIndex * outSpp != (outIndex - 1) * outSpp {
                    for c in 0..<channels { low[c] = 32767; high[c] = -32768 }
                }
            }
            let stop = min(outIndex * outSpp / inSpp, length)
            while inIndex < stop {
                for c in 0..<channels {
                    low[c] = min(low[c], input.data[inIndex * width + 2 * c])
                    high[c] = max(high[c], input.data[inIndex * width + 2 * c + 1])
                }
                inIndex += 1
            }
        }
        if inIndex != lastInIndex { for c in 0..<channels { out.append(low[c]); out.append(high[c]) } }
        return WaveformData(sampleRate: sampleRate, samplesPerPixel: outSpp, bits: 16, channels: self.channels, data: out)
    }

    /// audiowaveform's text: a line a pair, each channel's min,max joined by commas.
    public func txt() -> Data {
        var out = ""
        out.reserveCapacity(data.count * 6)
        let width = 2 * max(1, channels)
        for point in 0..<length {
            let values = data[(point * width)..<((point + 1) * width)]
            out += values.map(String.init).joined(separator: ",")
            out += "\n"
        }
        return Data(out.utf8)
    }
}
