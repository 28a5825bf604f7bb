import CShims
import Dispatch
import Synchronization

/// Renders tiles on threads of their own, so a backlog of tiles never holds up the API's other
/// answers on Swift's shared pool.
///
/// The queue serves the newest request first — the pages now on screen are drawn before those a
/// person scrolled past — but never starves the old ones: a job that has waited ``rescueAfter`` is
/// taken before any newer one, and a job still queued when its bound passes, or whose client
/// left, is answered at once without being drawn. Tiles of a page known to cost long to draw take
/// at most all threads but one (``heavyLimit``): a map of millions of operators asked for in a loop
/// never makes the page beside it wait for a thread.
final class TileWorkers: Sendable {
    /// The process's rendering threads, shared by every server.
    static let shared = TileWorkers()

    private struct Job {
        let id: Int
        let enqueued: ContinuousClock.Instant
        /// Taken before every tile (a search waits for its pages one after another).
        let urgent: Bool
        /// A page known to cost long to draw: such jobs never take every thread.
        let heavy: Bool
        /// Runs the work and resumes the waiting request with its result.
        let run: @Sendable () -> Void
        /// Resumes the waiting request without running the work.
        let abandon: @Sendable () -> Void
    }

    private let queue = Mutex<(jobs: [Job], nextID: Int, heavyRunning: Int)>(([], 0, 0))
    private let available = DispatchSemaphore(value: 0)
    /// The most threads drawing heavy pages at once: one fewer than all (at least one), so the pages
    /// people read are drawn beside them.
    let heavyLimit: Int

    /// - Parameter count: the number of rendering threads (by default, one per processor).
    init(count: Int = TileWorkers.processorCount) {
        heavyLimit = max(1, count - 1)
        for index in 0..<max(1, count) {
            DispatchQueue(label: "autograph.tiles.\(index)", qos: .userInitiated).async { [self] in
                Self.lowerPriority()
                while true {
                    available.wait()
                    guard let job = takeNext() else { continue }
                    job.run()
                    if job.heavy { finishedHeavy() }
                }
            }
        }
    }

    /// A heavy job ended: its place goes to a heavy job left waiting for one.
    private func finishedHeavy() {
        let waiting = queue.withLock { state in
            state.heavyRunning -= 1
            return state.jobs.contains(where: \.heavy)
        }
        if waiting { available.signal() }
    }

    /// Why a job was not run.
    enum Refusal: Error { case waitedTooLong, clientGone }

    /// Runs `work` on a rendering thread and returns its result, or the refusal when it waited
    /// longer than `maxWait` or its client left first.
    /// - Parameter urgent: taken before every tile (the page's text for a search: an API call waits).
    /// - Parameter heavy: a page known to cost long to draw: at most ``heavyLimit`` such jobs run at once.
    func run<Value: Sendable>(
        maxWait: Duration, client: ClientConnection?, urgent: Bool = false, heavy: Bool = false,
        _ work: @escaping @Sendable () -> Value
    ) async -> Result<Value, Refusal> {
        let now = ContinuousClock.now
        return await withCheckedContinuation { continuation in
            let id = queue.withLock { state in
                state.nextID += 1
                let id = state.nextID
                state.jobs.append(
                    Job(
                        id: id, enqueued: now, urgent: urgent, heavy: heavy,
                        run: { continuation.resume(returning: .success(work())) },
                        abandon: { continuation.resume(returning: .failure(.waitedTooLong)) }))
                return id
            }
            available.signal()
            // Whoever takes the job out of the queue resumes it: a worker, the timer, or the client leaving.
            client?.onGone { [self] in
                if remove(id) != nil { continuation.resume(returning: .failure(.clientGone)) }
            }
            Task { [self] in
                try? await Task.sleep(for: maxWait)
                remove(id)?.abandon()
            }
        }
    }

    /// The job to run now: an urgent one, else the oldest when it has waited ``rescueAfter``, else
    /// the newest — among the jobs that may run (a heavy tile only below ``heavyLimit``).
    private func takeNext() -> Job? {
        queue.withLock { state in
            let heavyAllowed = state.heavyRunning < heavyLimit
            // A search's page (urgent: an API call waits for it) is never held back, heavy or not.
            let runnable = state.jobs.indices.filter {
                heavyAllowed || !state.jobs[$0].heavy || state.jobs[$0].urgent
            }
            guard let newest = runnable.last, let oldest = runnable.first else { return nil }
            let index: Int
            if let urgent = runnable.first(where: { state.jobs[$0].urgent }) {
                index = urgent
            } else if ContinuousClock.now - state.jobs[oldest].enqueued >= Self.rescueAfter {
                index = oldest
            } else {
                index = newest
            }
            let job = state.jobs.remove(at: index)
            if job.heavy { state.heavyRunning += 1 }
            return job
        }
    }

    /// Renders stopped because their client left (for tests and logs).
    static let cancelledRenders = Atomic<Int>(0)

    /// Jobs waiting longer than this are taken oldest first.
    static let rescueAfter: Duration = .seconds(1)

    private func remove(_ id: Int) -> Job? {
        queue.withLock { state in
            guard let index = state.jobs.firstIndex(where: { $0.id == id }) else { return nil }
            return state.jobs.remove(at: index)
        }
    }

    /// Drawing runs behind the API: the rendering threads take a niceness of 5, so that with every
    /// core drawing, a form value, the state or a search still gets its CPU at once.
    static func lowerPriority() {
        _ = autograph_set_thread_niceness(5)
    }

    static var processorCount: Int {
        #if canImport(Glibc)
            return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
            return 2
        #endif
    }
}

#if canImport(Glibc)
    import Glibc
#endif
