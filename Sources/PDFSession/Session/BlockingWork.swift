import Dispatch

/// Runs CPU-heavy work (decoding a photo) on a Dispatch thread of its own, outside Swift's
/// cooperative pool: the pool has one thread a core, and a server answers every request from it.
enum BlockingWork {
    static func run<Value: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Value)
        async throws(Failure) -> Value
    {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(Failure) in try work() })
            }
        }
        return try result.get()
    }
}
