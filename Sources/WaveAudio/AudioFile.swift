import CSndfile
import Foundation
import WaveCore

/// Audio in, through libsndfile: any format it reads (WAV, FLAC, Ogg/Vorbis,
/// Opus, MP3 with Debian 12's 1.2), recognised by content, streamed in
/// chunks and mixed to mono as the mean of the channels (or one channel
/// picked; 16- and 8-bit PCM also as integers, for the peaks), so memory does not grow with the track; a segment of any mono
/// source; and the project's own tracks written.

/// Mono samples (-1...1) read in order, a chunk at a time.
public protocol SampleSource: AnyObject {
    var sampleRate: Int { get }
    /// Fills `buffer` from the start with the next samples; returns how many (0 at the end).
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}

/// Samples [start, start + count) of another source (to its end where it is
/// shorter): the first `start` are read and dropped, so every format, and
/// the exact sample count a decoder gives, is kept.
public final class TrackSegment: SampleSource {
    private let source: SampleSource
    private var toSkip: Int
    private var left: Int
    public var sampleRate: Int { source.sampleRate }

    public init(_ source: SampleSource, start: Int, count: Int) {
        self.source = source
        toSkip = max(0, start)
        left = max(0, count)
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        while toSkip > 0 {
            let n = try source.read(into: UnsafeMutableBufferPointer(rebasing: buffer[..<min(buffer.count, toSkip)]))
            if n == 0 { toSkip = 0; left = 0 }
            toSkip -= n
        }
        guard left > 0 else { return 0 }
        let n = try source.read(into: UnsafeMutableBufferPointer(rebasing: buffer[..<min(buffer.count, left)]))
        left -= n
        return n
    }
}

/// An input that cannot be used (audio, peaks, an outline's path data) or an
/// audio output that cannot be written; each names the file and the reason.
public enum AudioError: Error, Equatable, CustomStringConvertible {
    /// No such file (exit 66).
    case missing(path: String)
    /// Not audio libsndfile reads, or empty, or broken; peaks or path data that are not (exit 65): the reason in Waves' words.
    case unreadable(path: String, reason: String)
    /// An output file could not be written (exit 73).
    case cannotWrite(path: String, reason: String)
    /// A track whose decoding stopped early, refused under `--strict` (exit 65).
    case stoppedEarly(path: String, report: String)

    public var description: String {
        switch self {
        case let .missing(path): "cannot read \(path): no such file"
        case let .unreadable(path, reason): "cannot read \(path): \(reason)"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .stoppedEarly(path, report): "\(path): \(report); nothing written (--strict)"
        }
    }
}

extension AudioError: UserFacingError {
    package var exitStatus: Int32 {
        switch self {
        case .missing: ExitStatus.missingInput
        case .unreadable, .stoppedEarly: ExitStatus.badData
        case .cannotWrite: ExitStatus.cannotCreate
        }
    }
}

/// An audio input open for reading through libsndfile's virtual I/O over an
/// `InputFile` (a file, or the one copy of a stream), so every format is
/// recognised by its bytes, never by its name. Every number libsndfile takes
/// from a header (channels, rate, frames) is checked here before any
/// arithmetic. Decoding that stops early (a decoder error, or fewer frames
/// than an exact header count) ends the track where it stopped: what decoded
/// is kept and `stoppedEarly` says so; nothing decodable at all is an error.
public final class AudioReader: SampleSource {
    /// For messages: the input as named.
    public let path: String
    public let sampleRate: Int
    public let channels: Int
    /// Frames the header announces, nil where libsndfile cannot know them (a
    /// damaged Ogg's end, say). An MP3's without a Xing/Info header is an
    /// estimate from its size: see `countIsExact`.
    public let announcedFrames: Int?
    /// Whether `announcedFrames` is a count, not an estimate.
    public let countIsExact: Bool
    /// Whether libsndfile recognised MPEG audio (an MP3), which `MP3Decoder` decodes as audiowaveform does.
    package let isMPEG: Bool
    /// Frames decoded so far.
    public private(set) var framesRead = 0
    /// Whether decoding has reached its end (a read returned 0).
    public private(set) var finished = false

