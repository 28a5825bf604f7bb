import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PDFWeb

@Suite struct PageCacheTests {
    @Test("askers of one page at once share one making of it; a maker that gives up hands over to the next")
    func coalesces() {
        let cache = PageCache<[Int]>(capacity: 100) { $0.count }
        let made = Atomic<Int>(0)
        let key = PageKey(revision: 1, page: 0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let value = cache.value(key, stopped: { false }) {
                made.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.2)
                return [1, 2, 3]
            }
            #expect(value == [1, 2, 3])
        }
        #expect(made.load(ordering: .relaxed) == 1)
        // A maker that gives up (nil): the next asker makes it.
        let other = PageKey(revision: 1, page: 1)
        #expect(cache.value(other, stopped: { false }) { nil } == nil)
        #expect(cache.value(other, stopped: { false }) { [4] } == [4])
        // A newer revision drops the older ones.
        cache.store([5], for: PageKey(revision: 2, page: 0))
        #expect(cache.value(key) == nil)
        #expect(cache.value(PageKey(revision: 2, page: 0)) == [5])
    }

    @Test("beyond the capacity the least recently used go first")
    func capacity() {
        let cache = PageCache<[Int]>(capacity: 5) { $0.count }
        cache.store([1, 1], for: PageKey(revision: 1, page: 0))
        cache.store([2, 2], for: PageKey(revision: 1, page: 1))
        _ = cache.value(PageKey(revision: 1, page: 0))
        cache.store([3, 3], for: PageKey(revision: 1, page: 2))
        #expect(cache.value(PageKey(revision: 1, page: 1)) == nil)
        #expect(cache.value(PageKey(revision: 1, page: 0)) == [1, 1])
        cache.store(Array(repeating: 9, count: 6), for: PageKey(revision: 1, page: 3))
        #expect(cache.value(PageKey(revision: 1, page: 3)) == nil)
    }
}
