import Synchronization

/// The seam that makes crypto calls fail in tests, so the paths that handle an OpenSSL failure (an
/// RNG without entropy, a digest a FIPS configuration refuses, a cipher that cannot run) are run.
///
/// ```swift
/// try CryptoFaults.failing(.random) {
///     #expect(throws: CryptoError.self) { try SecureRandom.bytes(16) }
/// }
/// ```
///
/// Inside `failing(_:skipping:times:_:)` the named operation fails, as if its first OpenSSL call had
/// failed, with a `CryptoError` whose `function` is `"injected"` and whose queue holds one entry
/// saying so. The plan is a task-local value: it applies to the body, to the tasks it starts as
/// children, and to nothing else — tests running in parallel do not see each other's failures.
///
/// It stays compiled in (no `#if DEBUG` build of the library that tests would run instead of the
/// shipped one): each operation reads one task-local value when it starts, which is nil outside a
/// test, before any OpenSSL call. Nested plans replace the outer one for their body.
package enum CryptoFaults {
    /// The `CryptoError.function` of an injected failure.
    package static let injectedFunction = "injected"

    /// Which operation fails, after how many successful calls, how many times.
    package final class Plan: Sendable {
        let operation: CryptoOperation
        private let counts: Mutex<(skip: Int, fail: Int)>

        init(_ operation: CryptoOperation, skipping: Int, times: Int) {
            self.operation = operation
            counts = Mutex((max(0, skipping), max(0, times)))
        }

        /// Whether this call of `operation` fails; counts it.
        func shouldFail(_ called: CryptoOperation) -> Bool {
            guard called == operation else { return false }
            return counts.withLock { counts in
                if counts.skip > 0 {
                    counts.skip -= 1
                    return false
                }
                guard counts.fail > 0 else { return false }
                counts.fail -= 1
                return true
            }
        }

        /// How many of the planned failures have not happened.
        package var remainingFailures: Int { counts.withLock { $0.fail } }
    }

    @TaskLocal static var plan: Plan?

    /// Runs `body` with calls of `operation` failing: the first `skipping` calls succeed, the next
    /// `times` fail, later ones succeed again.
    package static func failing<Result>(
        _ operation: CryptoOperation, skipping: Int = 0, times: Int = .max, _ body: () throws -> Result
    ) rethrows -> Result {
        try $plan.withValue(Plan(operation, skipping: skipping, times: times), operation: body)
    }

    /// `failing(_:skipping:times:_:)` for an asynchronous body.
    package static func failing<Result>(
        _ operation: CryptoOperation, skipping: Int = 0, times: Int = .max,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await $plan.withValue(
            Plan(operation, skipping: skipping, times: times), operation: body, isolation: isolation)
    }

    /// Called by each operation before its first OpenSSL call.
    @inline(__always)
    static func check(_ operation: CryptoOperation) throws(CryptoError) {
        guard let plan, plan.shouldFail(operation) else { return }
        throw CryptoError(
            operation, function: injectedFunction,
            queue: [OpenSSLError(code: 0, text: "injected \(operation) failure (CryptoFaults)")])
    }
}
