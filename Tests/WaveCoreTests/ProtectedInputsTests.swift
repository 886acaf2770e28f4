import Foundation
@testable import WaveCore
import XCTest

/// An output is an input when it is the same file: one inode by any path
/// while the input's own path still names that inode, or the same resolved
/// path for a file not made yet.
final class ProtectedInputsTests: XCTestCase {
    func testAnInputIsKnownByItsInodeOnlyWhileItsPathHoldsIt() throws {
        let folder = NSTemporaryDirectory() + "waves-inputs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/input.wav", twin = folder + "/twin.wav", fresh = folder + "/fresh.wav"
        try Data("track".utf8).write(to: URL(fileURLWithPath: input))
        XCTAssertEqual(link(input, twin), 0)
        ProtectedInputs.add(input)
        XCTAssertEqual(ProtectedInputs.input(replacedBy: twin), input, "a hard link is the input")
        XCTAssertEqual(ProtectedInputs.input(replacedBy: folder + "/../" + (folder as NSString).lastPathComponent + "/input.wav"), input)
        XCTAssertNil(ProtectedInputs.input(replacedBy: folder + "/other.wav"))
        // The input's path now names another file: its old inode (the twin's) is no input any more.
        try Data("new".utf8).write(to: URL(fileURLWithPath: fresh))
        XCTAssertEqual(rename(fresh, input), 0)
        XCTAssertNil(ProtectedInputs.input(replacedBy: twin), "a stale inode is not the input")
        XCTAssertEqual(ProtectedInputs.input(replacedBy: input), input, "the input's path still is")
    }

    /// An inode an earlier input left (its path gone) is the new input's once that is added.
    func testANewInputTakesAnInodeAStaleInputLeft() throws {
        let folder = NSTemporaryDirectory() + "waves-inputs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = folder + "/old.wav", kept = folder + "/kept.wav", twin = folder + "/twin.wav"
        try Data("track".utf8).write(to: URL(fileURLWithPath: old))
        XCTAssertEqual(link(old, kept), 0)
        ProtectedInputs.add(old)
        XCTAssertEqual(unlink(old), 0)
        ProtectedInputs.add(kept)
        XCTAssertEqual(link(kept, twin), 0)
        XCTAssertEqual(ProtectedInputs.input(replacedBy: twin), kept, "a hard link of the new input is the input")
    }
}
