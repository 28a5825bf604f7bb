import Dispatch
import PDFCore
import PDFGraphics
import Synchronization

/// A page of one revision of the document served.
struct PageKey: Hashable, Sendable {
    /// The backend's revision counter (a new one for every document or revision rendered).
    let revision: Int
    let page: Int
}

/// What was made last for the pages of a document — display lists for tiles, text for search — so
/// that the tiles of one page, or the same page searched again, read its content once. Bounded by
/// a cost (display items or glyphs, the measure of their memory); the least recently used go first.
final class PageCache<Value: Sendable>: Sendable {
    typealias Key = PageKey

    private struct Entry {
        var key: Key
        let value: Value
        let cost: Int
        /// What the value was made from, to serve a later revision that changed none of it.
        let dependencies: PageDependencies?
    }

    private let state = Mutex<(entries: [Entry], cost: Int)>(([], 0))
    /// The pages being made now (for any revision), each with the group its other askers wait on:
    /// one making of a page at a time, so that a page asked for in several revisions at once (a
    /// form being filled meanwhile) is read once and carried over, not read once per revision.
    private let making = Mutex<[Int: DispatchGroup]>([:])
    /// The most cost held at once.
    let capacity: Int
    /// How many revisions back a page's value is kept to be carried over.
    static var revisionsKept: Int { 8 }
    private let cost: @Sendable (Value) -> Int

    init(capacity: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.capacity = capacity
        self.cost = cost
    }

    /// The cached value, made the most recently used.
    func value(_ key: Key) -> Value? {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
            let found = state.entries.remove(at: index)
            state.entries.append(found)
            return found.value
        }
    }

    /// The value made for the same page of an earlier revision, now kept for `key`, when `document`
    /// (`key`'s revision) writes none of what it was made from. Its dependencies then name `document`,
    /// so the earlier one is not kept alive by it.
    func carryOver(to key: Key, in document: PDFDocument) -> Value? {
        let candidate = state.withLock { state -> (Key, PageDependencies)? in
            guard
                let entry = state.entries.last(where: {
                    $0.key.page == key.page && $0.key.revision < key.revision && $0.dependencies != nil
                }),
                let dependencies = entry.dependencies
            else { return nil }
            return (entry.key, dependencies)
        }
        // Checked outside the lock: it reads the new document's revisions and compares its bytes.
        guard let (earlier, dependencies) = candidate, dependencies.hold(in: document, pageAt: key.page) else {
            return nil
        }
        return state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == earlier }) else { return nil }
            let entry = state.entries.remove(at: index)
            state.entries.append(
                Entry(key: key, value: entry.value, cost: entry.cost, dependencies: dependencies.rebased(on: document)))
            return entry.value
        }
    }

    /// The cached value, or the one `make` returns (kept); when another thread is making the same
    /// value, waits for it instead of making it twice (a page of millions of operators is read once,
    /// however many tiles and searches ask for it at once). Gives up with nil once `stopped` says so.
    /// Called on the rendering threads: it blocks.
    func value(
        _ key: Key, stopped: () -> Bool, carryingOverIn document: PDFDocument? = nil,
        make: () -> (Value, PageDependencies?)?
    ) -> Value? {
        while true {
            if let cached = value(key) { return cached }
            if let document, let carried = carryOver(to: key, in: document) { return carried }
            let (group, maker) = making.withLock { making -> (DispatchGroup, Bool) in
                if let group = making[key.page] { return (group, false) }
                let group = DispatchGroup()
                group.enter()
                making[key.page] = group
                return (group, true)
            }
            if maker {
                let made = make()
                if let made { store(made.0, for: key, dependencies: made.1) }
                making.withLock { _ = $0.removeValue(forKey: key.page) }
                group.leave()
                return made?.0
            }
            // Another thread makes this page: wait, looking at this asker's own budget now and then,
            // then take it (same revision), carry it over (a later one that changed nothing it
            // reads), or make it here (the maker gave up, or the page changed).
            while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if stopped() { return nil }
            }
            if stopped() { return nil }
        }
    }

    /// Keeps `value`, dropping what an earlier revision left for the same page and the least
    /// recently used beyond the capacity.
    func store(_ value: Value, for key: Key, dependencies: PageDependencies? = nil) {
        let cost = cost(value)
        guard cost <= capacity else { return }
        state.withLock { state in
            // The same page of an earlier revision is superseded; other pages of recent revisions stay
            // (within the capacity) to be carried over to this one when they can. Older ones go: each
            // keeps its revision's document alive.
            let superseded = { (entry: Entry) in
                entry.key.revision < key.revision
                    && (entry.key.page == key.page || entry.key.revision < key.revision - Self.revisionsKept)
            }
            state.cost -= state.entries.filter(superseded).reduce(0) { $0 + $1.cost }
            state.entries.removeAll(where: superseded)
            if let index = state.entries.firstIndex(where: { $0.key == key }) {
                state.cost -= state.entries.remove(at: index).cost
            }
            while state.cost + cost > capacity, !state.entries.isEmpty {
                state.cost -= state.entries.removeFirst().cost
            }
            state.entries.append(Entry(key: key, value: value, cost: cost, dependencies: dependencies))
            state.cost += cost
        }
    }
}
