import Foundation

/// The files this process reads, which no output of it may replace: every
/// regular file opened as an input (`InputFile` records each), and every
/// input a command names before it starts (a folder run's tracks, a batch's
/// items), so an output is refused before anything is drawn. An output is
/// the same file as an input when both are one inode on one device (a hard
/// link, a symbolic link, another spelling of the path) and the input's
/// path still names that inode, or, for files not made yet, when both
/// resolve to the same absolute path.
package enum ProtectedInputs {
    private struct Identity: Hashable { let device: UInt64, inode: UInt64 }

    nonisolated(unsafe) private static var identities: [Identity: String] = [:]
    nonisolated(unsafe) private static var paths: [String: String] = [:]
    private static let lock = NSLock()

    /// Records `path` (as given: "-" and empty paths are not files) as an input.
    package static func add(_ path: String) {
        guard !path.isEmpty, path != "-" else { return }
        let identity = Self.identity(of: path)
        let resolved = Self.resolved(path)
        lock.lock()
        defer { lock.unlock() }
        // The first path kept, unless it no longer names that inode (a file deleted since left it to this one).
        if let identity, identities[identity].map({ Self.identity(of: $0) != identity }) ?? true { identities[identity] = path }
        if paths[resolved] == nil { paths[resolved] = path }
    }

    package static func add(_ inputs: [String]) { for path in inputs { add(path) } }

    /// The input `output` would replace (as that input was named), or nil
    /// when it replaces none. `output` is judged by what it names: where it
    /// is a symbolic link, the caller decides first whether to follow it.
    package static func input(replacedBy output: String) -> String? {
        let identity = Self.identity(of: output)
        let resolved = Self.resolved(output)
        lock.lock()
        defer { lock.unlock() }
        // Still that input: a file deleted since may have left its inode to another (the output's).
        if let identity, let input = identities[identity], Self.identity(of: input) == identity { return input }
        return paths[resolved]
    }

    private static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `path` made absolute, every link and `..` of the part that exists
    /// resolved, the rest normalised by its spelling.
    package static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        // The longest leading part that exists, resolved by realpath; the missing tail kept as spelled.
        while true {
            let head = "/" + components.joined(separator: "/")
            if let real = realpath(head, nil) {
                defer { free(real) }
                var parts = String(cString: real).split(separator: "/").map(String.init)
                for part in rest.reversed() {
                    switch part {
                    case ".": continue
                    case "..": if !parts.isEmpty { parts.removeLast() }
                    default: parts.append(part)
                    }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = components.popLast() else { return absolute }
            rest.append(last)
        }
    }
}