    private let input: InputFile
    private let position: VirtualPosition
    private let file: OpaquePointer
    /// libsndfile's reason, when a read failed after some frames.
    private var failure: String?
    /// The header's data length is longer than the file (libsndfile's log says "should be").
    private let headerTooLong: Bool
    private var interleaved: [Float] = []
    private var shorts: [Int16] = []
    /// libsndfile's encoding of the samples (SF_FORMAT_PCM_16, _FLOAT, ...).
    private let subformat: Int32

    /// The largest channel count accepted (libsndfile's own limit) and the sample rates accepted.
    public static let maxChannels = 1024
    public static let sampleRates = 1...10_000_000

    /// The channel read instead of the mix of all (nil: the mean of the channels).
    public let channel: Int?

    public convenience init(path: String, channel: Int? = nil) throws {
        try self.init(input: InputFile.open(path), channel: channel)
    }

    /// Headerless samples: how many channels, at what rate, in which encoding.
    package struct RawLayout: Equatable {
        package var channels: Int
        package var sampleRate: Int
        package var encoding: RawEncoding
        package init(channels: Int, sampleRate: Int, encoding: RawEncoding) {
            (self.channels, self.sampleRate, self.encoding) = (channels, sampleRate, encoding)
        }
    }

    /// A raw sample encoding by the name ffmpeg and audiowaveform give it.
    package enum RawEncoding: String, CaseIterable {
        case s8, u8, s16le, s16be, s24le, s24be, s32le, s32be, f32le, f32be, f64le, f64be

        /// libsndfile's SF_FORMAT_RAW with this subformat and byte order.
        var libsndfile: Int32 {
            let (subformat, endian): (Int32, Int32)
            switch self {
            case .s8: (subformat, endian) = (Int32(SF_FORMAT_PCM_S8), 0)
            case .u8: (subformat, endian) = (Int32(SF_FORMAT_PCM_U8), 0)
            case .s16le: (subformat, endian) = (Int32(SF_FORMAT_PCM_16), Int32(SF_ENDIAN_LITTLE))
            case .s16be: (subformat, endian) = (Int32(SF_FORMAT_PCM_16), Int32(SF_ENDIAN_BIG))
            case .s24le: (subformat, endian) = (Int32(SF_FORMAT_PCM_24), Int32(SF_ENDIAN_LITTLE))
            case .s24be: (subformat, endian) = (Int32(SF_FORMAT_PCM_24), Int32(SF_ENDIAN_BIG))
            case .s32le: (subformat, endian) = (Int32(SF_FORMAT_PCM_32), Int32(SF_ENDIAN_LITTLE))
            case .s32be: (subformat, endian) = (Int32(SF_FORMAT_PCM_32), Int32(SF_ENDIAN_BIG))
            case .f32le: (subformat, endian) = (Int32(SF_FORMAT_FLOAT), Int32(SF_ENDIAN_LITTLE))
            case .f32be: (subformat, endian) = (Int32(SF_FORMAT_FLOAT), Int32(SF_ENDIAN_BIG))
            case .f64le: (subformat, endian) = (Int32(SF_FORMAT_DOUBLE), Int32(SF_ENDIAN_LITTLE))
            case .f64be: (subformat, endian) = (Int32(SF_FORMAT_DOUBLE), Int32(SF_ENDIAN_BIG))
            }
            return Int32(SF_FORMAT_RAW) | subformat | endian
        }
    }

