import CSndfile
import Foundation

/// Audio in, through libsndfile: any file it reads (WAV, FLAC, Ogg/Vorbis,
/// Opus, MP3 with Debian 12's 1.2), streamed in chunks and mixed to mono as
/// the mean of the channels, so memory does not grow with the track.

/// Mono samples (-1...1) read in order, a chunk at a time.
public protocol SampleSource: AnyObject {
    var sampleRate: Int { get }
    /// Fills `buffer` from the start with the next samples; returns how many (0 at the end).
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}

public enum AudioError: Error, Equatable, CustomStringConvertible {
    /// No such file (exit 66).
    case missing(path: String)
    /// Not audio libsndfile reads, or empty, or broken (exit 65); libsndfile's words.
    case unreadable(path: String, reason: String)
    /// An output file could not be written (exit 73).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .missing(path): "cannot read \(path): no such file"
        case let .unreadable(path, reason): "cannot read \(path): \(reason)"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        }
    }
}

/// An audio file open for reading.
public final class AudioReader: SampleSource {
    public let path: String
    public let sampleRate: Int
    public let channels: Int
    /// Frames the header announces (MP3's may be an estimate).
    public let announcedFrames: Int
    private let file: OpaquePointer
    private var interleaved: [Float] = []

    public init(path: String) throws {
        self.path = path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw AudioError.missing(path: path) }
        if isFolder.boolValue { throw AudioError.unreadable(path: path, reason: "it is a folder") }
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioError.unreadable(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            throw AudioError.unreadable(path: path, reason: "no channels or no sample rate")
        }
        self.file = file
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        announcedFrames = Int(info.frames)
    }

    deinit { sf_close(file) }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let frames = buffer.count
        if interleaved.count < frames * channels { interleaved = [Float](repeating: 0, count: frames * channels) }
        let got = interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) }
        if got < 0 || sf_error(file) != SF_ERR_NO_ERROR {
            throw AudioError.unreadable(path: path, reason: String(cString: sf_strerror(file)))
        }
        let n = Int(got)
        if channels == 1 {
            for i in 0..<n { buffer[i] = interleaved[i] }
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
}

/// Writes audio with libsndfile: the project's own test and benchmark tracks.
public enum AudioWriter {
    public enum Format: String, CaseIterable, Sendable {
        case wav, flac, mp3

        var libsndfile: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .mp3: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
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
