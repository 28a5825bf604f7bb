#if canImport(Glibc)
    import Glibc
#endif

/// Work on pages spread over the machine's cores, the results handed back in page order.
enum PagesInOrder {
    /// One task per core.
    static var width: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Runs `work` for each of `pages` on up to ``width`` tasks at once and gives each result to
    /// `body` in the order of `pages`, as soon as it and those before it are done: output starts
    /// with the first page and no more than a few pages wait in memory.
    static func forEach<Result: Sendable>(
        _ pages: [Int], work: @escaping @Sendable (Int) -> Result, body: (Int, Result) -> Void
    ) async {
        guard pages.count > 1, width > 1 else {
            for page in pages { body(page, work(page)) }
            return
        }
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
                    body(pages[emitted], ready)
                    emitted += 1
                    start()
                }
            }
        }
    }
}
