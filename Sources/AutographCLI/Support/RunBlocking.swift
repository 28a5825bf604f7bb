import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs async work to completion from synchronous command code (the CLI's commands are synchronous;
/// the signing API is async because signers may be remote).
func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let box = ResultBox<Value>()
    let semaphore = Semaphore()
    Task {
        do {
            box.set(.success(try await body()))
        } catch {
            box.set(.failure(error))
        }
        semaphore.signal()
    }
    semaphore.wait()
    return try box.get()
}

final class ResultBox<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    func set(_ value: Result<Value, any Error>) { result.withLock { $0 = value } }
    func get() throws -> Value { try result.withLock { $0! }.get() }
}

/// A counting semaphore on a pthread condition variable.
final class Semaphore: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var count = 0

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
        pthread_cond_destroy(&condition)
    }

    func signal() {
        pthread_mutex_lock(&mutex)
        count += 1
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while count == 0 { pthread_cond_wait(&condition, &mutex) }
        count -= 1
        pthread_mutex_unlock(&mutex)
    }
}
