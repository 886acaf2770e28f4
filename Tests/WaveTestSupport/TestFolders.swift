import Foundation

/// The folders tests write their inputs and outputs in: each a new one
/// inside one folder per test process, which is removed when the process
/// exits, so that a run leaves nothing in the temporary directory. (A
/// failing image comparison writes its pictures elsewhere, to be read
/// after the run: `ImageComparison.artifactFolder`.)
public enum TestFolders {
    /// This process's folder, made at first use; removed at exit.
    public static let root: String = {
        let root = NSTemporaryDirectory() + "waves-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestFolders.root) }
        return root
    }()

    /// A new empty folder, its name starting with `prefix`.
    public static func make(_ prefix: String) throws -> String {
        let folder = root + "/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