    /// Opens `input`; `channel` reads that channel alone (0 the first), where
    /// the track has it (a mono track's one channel for any), instead of the mix.
    package init(input: InputFile, channel: Int? = nil, raw: RawLayout? = nil) throws {
        self.input = input
        path = input.name
        guard input.size > 0 else { throw AudioError.unreadable(path: input.name, reason: "the file is empty") }
        let position = VirtualPosition(input)
        self.position = position
        var info = SF_INFO()
        if let raw {
            info.channels = Int32(clamping: raw.channels)
            info.samplerate = Int32(clamping: raw.sampleRate)
            info.format = raw.encoding.libsndfile
        }
        var io = VirtualPosition.callbacks
        let opened = QuietOutput.stderr.run {
            sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(position).toOpaque())
        }
        guard let file = opened else {
            throw AudioError.unreadable(path: input.name, reason: Self.openFailure(code: sf_error(nil), text: String(cString: sf_strerror(nil))))
        }
        func refuse(_ reason: String) -> AudioError {
            sf_close(file)
            return AudioError.unreadable(path: input.name, reason: reason)
        }
        guard (1...Self.maxChannels).contains(Int(info.channels)) else {
            throw refuse("unsupported channel count \(info.channels) (1 to \(Self.maxChannels) accepted)")
        }
        guard Self.sampleRates.contains(Int(info.samplerate)) else {
            throw refuse("unsupported sample rate \(info.samplerate) Hz (1 to \(Self.sampleRates.upperBound) accepted)")
        }
        self.file = file
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        self.channel = channel.map { min(max(0, $0), Int(info.channels) - 1) }
        // SF_COUNT_MAX (or anything as large) means libsndfile could not find the end.
        announcedFrames = info.frames >= 0 && info.frames < 1 << 48 ? Int(info.frames) : nil
        subformat = info.format & Int32(SF_FORMAT_SUBMASK)
        let major = info.format & Int32(SF_FORMAT_TYPEMASK)
        isMPEG = major == Int32(SF_FORMAT_MPEG)
        if isMPEG {
            // libsndfile reports a variable bitrate where a Xing/Info header gives the
            // exact count (decoded gapless, as libsndfile asks of mpg123, it matches to the frame).
            countIsExact = sf_command(file, Int32(SFC_GET_BITRATE_MODE), nil, 0) == Int32(SF_BITRATE_MODE_VARIABLE)
        } else {
            countIsExact = true
        }
        var log = [CChar](repeating: 0, count: 4096)
        sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        headerTooLong = String(cString: log).split(separator: "\n").contains { line in
            (line.hasPrefix("data") || line.hasPrefix("SSND")) && line.contains("(should be")
        }
    }

    deinit { QuietOutput.stderr.run { _ = sf_close(file) } }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        if finished { return 0 }
        // At most 65,536 samples interleaved, whatever the channel count.
        let frames = min(buffer.count, max(1, 65536 / channels))
        if interleaved.count < frames * channels { interleaved = [Float](repeating: 0, count: frames * channels) }
        let n = try decode(frames) { interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) } }
        if channels == 1 {
            for i in 0..<n { buffer[i] = interleaved[i] }
        } else if let channel {
            for i in 0..<n { buffer[i] = interleaved[i * channels + channel] }
        } else {
            let scale = 1 / Float(channels)
            for i in 0..<n {
                var sum: Float = 0
                for c in 0..<channels { sum += interleaved[i * channels + c] }
                buffer[i] = sum * scale
            }
        }
        return n
    }

    /// Whether `readMix` reads this track: its samples are whole 16- or
    /// 8-bit numbers (PCM, as WAV and FLAC mostly hold them).
    package var readsIntegers: Bool {
        subformat == Int32(SF_FORMAT_PCM_16) || subformat == Int32(SF_FORMAT_PCM_S8) || subformat == Int32(SF_FORMAT_PCM_U8)
    }

    /// The next frames as integers on the 16-bit scale (an 8-bit sample is
    /// k * 256), mixed as audiowaveform mixes them: the channels' sum over
    /// their count, truncated toward zero (or the channel picked). Returns
    /// how many (0 at the end). Only where `readsIntegers`; no float is made.
    package func readMix(into buffer: UnsafeMutableBufferPointer<Int32>) throws -> Int {
        if finished { return 0 }
        let frames = min(buffer.count, max(1, 65536 / channels))
        if shorts.count < frames * channels { shorts = [Int16](repeating: 0, count: frames * channels) }
        let n = try decode(frames) { shorts.withUnsafeMutableBufferPointer { sf_readf_short(file, $0.baseAddress, sf_count_t(frames)) } }
        let count = Int32(channels)
        shorts.withUnsafeBufferPointer { s in
            if channels == 1 {
                for i in 0..<n { buffer[i] = Int32(s[i]) }
            } else if let channel {
                for i in 0..<n { buffer[i] = Int32(s[i * channels + channel]) }
            } else if channels == 2 {
                for i in 0..<n { buffer[i] = (Int32(s[2 * i]) + Int32(s[2 * i + 1])) / 2 }
            } else {
                for i in 0..<n {
                    var sum: Int32 = 0
                    for c in 0..<channels { sum += Int32(s[i * channels + c]) }
                    buffer[i] = sum / count
                }
            }
        }
        return n
    }

    /// The next frames, every channel interleaved, as audiowaveform reads
    /// them: libsndfile's 16-bit integers (`sf_readf_short`, its own
    /// conversion for Vorbis, Opus and 24- or 32-bit PCM), or for a float or
    /// double track each sample times 32767 truncated toward zero, as C's
    /// `static_cast<short>` does on x86-64 (a value past 32 bits, or NaN, is
    /// 0). `buffer` holds `buffer.count / channels` frames; returns how many.
    package func readShorts(into buffer: UnsafeMutableBufferPointer<Int16>) throws -> Int {
        if finished { return 0 }
        let frames = min(buffer.count / channels, max(1, 65536 / channels))
        guard frames > 0 else { return 0 }
        if subformat == Int32(SF_FORMAT_FLOAT) || subformat == Int32(SF_FORMAT_DOUBLE) {
            if interleaved.count < frames * channels { interleaved = [Float](repeating: 0, count: frames * channels) }
            let n = try decode(frames) { interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) } }
            for i in 0..<(n * channels) {
                let scaled = interleaved[i] * 32767
                let whole = scaled.isNaN || abs(scaled) >= 2_147_483_648 ? Int32.min : Int32(scaled)
                buffer[i] = Int16(truncatingIfNeeded: whole)
            }
            return n
        }
        return try decode(frames) { sf_readf_short(file, buffer.baseAddress, sf_count_t(frames)) }
    }

    /// Decodes up to `frames` frames with `read` (libsndfile's call), keeping
    /// the count, the end and a failure's reason; nothing decodable at all throws.
    private func decode(_ frames: Int, _ read: () -> sf_count_t) throws -> Int {
        let got = QuietOutput.stderr.run { read() }
        let n = got > 0 ? min(Int(got), frames) : 0
        if got < 0 || sf_error(file) != SF_ERR_NO_ERROR {
            failure = Self.clean(String(cString: sf_strerror(file)))
        }
        if n == 0 || failure != nil { finished = true }
        if framesRead == 0 && n == 0 {
            if let failure { throw AudioError.unreadable(path: path, reason: "damaged data at the start: \(failure)") }
            if announcedFrames == 0 { throw AudioError.unreadable(path: path, reason: "the track is empty (no audio frames)") }
            throw AudioError.unreadable(path: path, reason: "damaged or truncated: not one audio frame decodes")
        }
        framesRead += n
        return n
    }

    /// Once decoding has finished: nil when the whole track decoded, else
    /// how far it got and why it stopped ("decoding stopped at 4.8 s
    /// (damaged or truncated)").
    public var stoppedEarly: String? {
        guard finished else { return nil }
        let at = String(format: "decoding stopped at %.1f s", Double(framesRead) / Double(sampleRate))
        if let failure { return "\(at) (damaged data: \(failure))" }
        let short: Bool
        if let announced = announcedFrames {
            short = countIsExact && framesRead < announced
        } else {
            short = true // libsndfile found no end: the stream is cut or damaged
        }
        return short || headerTooLong ? "\(at) (damaged or truncated)" : nil
    }

    /// libsndfile's words without their "Error : " and final full stop.
    private static func clean(_ text: String) -> String {
        var text = text
        if text.hasPrefix("Error : ") { text.removeFirst(8) }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Why sf_open refused, in words that name the cause.
    private static func openFailure(code: Int32, text: String) -> String {
        switch code {
        case Int32(SF_ERR_UNRECOGNISED_FORMAT):
            return "unrecognised format (accepted: \(readableFormats.joined(separator: ", ")))"
        case Int32(SF_ERR_UNSUPPORTED_ENCODING):
            return "an encoding libsndfile cannot decode (\(clean(text)))"
        default:
            return "damaged or malformed header (\(clean(text)))"
        }
    }

    /// The formats libsndfile reads, by their usual file extension (raw, which
    /// needs its layout given, left out; MPEG as mp3, Ogg as ogg and opus).
    public static let readableFormats: [String] = {
        var count: Int32 = 0
        sf_command(nil, Int32(SFC_GET_FORMAT_MAJOR_COUNT), &count, Int32(MemoryLayout<Int32>.size))
        var names: [String] = []
        for i in 0..<max(0, count) {
            var format = SF_FORMAT_INFO()
            format.format = i
            sf_command(nil, Int32(SFC_GET_FORMAT_MAJOR), &format, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
            guard var ext = format.extension.map({ String(cString: $0) }), ext != "raw" else { continue }
            ext = ["m1a": "mp3", "oga": "ogg"][ext] ?? ext
            guard !names.contains(ext) else { continue }
            names.append(ext)
            if ext == "ogg" { names.append("opus") }
        }
        return names
    }()
}

/// A reader's own position in its `InputFile`, and libsndfile's virtual I/O
/// callbacks over it: every offset libsndfile asks for (taken from a
/// header, maybe) is checked before it is used.
private final class VirtualPosition {
    let input: InputFile
    var offset = 0

    init(_ input: InputFile) { self.input = input }

    static func of(_ user: UnsafeMutableRawPointer?) -> VirtualPosition {
        Unmanaged<VirtualPosition>.fromOpaque(user!).takeUnretainedValue()
    }

    static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { user in sf_count_t(VirtualPosition.of(user).input.size) },
        seek: { offset, whence, user in
            let p = VirtualPosition.of(user)
            let base: Int
            switch whence {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = p.offset
            case SEEK_END: base = p.input.size
            default: return -1
            }
            let (target, overflow) = base.addingReportingOverflow(Int(offset))
            guard !overflow, target >= 0 else { return -1 }
            p.offset = target
            return sf_count_t(target)
        },
        read: { pointer, count, user in
            let p = VirtualPosition.of(user)
            guard let pointer, count > 0 else { return 0 }
            let n = p.input.read(at: p.offset, into: UnsafeMutableRawBufferPointer(start: pointer, count: Int(count)))
            guard n > 0 else { return 0 }
            p.offset += n
            return sf_count_t(n)
        },
        write: { _, _, _ in 0 },
        tell: { user in sf_count_t(VirtualPosition.of(user).offset) }
    )
}

