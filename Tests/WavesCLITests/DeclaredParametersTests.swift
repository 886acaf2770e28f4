import Foundation
import WaveCore
import WaveEffects
import WaveTestSupport
import XCTest

/// Each effect's parameters are declared once (`ParameterList`): a value of
/// the wrong kind or out of range is refused naming the option, every
/// default is accepted, names are unique, and docs/cli.md's option tables
/// are the declarations' (WAVES_WRITE_GENERATED=1 rewrites them).
final class DeclaredParametersTests: XCTestCase {
    private struct Model: Equatable {
        var size = 6.0
        var limit: Double?
        var count: Int?
        var on = false
        var inner = Inner()
    }

    private struct Inner: Equatable { var fade = 0.2 }

    private let inner = ParameterList(defaults: Inner(), [
        .number("fade", \Inner.fade, 0...1, what: "an opacity", help: "The fade."),
    ])

    private var list: ParameterList<Model> {
        ParameterList(defaults: Model(), [
            .number("size", \.size, 0...1000, above: true, what: "pixels", help: "A size."),
            .number("limit", \.limit, 0...10, what: "seconds", help: "A limit."),
            .whole("count", \.count, 1...3, what: "steps", help: "A count."),
            .flag("on", \.on, help: "On."),
        ]).with(inner, at: \.inner)
    }

    private func refusal(_ given: [String: String]) -> String? {
        do {
            _ = try list.applying(given, to: Model())
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testValuesOfTheirKindAndRangeAreTakenAndOthersRefusedNamingTheOption() throws {
        let made = try list.applying(["size": "2.5", "limit": "4", "count": "2", "on": "", "fade": "0.5"], to: Model())
        XCTAssertEqual(made, Model(size: 2.5, limit: 4, count: 2, on: true, inner: Inner(fade: 0.5)))
        XCTAssertEqual(refusal(["limit": "1/4"]), "--limit 1/4: expected seconds from 0 to 10", "a fraction only where the parameter reads one")
        XCTAssertEqual(refusal(["size": "0"]), "--size 0: expected pixels above 0 up to 1000")
        XCTAssertEqual(refusal(["size": "abc"]), "--size abc: expected pixels above 0 up to 1000")
        // Text that is not a number is refused, never read as "unset", for an optional value too.
        XCTAssertEqual(refusal(["limit": "abc"]), "--limit abc: expected seconds from 0 to 10")
        XCTAssertEqual(refusal(["limit": "nan"]), "--limit nan: expected seconds from 0 to 10")
        XCTAssertEqual(refusal(["count": "1.5"]), "--count 1.5: expected a whole number of steps from 1 to 3")
        XCTAssertEqual(refusal(["count": "4"]), "--count 4: expected a whole number of steps from 1 to 3")
        XCTAssertEqual(refusal(["fade": "2"]), "--fade 2: expected an opacity from 0 to 1")
        XCTAssertNil(refusal(["unknown": "x"]), "a name the list does not hold is left for others")
        // The help shows each default from the model, none for a flag or an unset value.
        XCTAssertEqual(list.infos.map(\.defaultText), ["6", nil, nil, nil, "0.2"])
    }

    func testEveryEffectsDefaultsAreAcceptedAndItsNamesAreUnique() throws {
        let common = ["color", "background", "snap", "no-snap", "subpixel", "help", "version", "scene"]
        for effect in Effects.all {
            XCTAssertNoThrow(try effect.checkGiven([:]), "\(effect.name): its defaults")
            let names = effect.allParameters.map(\.name)
            XCTAssertEqual(Set(names).count, names.count, "\(effect.name) declares a name twice: \(names)")
            for name in names { XCTAssertFalse(common.contains(name), "\(effect.name)'s --\(name) is every effect's option") }
            // Every value of a declared parameter is checked (a count is the effect's own check); a file name is any
            // text, and so is a name in a file (a Lottie marker: refused when the file is read, LottieCommandTests).
            for info in effect.parameters where !info.isFlag && !["file", "source", "name"].contains(info.valueName) {
                XCTAssertFalse(info.accepted.isEmpty, "\(effect.name) --\(info.name) says nothing of what it accepts")
                XCTAssertThrowsError(try effect.checkGiven([info.name: "nonsense"]), "\(effect.name) --\(info.name) took nonsense")
            }
        }
    }

    /// Every effect has its commands (the registry fits the command line's places) and each help lists its parameters.
    func testEachCommandsHelpListsEveryDeclaredParameter() throws {
        for effect in Effects.all {
            let help = try WavesBinary.run(["render", effect.name.rawValue, "--help"])
            XCTAssertEqual(help.status, 0, help.stderr)
            for info in effect.allParameters {
                XCTAssertTrue(help.stdout.contains(info.option), "waves render \(effect.name) --help leaves out \(info.option)")
            }
            XCTAssertFalse(help.stdout.contains("unused"), "an unused slot shows in \(effect.name)'s help")
        }
    }

    func testTheCommandLineDocsOptionTablesAreTheDeclarations() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/cli.md").standardized
        let page = try String(contentsOf: url, encoding: .utf8)
        guard let begin = page.range(of: OptionTables.begin), let end = page.range(of: OptionTables.end) else {
            return XCTFail("docs/cli.md has no generated section between \(OptionTables.begin) and \(OptionTables.end)")
        }
        let expected = "\n\n" + OptionTables.markdown()
        let section = String(page[begin.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["WAVES_WRITE_GENERATED"] == "1", section != expected {
            try (String(page[..<begin.upperBound]) + expected + String(page[end.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        XCTAssertEqual(section, expected, "docs/cli.md's option tables differ from the declarations: run make generated")
    }

    /// The command line only parses and wires (issue 40): at most 1,500 lines, and no effect's parameter is
    /// checked there (a refusal naming an effect's declared option comes from its declaration alone).
    func testTheCommandLineOnlyParsesAndWires() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/waves").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var lines = 0
        let declared = Set(Effects.all.flatMap { $0.parameters.map(\.option) })
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            // waves peaks and waves batch run no effect: their --audio, --jobs and --force are their own.
            if name == "PeaksCommand.swift" || name == "BatchCommand.swift" { continue }
            for line in text.split(separator: "\n") where line.contains("ValueError(option: \"") {
                let option = line.components(separatedBy: "ValueError(option: \"")[1].prefix { $0 != "\"" }
                XCTAssertFalse(declared.contains(String(option)), "\(name) refuses the declared \(option): \(line)")
            }
        }
        XCTAssertLessThanOrEqual(lines, 1500, "Sources/waves holds \(lines) lines")
    }
}
