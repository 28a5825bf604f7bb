import Dispatch
import Synchronization

/// Renders tiles on threads of their own, newest request first, so a backlog of tiles (a person
/// scrolling fast through hundreds of pages) never holds up the API's other answers on Swift's
/// shared pool, and the pages now on screen are drawn before those scrolled past.
final class TileWorkers: Sendable {
    /// The process's rendering threads, shared by every server.
    static let shared = TileWorkers()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    /// - Parameter count: the number of rendering threads (by default, one per processor).
    init(count: Int = TileWorkers.processorCount) {
        for index in 0..<max(1, count) {
            DispatchQueue(label: "autograph.tiles.\(index)", qos: .userInitiated).async { [self] in
                while true {
                    available.wait()
                    let job = jobs.withLock { $0.popLast() }
                    job?()
                }
            }
        }
    }

    /// Runs `work` on a rendering thread; the most recently asked work runs first.
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(returning: work()) } }
            available.signal()
        }
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
