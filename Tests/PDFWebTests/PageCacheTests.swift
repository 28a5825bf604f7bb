import Dispatch
import Foundation
import PDFCore
import PDFForms
import PDFGraphics
import PDFSession
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
                return ([1, 2, 3], nil)
            }
            #expect(value == [1, 2, 3])
        }
        #expect(made.load(ordering: .relaxed) == 1)
        // A maker that gives up (nil): the next asker makes it.
        let other = PageKey(revision: 1, page: 1)
        #expect(cache.value(other, stopped: { false }) { nil } == nil)
        #expect(cache.value(other, stopped: { false }) { ([4], nil) } == [4])
        // A newer revision of a page drops the older one (other pages' stay, to be carried over).
        cache.store([5], for: PageKey(revision: 2, page: 0))
        #expect(cache.value(key) == nil)
        #expect(cache.value(other) == [4])
        #expect(cache.value(PageKey(revision: 2, page: 0)) == [5])
    }

    @Test("other pages of revisions more than eight back are dropped: each keeps its document alive")
    func oldRevisionsGo() {
        let cache = PageCache<[Int]>(capacity: 1000) { $0.count }
        cache.store([1], for: PageKey(revision: 1, page: 5))
        cache.store([2], for: PageKey(revision: 9, page: 0))
        #expect(cache.value(PageKey(revision: 1, page: 5)) == [1])
        cache.store([3], for: PageKey(revision: 10, page: 0))
        #expect(cache.value(PageKey(revision: 1, page: 5)) == nil)
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

@Suite struct PageDependencyTests {
    @Test("a page's drawing carries over to a revision that writes none of its objects, and only then")
    func carryOver() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let session = try #require(await server.backend.session)
        let original = session.currentDocument
        let graphics = GraphicsDocument(document: original)
        let first = try #require(graphics.dependencies(ofPageAt: 0))
        let second = try #require(graphics.dependencies(ofPageAt: 1))
        #expect(first.objects.count > 3)
        // A value typed on page one: page two reads none of what the revision writes.
        try await session.setValue(.text("Ada"), forField: "name")
        let filled = session.currentDocument
        #expect(filled.revisions.count == original.revisions.count + 1)
        #expect(!first.hold(in: filled, pageAt: 0))
        #expect(second.hold(in: filled, pageAt: 1))
        #expect(!second.hold(in: filled, pageAt: 0))
        // Another file with as many revisions (a revision taken back and written anew): not the same.
        let other = try await TestServer()
        defer { Task { await other.stop() } }
        let otherSession = try #require(await other.backend.session)
        try await otherSession.setValue(.text("Grace"), forField: "name")
        let secondFilled = try #require(GraphicsDocument(document: filled).dependencies(ofPageAt: 1))
        #expect(!secondFilled.hold(in: otherSession.currentDocument, pageAt: 1))
        #expect(secondFilled.hold(in: filled, pageAt: 1))
    }
}
