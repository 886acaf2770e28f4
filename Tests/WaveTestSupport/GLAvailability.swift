import Foundation
import XCTest

/// GL tests run wherever a context can be made. In CI (`WAVES_REQUIRE_GL=1`)
/// a missing context is a failure, never a skip.
public enum GLRequirement {
    public static var required: Bool { ProcessInfo.processInfo.environment["WAVES_REQUIRE_GL"] == "1" }

    /// Returns the value `make` builds, or fails (CI) or skips (elsewhere) with the reason.
    public static func need<T>(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                               _ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch {
            if required {
                XCTFail("WAVES_REQUIRE_GL=1 but \(what) failed: \(error)", file: file, line: line)
                throw error
            }
            throw XCTSkip("no GL here (\(what): \(error)); set WAVES_REQUIRE_GL=1 to make this a failure")
        }
    }
}
