import Foundation
import WaveCore

/// BBC audiowaveform 1.10.3's command line, read as its Boost.Program_options
/// table reads it: `--name value`, `--name=value`, a long name's unambiguous
/// prefix, `-x value` and `-xvalue`; a value is the next word unless that
/// word is one of the options; words that are no option's are ignored. Each
/// refusal is audiowaveform's own sentence (`AudiowaveformOptions.Refusal`).
package struct AudiowaveformOptions {
    /// One row of the table: the long name, its letter, whether it takes a
    /// value, its default as the help shows it, and its help.
    struct Row {
        let name: String
        let letter: Character?
        let takesValue: Bool
        let shownDefault: String?
        let help: String
    }

    static let rows: [Row] = [
        Row(name: "help", letter: nil, takesValue: false, shownDefault: nil, help: "show help message"),
        Row(name: "version", letter: "v", takesValue: false, shownDefault: nil, help: "show version information"),
        Row(name: "quiet", letter: "q", takesValue: false, shownDefault: nil, help: "disable progress and information messages"),
        Row(name: "input-filename", letter: "i", takesValue: true, shownDefault: nil, help: "input file name (.mp3, .wav, .flac, .ogg, .oga, .opus, .dat, .json)"),
        Row(name: "output-filename", letter: "o", takesValue: true, shownDefault: nil, help: "output file name (.wav, .dat, .png, .json)"),
        Row(name: "split-channels", letter: nil, takesValue: false, shownDefault: nil, help: "output multi-channel waveform data or image files"),
        Row(name: "input-format", letter: nil, takesValue: true, shownDefault: nil, help: "input file format (mp3, wav, flac, ogg, raw, opus, dat, json)"),
        Row(name: "output-format", letter: nil, takesValue: true, shownDefault: nil, help: "output file format (wav, dat, png, json)"),
        Row(name: "zoom", letter: "z", takesValue: true, shownDefault: "256", help: "zoom level (samples per pixel)"),
        Row(name: "pixels-per-second", letter: nil, takesValue: true, shownDefault: "100", help: "zoom level (pixels per second)"),
        Row(name: "bits", letter: "b", takesValue: true, shownDefault: "16", help: "bits (8 or 16)"),
        Row(name: "start", letter: "s", takesValue: true, shownDefault: "0", help: "start time (seconds)"),
        Row(name: "end", letter: "e", takesValue: true, shownDefault: "0", help: "end time (seconds)"),
        Row(name: "width", letter: "w", takesValue: true, shownDefault: "800", help: "image width (pixels)"),
        Row(name: "height", letter: "h", takesValue: true, shownDefault: "250", help: "image height (pixels)"),
        Row(name: "colors", letter: "c", takesValue: true, shownDefault: "audacity", help: "color scheme (audition or audacity)"),
        Row(name: "border-color", letter: nil, takesValue: true, shownDefault: nil, help: "border color (rrggbb[aa])"),
        Row(name: "background-color", letter: nil, takesValue: true, shownDefault: nil, help: "background color (rrggbb[aa])"),
        Row(name: "waveform-color", letter: nil, takesValue: true, shownDefault: nil, help: "waveform color (rrggbb[aa])"),
        Row(name: "waveform-style", letter: nil, takesValue: true, shownDefault: "normal", help: "waveform style (normal or bars)"),
        Row(name: "bar-width", letter: nil, takesValue: true, shownDefault: "8", help: "bar width (pixels)"),
        Row(name: "bar-gap", letter: nil, takesValue: true, shownDefault: "4", help: "bar gap (pixels)"),
        Row(name: "bar-style", letter: nil, takesValue: true, shownDefault: "square", help: "bar style (square or rounded)"),
        Row(name: "axis-label-color", letter: nil, takesValue: true, shownDefault: nil, help: "axis label color (rrggbb[aa])"),
        Row(name: "no-axis-labels", letter: nil, takesValue: false, shownDefault: nil, help: "render waveform image without axis labels"),
        Row(name: "with-axis-labels", letter: nil, takesValue: false, shownDefault: nil, help: "render waveform image with axis labels (default)"),
        Row(name: "amplitude-scale", letter: nil, takesValue: true, shownDefault: "1.0", help: "amplitude scale"),
        Row(name: "compression", letter: nil, takesValue: true, shownDefault: "-1", help: "PNG compression level: 0 (none) to 9 (best), or -1 (default)"),
        Row(name: "raw-samplerate", letter: nil, takesValue: true, shownDefault: nil, help: "sample rate for raw audio input (Hz)"),
        Row(name: "raw-channels", letter: nil, takesValue: true, shownDefault: nil, help: "number of channels for raw audio input"),
        Row(name: "raw-format", letter: nil, takesValue: true, shownDefault: nil, help: "format for raw audio input (s8, u8, s16le, s16be, s24le, s24be, s32le, s32be, f32le, f32be, f64le, f64be)"),
    ]

    /// A refusal of the command line: audiowaveform prints "Error: " and it,
    /// then where to read more, and exits 1.
    package struct Refusal: Error { package let message: String }

    /// The words given, by long name (a flag's value is "").
    private(set) var given: [String: String] = [:]

    package var wantsHelp: Bool { given["help"] != nil }
    package var wantsVersion: Bool { given["version"] != nil }
    package var quiet: Bool { given["quiet"] != nil }
    package var splitChannels: Bool { given["split-channels"] != nil }
    package var inputFilename: String { given["input-filename"] ?? "" }
    package var outputFilename: String { given["output-filename"] ?? "" }
    package var inputFormat = AudiowaveformFormat.unknown
    package var outputFormat = AudiowaveformFormat.unknown
    /// `-z`: nil for auto.
    package var samplesPerPixel: Int? = 256
    package var hasSamplesPerPixel: Bool { given["zoom"] != nil }
    package var pixelsPerSecond = 100
    package var hasPixelsPerSecond: Bool { given["pixels-per-second"] != nil }
    package var bits = 16
    package var hasBits: Bool { given["bits"] != nil }
    package var start = 0.0
    package var end = 0.0
    package var hasEnd: Bool { given["end"] != nil }
    package var width = 800
    package var height = 250
    /// `--amplitude-scale`: nil for auto.
    package var amplitudeScale: Double? = 1
    package var colorScheme: String { given["colors"] ?? "audacity" }
    package var waveformStyle: String { given["waveform-style"] ?? "normal" }
    package var barStyle: String { given["bar-style"] ?? "square" }
    package var barWidth = 8
    package var barGap = 4
    /// `--border-color`, `--background-color`, `--axis-label-color`: nil where not given (the scheme's).
    package var borderColor, backgroundColor, axisLabelColor: RGBA8?
    /// `--waveform-color`: a colour a channel, comma-separated; nil where not given.
    package var waveformColors: [RGBA8]?
    package var axisLabels: Bool { given["no-axis-labels"] == nil }
    package var compression = -1
    package var rawSampleRate = 0
    package var rawChannels = 0
    package var rawFormat: String { given["raw-format"] ?? "" }

    /// The words after the program's name, read; throws `Refusal`.
    package static func parse(_ words: [String]) throws -> AudiowaveformOptions {
        var options = AudiowaveformOptions()
        var i = 0
        while i < words.count {
            let word = words[i]
            i += 1
            guard word.count > 1, word.hasPrefix("-"), word != "--" else { continue }
            var row: Row, attached: String?
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                attached = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                row = try longRow(name, as: word)
            } else {
                let letter = word.dropFirst().first!
                guard let found = rows.first(where: { $0.letter == letter }) else {
                    throw Refusal(message: "unrecognised option '\(word.prefix(2))'")
                }
                row = found
                let rest = String(word.dropFirst(2))
                if !rest.isEmpty {
                    if row.takesValue { attached = rest } else {
                        // Flags may share a dash (-qv): each is read in turn.
                        for other in rest {
                            guard let flag = rows.first(where: { $0.letter == other }), !flag.takesValue else {
                                throw Refusal(message: "unrecognised option '-\(other)'")
                            }
                            try options.record(flag, "")
                        }
                    }
                }
            }
            if !row.takesValue {
                if attached != nil { throw Refusal(message: "option '--\(row.name)' does not take any arguments") }
                try options.record(row, "")
                continue
            }
            if let attached { try options.record(row, attached); continue }
            guard i < words.count, !isOption(words[i]) else {
                throw Refusal(message: "the required argument for option '--\(row.name)' is missing")
            }
            try options.record(row, words[i])
            i += 1
        }
        if options.wantsHelp || options.wantsVersion { return options }
        try options.interpret()
        return options
    }

    /// The row a long name (or its unambiguous prefix) names.
    private static func longRow(_ name: String, as word: String) throws -> Row {
        if let exact = rows.first(where: { $0.name == name }) { return exact }
        let matches = rows.filter { $0.name.hasPrefix(name) && !name.isEmpty }
        guard let first = matches.first else { throw Refusal(message: "unrecognised option '\(word)'") }
        guard matches.count == 1 else {
            let names = matches.map { "'--\($0.name)'" }.sorted()
            let listed = names.dropLast().joined(separator: ", ") + ", and " + names.last!
            throw Refusal(message: "option '--\(name)' is ambiguous and matches \(listed)")
        }
        return first
    }

    /// Whether a word is one of the options (so not the value before it).
    private static func isOption(_ word: String) -> Bool {
        guard word.count > 1, word.hasPrefix("-") else { return false }
        if word.hasPrefix("--") {
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            return !name.isEmpty && rows.contains { $0.name.hasPrefix(name) }
        }
        return rows.contains { $0.letter == word.dropFirst().first }
    }

    private mutating func record(_ row: Row, _ value: String) throws {
        guard given[row.name] == nil else { throw Refusal(message: "option '--\(row.name)' cannot be specified more than once") }
        given[row.name] = value
    }

    /// Typed values, in the order audiowaveform checks them.
    private mutating func interpret() throws {
        func int(_ name: String) throws -> Int? {
            guard let text = given[name] else { return nil }
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                  let value = Int32(text.first == "+" ? String(digits) : text) else {
                throw Refusal(message: "the argument ('\(text)') for option '--\(name)' is invalid")
            }
            return Int(value)
        }
        func double(_ name: String) throws -> Double? {
            guard let text = given[name] else { return nil }
            guard let value = Double(text), !text.hasPrefix(" ") else {
                throw Refusal(message: "the argument ('\(text)') for option '--\(name)' is invalid")
            }
            return value
        }
        func color(_ name: String) throws -> RGBA8? {
            guard let text = given[name] else { return nil }
            guard let color = AudiowaveformImage.color(text) else { throw Refusal(message: "Invalid color value") }
            return color
        }
        // Boost reads every typed value before audiowaveform's own checks.
        compression = try int("compression") ?? -1
        rawSampleRate = try int("raw-samplerate") ?? 0
        rawChannels = try int("raw-channels") ?? 0
        barWidth = try int("bar-width") ?? barWidth
        barGap = try int("bar-gap") ?? barGap
        pixelsPerSecond = try int("pixels-per-second") ?? pixelsPerSecond
        bits = try int("bits") ?? bits
        width = try int("width") ?? width
        height = try int("height") ?? height
        start = try double("start") ?? start
        end = try double("end") ?? end
        borderColor = try color("border-color")
        backgroundColor = try color("background-color")
        axisLabelColor = try color("axis-label-color")
        if let list = given["waveform-color"] {
            // Each comma-separated part a colour (a trailing comma ends the list, as getline reads it).
            let parts = list.split(separator: ",", omittingEmptySubsequences: false).dropLast(list.hasSuffix(",") ? 1 : 0)
            let colors = parts.map { AudiowaveformImage.color(String($0)) }
            guard !colors.contains(where: { $0 == nil }) else { throw Refusal(message: "Invalid waveform-color") }
            waveformColors = colors.map { $0! }
        }
        if given["input-filename"] == nil && given["input-format"] == nil {
            throw Refusal(message: "Must specify either input filename or input format")
        }
        inputFormat = AudiowaveformFormat(given["input-format"] ?? Self.extensionOf(inputFilename))
        try readAmplitudeScale(given["amplitude-scale"] ?? "1.0")
        try readZoom(given["zoom"] ?? "256")
        if given["output-filename"] == nil && given["output-format"] == nil {
            throw Refusal(message: "Must specify either output filename or output format")
        }
        outputFormat = AudiowaveformFormat(given["output-format"] ?? Self.extensionOf(outputFilename))
        guard bits == 8 || bits == 16 else { throw Refusal(message: "Invalid bits: must be either 8 or 16") }
        guard (-1...9).contains(compression) else {
            throw Refusal(message: "Invalid compression level: must be from 0 (none) to 9 (best), or -1 (default)")
        }
        if inputFormat == .raw {
            for name in ["raw-samplerate", "raw-channels", "raw-format"] where given[name] == nil {
                throw Refusal(message: "Missing --\(name) option")
            }
        }
    }

    /// `--amplitude-scale`: auto, or a number as `[+-]digits[.digits]`, not negative.
    private mutating func readAmplitudeScale(_ text: String) throws {
        if text == "auto" { amplitudeScale = nil; return }
        var body = text[...]
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let shaped = body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && parts.count <= 2
            && (parts.count < 2 || !parts[1].contains("."))
        guard shaped, let value = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
            throw Refusal(message: "Invalid amplitude scale: must be a number")
        }
        guard value >= 0 else { throw Refusal(message: "Invalid amplitude scale: must be a positive number") }
        amplitudeScale = value
    }

    /// `-z`: auto, or a whole number read as C's `stoi` reads it (white space
    /// first, what follows the digits ignored).
    private mutating func readZoom(_ text: String) throws {
        if text == "auto" { samplesPerPixel = nil; return }
        var body = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var sign = ""
        if body.first == "+" || body.first == "-" { sign = body.first == "-" ? "-" : ""; body = body.dropFirst() }
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { throw Refusal(message: "Invalid zoom: must be a number or 'auto'") }
        guard let value = Int32(sign + digits) else { throw Refusal(message: "Invalid zoom: number too large") }
        samplesPerPixel = Int(value)
    }

    private static func extensionOf(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex || name.count > 1 else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The help, as audiowaveform prints it (its table's columns, wrapped at 80).
    package static func help(programName: String) -> String {
        var lines = ["AudioWaveform v1.10.3", "", "Usage:", "  \(programName) [options]", "", "Options:"]
        for row in rows {
            var left = "  " + (row.letter.map { "-\($0) [ --\(row.name) ]" } ?? "--\(row.name)")
            if row.takesValue { left += " arg" }
            if let shown = row.shownDefault { left += " (=\(shown))" }
            let column = 34
            var words = row.help.split(separator: " ").map(String.init)
            var line = left.count < column ? left + String(repeating: " ", count: column - left.count) : left + " "
            var first = true
            while !words.isEmpty {
                var text = ""
                while let word = words.first, (text.isEmpty ? word.count : text.count + 1 + word.count) <= 80 - column {
                    text += (text.isEmpty ? "" : " ") + word
                    words.removeFirst()
                }
                if text.isEmpty { text = words.removeFirst() }
                lines.append((first ? line : String(repeating: " ", count: column)) + text + (words.isEmpty ? "" : " "))
                first = false
                line = ""
            }
        }
        return lines.joined(separator: "\n") + "\n\nSee audiowaveform(1) for usage examples\n"
    }
}

/// A format as audiowaveform names it, from an extension or `--input-format` / `--output-format`.
package enum AudiowaveformFormat: String {
    case mp3, wav, flac, ogg, opus, raw, dat, json, txt, png, unknown

    init(_ name: String) {
        switch name.lowercased() {
        case "w64": self = .wav
        case "oga": self = .ogg
        case let other: self = AudiowaveformFormat(rawValue: other) ?? .unknown
        }
    }

    var isAudio: Bool { [.mp3, .wav, .flac, .ogg, .opus, .raw].contains(self) }
    var isPeaks: Bool { self == .dat || self == .json }
}
