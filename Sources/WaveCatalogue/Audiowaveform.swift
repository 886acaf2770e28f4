import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveImageIO

/// `waves audiowaveform ARGS` (and the binary started as `audiowaveform`):
/// audiowaveform 1.10.3's command line, its choices made in its order
/// (OptionHandler's): audio to WAV; audio to peaks (.dat, .json); peaks to
/// peaks or text (.txt), rescaled where a zoom is given; audio or peaks to
/// a PNG. Its information lines and "Done" on stderr (none with `-q`), its
/// messages and exit status 1; standard input where no `-i` is given (with
/// `--input-format`), standard output where no `-o`. The peaks are
/// `WaveformData.make`'s, the ones `waves peaks` writes; MP3 is `MP3Decoder`'s;
/// images are `AudiowaveformImage`'s.
package enum Audiowaveform {
    /// Runs the command line; returns the exit status. `programName` names it in messages.
    package static func run(_ words: [String], programName: String) -> Int32 {
        let options: AudiowaveformOptions
        do { options = try AudiowaveformOptions.parse(words) } catch {
            let message = (error as? AudiowaveformOptions.Refusal)?.message ?? "\(error)"
            printError("Error: \(message)\nSee '\(programName) --help' for available options")
            return 1
        }
        if options.wantsHelp || options.wantsVersion {
            let text = options.wantsHelp ? AudiowaveformOptions.help(programName: programName) : "AudioWaveform v1.10.3\n"
            return (try? StandardOutput.write(Data(text.utf8))) == nil ? 1 : 0
        }
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
        if [.mp3, .flac, .ogg, .opus, .raw].contains(input) && output == .wav { return try convertAudio(options, log: log) }
        if input.isAudio && output.isPeaks {
            return try generate(options, log: log)
        }
        if input.isPeaks && [.txt, .dat, .json].contains(output) && !resamples { return try convert(options, log: log) }
        if (input.isPeaks || input.isAudio) && output == .png { return try render(options, log: log) }
        if input.isPeaks && output.isPeaks && resamples { return try rescale(options, log: log) }
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
        var data = try makePeaks(options, scale: scale, log: log)
        // Only "auto" scales peaks (a factor scales audiowaveform's images alone).
        if options.amplitudeScale == nil { data = data.scaled(.auto) }
        try save(data, bits: options.bits, as: options.outputFormat, to: options.outputFilename, log: log)
    }

    /// The input's peaks at the scale's samples a pair (16-bit), as audiowaveform's generator makes and checks them.
    private static func makePeaks(_ options: AudiowaveformOptions, scale: (Int) -> Int, log: Log) throws -> WaveformData {
        let reader = try open(options)
        log.info("Input file: \(shownInput(options.inputFilename))")
        let samplesPerPixel = scale(reader.sampleRate)
        guard reader.channels <= WaveformData.maxChannels else {
            throw Failure(message: "Cannot generate waveform data from audio file with \(reader.channels) channels")
        }
        guard samplesPerPixel >= 2 else { throw Failure(message: "Invalid zoom: minimum 2") }
        log.info("Generating waveform data...\nSamples per pixel: \(samplesPerPixel)\nInput channels: \(reader.channels)\n"
                 + "Output channels: \(options.splitChannels ? reader.channels : 1)")
        let data = try WaveformData.make(reader, samplesPerPixel: samplesPerPixel, splitChannels: options.splitChannels)
        log.info("Read \(reader.framesRead) frames\nGenerated \(data.length) points")
        return data
    }

    /// Peaks to an image: the scale, colours, start and style checked in
    /// audiowaveform's order; the peaks read or made, fitted to the width
    /// for `-z auto`, rescaled where the zoom is coarser than theirs; libgd's PNG.
    private static func render(_ options: AudiowaveformOptions, log: Log) throws {
        let fixedScale = options.samplesPerPixel == nil ? nil : try samplesPerPixel(options)
        let image = try image(options)
        var peaks: WaveformData, wanted: Int
        if options.inputFormat.isPeaks {
            peaks = try load(options, log: log)
            // audiowaveform takes the peaks' duration in whole seconds.
            let seconds = Double(peaks.length * peaks.samplesPerPixel / peaks.sampleRate)
            wanted = try (fixedScale ?? fitting(seconds: seconds, width: options.width))(peaks.sampleRate)
        } else {
            let scale: (Int) -> Int
            if let fixedScale { scale = fixedScale } else {
                let reader = try open(options)
                log.info("Calculating audio duration...")
                let frames = try reader.announcedFrames ?? reader.countFrames()
                let seconds = Double(frames) / Double(reader.sampleRate)
                log.info("Duration: \(shortest(seconds)) seconds")
                scale = try fitting(seconds: seconds, width: options.width)
            }
            peaks = try makePeaks(options, scale: scale, log: log)
            wanted = peaks.samplesPerPixel
        }
        if wanted > peaks.samplesPerPixel {
            log.info("Rescaling to \(wanted) samples/pixel")
            peaks = peaks.rescaled(to: wanted)
        } else if wanted < peaks.samplesPerPixel {
            throw Failure(message: "Invalid zoom, minimum: \(peaks.samplesPerPixel)")
        }
        let bytes: Data
        do { bytes = try image.png(for: peaks, compression: options.compression) } catch let failure as AudiowaveformImage.ImageFailure {
            throw Failure(message: failure.message)
        }
        log.info("Image dimensions: \(image.width)x\(image.height) pixels\nChannels: \(peaks.channels)\n"
                 + "Sample rate: \(peaks.sampleRate) Hz\nSamples per pixel: \(peaks.samplesPerPixel)\n"
                 + "Start time: \(shortest(image.startTime)) seconds\nStart index: \(image.startIndex(of: peaks))\n"
                 + "Buffer size: \(peaks.length)\nAxis labels: \(image.axisLabels ? "yes" : "no")")
        try put(bytes, to: options.outputFilename, failure: "Failed to write PNG file", log: log)
    }

    /// The image's settings from the options, refused in audiowaveform's order and words.
    private static func image(_ options: AudiowaveformOptions) throws -> AudiowaveformImage {
        var image = AudiowaveformImage()
        guard let scheme = AudiowaveformScheme(rawValue: options.colorScheme) else {
            throw Failure(message: "Unknown color scheme: \(options.colorScheme)")
        }
        var colors = AudiowaveformImage.Colors(scheme)
        colors.border = options.borderColor ?? colors.border
        colors.background = options.backgroundColor ?? colors.background
        colors.waveform = options.waveformColors ?? colors.waveform
        colors.axisLabel = options.axisLabelColor ?? colors.axisLabel
        image.colors = colors
        guard options.start >= 0 else { throw Failure(message: "Invalid start time: minimum 0") }
        image.startTime = options.start
        switch options.waveformStyle {
        case "normal": image.style = .normal
        case "bars":
            guard ["square", "rounded"].contains(options.barStyle) else { throw Failure(message: "Unknown waveform bar style: \(options.barStyle)") }
            guard options.barWidth >= 1 else { throw Failure(message: "Invalid bar width: minimum 1") }
            guard options.barGap >= 0 else { throw Failure(message: "Invalid bar gap: minimum 0") }
            image.style = .bars(width: options.barWidth, gap: options.barGap, rounded: options.barStyle == "rounded")
        default: throw Failure(message: "Unknown waveform style: \(options.waveformStyle)")
        }
        image.amplitudeScale = options.amplitudeScale
        image.axisLabels = options.axisLabels
        (image.width, image.height) = (options.width, options.height)
        return image
    }

    /// Peaks to peaks at a coarser zoom (`-z`, `--pixels-per-second` or `--end`).
    private static func rescale(_ options: AudiowaveformOptions, log: Log) throws {
        let peaks = try load(options, log: log)
        let wanted = try samplesPerPixel(options)(peaks.sampleRate)
        guard wanted > peaks.samplesPerPixel else { throw Failure(message: "Invalid zoom, minimum: \(peaks.samplesPerPixel + 1)") }
        log.info("Rescaling to \(wanted) samples/pixel")
        let rescaled = peaks.rescaled(to: wanted)
        log.info("Generated \(rescaled.length) points")
        try save(rescaled, bits: options.hasBits ? options.bits : peaks.bits, as: options.outputFormat, to: options.outputFilename, log: log)
    }

    /// Peaks to peaks or text, at the bits asked for, else the input's.
    private static func convert(_ options: AudiowaveformOptions, log: Log) throws {
        let data = try load(options, log: log)
        try save(data, bits: options.hasBits ? options.bits : data.bits, as: options.outputFormat, to: options.outputFilename, log: log)
    }

    /// The input peaks file (`.dat` or `.json`), with audiowaveform's lines about it.
    private static func load(_ options: AudiowaveformOptions, log: Log) throws -> WaveformData {
        let data: WaveformData
        do { data = try WaveformData.read(path: options.inputFilename.isEmpty ? "-" : options.inputFilename) } catch let error as AudioError {
            if case .missing = error { throw Failure(message: "Failed to read data file: \(options.inputFilename)\nNo such file or directory") }
            throw Failure(message: "Failed to read data file: \(shownInput(options.inputFilename))\n\(error)")
        }
        log.info("Input file: \(shownInput(options.inputFilename))\nChannels: \(data.channels)\nSample rate: \(data.sampleRate) Hz\n"
                 + "Bits: \(data.bits)\nSamples per pixel: \(data.samplesPerPixel)\nLength: \(data.length) points")
        return data
    }

    /// Audio to a 16-bit WAV, the samples as the reader gives them (written whole, or to standard output but not a terminal).
    private static func convertAudio(_ options: AudiowaveformOptions, log: Log) throws {
        let reader = try open(options)
        log.info("Input file: \(shownInput(options.inputFilename))")
        let name = options.outputFilename
        log.info("Output file: \(shownOutput(name))")
        do {
            if shownOutput(name) == "(stdout)" {
                guard isatty(STDOUT_FILENO) == 0 else { throw Failure(message: "Cannot write WAV audio to the terminal") }
                try AudioWriter.writeWAV16(from: reader, to: nil)
            } else {
                try AtomicFile.replace(name) { try AudioWriter.writeWAV16(from: reader, to: $0) }
            }
        } catch let error as AudioError {
            throw Failure(message: "\(error)")
        }
        log.info("Read \(reader.framesRead) frames")
    }

    /// Raw input's layout, checked as audiowaveform configures its reader; nil for other inputs.
    private static func rawLayout(_ options: AudiowaveformOptions) throws -> AudioReader.RawLayout? {
        guard options.inputFormat == .raw else { return nil }
        guard options.rawChannels > 0 else { throw Failure(message: "Invalid number of input channels: must be greater than zero") }
        guard options.rawSampleRate > 0 else { throw Failure(message: "Invalid input sample rate: must be greater than zero") }
        guard let encoding = AudioReader.RawEncoding(rawValue: options.rawFormat) else {
            throw Failure(message: "Unsupported format: \(options.rawFormat)")
        }
        return AudioReader.RawLayout(channels: options.rawChannels, sampleRate: options.rawSampleRate, encoding: encoding)
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
            return try fitting(seconds: end - start, width: width)
        }
        if options.hasPixelsPerSecond {
            let pps = options.pixelsPerSecond
            guard pps > 0 else { throw Failure(message: "Invalid pixels per second: must be greater than zero") }
            return { rate in rate / pps }
        }
        let fixed = options.samplesPerPixel ?? 0
        return { _ in fixed }
    }

    /// `-z auto`'s scale: `seconds` of audio across `width` pixels.
    private static func fitting(seconds: Double, width: Int) throws -> (Int) -> Int {
        guard width >= 1 else { throw Failure(message: "Invalid image width: minimum 1") }
        return { rate in AudiowaveformImage.whole(seconds * Double(rate)) / width }
    }

    /// An audio input (`-` or none: standard input) in the format the options
    /// name (MP3 through libmad, the rest through libsndfile), or audiowaveform's message where there is none.
    private static func open(_ options: AudiowaveformOptions) throws -> PCM16Source {
        let name = options.inputFilename, path = name.isEmpty ? "-" : name
        let raw = try rawLayout(options)
        do {
            if options.inputFormat == .mp3 { return try MP3Decoder(path: path) }
            return try AudioReader(input: InputFile.open(path), raw: raw)
        } catch let error as AudioError {
            if case .missing = error { throw Failure(message: "Failed to read file: \(name)\nSystem error : No such file or directory.") }
            throw Failure(message: (path == "-" ? "Failed to read input: " : "Failed to read file: \(name)\n") + "\(error)")
        }
    }

    /// The peaks written as `.dat`, `.json` or `.txt` at `bits`, to a file (whole or not at all) or standard output.
    private static func save(_ data: WaveformData, bits: Int, as format: AudiowaveformFormat, to name: String, log: Log) throws {
        log.info("Output file: \(shownOutput(name))")
        if format == .dat { log.info("Resolution: \(bits) bits\nChannels: \(data.channels)") }
        let peaks = data.atBits(bits)
        try put(format == .dat ? peaks.dat() : format == .json ? peaks.json() : peaks.txt(), to: name, failure: "Failed to write data file", log: nil)
    }

    /// Bytes to a file (whole or not at all) or, for `-` or no name, standard output.
    private static func put(_ bytes: Data, to name: String, failure: String, log: Log?) throws {
        let shown = shownOutput(name)
        log?.info("Output file: \(shown)")
        if shown == "(stdout)" {
            do { try StandardOutput.write(bytes) } catch { throw Failure(message: "\(failure): \(shown)\n\(String(cString: strerror(errno)))") }
            return
        }
        do { try AtomicFile.write(bytes, to: name) } catch {
            throw Failure(message: "\(failure): \(name)\n\(error)")
        }
    }

    /// A file name as audiowaveform shows it: standard input and output (none, or `-`) by those names.
    private static func shownInput(_ name: String) -> String { name.isEmpty || name == "-" ? "(stdin)" : name }
    private static func shownOutput(_ name: String) -> String { name.isEmpty || name == "-" ? "(stdout)" : name }

    /// A number as C++'s stream prints a double (six significant digits).
    private static func shortest(_ value: Double) -> String { String(format: "%g", value) }
}
