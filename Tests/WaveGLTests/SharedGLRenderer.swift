@testable import WaveGL
import WaveTestSupport
import XCTest

/// One headless GL renderer per test class, made at its first GL test and
/// kept for the class's others (making a context per test would cost more
/// than most tests). Each class keeps its own, so what one class sets on
/// its renderer never reaches another's tests.
enum SharedGLRenderer {
    nonisolated(unsafe) private static var made: [ObjectIdentifier: Result<GLRenderer, Error>] = [:]

    static func renderer(for testClass: AnyClass) throws -> GLRenderer {
        let key = ObjectIdentifier(testClass)
        if made[key] == nil { made[key] = Result { try GLRenderer() } }
        return try GLRequirement.need("a headless GL context") { try made[key]!.get() }
    }
}

extension XCTestCase {
    /// This test class's headless GL renderer (see `SharedGLRenderer`).
    func glRenderer() throws -> GLRenderer { try SharedGLRenderer.renderer(for: type(of: self)) }
}
