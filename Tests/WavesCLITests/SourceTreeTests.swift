import Foundation
import XCTest

/// The source tree keeps its concepts where they belong: a file's opening
/// comment names only types and functions that exist, nothing outside
/// WaveGL reaches into `GLRenderer` by a downcast (the `Renderer` protocol
/// carries what callers need), and scene rows become a page's GL rows in
/// one place (`PageArea`).
final class SourceTreeTests: XCTestCase {
    private var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// Every Swift file under Sources, with its text.
    private func files() throws -> [(path: String, text: String)] {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
        var found: [(String, String)] = []
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".swift") else { continue }
            found.append((name, try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)))
        }
        return found
    }

    func testOpeningCommentsNameWhatExists() throws {
        let all = try files()
        let everything = all.map(\.text).joined(separator: "\n")
        for (path, text) in all {
            // The opening comment: the `///` and `//` lines before the first declaration.
            let opening = text.split(separator: "\n").prefix { !$0.hasPrefix("public ") && !$0.hasPrefix("package ")
                && !$0.hasPrefix("struct ") && !$0.hasPrefix("final ") && !$0.hasPrefix("enum ") && !$0.hasPrefix("class ")
                && !$0.hasPrefix("protocol ") && !$0.hasPrefix("extension ") && !$0.hasPrefix("func ") }
                .filter { $0.hasPrefix("//") }.joined(separator: "\n")
            let names = opening.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                .filter { $0.first?.isUppercase == true && $0.allSatisfy { $0.isLetter || $0.isNumber } }
            for name in names {
                let declared = ["class", "struct", "enum", "protocol", "typealias", "func", "var", "let", "case", "extension"]
                    .contains { everything.contains("\($0) \(name)") }
                XCTAssert(declared, "\(path)'s opening comment names \(name), which nothing declares")
            }
        }
    }

    func testNothingOutsideWaveGLDowncastsToGLRenderer() throws {
        for (path, text) in try files() where !path.hasPrefix("WaveGL/") {
            XCTAssertFalse(text.contains("as? GLRenderer") || text.contains("as! GLRenderer"), "\(path) downcasts to GLRenderer")
        }
    }

    func testSceneRowsBecomeAPagesRowsInOnePlace() throws {
        for (path, text) in try files() where path.hasPrefix("WaveGL/") && path != "WaveGL/Pages.swift" {
            XCTAssertFalse(text.contains("viewport.height - (last - pageTop)"), "\(path) converts page rows itself: PageArea does")
        }
    }
}
