import ArgumentParser
import Foundation
import WaveCore
import WaveGL
import WaveImageIO

/// Entry point: parses, runs, and turns every error into one line on stderr
/// with a sysexits status (64 usage, 65 bad data, 69 unavailable, 73 cannot
/// create output). Help and version go to stdout.
do {
    var command = try Waves.parseAsRoot()
    try command.run()
} catch {
    let status = ExitStatus.of(error)
    if status == 0 { Waves.exit(withError: error) }
    printError("waves: " + ExitStatus.message(of: error))
    exit(status)
}
