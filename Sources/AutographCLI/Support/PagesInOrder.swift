#if canImport(Glibc)
    import Glibc
#endif

/// Work on pages spread over the machine's cores, the results handed back in page order.
enum PagesInOrder {
    /// One task per core.
    static var width: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Runs `work` for each of `pages` on up to ``width`` tasks at once and gives each result to
    /// `body` in the order of `pages`, as soon as it and those before it are done: output starts
    /// with the first page and no more than a few pages wait in memory. When `body` throws, the
    /// pages not yet handed over are abandoned and the error is rethrown.
    static func forEach<Result: Sendable>(
        _ pages: [Int], work: @escaping @Sendable (Int) -> Result, body: (Int, Result) throws -> Void
    ) async throws {
        guard pages.count > 1, width > 1 else {
            for page in pages { try body(page, work(page)) }
            return
        }
        var failure: (any Error)? = nil
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            func start() {
                guard next < pages.count else { return }
                let (position, page) = (next, pages[next])
                group.addTask { (position, work(page)) }
                next += 1
            }
            // Enough in flight to keep every core busy while the next page in order is awaited.
            for _ in 0..<(2 * width) { start() }
            var waiting: [Int: Result] = [:]
            var emitted = 0
            while let (position, result) = await group.next() {
                waiting[position] = result
                while let ready = waiting.removeValue(forKey: emitted) {
                    do {
                        try body(pages[emitted], ready)
                    } catch {
                        failure = error
                        group.cancelAll()
                        return
                    }
                    emitted += 1
                    start()
                }
            }
        }
        if let failure { throw failure }
    }
}
