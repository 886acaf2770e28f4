import Foundation

/// Large buffers are asked of the system before Swift allocates them, so
/// running out of memory (a 16384x16384 frame under a memory limit) is a
/// one-line error instead of a trap: `reserve` tries to allocate the bytes
/// (and a margin) and frees them at once; the real allocation that follows
/// then fits. `allocating` does both under one lock, so two threads (a
/// batch's jobs) never both count on the same free memory.
package enum CheckedMemory {
    /// Below this nothing is checked (small buffers cannot be the problem).
    package static let threshold = 64 << 20
    /// Asked for beyond the buffer itself: what the allocator and other
    /// threads' small buffers may take between the check and the allocation.
    package static let margin = 16 << 20

    private static let lock = NSRecursiveLock()

    package static func reserve(bytes: Int, for what: @autoclosure () -> String) throws {
        guard bytes >= threshold else { return }
        let (total, overflow) = bytes.addingReportingOverflow(margin)
        guard !overflow, let block = malloc(total) else { throw ResourceError.outOfMemory(bytes: bytes, what: what()) }
        free(block)
    }

    /// `make()`'s buffer of `bytes`, checked first: no other thread's large
    /// buffer is made between the check and `make`.
    package static func allocating<T>(bytes: Int, for what: @autoclosure () -> String, _ make: () throws -> T) throws -> T {
        guard bytes >= threshold else { return try make() }
        lock.lock()
        defer { lock.unlock() }
        try reserve(bytes: bytes, for: what())
        return try make()
    }
}

public enum ResourceError: Error, Equatable, CustomStringConvertible {
    /// The system could not give the memory (exit 71).
    case outOfMemory(bytes: Int, what: String)
    /// The GPU driver could not (GL_OUT_OF_MEMORY; exit 71).
    case driverOutOfMemory(what: String)

    public var description: String {
        switch self {
        case let .outOfMemory(bytes, what):
            "not enough memory for \(what): \(String(format: "%.1f", Double(bytes) / Double(1 << 30))) GiB could not be allocated"
        case let .driverOutOfMemory(what):
            "not enough memory for \(what): the GL driver ran out (GL_OUT_OF_MEMORY)"
        }
    }
}
