// libFuzzer target: MP3 through libmad (MP3Decoder), built by `make fuzz`
// into the WaveAudio module. The input is written to one temporary file
// (the same path, rewritten in place, every run: an InputFile is a file
// read at offsets) and decoded to its end through readShorts in a small
// buffer, then decoded again, fresh, into peaks (WaveformData.make, mono at
// 64 samples a pair). Either ends in an AudioError (unreadable: one line)
// or in frames that make peaks of 16-bit values, one pair per 64 frames.
import Foundation

/// The file every run rewrites (its inode kept, so ProtectedInputs holds one entry), removed at exit.
private let scratch = NSTemporaryDirectory() + "waves-fuzz-mp3-\(getpid()).mp3"
private let removedAtExit: Void = { atexit { unlink(scratch) } }()

private func writeScratch(_ start: UnsafePointer<UInt8>, _ size: Int) {
    let fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot write \(scratch): \(String(cString: strerror(errno)))")
    defer { close(fd) }
    var done = 0
    while done < size {
        let n = write(fd, start + done, size - done)
        if n < 0 && errno == EINTR { continue }
        precondition(n > 0, "cannot write \(scratch): \(String(cString: strerror(errno)))")
        done += n
    }
}

/// A refusal is `.unreadable`, in one line naming the input.
private func checkRefusal(_ error: Error) {
    guard let error = error as? AudioError else { fatalError("an error that is not an AudioError: \(error)") }
    guard case .unreadable = error else { fatalError("not .unreadable: \(error)") }
    let line = error.description
    precondition(line.hasPrefix("cannot read \(scratch): ") && !line.contains("\n"), "not one line: \(line)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP3Decoder(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = removedAtExit
    writeScratch(start, size)

    // Every frame, a few at a time (a buffer of 7 samples: an odd count, so stereo leaves one over).
    var frames = 0
    do {
        let decoder = try MP3Decoder(input: InputFile.open(scratch))
        precondition(decoder.channels == 1 || decoder.channels == 2, "\(decoder.channels) channels")
        precondition(decoder.sampleRate > 0 && decoder.sampleRate <= 48000, "sample rate \(decoder.sampleRate)")
        let buffer = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 7)
        defer { buffer.deallocate() }
        while true {
            let n = try decoder.readShorts(into: buffer)
            precondition(n >= 0 && n <= buffer.count / decoder.channels, "\(n) frames into \(buffer.count) samples")
            if n == 0 { break }
            frames += n
            precondition(frames == decoder.framesRead)
        }
        // Spent: it stays at its end.
        let after = try decoder.readShorts(into: buffer)
        precondition(after == 0, "\(after) frames after the end")
    } catch {
        checkRefusal(error)
        frames = -1
    }

    // Fresh, into peaks.
    do {
        let decoder = try MP3Decoder(input: InputFile.open(scratch))
        let peaks = try WaveformData.make(decoder, samplesPerPixel: 64, splitChannels: false)
        precondition(peaks.channels == 1 && peaks.bits == 16 && peaks.samplesPerPixel == 64)
        precondition(peaks.sampleRate == decoder.sampleRate)
        precondition(peaks.length == (decoder.framesRead + 63) / 64, "\(peaks.length) pairs for \(decoder.framesRead) frames")
        // The same bytes decode to the same frames (where the first pass ended, not refused).
        if frames >= 0 { precondition(decoder.framesRead == frames, "\(decoder.framesRead) frames, then \(frames)") }
        for i in stride(from: 0, to: peaks.data.count, by: 2) {
            let low = peaks.data[i], high = peaks.data[i + 1]
            precondition(-32768 <= low && low <= high && high <= 32767, "pair \(i / 2): \(low), \(high)")
        }
    } catch {
        checkRefusal(error)
        precondition(frames < 0, "decoded to its end, then refused: \(error)")
    }
    return 0
}