/// Writes audio with libsndfile: the project's own test and benchmark tracks.
public enum AudioWriter {
    public enum Format: String, CaseIterable, Sendable {
        case wav, flac, ogg, mp3

        var libsndfile: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .ogg: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            case .mp3: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
            }
        }
    }

    /// Every frame of `source` as a 16-bit PCM WAV at `path` (libsndfile's
    /// header and bytes, as audiowaveform writes them), or to the open
    /// `descriptor` (standard output) where `path` is nil.
    package static func writeWAV16(from source: PCM16Source, to path: String?, descriptor: Int32 = STDOUT_FILENO) throws {
        var info = SF_INFO()
        info.samplerate = Int32(source.sampleRate)
        info.channels = Int32(source.channels)
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let shown = path ?? "standard output"
        guard let file = path.map({ sf_open($0, Int32(SFM_WRITE), &info) }) ?? sf_open_fd(descriptor, Int32(SFM_WRITE), &info, 0) else {
            throw AudioError.cannotWrite(path: shown, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let chunk = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 16384)
        defer { chunk.deallocate() }
        while true {
            let n = try source.readShorts(into: chunk)
            if n == 0 { return }
            guard sf_writef_short(file, chunk.baseAddress, sf_count_t(n)) == n else {
                throw AudioError.cannotWrite(path: shown, reason: String(cString: sf_strerror(file)))
            }
        }
    }

    /// `channels` interleaved channels of `frames` frames, sample (frame, channel) given by `sample`.
    public static func write(to path: String, format: Format, sampleRate: Int, channels: Int = 1, frames: Int,
                             sample: (Int, Int) -> Float) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format.libsndfile
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioError.cannotWrite(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let chunk = 65536
        var buffer = [Float](repeating: 0, count: chunk * channels)
        var frame = 0
        while frame < frames {
            let n = min(chunk, frames - frame)
            for i in 0..<n { for c in 0..<channels { buffer[i * channels + c] = sample(frame + i, c) } }
            let written = buffer.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(n)) }
            guard written == n else { throw AudioError.cannotWrite(path: path, reason: String(cString: sf_strerror(file))) }
            frame += n
        }
    }
}
