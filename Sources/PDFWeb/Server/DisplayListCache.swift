import PDFGraphics
import Synchronization

/// The display lists of the pages drawn last, so that the tiles of one page (and the same page
/// asked again at another scale) interpret its content once. Bounded by the number of display
/// items held, the measure of their memory.
final class DisplayListCache: Sendable {
    private struct Entry {
        let list: DisplayList
        let items: Int
    }

    private let state = Mutex<(entries: [(key: Key, entry: Entry)], items: Int)>(([], 0))
    /// The most display items held at once.
    let capacity: Int

    struct Key: Hashable {
        /// The backend's revision counter (a new one for every document or revision rendered).
        let revision: Int
        let page: Int
    }

    init(capacity: Int) { self.capacity = capacity }

    /// The cached list, made the most recently used.
    func list(_ key: Key) -> DisplayList? {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
            let found = state.entries.remove(at: index)
            state.entries.append(found)
            return found.entry.list
        }
    }

    /// Keeps `list`, dropping the least recently used lists beyond the capacity.
    func store(_ list: DisplayList, for key: Key) {
        let items = list.items.count
        guard items <= capacity else { return }
        state.withLock { state in
            if let index = state.entries.firstIndex(where: { $0.key == key }) {
                state.items -= state.entries.remove(at: index).entry.items
            }
            while state.items + items > capacity, !state.entries.isEmpty {
                state.items -= state.entries.removeFirst().entry.items
            }
            state.entries.append((key, Entry(list: list, items: items)))
            state.items += items
        }
    }
}
