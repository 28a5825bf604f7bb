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
/// A verdict says only what the page's own drawing costs, whatever the load:
/// - reading its content into a display list (the same for every tile and search of the revision)
///   stopped by the size limit (its display items), or by the time limit after the thread had spent
///   at least a quarter of that limit in CPU time on it (a rendering thread runs behind the API's and
///   shares the cores with them): every tile and search of the page is refused;
/// - drawing the display list stopped by the time limit after the same CPU time: tiles of that page
///   with at least as many pixels are refused (a larger one costs no less), smaller ones are still
///   drawn — so a tile asked at a huge scale never marks the page for people reading it at a
///   normal one.
/// A tile that waited for a thread, or a machine busy with other work, says nothing about its page.
final class OverBudgetPages: Sendable {
    private struct Verdict {
        /// Reading the content was stopped: every tile and search is refused.
        var content: RenderBudget.Stop?
        /// Drawing a tile of this many pixels was stopped: tiles at least as large are refused.
        var drawingPixels: Int?
    }

    /// The CPU time of one tile above which its page's tiles are scheduled as heavy.
    static let heavyCost: Duration = .milliseconds(500)

    /// What the last tile of each page (by index, whatever the revision: filling a field on page 1
    /// does not make page 40 cheaper, and the figure only orders and spares the rendering threads)
    /// cost in CPU time — at least, when it was stopped before the end.
    private let costs = Mutex<[Int: Duration]>([:])

    /// Whether `key`'s tiles cost long to draw (``TileWorkers``' heavy jobs).
    func isHeavy(_ key: PageKey) -> Bool { (cost(key) ?? .zero) >= Self.heavyCost }

    /// What the last tile of `key`'s page cost, when one was drawn (or stopped).
    func cost(_ key: PageKey) -> Duration? { costs.withLock { $0[key.page] } }

    /// Notes what a tile or a search of `key` took of the rendering thread's CPU time: `finished`, what
    /// it costs now (less once its content is cached); stopped, at least that.
    func noteCost(_ key: PageKey, cpu: Duration, finished: Bool) {
        costs.withLock { costs in
            if costs[key.page] == nil, costs.count >= Self.capacity { costs.removeAll() }
            costs[key.page] = finished ? cpu : max(cpu, costs[key.page] ?? .zero)
        }
    }

    private let pages = Mutex<[PageKey: Verdict]>([:])
    /// The most pages remembered: the oldest revisions' go first.
    static let capacity = 4096

    /// Why reading `key`'s content (a search, or any tile) is given up at once, or nil to read it.
    func verdict(_ key: PageKey) -> RenderBudget.Stop? { pages.withLock { $0[key]?.content } }

    /// Why a tile of `pixels` pixels of `key` is given up at once, or nil to draw it.
    func verdict(_ key: PageKey, pixels: Int) -> RenderBudget.Stop? {
        pages.withLock { pages in
            guard let verdict = pages[key] else { return nil }
            if let content = verdict.content { return content }
            if let drawing = verdict.drawingPixels, pixels >= drawing { return .timeLimit }
            return nil
        }
    }

    /// Notes how reading `key`'s content ended: `stop` (nil: read), after `cpu` of the rendering
    /// thread's CPU time, under a time limit of `limit`.
    func record(_ key: PageKey, stop: RenderBudget.Stop?, cpu: Duration, limit: Duration) {
        guard let stop = Self.spent(stop, cpu, limit) else { return }
        update(key) { $0.content = stop }
    }

    /// Notes how drawing a tile of `pixels` pixels of `key` ended: `stop` (nil: drawn), after `cpu`
    /// of the rendering thread's CPU time, under a time limit of `limit`.
    func recordDrawing(_ key: PageKey, pixels: Int, stop: RenderBudget.Stop?, cpu: Duration, limit: Duration) {
        guard Self.spent(stop, cpu, limit) != nil else { return }
        update(key) { $0.drawingPixels = min($0.drawingPixels ?? .max, pixels) }
    }

    /// The stop that counts against the page: the size limit, or the time limit after a quarter of it
    /// in CPU time.
    private static func spent(_ stop: RenderBudget.Stop?, _ cpu: Duration, _ limit: Duration) -> RenderBudget.Stop? {
        switch stop {
        case .sizeLimit: .sizeLimit
        case .timeLimit: cpu >= limit / 4 ? .timeLimit : nil
        case .cancelled, nil: nil
        }
    }

    private func update(_ key: PageKey, _ change: (inout Verdict) -> Void) {
        pages.withLock { pages in
            // Earlier revisions' verdicts first, when full: they are the least likely asked again.
            if pages[key] == nil, pages.count >= Self.capacity {
                let newest = pages.keys.map(\.revision).max() ?? key.revision
                pages = pages.filter { $0.key.revision == newest }
                if pages.count >= Self.capacity { pages.removeAll() }
            }
            change(&pages[key, default: Verdict()])
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
