import CMallocCounter
import Foundation
import WaveAudio
import XCTest

/// A header is a claim, not a plan: a small file that claims a billion
/// peaks, 10^12 frames or 1,024 channels is refused or read as far as its
/// bytes go, and the memory it costs is set by the bytes and a fixed chunk,
/// never by the claim. Measured with the malloc counter (every allocation
/// made on this thread while reading, libsndfile's included), whose sizes a
/// reader that trusted the claim would blow far past.
final class HugeClaimTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "waves-huge-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Allocations allowed for a file of a few hundred kB: a few MB in all, none over 1 MB.
    private let budget: UInt64 = 4 << 20, largestAllowed: UInt64 = 1 << 20

    private func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = folder + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Runs `body` under the malloc counter; returns what it allocated in all and at most at once.
    private func allocations(_ body: () throws -> Void) rethrows -> (bytes: UInt64, largest: UInt64) {
        waves_malloc_counter_start()
        defer { _ = waves_malloc_counter_stop() }
        try body()
        _ = waves_malloc_counter_stop()
        XCTAssertEqual(waves_malloc_counter_active(), 1, "the interposed malloc is not the one in use: nothing was measured")
        return (waves_malloc_counter_bytes(), waves_malloc_counter_largest())
    }

    private func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
    private func le16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
    private func le64(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }

    // MARK: Peaks

    func testADatClaimingABillionPointsIsRefusedWithoutAllocatingThem() throws {
        for channels: UInt32 in [1, 64] {
            // Version 2, 16 bits, 44.1 kHz, 256 samples a point, 10^9 points; then 4 values.
            let path = write("claims-\(channels).dat", [2, 0, 44100, 256, 1_000_000_000, channels].flatMap(le32) + [1, 2, 3, 4].flatMap(le16))
            var refusal: Error?
            let used = try allocations { XCTAssertThrowsError(try WaveformData.read(path: path)) { refusal = $0 } }
            XCTAssert("\(refusal.map { "\($0)" } ?? "")".contains("1000000000 groups of \(channels) channel(s), but the data is shorter"),
                      "\(String(describing: refusal))")
            XCTAssertLessThan(used.bytes, budget, "\(channels) channel(s): \(used.bytes) bytes allocated for a 32-byte file")
            XCTAssertLessThan(used.largest, largestAllowed)
        }
    }

    func testAJSONClaimingABillionPointsIsRefusedWithoutAllocatingThem() throws {
        let path = write("claims.json", Array(#"{"version":2,"channels":1,"sample_rate":44100,"samples_per_pixel":256,"bits":16,"length":1000000000,"data":[1,2]}"#.utf8))
        let used = try allocations { XCTAssertThrowsError(try WaveformData.read(path: path)) }
        XCTAssertLessThan(used.bytes, budget, "\(used.bytes) bytes allocated")
        XCTAssertLessThan(used.largest, largestAllowed)
    }

    // MARK: Audio

    /// An RF64 WAV (64-bit sizes, so a header can claim anything) of 16-bit
    /// PCM whose ds64 chunk claims `frames` frames of `channels` channels,
    /// followed by `actualFrames` frames of a square wave.
    private func rf64(channels: Int, claimedFrames frames: UInt64, actualFrames: Int) -> [UInt8] {
        let blockAlign = 2 * channels
        let dataBytes = frames * UInt64(blockAlign)
        var bytes = Array("RF64".utf8) + le32(0xFFFF_FFFF) + Array("WAVE".utf8)
        bytes += Array("ds64".utf8) + le32(28) + le64(dataBytes + 36 + 36) + le64(dataBytes) + le64(frames) + le32(0)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(UInt16(channels)) + le32(8000) + le32(UInt32(8000 * blockAlign))
        bytes += le16(UInt16(blockAlign)) + le16(16)
        bytes += Array("data".utf8) + le32(0xFFFF_FFFF)
        for frame in 0..<actualFrames {
            let value: UInt16 = frame % 20 < 10 ? 0x4000 : 0xC000
            for _ in 0..<channels { bytes += le16(value) }
        }
        return bytes
    }

    /// Reads `path` to its end into peaks (the render's and `waves peaks`'s
    /// pass), or until the reader refuses it.
    private func readToTheEnd(_ path: String) -> (bars: BarPeaks?, error: Error?) {
        do {
            let reader = try AudioReader(path: path)
            return (try BarPeaks.scan(reader, samplesPerBar: 64), nil)
        } catch {
            return (nil, error)
        }
    }

    func testAWavClaimingATrillionFramesIsReadAsFarAsItsBytesGo() throws {
        for channels in [1, 1024] {
            let path = write("claims-\(channels).wav", rf64(channels: channels, claimedFrames: 1_000_000_000_000, actualFrames: 100))
            var result: (bars: BarPeaks?, error: Error?) = (nil, nil)
            let used = allocations { result = readToTheEnd(path) }
            if let bars = result.bars {
                XCTAssertEqual(bars.sampleCount, 100, "\(channels) channel(s): what the bytes hold, not the claim")
                XCTAssertEqual(bars.peaks.first ?? 0, 0.5, accuracy: 0.01)
            } else {
                XCTAssert("\(result.error!)".hasPrefix("cannot read \(path): "), "\(result.error!)")
            }
            XCTAssertLessThan(used.bytes, budget, "\(channels) channel(s): \(used.bytes) bytes allocated for a \(100 * 2 * channels / 1000) kB file")
            XCTAssertLessThan(used.largest, largestAllowed)
        }
    }

    func testA1024ChannelWavOf100FramesTakesMemoryForItsBytesNotForItsChannels() throws {
        let path = folder + "/wide.wav"
        try AudioWriter.write(to: path, format: .wav, sampleRate: 8000, channels: 1024, frames: 100) { n, c in
            c == 0 ? (n % 20 < 10 ? 0.5 : -0.5) : 0
        }
        var result: (bars: BarPeaks?, error: Error?) = (nil, nil)
        let used = allocations { result = readToTheEnd(path) }
        let bars = try XCTUnwrap(result.bars, "\(result.error.map { "\($0)" } ?? "")")
        XCTAssertEqual(bars.sampleCount, 100)
        // The mean of 1,024 channels, one of them at 0.5.
        XCTAssertEqual(bars.peaks.first ?? 0, 0.5 / 1024, accuracy: 1e-5)
        XCTAssertLessThan(used.bytes, budget, "\(used.bytes) bytes allocated for a 200 kB file")
        XCTAssertLessThan(used.largest, largestAllowed)
    }
}
