import Foundation
import WaveAudio
import WaveCore
import WaveImageIO

/// `waves audiowaveform ARGS` (and the binary started as `audiowaveform`):
/// audiowaveform 1.10.3's command line, its choices made in its order
/// (OptionHandler's): audio to peaks (.dat, .json), peaks to peaks or text
/// (.txt); its information lines and "Done" on stderr (none
/// with `-q`), its messages and exit status 1. Standard input where no
/// `-i` is given (with `--input-format`), standard output where no `-o`.
/// Not yet Waves': PNG images, WAV output, raw input and rescaled peaks,
/// each refused in one line that says so. The peaks are `WaveformData.make`'s,
/// the ones `waves peaks` writes.
package enum Audiowaveform {
    /// Runs the command line; returns the exit status. `programName` names it in messages.
    package static func run(_ words: [String], programName: String) -> Int32 {
        let options: AudiowaveformOptions
        do { options = try AudiowaveformOptions.parse(words) } catch {
            let message = (error as? AudiowaveformOptions.Refusal)?.message ?? "\(error)"
            printError("Error: \(message)\nSee '\(programName) --help' for available options")
            return 1
        }
        if options.wantsHelp { return write(Data(AudiowaveformOptions.help(programName: programName).utf8)) }
        if options.wantsVersion { return write(Data("AudioWaveform v1.10.3\n".utf8)) }
        let log = Log(quiet: options.quiet)
        do {
            try perform(options, log: log)
            log.info("Done")
            return 0
        } catch let failure as Failure {
            printError(failure.message)
        } catch {
            printError("\(error)")
        }
        return 1
    }

    /// A failure in audiowaveform's words (no "Error: " before it).
    struct Failure: Error { let message: String }

    /// audiowaveform's information lines on stderr, none when quiet.
    struct Log {
        let quiet: Bool
        func info(_ line: String) { if !quiet { printError(line) } }
    }

    private static func perform(_ options: AudiowaveformOptions, log: Log) throws {
        let input = options.inputFormat, output = options.outputFormat
        let resamples = options.hasSamplesPerPixel || options.hasPixelsPerSecond || options.hasEnd
        if [.mp3, .flac, .ogg, .opus, .raw].contains(input) && output == .wav {
            try checkRaw(options)
            throw Failure(message: "Converting audio to WAV is not done by waves audiowaveform yet")
        }
        if input.isAudio && output.isPeaks {
            if input == .raw { throw Failure(message: "Raw audio input is not read by waves audiowaveform yet") }
            return try generate(options, log: log)
        }
        if input.isPeaks && [.txt, .dat, .json].contains(output) && !resamples { return try convert(options, log: log) }
        if (input.isPeaks || input.isAudio) && output == .png {
            try checkImage(options)
            throw Failure(message: "PNG images are not drawn by waves audiowaveform yet (waves render waveform draws the track)")
        }
        if input.isPeaks && output.isPeaks && resamples {
            throw Failure(message: "Rescaling peaks is not done by waves audiowaveform yet")
        }
        // audiowaveform names an unknown format by throwing while it writes the sentence.
        var message = "Can't generate "
        guard output != .unknown else { throw Failure(message: message + "Unknown file format") }
        message += "\(output.rawValue) format output from "
        guard input != .unknown else { throw Failure(message: message + "Unknown file format") }
        throw Failure(message: message + "\(input.rawValue) format input")
    }

    /// Audio to peaks: the scale audiowaveform's options give, `WaveformData.make`, then the file.
    private static func generate(_ options: AudiowaveformOptions, log: Log) throws {
        let scale = try samplesPerPixel(options)
        let reader = try open(options.inputFilename)
        log.info("Input file: \(shownInput(options.inputFilename))")
        let samplesPerPixel = scale(reader.sampleRate)
        guard reader.channels <= WaveformData.maxChannels else {
            throw Failure(message: "Cannot generate waveform data from audio file with \(reader.channels) channels")
        }
        guard samplesPerPixel >= 2 else { throw Failure(message: "Invalid zoom: minimum 2") }
        log.info("Generating waveform data...\nSamples per pixel: \(samplesPerPixel)\nInput channels: \(reader.channels)\n"
                 + "Output channels: \(options.splitChannels ? reader.channels : 1)")
        var data = try WaveformData.make(reader, samplesPerPixel: samplesPerPixel, splitChannels: options.splitChannels)
        log.info("Read \(reader.framesRead) frames\nGenerated \(data.length) points")
        // Only "auto" scales peaks (a factor scales audiowaveform's images alone).
        if options.amplitudeScale == nil { data = data.scaled(by: data.fullScaleFactor) }
        try save(data, bits: options.bits, as: options.outputFormat, to: options.outputFilename, log: log)
    }

    /// Peaks to peaks or text, at the bits asked for, else the input's.
    private static func convert(_ options: AudiowaveformOptions, log: Log) throws {
        let data: WaveformData
        do { data = try WaveformData.read(path: options.inputFilename.isEmpty ? "-" : options.inputFilename) } catch let error as AudioError {
            if case .missing = error { throw Failure(message: "Failed to read data file: \(options.inputFilename)\nNo such file or directory") }
            throw Failure(message: "Failed to read data file: \(shownInput(options.inputFilename))\n\(error)")
        }
        log.info("Input file: \(shownInput(options.inputFilename))\nChannels: \(data.channels)\nSample rate: \(data.sampleRate) Hz\n"
                 + "Bits: \(data.bits)\nSamples per pixel: \(data.samplesPerPixel)\nLength: \(data.length) points")
        try save(data, bits: options.hasBits ? options.bits : data.bits, as: options.outputFormat, to: options.outputFilename, log: log)
    }

    /// Raw input's settings, checked as audiowaveform configures its reader.
    private static func checkRaw(_ options: AudiowaveformOptions) throws {
        guard options.inputFormat == .raw else { return }
        guard options.rawChannels > 0 else { throw Failure(message: "Invalid number of input channels: must be greater than zero") }
        guard options.rawSampleRate > 0 else { throw Failure(message: "Invalid input sample rate: must be greater than zero") }
        let formats = ["s8", "u8", "s16le", "s16be", "s24le", "s24be", "s32le", "s32be", "f32le", "f32be", "f64le", "f64be"]
        guard formats.contains(options.rawFormat) else { throw Failure(message: "Unsupported format: \(options.rawFormat)") }
    }

    /// An image's options, checked in audiowaveform's order before anything
    /// is drawn: the scale, the colours, the start, the style and the bars,
    /// then the input and the zoom it gives.
    private static func checkImage(_ options: AudiowaveformOptions) throws {
        let scale = options.samplesPerPixel == nil ? nil : try samplesPerPixel(options)
        guard ["audacity", "audition"].contains(options.colorScheme) else {
            throw Failure(message: "Unknown color scheme: \(options.colorScheme)")
        }
        guard options.start >= 0 else { throw Failure(message: "Invalid start time: minimum 0") }
        guard ["normal", "bars"].contains(options.waveformStyle) else {
            throw Failure(message: "Unknown waveform style: \(options.waveformStyle)")
        }
        if options.waveformStyle == "bars" {
            guard ["square", "rounded"].contains(options.barStyle) else { throw Failure(message: "Unknown waveform bar style: \(options.barStyle)") }
            guard options.barWidth >= 1 else { throw Failure(message: "Invalid bar width: minimum 1") }
            guard options.barGap >= 0 else { throw Failure(message: "Invalid bar gap: minimum 0") }
        }
        if options.inputFormat.isAudio, let scale {
            try checkRaw(options)
            let reader = try open(options.inputFilename)
            guard scale(reader.sampleRate) >= 2 else { throw Failure(message: "Invalid zoom: minimum 2") }
        }
    }

    /// The samples a pair for a sample rate, as audiowaveform's scale factors give it.
    private static func samplesPerPixel(_ options: AudiowaveformOptions) throws -> (Int) -> Int {
        if options.hasSamplesPerPixel && options.hasEnd { throw Failure(message: "Specify either --end or --zoom but not both") }
        if options.hasPixelsPerSecond && options.hasEnd { throw Failure(message: "Specify either --end or --pixels-per-second but not both") }
        if options.hasSamplesPerPixel && options.hasPixelsPerSecond {
            throw Failure(message: "Specify either --zoom or --pixels-per-second but not both")
        }
        if options.hasEnd {
            let (start, end, width) = (options.start, options.end, options.width)
            guard end >= start else { throw Failure(message: "Invalid end time, must be greater than \(shortest(start))") }
            guard width >= 1 else { throw Failure(message: "Invalid image width: minimum 1") }
            return { rate in Int(Int64((end - start) * Double(rate)) / Int64(width)) }
        }
        if options.hasPixelsPerSecond {
            let pps = options.pixelsPerSecond
            guard pps > 0 else { throw Failure(message: "Invalid pixels per second: must be greater than zero") }
            return { rate in rate / pps }
        }
        let fixed = options.samplesPerPixel ?? 0
        return { _ in fixed }
    }

    /// An audio input (`-` or none: standard input), or audiowaveform's message where there is none.
    private static func open(_ name: String) throws -> AudioReader {
        let path = name.isEmpty ? "-" : name
        do { return try AudioReader(path: path) } catch let error as AudioError {
            if case .missing = error { throw Failure(message: "Failed to read file: \(name)\nSystem error : No such file or directory.") }
            throw Failure(message: (path == "-" ? "Failed to read input: " : "Failed to read file: \(name)\n") + "\(error)")
        }
    }

    /// The peaks written as `.dat`, `.json` or `.txt` at `bits`, to a file (whole or not at all) or standard output.
    private static func save(_ data: WaveformData, bits: Int, as format: AudiowaveformFormat, to name: String, log: Log) throws {
        let shown = name.isEmpty || name == "-" ? "(stdout)" : name
        log.info("Output file: \(shown)")
        if format == .dat { log.info("Resolution: \(bits) bits\nChannels: \(data.channels)") }
        let peaks = data.atBits(bits)
        let bytes = format == .dat ? peaks.dat() : format == .json ? peaks.json() : peaks.txt()
        if shown == "(stdout)" {
            guard write(bytes) == 0 else { throw Failure(message: "Failed to write data file: \(shown)\n\(String(cString: strerror(errno)))") }
            return
        }
        do { try AtomicFile.write(bytes, to: name) } catch {
            throw Failure(message: "Failed to write data file: \(name)\n\(error)")
        }
    }

    private static func shownInput(_ name: String) -> String { name.isEmpty || name == "-" ? "(stdin)" : name }

    /// A number as C++'s stream prints a double (six significant digits).
    private static func shortest(_ value: Double) -> String { String(format: "%g", value) }

    /// Bytes to standard output, whole; 0, or 1 where they could not be written.
    @discardableResult
    private static func write(_ bytes: Data) -> Int32 {
        let written = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        return written ? 0 : 1
    }
}
