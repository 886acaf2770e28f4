import CMad
import Foundation
import WaveCore

/// A track read as 16-bit integer frames, every channel interleaved: what
/// peaks are made from (`WaveformData.make`), from libsndfile (`AudioReader`)
/// or, for MP3, libmad (`MP3Decoder`).
package protocol PCM16Source: AnyObject {
    /// For messages: the input as named.
    var path: String { get }
    var sampleRate: Int { get }
    var channels: Int { get }
    /// Frames the header announces, nil where only decoding tells.
    var announcedFrames: Int? { get }
    /// Frames decoded so far.
    var framesRead: Int { get }
    /// The next frames into `buffer` (`buffer.count / channels` at most); how many, 0 at the end.
    func readShorts(into buffer: UnsafeMutableBufferPointer<Int16>) throws -> Int
}

extension AudioReader: PCM16Source {}

extension PCM16Source {
    /// Decodes what is left and counts its frames (the reader is then spent).
    package func countFrames() throws -> Int {
        let chunk = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 8192 * max(1, channels))
        defer { chunk.deallocate() }
        var total = 0
        while true {
            let n = try readShorts(into: chunk)
            if n == 0 { return total }
            total += n
        }
    }
}

/// An MP3 decoded as audiowaveform 1.10.3 decodes it (its Mp3AudioFileReader,
/// after madlld, read for its behaviour): libmad frame by frame from 40 KiB
/// reads, a leading ID3 tag skipped, a Xing/Info first frame not decoded;
/// where that frame carries a LAME or Lavc header the encoder's delay plus
/// libmad's 529 samples are dropped from the start (the padding at the end
/// is kept); each sample held to ±1 and shifted to 16 bits. Frames libmad
/// cannot decode but can resync past are skipped.
package final class MP3Decoder: PCM16Source {
    package let path: String
    package private(set) var sampleRate = 0
    package private(set) var channels = 0
    package var announcedFrames: Int? { nil }
    package private(set) var framesRead = 0
    /// Damaged frames skipped after the first (libmad lost sync or found bad data, and went on).
    package private(set) var skippedFrames = 0

    private static let readSize = 5 * 8192
    private let input: InputFile
    /// Bytes of the input handed to libmad so far.
    private var offset = 0
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: readSize + Int(MAD_BUFFER_GUARD))
    private let stream = UnsafeMutablePointer<mad_stream>.allocate(capacity: 1)
    private let frame = UnsafeMutablePointer<mad_frame>.allocate(capacity: 1)
    private let synth = UnsafeMutablePointer<mad_synth>.allocate(capacity: 1)
    /// One frame's samples (at most 1152 a channel, two channels) interleaved:
    /// `pendingCount` decoded, handed out from `pendingStart`.
    private let pending = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 2 * 1152)
    private var pendingStart = 0, pendingCount = 0
    /// libmad's output samples, read in place (`[2][1152]` fixed-point values) rather than copied out of the struct.
    private let synthesised: UnsafePointer<mad_fixed_t>
    private var framesDecoded = 0
    private var samplesToSkip = 0
    private var id3BytesToSkip = 0
    private var first = true
    /// Where the zero guard starts once the last bytes are in (libmad's lost sync there is the end, not damage).
    private var guardStart: UnsafeMutablePointer<UInt8>?
    private var ended = false

    package convenience init(path: String) throws {
        try self.init(input: InputFile.open(path))
    }

    /// Opens `input` and decodes up to its first audio frame (its rate and channels).
    package init(input: InputFile) throws {
        self.input = input
        path = input.name
        let offset = MemoryLayout<mad_synth>.offset(of: \mad_synth.pcm)! + MemoryLayout<mad_pcm>.offset(of: \mad_pcm.samples)!
        synthesised = UnsafeRawPointer(synth).advanced(by: offset).assumingMemoryBound(to: mad_fixed_t.self)
        mad_stream_init(stream)
        mad_frame_init(frame)
        mad_synth_init(synth)
        guard input.size > 0 else { throw AudioError.unreadable(path: path, reason: "the file is empty") }
        try decodeFrame()
        guard channels > 0 else { throw AudioError.unreadable(path: path, reason: "no MPEG audio frame found") }
    }

    deinit {
        mad_frame_finish(frame)
        mad_stream_finish(stream)
        synth.deallocate(); frame.deallocate(); stream.deallocate(); buffer.deallocate(); pending.deallocate()
    }

    package func readShorts(into out: UnsafeMutableBufferPointer<Int16>) throws -> Int {
        guard channels > 0 else { return 0 }
        let frames = out.count / channels
        var written = 0
        while written < frames * channels {
            if pendingStart == pendingCount {
                if ended { break }
                (pendingStart, pendingCount) = (0, 0)
                try decodeFrame()
                continue
            }
            let n = min(pendingCount - pendingStart, frames * channels - written)
            (out.baseAddress! + written).update(from: pending.baseAddress! + pendingStart, count: n)
            written += n
            pendingStart += n
        }
        // A last odd sample (a frame of other channels) is dropped, as audiowaveform's frame count drops it.
        let n = written / channels
        framesRead += n
        return n
    }

    /// Refills libmad's buffer as audiowaveform does: what libmad has not
    /// used moved to the front, then up to 40 KiB more, an ID3 tag at the
    /// very start skipped, a zero guard after the last bytes. False at the end.
    private func refill() -> Bool {
        var remaining = 0
        if let next = stream.pointee.next_frame {
            remaining = stream.pointee.bufend - next
            memmove(buffer, next, remaining)
        }
        let start = buffer + remaining
        var got = input.read(at: offset, into: UnsafeMutableRawBufferPointer(start: start, count: Self.readSize - remaining))
        offset += got
        guard got > 0 else { return false }
        if first && got >= 10 {
            id3BytesToSkip = max(0, Self.id3TagSize(UnsafeBufferPointer(start: start, count: 10)))
            first = false
        }
        if id3BytesToSkip > got {
            id3BytesToSkip -= got
            return true
        } else if id3BytesToSkip > 0 {
            got -= id3BytesToSkip
            memmove(start, start + id3BytesToSkip, got)
            id3BytesToSkip = 0
        }
        if offset >= input.size {
            guardStart = start + got
            memset(start + got, 0, Int(MAD_BUFFER_GUARD))
            got += Int(MAD_BUFFER_GUARD)
        }
        mad_stream_buffer(stream, buffer, UInt(got + remaining))
        stream.pointee.error = MAD_ERROR_NONE
        return true
    }

    /// Decodes frames until one gives samples (into `pending`) or the input ends.
    private func decodeFrame() throws {
        while true {
            if stream.pointee.buffer == nil || stream.pointee.error == MAD_ERROR_BUFLEN {
                guard refill() else { ended = true; return }
                if stream.pointee.buffer == nil { continue }
            }
            if mad_frame_decode(frame, stream) != 0 {
                let error = stream.pointee.error
                if error.rawValue & 0xff00 != 0 {  // recoverable: the next frame
                    // Lost sync in the zero guard after the last frame is the end, not damage.
                    let atGuard = error == MAD_ERROR_LOSTSYNC && guardStart != nil && stream.pointee.this_frame == UnsafePointer(guardStart)
                    if framesDecoded > 0 && !atGuard { skippedFrames += 1 }
                    continue
                }
                if error == MAD_ERROR_BUFLEN { continue }
                if framesDecoded == 0 && channels == 0 {
                    throw AudioError.unreadable(path: path, reason: "not MPEG audio: \(String(cString: mad_stream_errorstr(stream)))")
                }
                throw AudioError.unreadable(path: path, reason: "damaged data: \(String(cString: mad_stream_errorstr(stream)))")
            }
            if framesDecoded == 0 && channels == 0 && readGaplessHeader() { continue }
            if framesDecoded == 0 {
                sampleRate = Int(frame.pointee.header.samplerate)
                channels = frame.pointee.header.mode.rawValue != 0 ? 2 : 1
            }
            framesDecoded += 1
            mad_synth_frame(synth, frame)
            let length = Int(synth.pointee.pcm.length)
            let stereo = frame.pointee.header.mode.rawValue != 0
            let skipped = min(samplesToSkip, length)
            samplesToSkip -= skipped
            var count = 0
            for i in skipped..<length {
                pending[count] = Self.short(synthesised[i])
                count += 1
                if stereo { pending[count] = Self.short(synthesised[1152 + i]); count += 1 }
            }
            pendingCount = count
            if count > 0 || framesDecoded == 1 { return }
        }
    }

    /// Whether the first frame is a Xing/Info frame (not audio); a LAME or
    /// Lavc header in it gives the delay to drop.
    private func readGaplessHeader() -> Bool {
        var bits = stream.pointee.anc_ptr
        let magic = mad_bit_read(&bits, 32)
        guard magic == Self.fourCC("Xing") || magic == Self.fourCC("Info") else { return false }
        for _ in 0..<116 { _ = mad_bit_read(&bits, 8) }
        let encoder = mad_bit_read(&bits, 32)
        if encoder == Self.fourCC("LAME") || encoder == Self.fourCC("Lavc") {
            for _ in 0..<(5 + 12) { _ = mad_bit_read(&bits, 8) }
            // The encoder's delay (12 bits; its padding, the next 12, is kept as audiowaveform keeps it) plus libmad's own 529.
            samplesToSkip = 529 + Int(mad_bit_read(&bits, 12))
        }
        return true
    }

    private static func fourCC(_ text: String) -> UInt {
        text.utf8.reduce(0) { $0 << 8 | UInt($1) }
    }

    /// A libmad sample (28 fraction bits) as 16 bits: held to ±32767, then shifted.
    private static func short(_ fixed: mad_fixed_t) -> Int16 {
        let one: mad_fixed_t = 1 << 28
        if fixed >= one { return Int16.max }
        if fixed <= -one { return -Int16.max }
        return Int16(truncatingIfNeeded: fixed >> 13)
    }

    /// The size of an ID3 tag starting at these 10 bytes (header and
    /// footer included): ID3v1 "TAG" is 128, ID3v2 "ID3" its header's
    /// sync-safe size plus 10 (20 with a footer); 0 for anything else.
    static func id3TagSize(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if bytes[0] == 0x54 && bytes[1] == 0x41 && bytes[2] == 0x47 { return 128 }  // "TAG"
        guard bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,  // "ID3"
              bytes[3] < 0xff, bytes[4] < 0xff, (6...9).allSatisfy({ bytes[$0] < 0x80 }) else { return 0 }
        let size = (6...9).reduce(0) { $0 << 7 | Int(bytes[$1]) }
        return 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
    }
}
