import Foundation
import WaveCore

/// Peaks interchange with BBC audiowaveform (doc/DataFormat.md there):
/// minimum and maximum sample values per group of `samplesPerPixel` samples,
/// as 8- or 16-bit integers, in its JSON (version 2) and binary .dat
/// (version 1 for one channel, 2 for several; both read) formats, so peaks.js, wavesurfer.js and
/// audiowaveform itself read what `waves peaks` writes, and `--peaks` reads
/// what they write.
///
/// Values: 16-bit samples as audiowaveform reads them (`make`, in
/// PeaksMaking.swift); 8-bit values are those / 256 truncated toward zero
/// (-127...127), as audiowaveform writes them.
public struct WaveformData: Equatable, Sendable {
    public var sampleRate: Int
    public var samplesPerPixel: Int
    /// 8 or 16.
    public var bits: Int
    public var channels: Int
    /// min, max per group and channel, interleaved by channel.
    public var data: [Int]

    public init(sampleRate: Int, samplesPerPixel: Int, bits: Int, channels: Int = 1, data: [Int]) {
        self.sampleRate = sampleRate
        self.samplesPerPixel = samplesPerPixel
        self.bits = bits
        self.channels = channels
        self.data = data
    }

    /// Groups (min/max pairs per channel).
    public var length: Int { data.count / (2 * max(1, channels)) }

    /// Samples the groups cover (the readers bound both factors, so this cannot overflow).
    public var sampleCount: Int { length * samplesPerPixel }

    /// The largest magnitude a value can have (128 or 32768).
    var fullScale: Double { bits == 8 ? 128 : 32768 }

    /// An empty peaks array with room for a track of `frames` (where the
    /// reader announces them), asked of the system first: a long track at a
    /// fine resolution is one line (exit 71) where its peaks cannot fit.
    static func reservedPeaks(frames: Int?, samplesPerPixel: Int) throws -> [Int] {
        var data: [Int] = []
        guard let frames, frames > 0 else { return data }
        let values = (frames / samplesPerPixel + 1) * 2
        try CheckedMemory.allocating(bytes: values * MemoryLayout<Int>.stride, for: "the peaks of \(frames) frames at \(samplesPerPixel) samples a pair") {
            data.reserveCapacity(values)
        }
        return data
    }

    /// Peaks per bar of `samplesPerBar` samples: for bar i, the largest
    /// magnitude of the groups that overlap samples [i*S, (i+1)*S), over all
    /// channels (or `channel` alone), as a fraction of full scale. Groups rarely align with bars,
    /// so a bar may see up to one group's worth of its neighbours' samples.
    public func barPeaks(samplesPerBar: Int, channel: Int? = nil) -> BarPeaks {
        let groups = length, spp = samplesPerPixel
        let picked = channel.map { min(max(0, $0), channels - 1) }
        let sampleCount = self.sampleCount
        let bars = sampleCount / samplesPerBar + (sampleCount % samplesPerBar == 0 ? 0 : 1)
        var peaks = [Float](repeating: 0, count: bars), lows = peaks, highs = peaks
        for bar in 0..<bars {
            let first = bar * samplesPerBar / spp
            let last = min(groups, ((bar + 1) * samplesPerBar + spp - 1) / spp)
            var low = Int.max, high = Int.min
            for g in first..<max(first, last) {
                for c in picked.map({ $0...$0 }) ?? 0...(channels - 1) {
                    let i = (g * channels + c) * 2
                    low = min(low, data[i], data[i + 1]); high = max(high, data[i], data[i + 1])
                }
            }
            if low > high { (low, high) = (0, 0) }
            peaks[bar] = Float(min(1, Double(max(-low, high, 0)) / fullScale))
            (lows[bar], highs[bar]) = (Float(max(-1, Double(low) / fullScale)), Float(min(1, Double(high) / fullScale)))
        }
        return BarPeaks(peaks: peaks, lows: lows, highs: highs, samplesPerBar: samplesPerBar, sampleRate: sampleRate, sampleCount: sampleCount)
    }

