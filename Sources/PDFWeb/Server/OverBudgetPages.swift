import PDFGraphics
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The pages of a revision that cannot be drawn within the render budget: answered
/// `503 pageTooComplex` at once from then on, without taking a rendering thread, until the revision
/// changes (its key is the revision's). Without it, a few clients asking for such a page in a loop
/// took every rendering thread for the whole time limit each time, and a light page's tile waited
/// about 4 s or got `503 busy`.
///
/// A page is marked only for what its content costs, whatever the scale asked or the load: when
/// reading it into a display list (the same for every tile and search of the revision) was stopped
/// by the size limit (its display items), or by the time limit after the thread had spent at least a
/// quarter of that limit in CPU time on it (a rendering thread runs behind the API's, and shares two
/// cores with them). A tile that waited for a thread, a render at a large scale,
/// or a machine busy with other work says nothing about its page.
final class OverBudgetPages: Sendable {
    private let pages = Mutex<[PageKey: RenderBudget.Stop]>([:])
    /// The most pages remembered: the oldest revisions' go first.
    static let capacity = 4096

    /// Why `key`'s drawing is given up at once, or nil to draw it.
    func verdict(_ key: PageKey) -> RenderBudget.Stop? { pages.withLock { $0[key] } }

    /// Notes how reading `key`'s content ended: `stop` (nil: read), after `cpu` of the rendering
    /// thread's CPU time, under a time limit of `limit`.
    func record(_ key: PageKey, stop: RenderBudget.Stop?, cpu: Duration, limit: Duration) {
        let spent: Bool
        switch stop {
        case .sizeLimit: spent = true
        case .timeLimit: spent = cpu >= limit / 4
        case .cancelled, nil: spent = false
        }
        guard spent, let stop else { return }
        pages.withLock { pages in
            // Earlier revisions' verdicts first, when full: they are the least likely asked again.
            if pages.count >= Self.capacity {
                let newest = pages.keys.map(\.revision).max() ?? key.revision
                pages = pages.filter { $0.key.revision == newest }
                if pages.count >= Self.capacity { pages.removeAll() }
            }
            pages[key] = stop
        }
    }
}

/// The CPU time the calling thread has used: what a page's reading cost, however busy the machine.
enum ThreadCPUTime {
    static func now() -> Duration {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
