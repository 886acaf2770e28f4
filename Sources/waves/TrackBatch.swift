import ArgumentParser
import WaveCatalogue

/// How the command line reports a batch of tracks (`TrackBatch`): each
/// failure one line on stderr naming the track, the summary line on stdout,
/// and the first failure's status as the process's.
extension TrackBatch {
    /// Runs the batch (`TrackBatch.run`), each failure reported as it happens.
    func run(outputs: (String) -> [String], work: @escaping @Sendable (String) throws -> () throws -> Void) -> Summary {
        run(outputs: outputs, failed: { track, error in
            printFailure(Failure.message(of: error), of: track)
            return Failure.status(of: error)
        }, work: work)
    }

    /// The summary line on stdout, then the first failure's status as the process's (none: 0).
    func finish(_ summary: Summary, command: String) throws {
        print("waves \(command): " + summary.line(tracks: tracks.count, jobs: jobs))
        if summary.status != 0 { throw ExitCode(summary.status) }
    }
}
