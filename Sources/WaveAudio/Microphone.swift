import CPortAudio
import Foundation
import Synchronization
import WaveCore

/// The chapter's microphone (`--level-from mic`): PortAudio's default input
/// device, read on a thread of its own in blocks of 50 ms, each block's RMS
/// in dB (the chapter's meter: `averagePowerForChannel`, -160 to 0) turned
/// into a level (-60 dB is 0, 0 dB is 1) that a live level follows. A
/// machine without an input device gets `MicrophoneError.unavailable`
/// (exit 69), and PortAudio's and ALSA's own chatter while it looks for one
/// is kept off stderr.
public final class Microphone: @unchecked Sendable {
    /// The device's name, as PortAudio gives it.
    public let deviceName: String
    /// The last block's level in dB (nil before the first block).
    public var decibels: Double? { reading.decibels.withLock { $0 } }

    /// Seconds of sound a block measures.
    public static let block = 0.05

    /// What the reading thread shares with the rest: the last dB, whether
    /// to go on, and a signal when it has stopped (so the stream outlives it).
    private final class Reading: Sendable {
        let decibels = Mutex<Double?>(nil)
        let running = Atomic<Bool>(true)
        let stopped = DispatchSemaphore(value: 0)
    }

    private let reading = Reading()
    /// The stream, handed to the reading thread (which alone reads it until it stops).
    private struct StreamHandle: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }
    private let stream: UnsafeMutableRawPointer

    /// Opens the default input device and starts feeding `level` (its target set once a block).
    public init(feeding level: LiveLevel) throws {
        // ALSA and JACK print their search for devices on stderr: silenced, as libsndfile's notes are.
        try QuietOutput.stderr.run { Pa_Initialize() }.check("PortAudio could not start")
        let device = Pa_GetDefaultInputDevice()
        guard device != paNoDevice, let info = Pa_GetDeviceInfo(device) else {
            Pa_Terminate()
            throw MicrophoneError.unavailable("no audio input device (PortAudio found none)")
        }
        let name = info.pointee.name.map { String(cString: $0) } ?? "device \(device)"
        let rate = info.pointee.defaultSampleRate > 0 ? info.pointee.defaultSampleRate : 44_100
        let frames = Swift.max(1, Int(rate * Self.block))
        var parameters = PaStreamParameters(device: device, channelCount: 1, sampleFormat: PaSampleFormat(paFloat32),
                                            suggestedLatency: info.pointee.defaultLowInputLatency, hostApiSpecificStreamInfo: nil)
        var opened: UnsafeMutableRawPointer?
        let status = QuietOutput.stderr.run {
            Pa_OpenStream(&opened, &parameters, nil, rate, UInt(frames), PaStreamFlags(paNoFlag), nil, nil)
        }
        guard status == paNoError.rawValue, let opened else {
            Pa_Terminate()
            throw MicrophoneError.unavailable("the input device \"\(name)\" could not be opened: \(Self.text(status))")
        }
        let started = Pa_StartStream(opened)
        guard started == paNoError.rawValue else {
            Pa_CloseStream(opened)
            Pa_Terminate()
            throw MicrophoneError.unavailable("the input device \"\(name)\" could not start: \(Self.text(started))")
        }
        // Every stored property is set only once the stream runs: a failure above leaves nothing for deinit to undo.
        deviceName = name
        stream = opened
        let reading = self.reading, handle = StreamHandle(pointer: opened)
        let thread = Thread { Self.read(handle.pointer, frames: frames, into: level, reading) }
        thread.name = "waves.microphone"
        thread.start()
    }

    /// Stops the reading thread (it finishes its block), then the stream.
    deinit {
        reading.running.store(false, ordering: .relaxed)
        reading.stopped.wait()
        Pa_StopStream(stream)
        Pa_CloseStream(stream)
        Pa_Terminate()
    }

    /// Blocks of samples, each one's RMS in dB to the level, until told to stop or the stream fails.
    private static func read(_ stream: UnsafeMutableRawPointer, frames: Int, into level: LiveLevel, _ reading: Reading) {
        let samples = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
        defer {
            samples.deallocate()
            reading.stopped.signal()
        }
        while reading.running.load(ordering: .relaxed) {
            let status = Pa_ReadStream(stream, samples.baseAddress, UInt(frames))
            // An overflow still delivers the block; anything else ends the reading.
            guard status == paNoError.rawValue || status == paInputOverflowed.rawValue else { return }
            var sum = 0.0
            for s in samples { sum += Double(s) * Double(s) }
            let dB = decibels(rms: (sum / Double(frames)).squareRoot())
            reading.decibels.withLock { $0 = dB }
            level.set(Self.level(decibels: dB))
        }
    }

    /// The chapter's meter: 20 log10 of the RMS, at least -160 dB (its silence).
    public static func decibels(rms: Double) -> Double {
        guard rms.isFinite, rms > 0 else { return -160 }
        return Swift.max(-160, 20 * log10(rms))
    }

    /// A level from dB: -60 dB and below is 0, 0 dB is 1 (as `--level-from FILE` measures it).
    public static func level(decibels: Double) -> Double { Swift.min(1, Swift.max(0, (decibels + 60) / 60)) }

    private static func text(_ status: PaError) -> String { String(cString: Pa_GetErrorText(status)) }
}

private extension PaError {
    func check(_ what: String) throws {
        guard self != paNoError.rawValue else { return }
        throw MicrophoneError.unavailable("\(what): \(String(cString: Pa_GetErrorText(self)))")
    }
}

/// No microphone can be used here: the reason, in one line (exit 69).
public enum MicrophoneError: Error, CustomStringConvertible {
    case unavailable(String)

    public var description: String {
        switch self {
        case let .unavailable(why): "--level-from mic: \(why)"
        }
    }
}

extension MicrophoneError: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.unavailable }
}
