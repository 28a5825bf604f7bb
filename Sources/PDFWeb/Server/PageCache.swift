import Synchronization

/// What was made last for the pages of a document — display lists for tiles, text for search — so
/// that the tiles of one page, or the same page searched again, read its content once. Bounded by
/// a cost (display items or glyphs, the measure of their memory); the least recently used go first.
final class PageCache<Value: Sendable>: Sendable {
    struct Key: Hashable, Sendable {
        /// The backend's revision counter (a new one for every document or revision rendered).
        let revision: Int
        let page: Int
    }

    private let state = Mutex<(entries: [(key: Key, value: Value, cost: Int)], cost: Int)>(([], 0))
    /// The most cost held at once.
    let capacity: Int
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

    /// Keeps `value`, dropping what earlier revisions left (never asked again: revisions only move
    /// forward) and the least recently used beyond the capacity.
    func store(_ value: Value, for key: Key) {
        let cost = cost(value)
        guard cost <= capacity else { return }
        state.withLock { state in
            let stale = state.entries.filter { $0.key.revision < key.revision }
            state.cost -= stale.reduce(0) { $0 + $1.cost }
            state.entries.removeAll { $0.key.revision < key.revision }
            if let index = state.entries.firstIndex(where: { $0.key == key }) {
                state.cost -= state.entries.remove(at: index).cost
            }
            while state.cost + cost > capacity, !state.entries.isEmpty {
                state.cost -= state.entries.removeFirst().cost
            }
            state.entries.append((key, value, cost))
            state.cost += cost
        }
    }
}