    /// The groups that hold samples [start, start + count): the segment to a
    /// group's precision (its first group begins up to one group before `start`).
    /// A count past the end (`Int.max`: to the end) is held there, never overflowing.
    public func segment(start: Int, count: Int) -> WaveformData {
        let from = max(0, start), span = max(0, count)
        let stop = span > Int.max - from ? Int.max : from + span
        let first = min(length, from / samplesPerPixel)
        let end = min(length, stop / samplesPerPixel + (stop % samplesPerPixel == 0 ? 0 : 1))
        let width = 2 * max(1, channels)
        var segment = self
        segment.data = Array(data[(first * width)..<(max(first, end) * width)])
        return segment
    }

    // MARK: Writing

    /// audiowaveform's JSON, version 2. Written digit by digit into one
    /// buffer (a three-hour track's 3.7 million values were first 3.7 million
    /// strings, then their join: twice the memory of the peaks themselves).
    public func json() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(data.count * 5 + 160)
        out += Array(("{\"version\":2,\"channels\":\(channels),\"sample_rate\":\(sampleRate),"
            + "\"samples_per_pixel\":\(samplesPerPixel),\"bits\":\(bits),\"length\":\(length),\"data\":[").utf8)
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            for (i, v) in data.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if v < 0 { out.append(UInt8(ascii: "-")) }
                var magnitude = v.magnitude, end = scratch.count
                repeat {
                    end -= 1
                    scratch[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                out += scratch[end...]
            }
        }
        out += Array("]}\n".utf8)
        return Data(out)
    }

    /// audiowaveform's binary .dat: version 1 for one channel (a
    /// little-endian header of five 32-bit fields), version 2 for several
    /// (a sixth, the channels), as audiowaveform writes them; then the values
    /// as int8 or int16.
    public func dat(version: Int = 1) -> Data {
        let version = channels == 1 && version == 1 ? 1 : 2
        var out: [UInt8] = []
        out.reserveCapacity(24 + data.count * (bits == 8 ? 1 : 2))
        func int32(_ v: Int) { withUnsafeBytes(of: Int32(truncatingIfNeeded: v).littleEndian) { out.append(contentsOf: $0) } }
        int32(version)
        int32(bits == 8 ? 1 : 0)
        int32(sampleRate)
        int32(samplesPerPixel)
        int32(length)
        if version == 2 { int32(channels) }
        if bits == 8 {
            for v in data { out.append(UInt8(truncatingIfNeeded: v)) }
        } else {
            for v in data { let u = UInt16(truncatingIfNeeded: v); out.append(UInt8(u & 0xff)); out.append(UInt8(u >> 8)) }
        }
        return Data(out)
    }

    // MARK: Reading

    /// Reads audiowaveform peaks from a file or stream (`-`: standard input),
    /// told apart by content, not by name: JSON starts with `{` (after an
    /// optional UTF-8 byte-order mark and white space), anything else is
    /// read as a .dat header. A refusal names the format that was tried.
    public static func read(path: String) throws -> WaveformData {
        let input = try InputFile.open(path)
        return try parse(try input.bytes(), name: input.name)
    }

    /// A peaks file's bytes, told apart by content as `read(path:)` says;
    /// `name` names the input in a refusal.
    static func parse(_ bytes: Data, name: String) throws -> WaveformData {
        guard !bytes.isEmpty else { throw AudioError.unreadable(path: name, reason: "the file is empty") }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) })
        let json = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        do {
            return json ? try parseJSON(body) : try parseDat(body)
        } catch let problem as Problem {
            let tried = json ? "audiowaveform JSON peaks (it starts with '{')" : "audiowaveform .dat peaks (it does not start with '{')"
            throw AudioError.unreadable(path: name, reason: "not \(tried): \(problem.text)")
        }
    }

    struct Problem: Error { let text: String }

    static func parseDat(_ bytes: Data) throws -> WaveformData {
        // Read where the bytes lie: the values are the only copy made.
        try bytes.withUnsafeBytes { b in
            func int32(_ offset: Int) -> Int { Int(Int32(littleEndian: b.loadUnaligned(fromByteOffset: offset, as: Int32.self))) }
            guard b.count >= 20 else { throw Problem(text: "\(b.count) bytes, shorter than the 20-byte .dat header") }
            let version = int32(0)
            guard version == 1 || version == 2 else { throw Problem(text: "unknown version \(version) (expected 1 or 2)") }
            let header = version == 2 ? 24 : 20
            guard b.count >= header else { throw Problem(text: "a version 2 header needs 24 bytes, the file has \(b.count)") }
            let bits = int32(4) & 1 == 1 ? 8 : 16
            let sampleRate = int32(8), spp = int32(12), length = Int(UInt32(bitPattern: Int32(int32(16))))
            let channels = version == 2 ? int32(20) : 1
            try check(sampleRate: sampleRate, samplesPerPixel: spp, channels: channels)
            let bytesPerValue = bits / 8
            let (values, overflow) = length.multipliedReportingOverflow(by: 2 * channels)
            guard !overflow, values <= (b.count - header) / bytesPerValue else {
                throw Problem(text: "its header announces \(length) groups of \(channels) channel(s), but the data is shorter")
            }
            let data = [Int](unsafeUninitializedCapacity: values) { out, count in
                for i in 0..<values {
                    let o = header + i * bytesPerValue
                    out[i] = bits == 8 ? Int(Int8(bitPattern: b[o])) : Int(Int16(littleEndian: b.loadUnaligned(fromByteOffset: o, as: Int16.self)))
                }
                count = values
            }
            return WaveformData(sampleRate: sampleRate, samplesPerPixel: spp, bits: bits, channels: channels, data: data)
        }
    }

    static func parseJSON(_ bytes: Data) throws -> WaveformData {
        let root = try bytes.withUnsafeBytes { raw in
            var reader = PeaksJSON(raw)
            return try reader.read()
        }
        func integer(_ key: String) throws -> Int {
            guard case let .number(n)? = root.scalars[key], let v = Int(exactly: n) else {
                throw Problem(text: "\"\(key)\" is missing or not a whole number")
            }
            return v
        }
        // audiowaveform's older releases wrote no "version": those files are version 1.
        let version = root.scalars["version"] == nil ? 1 : try integer("version")
        guard version == 1 || version == 2 else { throw Problem(text: "unknown version \(version) (expected 1 or 2)") }
        let channels = version == 2 ? try integer("channels") : 1
        let sampleRate = try integer("sample_rate"), spp = try integer("samples_per_pixel"), bits = try integer("bits")
        try check(sampleRate: sampleRate, samplesPerPixel: spp, channels: channels)
        guard bits == 8 || bits == 16 else { throw Problem(text: "bits \(bits) (expected 8 or 16)") }
        guard root.dataIsArray, let data = root.data else { throw Problem(text: "\"data\" is missing or not an array") }
        let limit = bits == 8 ? -128...127 : -32768...32767
        guard !root.dataHasNonInteger, data.allSatisfy(limit.contains) else {
            throw Problem(text: "a data value that is not a whole number in \(limit.lowerBound)...\(limit.upperBound)")
        }
        guard data.count % (2 * channels) == 0 else {
            throw Problem(text: "\(data.count) data values do not make min/max pairs for \(channels) channel(s)")
        }
        if root.scalars["length"] != nil {
            let length = try integer("length")
            guard length == data.count / (2 * channels) else {
                throw Problem(text: "\"length\" \(length) but \(data.count / (2 * channels)) groups of data")
            }
        }
        return WaveformData(sampleRate: sampleRate, samplesPerPixel: spp, bits: bits, channels: channels, data: data)
    }

    static func check(sampleRate: Int, samplesPerPixel: Int, channels: Int) throws {
        guard (1...1_000_000).contains(sampleRate) else { throw Problem(text: "sample rate \(sampleRate)") }
        guard (1...100_000_000).contains(samplesPerPixel) else { throw Problem(text: "samples per pixel \(samplesPerPixel)") }
        guard (1...64).contains(channels) else { throw Problem(text: "\(channels) channels") }
    }
}
