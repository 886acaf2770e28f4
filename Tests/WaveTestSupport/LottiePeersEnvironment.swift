import Foundation

/// The Python environment holding the Lottie peers (rlottie-python and
/// thorvg-python from PyPI), made by contrib/lottie/setup-venv.sh where it
/// is not there yet (`make test` makes it first: `make lottie-peers`).
public enum LottiePeersEnvironment {
    /// The repository's root.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The environment's python, made ready (the script is idempotent).
    public static func python() throws -> String {
        let script = root.appendingPathComponent("contrib/lottie/setup-venv.sh").path
        let result = try WavesBinary.execute([script], timeout: 900)
        guard result.status == 0, let python = result.stdout.split(separator: "\n").last.map(String.init), !python.isEmpty else {
            throw NSError(domain: "waves", code: Int(result.status),
                          userInfo: [NSLocalizedDescriptionKey: "contrib/lottie/setup-venv.sh: \(result.stderr)"])
        }
        return python
    }

    /// The environment's folder (the one `waves bench lottie --peers` takes).
    public static func folder() throws -> String {
        URL(fileURLWithPath: try python()).deletingLastPathComponent().deletingLastPathComponent().path
    }
}
