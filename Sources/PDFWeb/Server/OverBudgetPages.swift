import PDFGraphics
import Synchronization

/// The pages of a revision that cannot be drawn within the render budget: answered
/// `503 pageTooComplex` at once from then on, without taking a rendering thread, until the revision
/// changes (its key is the revision's). Without it, a few clients asking for such a page in a loop
/// took every rendering thread for the whole time limit each time, and a light page's tile waited
/// about 4 s or got `503 busy`.
///
/// A page is marked when its drawing was stopped by the size limit (its display items: the same
/// every time), or by the time limit after it had the rendering thread for at least half of it — a
/// tile that only waited for a thread says nothing about its page.
final class OverBudgetPages: Sendable {
    private let pages = Mutex<[PageKey: RenderBudget.Stop]>([:])
    /// The most pages remembered: the oldest revisions' go first.
    static let capacity = 4096

    /// Why `key`'s drawing is given up at once, or nil to draw it.
    func verdict(_ key: PageKey) -> RenderBudget.Stop? { pages.withLock { $0[key] } }

    /// Notes how `key`'s drawing ended: `stop` (nil: drawn), after `drawing` on a rendering thread,
    /// under a time limit of `limit`.
    func record(_ key: PageKey, stop: RenderBudget.Stop?, drawing: Duration, limit: Duration) {
        let spent: Bool
        switch stop {
        case .sizeLimit: spent = true
        case .timeLimit: spent = drawing >= limit / 2
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
