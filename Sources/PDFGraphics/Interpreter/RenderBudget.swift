import Synchronization

/// How much drawing one page may cost, shared by the interpreter that builds its display list and
/// the renderer that replays it: a time limit, a cap on the display list's size (its memory), and a
/// switch the caller turns off when the result is no longer wanted (a web client that left).
///
/// Work stops at the next check once the budget is spent; the caller asks ``stop`` afterwards and
/// treats what was drawn as incomplete (an error, never a page shown as if whole).
///
/// ```swift
/// let budget = RenderBudget(timeLimit: .seconds(8), maxItems: 4_000_000)
/// let list = graphics.displayList(pageAt: 0, budget: budget)
/// if let stop = budget.stop { throw … }
/// ```
public final class RenderBudget: Sendable {
    /// Why work stopped.
    public enum Stop: UInt8, Sendable, Equatable {
        /// ``cancel()`` was called.
        case cancelled = 1
        /// The time limit passed.
        case timeLimit = 2
        /// The display list grew past `maxItems`.
        case sizeLimit = 3
    }

    /// When the time limit passes.
    public let deadline: ContinuousClock.Instant?
    /// The most display items (drawing operations kept for replay) a page may have.
    public let maxItems: Int
    private let stopped = Atomic<UInt8>(0)

    /// A budget of `timeLimit` from now (nil: no time limit) and at most `maxItems` display items.
    public init(timeLimit: Duration? = nil, maxItems: Int = .max) {
        deadline = timeLimit.map { ContinuousClock.now + $0 }
        self.maxItems = maxItems
    }

    /// A budget that ends at `deadline` (a request's arrival plus its allowance, say).
    public init(deadline: ContinuousClock.Instant, maxItems: Int = .max) {
        self.deadline = deadline
        self.maxItems = maxItems
    }

    /// Stops the work at its next check (no effect once stopped for another reason).
    public func cancel() { record(.cancelled) }

    /// Why the work stopped, or nil while it may go on. Reads the clock: call it every few hundred
    /// operations, not for each.
    public var stop: Stop? {
        if let reason = Stop(rawValue: stopped.load(ordering: .relaxed)) { return reason }
        if let deadline, ContinuousClock.now >= deadline { record(.timeLimit) }
        return Stop(rawValue: stopped.load(ordering: .relaxed))
    }

    /// Records that `count` display items exist; past `maxItems`, the work stops.
    func checkItems(_ count: Int) {
        if count > maxItems { record(.sizeLimit) }
    }

    private func record(_ reason: Stop) {
        _ = stopped.compareExchange(expected: 0, desired: reason.rawValue, ordering: .relaxed)
    }
}
