import Foundation
import XCTest
import WaveImageIO
import WaveTestSupport

/// `waves audiowaveform`: audiowaveform 1.10.3's command line for peaks,
/// checked against values computed here from the samples the tests write
/// (audiowaveform's documented algorithm: each frame's channels summed and
/// divided by their count toward zero, min and max a group, 8-bit values
/// / 256 toward zero; its .dat version 1 for one channel, 2 for several),
/// and its refusals, word for word. Where AUDIOWAVEFORM_TESTDATA names a
/// copy of audiowaveform's test/data, its peaks cases are run against its
/// reference files too.
final class AudiowaveformCommandTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func audiowaveform(_ words: [String]) throws -> WavesBinary.Result {
        try WavesBinary.run(["audiowaveform"] + words, in: folder)
    }

    private func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) }

    private let track = AudiowaveformTrack()
    private func writeStereo() throws { FileManager.default.createFile(atPath: folder + "/stereo.wav", contents: track.wav) }
    private func pairs(samplesPerPixel: Int, split: Bool, bits: Int) -> [Int] { track.pairs(samplesPerPixel: samplesPerPixel, split: split, bits: bits) }
    private func int32(_ v: Int) -> [UInt8] { AudiowaveformTrack.int32(v) }

    func testPeaksAreAudiowaveformsBytesMonoAsVersionOneAndSplitAsVersionTwo() throws {
        try writeStereo()
        let mono = try audiowaveform(["-i", "stereo.wav", "-o", "mono.dat", "-z", "64", "-b", "8"])
        XCTAssertEqual(mono.status, 0, mono.stderr)
        XCTAssertTrue(mono.stderr.hasSuffix("Done\n"), mono.stderr)
        XCTAssertEqual(mono.stdout, "")
        let expected = pairs(samplesPerPixel: 64, split: false, bits: 8)
        XCTAssertEqual(try bytes("mono.dat"), int32(1) + int32(1) + int32(16_000) + int32(64) + int32(expected.count / 2)
                       + expected.map { UInt8(bitPattern: Int8($0)) })
        let split = try audiowaveform(["-i", "stereo.wav", "-o", "split.dat", "-z", "100", "--split-channels"])
        XCTAssertEqual(split.status, 0, split.stderr)
        let sixteen = pairs(samplesPerPixel: 100, split: true, bits: 16)
        XCTAssertEqual(try bytes("split.dat"), int32(2) + int32(0) + int32(16_000) + int32(100) + int32(sixteen.count / 4) + int32(2)
                       + sixteen.flatMap { v in withUnsafeBytes(of: Int16(v).littleEndian) { Array($0) } })
        // JSON and text, from the audio and converted from the .dat, alike.
        let json = "{\"version\":2,\"channels\":1,\"sample_rate\":16000,\"samples_per_pixel\":64,\"bits\":8,\"length\":\(expected.count / 2),"
            + "\"data\":[" + expected.map(String.init).joined(separator: ",") + "]}\n"
        XCTAssertEqual(try audiowaveform(["-i", "stereo.wav", "-o", "a.json", "-z", "64", "-b", "8"]).status, 0)
        XCTAssertEqual(String(decoding: try bytes("a.json"), as: UTF8.self), json)
        XCTAssertEqual(try audiowaveform(["-i", "mono.dat", "-o", "b.json"]).status, 0)
        XCTAssertEqual(String(decoding: try bytes("b.json"), as: UTF8.self), json)
        XCTAssertEqual(try audiowaveform(["-i", "split.dat", "-o", "c.txt", "-b", "8"]).status, 0)
        let lines = stride(from: 0, to: sixteen.count, by: 4).map { i in sixteen[i..<(i + 4)].map { String($0 / 256) }.joined(separator: ",") }
        XCTAssertEqual(String(decoding: try bytes("c.txt"), as: UTF8.self), lines.joined(separator: "\n") + "\n")
    }

    func testStandardInputAndOutputAndQuiet() throws {
        try writeStereo()
        XCTAssertEqual(try audiowaveform(["-i", "stereo.wav", "-o", "file.dat", "-z", "64"]).status, 0)
        let piped = try WavesBinary.execute(["sh", "-c", "cat stereo.wav | \"$0\" audiowaveform --input-format wav --output-format dat -z 64 -q > out.dat",
                                             WavesBinary.path], in: folder)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stderr, "", "-q: nothing on stderr")
        XCTAssertEqual(try bytes("out.dat"), try bytes("file.dat"))
    }

    func testTheLinkNamedAudiowaveformIsTheSameProgram() throws {
        try writeStereo()
        let link = folder + "/audiowaveform"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: WavesBinary.path)
        let result = try WavesBinary.execute([link, "-i", "stereo.wav", "-o", "l.dat", "-z", "64", "-b", "8"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try audiowaveform(["-i", "stereo.wav", "-o", "w.dat", "-z", "64", "-b", "8"]).status, 0)
        XCTAssertEqual(try bytes("l.dat"), try bytes("w.dat"))
        let version = try WavesBinary.execute([link, "--version"], in: folder)
        XCTAssertEqual(version.stdout, "AudioWaveform v1.10.3\n")
        let refused = try WavesBinary.execute([link, "--foo"], in: folder)
        XCTAssertEqual(refused.stderr, "Error: unrecognised option '--foo'\nSee '\(link) --help' for available options\n")
    }

    /// Each refusal is audiowaveform's sentence, status 1, nothing written.
    func testRefusalsAreAudiowaveformsWords() throws {
        try writeStereo()
        let usage = "\nSee 'waves audiowaveform --help' for available options\n"
        let cases: [([String], String)] = [
            (["--foo"], "Error: unrecognised option '--foo'" + usage),
            (["-x"], "Error: unrecognised option '-x'" + usage),
            (["-i"], "Error: the required argument for option '--input-filename' is missing" + usage),
            (["-i", "-o", "x.dat"], "Error: the required argument for option '--input-filename' is missing" + usage),
            (["-w", "abc", "-i", "stereo.wav", "-o", "x.png"], "Error: the argument ('abc') for option '--width' is invalid" + usage),
            (["-i", "a", "-i", "b"], "Error: option '--input-filename' cannot be specified more than once" + usage),
            (["--he"], "Error: option '--he' is ambiguous and matches '--height', and '--help'" + usage),
            (["--split-channels=1", "-i", "stereo.wav"], "Error: option '--split-channels' does not take any arguments" + usage),
            (["-o", "x.dat"], "Error: Must specify either input filename or input format" + usage),
            (["-i", "stereo.wav"], "Error: Must specify either output filename or output format" + usage),
            (["-i", "stereo.wav", "-o", "x.dat", "-b", "12"], "Error: Invalid bits: must be either 8 or 16" + usage),
            (["-i", "stereo.wav", "-o", "x.dat", "-z", "abc"], "Error: Invalid zoom: must be a number or 'auto'" + usage),
            (["-i", "stereo.wav", "-o", "x.dat", "-z", "99999999999"], "Error: Invalid zoom: number too large" + usage),
            (["-i", "stereo.wav", "-o", "x.dat", "--amplitude-scale", "x"], "Error: Invalid amplitude scale: must be a number" + usage),
            (["-i", "stereo.wav", "-o", "x.dat", "--amplitude-scale", "-1"], "Error: Invalid amplitude scale: must be a positive number" + usage),
            (["-i", "stereo.wav", "-o", "x.dat", "-z", "1"], "Invalid zoom: minimum 2\n"),
            (["-i", "stereo.wav", "-o", "x.dat", "-z", "64", "-e", "2"], "Specify either --end or --zoom but not both\n"),
            (["-i", "stereo.wav", "-o", "x.dat", "-s", "1", "-e", "0.5"], "Invalid end time, must be greater than 1\n"),
            (["-i", "stereo.wav", "-o", "x.mp3"], "Can't generate mp3 format output from wav format input\n"),
            (["-i", "stereo.wav", "-o", "x.xyz"], "Can't generate Unknown file format\n"),
            (["-i", "missing.wav", "-o", "x.dat"], "Failed to read file: missing.wav\nSystem error : No such file or directory.\n"),
            (["-i", "stereo.wav", "-o", "x.png", "--colors", "test"], "Unknown color scheme: test\n"),
            (["-i", "stereo.wav", "-o", "x.png", "--waveform-style", "bars", "--bar-width", "0"], "Invalid bar width: minimum 1\n"),
            (["--input-format", "raw", "-o", "x.wav", "--raw-samplerate", "1", "--raw-channels", "0", "--raw-format", "s16le"],
             "Invalid number of input channels: must be greater than zero\n"),
        ]
        for (words, message) in cases {
            let result = try audiowaveform(words)
            XCTAssertEqual(result.status, 1, "\(words)")
            XCTAssertTrue(result.stderr.hasSuffix(message), "\(words): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(words)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/x.dat"), "\(words)")
        }
    }

    func testTheHelpIsAudiowaveformsTable() throws {
        let help = try audiowaveform(["--help"])
        XCTAssertEqual(help.status, 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.first, "AudioWaveform v1.10.3")
        XCTAssertTrue(lines.contains("  -z [ --zoom ] arg (=256)        zoom level (samples per pixel)"), help.stdout)
        XCTAssertTrue(lines.contains("  -i [ --input-filename ] arg     input file name (.mp3, .wav, .flac, .ogg, "), help.stdout)
        XCTAssertTrue(lines.contains("                                  .oga, .opus, .dat, .json)"), help.stdout)
        XCTAssertTrue(help.stdout.hasSuffix("\nSee audiowaveform(1) for usage examples\n"))
        XCTAssertLessThanOrEqual(lines.map(\.count).max() ?? 0, 80)
    }

    /// Every case of audiowaveform's own suite that writes a file (its
    /// refusals are above), where AUDIOWAVEFORM_TESTDATA names its test/data:
    /// peaks, text and WAV byte for byte, images pixel for pixel as libpng reads them.
    func testAudiowaveformsOwnCasesWhereItsDataIsGiven() throws {
        guard let data = ProcessInfo.processInfo.environment["AUDIOWAVEFORM_TESTDATA"] else {
            throw XCTSkip("AUDIOWAVEFORM_TESTDATA is not set: audiowaveform's test/data is not in this repository (GPL)")
        }
        let peaks = ["-b", "8", "-z", "64"], image = ["-z", "128"], stereo = "test_file_stereo_8bit_64spp_wav.dat"
        let colours = ["-z", "128", "--border-color", "ff0000", "--background-color", "00ff0080", "--axis-label-color", "ffffff"]
        let cases: [(String, String, [String])] = [
            ("test_file_mono.mp3", "test_file_mono_converted.wav", []),
            ("test_file_mono.raw", "test_file_mono.wav", ["--raw-samplerate", "16000", "--raw-channels", "1", "--raw-format", "s16le"]),
            ("test_file_stereo.wav", "test_file_stereo_8bit_64spp_wav.dat", peaks),
            ("test_file_stereo.wav", "test_file_2channel_8bit_64spp_wav.dat", peaks + ["--split-channels"]),
            ("test_file_mono_float32.wav", "test_file_mono_float32_8bit_64spp.dat", peaks),
            ("test_file_stereo.flac", "test_file_stereo_8bit_64spp_flac.dat", peaks),
            ("test_file_stereo.mp3", "test_file_stereo_8bit_64spp_mp3.dat", peaks),
            ("test_file_stereo.oga", "test_file_stereo_8bit_64spp_oga.dat", peaks),
            ("test_file_stereo.opus", "test_file_stereo_8bit_64spp_opus.dat", peaks),
            ("test_file_stereo.wav", "test_file_stereo_8bit_64spp_wav.json", peaks),
            ("test_file_stereo.flac", "test_file_stereo_8bit_64spp_flac.json", peaks),
            ("test_file_stereo.mp3", "test_file_stereo_8bit_64spp_mp3.json", peaks),
            ("test_file_stereo.oga", "test_file_stereo_8bit_64spp_oga.json", peaks),
            ("test_file_stereo.opus", "test_file_stereo_8bit_64spp_opus.json", peaks),
            ("test_file_stereo.wav", "test_file_stereo_8bit_64spp_wav_auto_scale.dat", peaks + ["--amplitude-scale", "auto"]),
            ("test_file_stereo.wav", "test_file_stereo_8bit_64spp_wav_auto_scale.json", peaks + ["--amplitude-scale", "auto"]),
            (stereo, "test_file_stereo_8bit_64spp_wav.json", []),
            ("07023003_8bit_64spp_2channel.dat", "07023003_8bit_64spp_2channel.json", []),
            (stereo, "test_file_stereo_8bit_64spp_wav.txt", []),
            ("07023003_8bit_64spp_2channel.dat", "07023003_8bit_64spp_2channel.txt", []),
            ("test_file_stereo_8bit_64spp_wav.json", stereo, []),
            ("test_file_stereo_8bit_64spp_wav.json", "test_file_stereo_8bit_64spp_wav.txt", []),
            ("test_file_image_amplitude_scale_1channel.dat", "test_file_image_amplitude_scale_1channel.png", ["-z", "64"]),
            ("test_file_image_amplitude_scale_2channel.dat", "test_file_image_amplitude_scale_2channel.png", ["-z", "64"]),
            (stereo, "test_file_stereo_dat_128spp.png", image),
            ("test_file_stereo_8bit_64spp_wav.json", "test_file_stereo_dat_128spp.png", image),
            ("test_file_mono_float32.wav", "test_file_mono_float32_128spp.png", image),
            ("test_file_stereo.wav", "test_file_stereo_wav_128spp.png", image),
            ("test_file_stereo.mp3", "test_file_stereo_mp3_128spp.png", image),
            ("test_file_stereo.flac", "test_file_stereo_flac_128spp.png", image),
            ("test_file_stereo.oga", "test_file_stereo_oga_128spp.png", image),
            ("test_file_stereo.opus", "test_file_stereo_opus_128spp.png", image),
            (stereo, "test_file_stereo_dat_128spp_audition.png", image + ["--colors", "audition"]),
            (stereo, "test_file_stereo_dat_128spp_colors.png", colours + ["--waveform-color", "0000ff"]),
            ("test_file_stereo.wav", "test_file_stereo_wav_split_channels.png", colours + ["--waveform-color", "0000ff,000080", "--split-channels"]),
            (stereo, "test_file_stereo_dat_128spp_no_axis_labels.png", image + ["--no-axis-labels"]),
            (stereo, "test_file_stereo_dat_128spp_scale_1.5.png", image + ["--amplitude-scale", "1.5"]),
            (stereo, "test_file_stereo_dat_128spp_scale_auto.png", image + ["--amplitude-scale", "auto"]),
            ("test_file_stereo.mp3", "test_file_stereo_mp3_500.png", ["-z", "auto", "-w", "500", "-h", "150"]),
            ("test_file_stereo.wav", "test_file_stereo_wav_500.png", ["-z", "auto", "-w", "500", "-h", "150"]),
            ("test_file_2channel_8bit_64spp_wav.dat", "test_file_2channel_8bit_64spp_wav.png", image + ["--split-channels"]),
            (stereo, "test_file_stereo_dat_128spp_offset.png", image + ["--start", "0.5"]),
            (stereo, "test_file_stereo_dat_128spp_square_bars.png", image + ["--waveform-style", "bars"]),
            (stereo, "test_file_stereo_dat_128spp_rounded_bars.png", image + ["--waveform-style", "bars", "--bar-style", "rounded"]),
            (stereo, "test_file_stereo_dat_128spp_square_bars_offset.png", image + ["--waveform-style", "bars", "--start", "0.5"]),
            ("test_file_2channel_8bit_64spp_wav.dat", "test_file_2channel_8bit_64spp_wav_bars.png", image + ["--waveform-style", "bars", "--split-channels"]),
        ]
        for (input, reference, words) in cases {
            let output = "out." + (reference.split(separator: ".").last ?? "")
            let format = input.hasSuffix(".raw") ? ["--input-format", "raw"] : []
            let result = try audiowaveform(["-i", data + "/" + input, "-o", output] + format + words)
            XCTAssertEqual(result.status, 0, "\(input) -> \(reference): \(result.stderr)")
            if output.hasSuffix(".png") {
                let (actual, expected) = (try PNG.read(from: folder + "/" + output), try PNG.read(from: data + "/" + reference))
                assertImagesMatch(actual, expected, mean: 0, max: 0, name: "audiowaveform-suite-" + reference)
            } else {
                XCTAssertEqual(try bytes(output), [UInt8](try Data(contentsOf: URL(fileURLWithPath: data + "/" + reference))), "\(input) -> \(reference)")
            }
        }
    }
}
