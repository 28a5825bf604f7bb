import Foundation
import Synchronization
import Testing

@testable import PDFWeb

/// The rendering threads' queue: tiles of heavy pages never take every thread.
@Suite struct TileWorkersTests {
    @Test("heavy tiles run on all threads but one; a light tile asked behind them starts at once")
    func heavyLane() async throws {
        let workers = TileWorkers(count: 2)
        #expect(workers.heavyLimit == 1)
        let count = Counter()
        let heavy = (0..<3).map { _ in
            Task {
                await workers.run(maxWait: .seconds(30), client: nil, heavy: true) {
                    let now = count.running.add(1, ordering: .relaxed).newValue
                    _ = count.most.max(now, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: 0.4)
                    count.running.subtract(1, ordering: .relaxed)
                }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let asked = ContinuousClock.now
        let started = await workers.run(maxWait: .seconds(30), client: nil) { ContinuousClock.now }
        guard case .success(let start) = started else {
            Issue.record("the light tile did not run: \(started)")
            return
        }
        #expect(start - asked < .milliseconds(250), "the light tile waited \(start - asked) behind heavy ones")
        for job in heavy { _ = await job.value }
        #expect(
            count.most.load(ordering: .relaxed) == 1, "heavy tiles ran \(count.most.load(ordering: .relaxed)) at once")
    }

    final class Counter: Sendable {
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
    }
}
