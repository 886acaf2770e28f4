import Foundation

/// Large buffers are asked of the system before Swift allocates them, so
/// running out of memory (a 16384x16384 frame under a memory limit) is a
/// one-line error instead of a trap: `reserve` tries to allocate the bytes
/// and frees them at once; the real allocation that follows then fits.
package enum CheckedMemory {
    /// Below this nothing is checked (small buffers cannot be the problem).
    package static let threshold = 64 << 20

    package static func reserve(bytes: Int, for what: @autoclosure () -> String) throws {
        guard bytes >= threshold else { return }
        guard let block = malloc(bytes) else { throw ResourceError.outOfMemory(bytes: bytes, what: what()) }
        free(block)
    }
}

public enum ResourceError: Error, Equatable, CustomStringConvertible {
    /// The system could not give the memory (exit 71).
    case outOfMemory(bytes: Int, what: String)

    public var description: String {
        switch self {
        case let .outOfMemory(bytes, what):
            "not enough memory for \(what): \(String(format: "%.1f", Double(bytes) / Double(1 << 30))) GiB could not be allocated"
        }
    }
}
