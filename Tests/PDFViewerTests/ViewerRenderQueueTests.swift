import PDFCore
import PDFViewer
import Testing

/// Records every render request.
actor RenderLog {
    var requests: [RenderRequest] = []
    func record(_ request: RenderRequest) { requests.append(request) }
}

/// A renderer that draws nothing and returns the page index as its "tile".
struct FakeRenderer: ViewerPageRenderer {
    let log: RenderLog
    func render(page: Int, scale: Double) async -> Int? {
        await log.record(RenderRequest(page: page, scale: scale))
        return page
    }
}

/// 350 pages of 100 × 200 stacked 20 apart in a 100 × 300 viewport (fit width: zoom 1, no padding):
/// page i spans y 220·i … 220·i + 200; the content is 350·200 + 349·20 = 76 980 high.
@Suite struct ViewerRenderQueueTests {
    static func longDocument() -> ViewerState {
        ViewerState(
            layout: DocumentLayout(
                pages: Array(repeating: page(100, 200), count: 350),
                configuration: LayoutConfiguration(spreadSpacing: 20),
                viewportSize: PDFSize(width: 100, height: 300)))
    }

    /// The pages that may be requested at offset `y`: those overlapping y … y + 300 and one more on each side.
    static func allowedPages(offset y: Double) -> ClosedRange<Int> {
        let visible = (0..<350).filter { 220 * Double($0) < y + 300 && 220 * Double($0) + 200 > y }
        return max(0, visible.first! - 1)...min(349, visible.last! + 1)
    }

    @Test("The visible pages come first, nearest the centre first, then the neighbours")
    func priorities() {
        var queue = RenderQueue(pixelScale: 2)
        var state = Self.longDocument()
        queue.update(for: state)
        // Offset 0: pages 0 (0–200) and 1 (220–420) are visible; the centre is y 150: page 0's centre
        // (100) is 50 away, page 1's (320) 170. Neighbour: page 2. Scale = zoom 1 × 2.
        #expect(queue.pending == [0, 1, 2].map { RenderRequest(page: $0, scale: 2) })
        // Offset 22 000: pages 100 (22 000–22 200) and 101 (22 220–22 420) visible; centre 22 150:
        // distances 50 and 170; neighbours 99 (centre 21 880, 270 away) and 102 (22 540, 390 away).
        state.setContentOffset(point(0, 22000))
        queue.update(for: state)
        #expect(queue.pending.map(\.page) == [100, 101, 99, 102])
    }

    @Test("Requests that scroll out of range are cancelled")
    func cancellation() {
        var queue = RenderQueue()
        var state = Self.longDocument()
        queue.update(for: state)
        let first = queue.startNext()
        let second = queue.startNext()
        #expect(first?.page == 0 && second?.page == 1 && queue.running.count == 2)
        state.setContentOffset(point(0, 22000))
        let cancelled = queue.update(for: state)
        // Running 0 and 1 and pending 2 are all outside 99…102.
        #expect(Set(cancelled.map(\.page)) == [0, 1, 2])
        #expect(queue.running.isEmpty)
        // A finish arriving for a cancelled request is ignored.
        queue.finish(RenderRequest(page: 0, scale: 1), succeeded: true)
        #expect(queue.rendered[0] == nil)
    }

    @Test("A zoom change re-renders the visible pages at the new scale")
    func zoomChange() async {
        var queue = RenderQueue()
        var state = Self.longDocument()
        let renderer = FakeRenderer(log: RenderLog())
        queue.update(for: state)
        while await queue.renderNext(with: renderer) != nil {}
        #expect(queue.rendered == [0: 1, 1: 1, 2: 1])
        state.setZoom(2)
        queue.update(for: state)
        // At zoom 2 page 0 spans y 0…400, covering the 300-high viewport; page 1 is the neighbour.
        #expect(queue.pending == [RenderRequest(page: 0, scale: 2), RenderRequest(page: 1, scale: 2)])
        #expect(queue.rendered == [0: 1, 1: 1])
    }

    @Test("Scrolling through 350 pages requests only visible and neighbouring pages, each once")
    func scrollThroughLongDocument() async {
        var queue = RenderQueue()
        var state = Self.longDocument()
        let log = RenderLog()
        let renderer = FakeRenderer(log: log)
        var outOfRange: [Int] = []
        // The largest offset is 76 980 − 300 = 76 680.
        for offset in Array(stride(from: 0.0, to: 76680, by: 37)) + [76680] {
            state.setContentOffset(point(0, offset))
            #expect(state.contentOffset.y == offset)
            queue.update(for: state)
            let allowed = Self.allowedPages(offset: offset)
            while let (request, tile) = await queue.renderNext(with: renderer) {
                if !allowed.contains(request.page) { outOfRange.append(request.page) }
                #expect(tile == request.page)
            }
        }
        #expect(outOfRange.isEmpty)
        let requests = await log.requests
        // Steps of 37 are shorter than a page, so every page is visible at some point; scrolling only
        // forwards never brings one back, so each is requested exactly once.
        #expect(requests.count == 350)
        #expect(Set(requests.map(\.page)) == Set(0..<350))
    }
}
