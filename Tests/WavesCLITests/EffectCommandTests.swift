import Foundation
import WaveEffects
import WaveTestSupport
import XCTest

/// One command per effect under render, demo and bench, from the registry:
/// each help lists that effect's options and the command's own, never
/// another effect's, every default once; `--scene NAME` is the same command.
final class EffectCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private static let commands = ["render", "demo", "bench"]

    /// Every help of every effect's command, made once for the class (a debug build's help costs about a second).
    nonisolated(unsafe) private static var madeHelps: [String: String]?

    private func helps() throws -> [String: String] {
        if let made = Self.madeHelps { return made }
        let made = try makeHelps()
        Self.madeHelps = made
        return made
    }

    /// Run two at a time.
    private func makeHelps() throws -> [String: String] {
        let invocations = Self.commands.flatMap { command in Effects.names.map { [command, $0] } }
        var results = [WavesBinary.Result?](repeating: nil, count: invocations.count)
        let lock = NSLock()
        let folder = self.folder!
        DispatchQueue.concurrentPerform(iterations: invocations.count) { i in
            let r = try? WavesBinary.run(invocations[i] + ["--help"], in: folder)
            lock.lock(); results[i] = r; lock.unlock()
        }
        var helps: [String: String] = [:]
        for (invocation, result) in zip(invocations, results) {
            let r = try XCTUnwrap(result, "\(invocation) ran")
            XCTAssertEqual(r.status, 0, "\(invocation): \(r.stderr)")
            XCTAssert(r.stdout.contains("USAGE: waves \(invocation.joined(separator: " "))"), "\(invocation): \(r.stdout.prefix(300))")
            helps[invocation.joined(separator: " ")] = r.stdout
        }
        return helps
    }

    /// Each effect's command lists exactly its registry options (and its
    /// count option) beyond what every effect's command of that kind lists.
    func testEveryEffectHasItsCommandsAndEachHelpListsOnlyItsOptions() throws {
        let helps = try helps()
        for command in Self.commands {
            let listed = Effects.all.map { effect in Set(HelpText.options(helps["\(command) \(effect.name)"] ?? "").keys) }
            let common = listed.dropFirst().reduce(listed[0]) { $0.intersection($1) }
            XCTAssert(common.isSuperset(of: ["--help", "--color", "--background"]), "\(command): \(common.sorted())")
            for (effect, options) in zip(Effects.all, listed) {
                let expected = Set(effect.options + [effect.count?.option].compactMap { $0 })
                XCTAssertEqual(options.subtracting(common), expected.subtracting(common),
                               "waves \(command) \(effect.name) --help lists other options than the effect's own")
            }
        }
    }

    func testNoHelpNamesADefaultTwice() throws {
        var texts = try helps()
        for command in Self.commands + ["peaks"] { texts[command] = try WavesBinary.run([command, "--help"], in: folder).stdout }
        for (command, help) in texts {
            for (option, paragraph) in HelpText.options(help) {
                // Ours "(default: X)" or "(default X)", ArgumentParser's "(default: X)" or "(values: ...; default: X)".
                let given = paragraph.components(separatedBy: "(default").count - 1 + paragraph.components(separatedBy: "; default:").count - 1
                XCTAssertLessThanOrEqual(given, 1, "waves \(command) --help: \(option) names its default \(given) times: \(paragraph)")
            }
        }
    }

    /// `--scene NAME` is rewritten to the effect's command: the same pixels,
    /// the same refusals; an option of another effect is unknown there.
    func testTheShortFormIsTheEffectsCommand() throws {
        let long = try WavesBinary.run(["render", "dots", "--backend", "cpu", "--size", "120x40", "--dots", "7", "--time", "0.3",
                                        "--out", "long.png"], in: folder)
        XCTAssertEqual(long.status, 0, long.stderr)
        let short = try WavesBinary.run(["render", "--backend", "cpu", "--scene", "dots", "--size", "120x40", "--dots", "7",
                                         "--time", "0.3", "--out", "short.png"], in: folder)
        XCTAssertEqual(short.status, 0, short.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/long.png")),
                       try Data(contentsOf: URL(fileURLWithPath: folder + "/short.png")))
        for arguments in [["render", "dots", "--amplitude", "0.3"], ["render", "--scene", "dots", "--amplitude", "0.3"],
                          ["render", "--scene", "dots", "waveform"], ["bench", "jelly", "--cells", "1,2"]] {
            let r = try WavesBinary.run(arguments + ["--out", "x.png"], in: folder)
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/x.png"))
        // The bench's short form sweeps any effect's count with --cells: the dots' --dots.
        let sweep = try WavesBinary.run(["bench", "--headless", "--backend", "cpu", "--scene", "dots", "--cells", "3,5",
                                         "--frames", "2", "--warmup", "0", "--json", "dots.json"], in: folder)
        XCTAssertEqual(sweep.status, 0, sweep.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/dots.json"))) as? [String: Any])
        let counts = (report["results"] as? [[String: Any]] ?? []).compactMap { $0["cells"] as? Int }
        XCTAssertEqual(counts, [3, 5], "\(report)")
    }
}

/// A help's options: each long name and its paragraph (the line that names
/// it and the lines under it, joined).
enum HelpText {
    static func options(_ help: String) -> [String: String] {
        var paragraphs: [String: String] = [:]
        var current: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  -") {
                let names = trimmed.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
                current = names
                if let names { paragraphs[names] = trimmed }
            } else if let name = current, line.hasPrefix("      "), !trimmed.isEmpty {
                paragraphs[name, default: ""] += " " + trimmed
            } else {
                current = nil
            }
        }
        return paragraphs
    }
}
