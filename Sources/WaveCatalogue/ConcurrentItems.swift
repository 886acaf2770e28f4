import Foundation

/// Items done `jobs` at a time, each on a thread of its own: every index
/// taken once from a shared counter, its outcome kept in index order. The
/// `serially` an item is handed runs a step while no other item's does (the
/// atomic writer keeps one pending file for its signal handler).
package final class ConcurrentItems<Outcome>: @unchecked Sendable {
    private let lock = NSLock(), serial = NSLock()
    private var next = 0, done = 0
    private var outcomes: [Outcome?]

    private init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    /// `finished(index, outcome, items done so far)` runs on the worker's thread after each item.
    package static func run(count: Int, jobs: Int,
                    _ body: @escaping @Sendable (_ index: Int, _ serially: (() throws -> Void) throws -> Void) -> Outcome,
                    finished: @escaping @Sendable (Int, Outcome, Int) -> Void = { _, _, _ in }) -> [Outcome] {
        let state = ConcurrentItems(count: count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            group.enter()
            Thread.detachNewThread {
                while let i = state.take() {
                    let outcome = body(i) { step in
                        state.serial.lock()
                        defer { state.serial.unlock() }
                        try step()
                    }
                    finished(i, outcome, state.store(outcome, at: i))
                }
                group.leave()
            }
        }
        group.wait()
        return state.outcomes.map { $0! }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < outcomes.count else { return nil }
        next += 1
        return next - 1
    }

    private func store(_ outcome: Outcome, at index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        outcomes[index] = outcome
        done += 1
        return done
    }
}
