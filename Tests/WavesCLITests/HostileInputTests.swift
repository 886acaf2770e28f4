import Foundation
import WaveAudio
import WaveEffects
import WaveImageIO
import WaveTestSupport
import XCTest

/// Input as it arrives in the world, driven through the binary: files cut
/// short or damaged, bytes that are no format at all, peaks with a
/// byte-order mark or the wrong name, compact SVG path data, streams (a
/// pipe, a FIFO, process substitution), and every option's wrong value.
/// Each ends in a picture or one line of Waves' own.
final class HostileInputTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String], timeout: TimeInterval = 60) throws -> WavesBinary.Result {
        try WavesBinary.run(arguments, in: folder, timeout: timeout)
    }

    /// A bash command line run in the folder, `waves` standing for the binary.
    private func shell(_ script: String) throws -> WavesBinary.Result {
        try WavesBinary.execute(["bash", "-c", "waves() { '\(WavesBinary.path)' \"$@\"; }; " + script], in: folder, timeout: 60)
    }

    private func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }
    private func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder + "/" + name) }
    private func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) }
    private func write(_ name: String, _ data: Data) { FileManager.default.createFile(atPath: folder + "/" + name, contents: data) }

    /// Four seconds of bursts at 8 kHz in `format`, written by libsndfile; returns its bytes.
    @discardableResult
    private func writeTrack(_ name: String, format: AudioWriter.Format, channels: Int = 1) throws -> Data {
        let track = GeneratedTrack(seconds: 4)
        try AudioWriter.write(to: folder + "/" + name, format: format, sampleRate: track.sampleRate, channels: channels,
                              frames: track.sampleCount) { n, _ in track.sample(n) }
        return try bytes(name)
    }

    private let render = ["render", "--scene", "waveform", "--backend", "cpu", "--size", "200x50"]

    // MARK: Damaged audio

    /// An MP3 as encoders write them (with a Xing/Info header, which holds
    /// the exact length; libsndfile's own encoder writes none), by ffmpeg.
    private func writeEncodedMP3(_ name: String, from wav: String) throws -> Data {
        // A program the tests need, as a GL context is: a failure in CI, a skip elsewhere.
        try GLRequirement.need("ffmpeg writing an MP3 (make deps installs it)") {
            let r = try WavesBinary.execute(["ffmpeg", "-v", "error", "-y", "-i", wav, name], in: folder)
            guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        }
        return try bytes(name)
    }

    /// A download cut off at 97%: the Ogg crashed (libsndfile's frame count
    /// SF_COUNT_MAX overflowed the plan), the MP3 printed mpg123's warnings.
    /// Now each draws and exports what decodes, with one warning line; with
    /// --strict, the same line, 65 and nothing written.
    func testATrackCutShortDrawsWhatDecodesWithOneWarningAndStrictRefusesIt() throws {
        try writeTrack("whole.wav", format: .wav, channels: 2)
        let tracks: [(String, Data)] = [
            ("ogg", try writeTrack("whole.ogg", format: .ogg, channels: 2)), ("mp3", try writeEncodedMP3("whole.mp3", from: "whole.wav")),
            ("flac", try writeTrack("whole.flac", format: .flac, channels: 2)), ("wav", try bytes("whole.wav")),
        ]
        for (format, whole) in tracks {
            let name = "cut.\(format)"
            write(name, whole.prefix(whole.count * 97 / 100))
            if format == "ogg" || format == "mp3" {
                let full = try waves(render + ["--audio", "whole.\(format)", "--out", "whole.png"])
                XCTAssertEqual(full.status, 0, "\(format): \(full.stderr)")
                XCTAssertEqual(full.stderr, "", "\(format): a whole track draws without a word")
            }
            let drawn = try waves(render + ["--audio", name, "--out", "cut.png"])
            XCTAssertEqual(drawn.status, 0, "\(format): \(drawn.stderr)")
            XCTAssertEqual(lines(drawn.stderr).count, 1, "\(format): \(drawn.stderr)")
            XCTAssertTrue(drawn.stderr.hasPrefix("waves: \(name): decoding stopped at ") && drawn.stderr.contains("drew what was read"),
                          "\(format): \(drawn.stderr)")
            XCTAssertNoThrow(try PNG.read(from: folder + "/cut.png"), format)

            let strict = try waves(render + ["--audio", name, "--out", "strict.png", "--strict"])
            XCTAssertEqual(strict.status, 65, "\(format): \(strict.stderr)")
            XCTAssertEqual(lines(strict.stderr).count, 1, "\(format): \(strict.stderr)")
            XCTAssertTrue(strict.stderr.contains("\(name): decoding stopped at"), strict.stderr)
            XCTAssertFalse(exists("strict.png"), "\(format): --strict writes nothing")
        }
        // The peaks command the same way.
        let peaks = try waves(["peaks", "--audio", "cut.ogg", "--json", "cut.json"])
        XCTAssertEqual(peaks.status, 0, peaks.stderr)
        XCTAssertEqual(lines(peaks.stderr).count, 1, peaks.stderr)
        XCTAssertGreaterThan(try WaveformData.read(path: folder + "/cut.json").length, 0)
        let strict = try waves(["peaks", "--audio", "cut.ogg", "--dat", "strict.dat", "--strict"])
        XCTAssertEqual(strict.status, 65, strict.stderr)
        XCTAssertEqual(lines(strict.stderr).count, 1, strict.stderr)
        XCTAssertFalse(exists("strict.dat"), "--strict writes nothing")
    }

    /// A FLAC header claiming 2^36 - 1 frames for a 4 s track was a plan: a
    /// 64 refusal blaming --pixels-per-second, and in fit mode one bar. Now
    /// the claim is checked by decoding: the track draws as the honest file
    /// does, with the warning that decoding stopped short of the claim.
    func testAHeaderThatOverstatesTheLengthIsNoPlan() throws {
        var flac = try writeTrack("honest.flac", format: .flac)
        XCTAssertEqual(flac.prefix(4), Data("fLaC".utf8))
        // STREAMINFO's 36-bit total-samples field: the low half of byte 21, then bytes 22-25.
        flac[21] |= 0x0F
        for i in 22...25 { flac[i] = 0xFF }
        write("lying.flac", flac)
        for mode in [[], ["--fit"]] {
            let honest = try waves(render + mode + ["--audio", "honest.flac", "--out", "honest.png"])
            XCTAssertEqual(honest.status, 0, honest.stderr)
            let lying = try waves(render + mode + ["--audio", "lying.flac", "--out", "lying.png"])
            XCTAssertEqual(lying.status, 0, "\(mode): \(lying.stderr)")
            XCTAssertEqual(lines(lying.stderr).count, 1, lying.stderr)
            XCTAssertTrue(lying.stderr.contains("decoding stopped at 4.0 s"), lying.stderr)
            XCTAssertEqual(try bytes("lying.png"), try bytes("honest.png"), "\(mode)")
        }
    }

    /// Bytes overwritten inside an MP3: mpg123 printed its notes on stderr;
    /// now stderr carries Waves' lines only, whatever the outcome.
    func testADecodersOwnPrintingNeverReachesStderr() throws {
        var generator = SeededGenerator(seed: 27)
        try writeTrack("ok.wav", format: .wav)
        var mp3 = try writeEncodedMP3("ok.mp3", from: "ok.wav")
        for _ in 0..<300 { mp3[Int.random(in: 600..<mp3.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
        write("damaged.mp3", mp3)
        for command in [render + ["--audio", "damaged.mp3", "--out", "d.png"], ["peaks", "--audio", "damaged.mp3", "--json", "d.json"]] {
            let r = try waves(command)
            XCTAssertTrue([0, 65].contains(r.status), r.stderr)
            XCTAssertLessThanOrEqual(lines(r.stderr).count, 1, r.stderr)
            XCTAssertTrue(lines(r.stderr).allSatisfy { $0.hasPrefix("waves: ") }, r.stderr)
        }
        // With stderr closed, the decoder's notes reach no file either: the peaks are JSON, whole.
        let closed = try shell("waves peaks --audio damaged.mp3 --json closed.json 2>&-")
        XCTAssertTrue([0, 65].contains(closed.status), closed.stderr)
        if closed.status == 0 { XCTAssertNoThrow(try WaveformData.read(path: folder + "/closed.json")) }
    }

    /// 20 kB of random bytes named junk.mp3 were refused as "File does not
    /// exist or is not a regular file (possibly a pipe?)".
    func testRandomBytesNamedMP3AreAnUnrecognisedFormatListingTheAccepted() throws {
        var generator = SeededGenerator(seed: 3)
        write("junk.mp3", Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        write("empty.ogg", Data())
        for (arguments, reason) in [(render + ["--audio", "junk.mp3", "--out", "j.png"], "unrecognised format"),
                                    (["peaks", "--audio", "junk.mp3", "--json", "j.json"], "unrecognised format"),
                                    (render + ["--audio", "empty.ogg", "--out", "j.png"], "empty")] {
            let r = try waves(arguments)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertEqual(lines(r.stderr).count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(reason), r.stderr)
            XCTAssertFalse(r.stderr.contains("does not exist"), r.stderr)
            if reason == "unrecognised format" {
                for accepted in ["wav", "flac", "ogg", "mp3"] { XCTAssertTrue(r.stderr.contains(accepted), r.stderr) }
            }
        }
        XCTAssertFalse(exists("j.png") || exists("j.json"))
    }

    // MARK: Peaks

    /// JSON saved with a byte-order mark was read as .dat ("unknown version
    /// 2076163055"); a .dat named .json is recognised by its bytes; a
    /// refusal says which format was tried.
    func testPeaksAreRecognisedByContentPastAByteOrderMark() throws {
        try writeTrack("t.wav", format: .wav)
        XCTAssertEqual(try waves(["peaks", "--audio", "t.wav", "--json", "p.json", "--dat", "p.dat"]).status, 0)
        write("bom.json", Data([0xEF, 0xBB, 0xBF]) + (try bytes("p.json")))
        write("dat.json", try bytes("p.dat"))
        let reference = try waves(render + ["--peaks", "p.json", "--out", "ref.png"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        for name in ["bom.json", "dat.json"] {
            let r = try waves(render + ["--peaks", name, "--out", "\(name).png"])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(try bytes("\(name).png"), try bytes("ref.png"), name)
        }
        write("broken.json", Data("\u{FEFF}{\"version\": 2, \"channels\": 1,".utf8))
        write("broken.dat", Data([9, 0, 0, 0] + [UInt8](repeating: 0, count: 20)))
        for (name, tried) in [("broken.json", "JSON"), ("broken.dat", ".dat")] {
            let r = try waves(render + ["--peaks", name, "--out", "b.png"])
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertEqual(lines(r.stderr).count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("not audiowaveform \(tried) peaks"), r.stderr)
        }
    }

    // MARK: SVG path data

    /// SVG's compact form (numbers run together) was refused at ".5.5"; it
    /// now draws exactly as the spaced form. Cubics draw; arcs are one line.
    func testCompactPathDataDrawsLikeTheSpacedForm() throws {
        let outline = ["render", "--scene", "outline", "--backend", "cpu", "--size", "120x80"]
        let forms = ["compact": "M.5.5L100.5.5L50 70Z", "spaced": "M 0.5 0.5 L 100.5 0.5 L 50 70 Z",
                     "repeated": "M0.5,0.5 100.5,0.5 50,70z", "exponents": "M5e-1 .5e0L1.005e2 5E-1l-50.5 69.5Z"]
        for (name, text) in forms {
            write(name + ".txt", Data(text.utf8))
            let r = try waves(outline + ["--outline", name + ".txt", "--out", name + ".png"])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
        }
        for name in ["compact", "repeated", "exponents"] {
            XCTAssertEqual(try PNG.read(from: folder + "/\(name).png"), try PNG.read(from: folder + "/spaced.png"), name)
        }
        write("cubic.txt", Data("M0 70C20 0 80 0 100 70S150 100 110 70Z".utf8))
        XCTAssertEqual(try waves(outline + ["--outline", "cubic.txt", "--out", "cubic.png"]).status, 0)
        write("arc.txt", Data("M10 10 A 20 20 0 0 1 50 50 Z".utf8))
        let arc = try waves(outline + ["--outline", "arc.txt", "--out", "arc.png"])
        XCTAssertEqual(arc.status, 65, arc.stderr)
        XCTAssertEqual(lines(arc.stderr).count, 1, arc.stderr)
        XCTAssertTrue(arc.stderr.contains("arcs are not supported"), arc.stderr)
        XCTAssertFalse(exists("arc.png"))
    }

    // MARK: Streams

    /// Standard input, a FIFO with its writer, /dev/stdin and process
    /// substitution give the file's peaks, each read once. (The FIFO hung;
    /// `<(cat f)` was refused; `-` was "no such file".)
    /// Each script exits 0 and writes the same bytes as the file it names did.
    private func assertSameOutput(_ scripts: [String: String], written: (String) -> String, as reference: (String) -> String) throws {
        for (name, script) in scripts {
            let r = try shell(script)
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(try bytes(written(name)), try bytes(reference(name)), name)
        }
    }

    func testEveryFormOfStreamGivesTheFilesPeaks() throws {
        try writeTrack("t.ogg", format: .ogg)
        XCTAssertEqual(try waves(["peaks", "--audio", "t.ogg", "--json", "file.json"]).status, 0)
        XCTAssertEqual(mkfifo(folder + "/fifo", 0o644), 0)
        let forms = [
            "pipe": "cat t.ogg | waves peaks --audio - --json pipe.json",
            "stdin": "cat t.ogg | waves peaks --audio /dev/stdin --json stdin.json",
            "fifo": "(cat t.ogg > fifo &); waves peaks --audio fifo --json fifo.json",
            "substitution": "waves peaks --audio <(cat t.ogg) --json substitution.json",
        ]
        try assertSameOutput(forms, written: { $0 + ".json" }, as: { _ in "file.json" })
        // Peaks and outlines the same ways, drawn as from their files (fit mode: the grid needs the length first).
        XCTAssertEqual(try waves(render + ["--fit", "--peaks", "file.json", "--out", "peaks-file.png"]).status, 0)
        write("shape.txt", Data("M10 10 L 90 10 L 50 70 Z".utf8))
        XCTAssertEqual(try waves(["render", "--scene", "outline", "--outline", "shape.txt", "--backend", "cpu", "--size", "100x80",
                                  "--out", "outline-file.png"]).status, 0)
        let more = [
            "peaks-pipe": "cat file.json | waves render --scene waveform --backend cpu --size 200x50 --fit --peaks - --out peaks-pipe.png",
            "peaks-substitution": "waves render --scene waveform --backend cpu --size 200x50 --fit --peaks <(cat file.json) --out peaks-substitution.png",
            "outline-pipe": "cat shape.txt | waves render --scene outline --outline - --backend cpu --size 100x80 --out outline-pipe.png",
            "outline-substitution": "waves render --scene outline --outline <(cat shape.txt) --backend cpu --size 100x80 --out outline-substitution.png",
        ]
        try assertSameOutput(more, written: { $0 + ".png" }, as: { $0.hasPrefix("peaks") ? "peaks-file.png" : "outline-file.png" })
        // The audio drawn from a pipe in fit mode: the length comes from the one copy, not a second read.
        let fit = try shell("cat t.ogg | waves render --scene waveform --backend cpu --size 200x50 --fit --audio - --out audio-pipe.png")
        XCTAssertEqual(fit.status, 0, fit.stderr)
        XCTAssertEqual(try waves(render + ["--fit", "--audio", "t.ogg", "--out", "audio-file.png"]).status, 0)
        XCTAssertEqual(try bytes("audio-pipe.png"), try bytes("audio-file.png"))
    }

    // MARK: Options

    /// Every option that takes one of a fixed set of values, found in the
    /// command definitions (`--experimental-dump-help`): a wrong value is one
    /// line that names every accepted value. `--scene nope` lost the scenes.
    /// An option shared by several commands (one definition: the same name
    /// and values) is tried once, under the first command that has it.
    func testEveryOptionWithAFixedSetOfValuesNamesThemAllOnItsOneLine() throws {
        let dump = try waves(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var cases: [(command: String, option: String, values: [String])] = []
        func walk(_ command: [String: Any], path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["kind"] as? String == "option", let values = argument["allValues"] as? [String], !values.isEmpty,
                      let long = (argument["names"] as? [[String: Any]])?.first(where: { $0["kind"] as? String == "long" })?["name"] as? String
                else { continue }
                if !cases.contains(where: { $0.option == long && $0.values == values }) { cases.append((path.joined(separator: " "), long, values)) }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path: path + [sub["commandName"] as? String ?? ""])
            }
        }
        walk(try XCTUnwrap(root["command"] as? [String: Any]), path: [])
        // The effects are subcommands: --scene, their short form, names them all when it is wrong.
        let scene = try waves(["render", "--scene", "no-such-value"])
        XCTAssertEqual(scene.status, 64, scene.stderr)
        XCTAssertEqual(lines(scene.stderr).count, 1, scene.stderr)
        for name in Effects.names { XCTAssertTrue(scene.stderr.contains(name), "--scene names \(name): \(scene.stderr)") }
        XCTAssertGreaterThanOrEqual(cases.count, 8, "\(cases)")
        // Two at a time: ArgumentParser's error path costs about a second of CPU in a debug build.
        var results = [WavesBinary.Result?](repeating: nil, count: cases.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: cases.count) { i in
            let r = try? waves(cases[i].command.split(separator: " ").map(String.init) + ["--\(cases[i].option)", "no-such-value"])
            lock.lock(); results[i] = r; lock.unlock()
        }
        for ((command, option, values), result) in zip(cases, results) {
            let r = try XCTUnwrap(result, "\(command) --\(option) ran")
            XCTAssertEqual(r.status, 64, "\(command) --\(option): \(r.stderr)")
            XCTAssertEqual(lines(r.stderr).count, 1, "\(command) --\(option): \(r.stderr)")
            for value in values { XCTAssertTrue(r.stderr.contains(value), "\(command) --\(option) names \(value): \(r.stderr)") }
        }
    }

    // MARK: Mutations

    /// Seeded mutations of every reader's input through the binary: each
    /// case exits 0 with its output written (and at most one line, a
    /// warning), or exits 64-78 with exactly one line and nothing written.
    /// Never a crash, a hang or a decoder's own line. (The readers alone,
    /// with many more cases: MutationTests.)
    func testMutatedInputsEndInAnOutputOrOneLine() throws {
        var generator = SeededGenerator(seed: 27_2027)
        try writeTrack("t.wav", format: .wav)
        let encoded = try? writeEncodedMP3("t.mp3", from: "t.wav")
        let mp3 = try encoded ?? writeTrack("t.mp3", format: .mp3)
        let audio: [(String, Data)] = [("wav", try bytes("t.wav")), ("flac", try writeTrack("t.flac", format: .flac)),
                                       ("ogg", try writeTrack("t.ogg", format: .ogg)), ("mp3", mp3)]
        XCTAssertEqual(try waves(["peaks", "--audio", "t.wav", "--json", "p.json", "--dat", "p.dat"]).status, 0)
        let peaks: [(String, Data)] = [("json", try bytes("p.json")), ("dat", try bytes("p.dat"))]
        let path = Data("M0 10 C 10 80 90 80 100 10 S 150 -50 200 10 Q 5 5 10 10 T 20 20 L 200 80 H 5 V 7 Z".utf8)
        var cases: [(input: String, data: Data, arguments: [String], output: String)] = []
        for (ext, data) in audio {
            for i in 0..<20 { cases.append(("m\(i).\(ext)", data, ["peaks", "--audio", "m\(i).\(ext)", "--json", "out.json"], "out.json")) }
        }
        let small = ["render", "--backend", "cpu", "--size", "40x20", "--out", "out.png"]
        for (ext, data) in peaks {
            for i in 0..<5 { cases.append(("m\(i).\(ext)", data, small + ["--scene", "waveform", "--peaks", "m\(i).\(ext)"], "out.png")) }
        }
        for i in 0..<5 { cases.append(("m\(i).txt", path, small + ["--scene", "outline", "--outline", "m\(i).txt"], "out.png")) }
        for (input, valid, arguments, output) in cases {
            let mutated = Mutation.mutate(valid, using: &generator)
            write(input, mutated)
            try? FileManager.default.removeItem(atPath: folder + "/" + output)
            let r = try waves(arguments, timeout: 30)
            let said = lines(r.stderr)
            XCTAssertTrue(said.allSatisfy { $0.hasPrefix("waves: ") }, "\(arguments): \(r.stderr)")
            if r.status == 0 {
                XCTAssertLessThanOrEqual(said.count, 1, "\(arguments): \(r.stderr)")
                XCTAssertTrue(exists(output), "\(arguments): exit 0 writes \(output)")
            } else {
                XCTAssertTrue((64...78).contains(r.status), "\(arguments): exit \(r.status): \(r.stderr)")
                XCTAssertEqual(said.count, 1, "\(arguments): \(r.stderr)")
                XCTAssertFalse(exists(output), "\(arguments): a refusal writes nothing")
            }
            if r.status != 0 && r.status < 64 || r.status > 78 {
                // Keep the case that failed, to run again by hand.
                try? mutated.write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "waves-failed-\(input)"))
            }
        }
    }
}
