import Foundation
import XCTest

/// GL tests run wherever a context can be made. In CI (`WAVES_REQUIRE_GL=1`)
/// a missing context is a failure, never a skip.
public enum GLRequirement {
    public static var required: Bool { ProcessInfo.processInfo.environment["WAVES_REQUIRE_GL"] == "1" }

    /// Returns the value `make` builds, or fails (CI: `flag` set to 1) or
    /// skips (elsewhere) with the reason. `flag`: WAVES_REQUIRE_GL for a GL
    /// context and the programs the tests run, WAVES_REQUIRE_CLUSTER for the schedulers.
    public static func need<T>(_ what: String, flag: String = "WAVES_REQUIRE_GL", file: StaticString = #filePath, line: UInt = #line,
                               _ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch {
            if ProcessInfo.processInfo.environment[flag] == "1" {
                XCTFail("\(flag)=1 but \(what) failed: \(error)", file: file, line: line)
                throw error
            }
            throw XCTSkip("\(what) is not available here (\(error)); set \(flag)=1 to make this a failure")
        }
    }

    /// The programs at `paths` (which `make deps` or `make test` provide; `hint`
    /// says how), required like a GL context: a failure in CI, a skip elsewhere.
    public static func needPrograms(_ paths: [String], hint: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try need("\(paths.joined(separator: " and ")) (\(hint))", file: file, line: line) {
            if let missing = paths.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: missing])
            }
        }
    }
}
