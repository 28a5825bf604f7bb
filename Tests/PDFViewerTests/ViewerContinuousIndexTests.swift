import PDFCore
import PDFViewer
import Testing

/// The continuous spread index on the four-page document (`fourPageState`): spreads span 0–200,
/// 220–420, 440–640, 660–860 along the axis, the viewport is 100 long, so the centre is offset + 50.
@Suite struct ViewerContinuousIndexTests {
    static let directions: [LayoutConfiguration.Direction] = [.vertical, .horizontal]

    @Test(
        "Inside a spread the index is linear; in the gap it stays at the next spread",
        arguments: directions,
        [
            // offset, index: centre 50 → 50/200; centre 150 → 150/200.
            (0.0, 0.25), (100, 0.75),
            // Centres 200, 210, 215 and 220 lie in or at the edges of the gap 200–220: constant 1.
            (150, 1), (160, 1), (165, 1), (170, 1),
            // Centre 270: 1 + 50/200. Centre 540 = middle of spread 2: 2.5.
            (220, 1.25), (490, 2.5),
            // The largest offset 760: centre 810 → 3 + 150/200.
            (760, 3.75),
        ])
    func indexAtOffset(direction: LayoutConfiguration.Direction, sample: (offset: Double, index: Double)) {
        var state = fourPageState(direction: direction)
        state.setContentOffset(axisPoint(sample.offset, direction))
        #expect(axis(state.contentOffset, direction) == sample.offset)
        #expect(close(state.continuousSpreadIndex, sample.index))
        // The integer index is the integer part: in the gap, the next spread.
        #expect(state.spreadIndex == Int(sample.index))
    }

    @Test("2.5 is the centre of spread 2", arguments: directions)
    func twoAndAHalfCentresSpreadTwo(direction: LayoutConfiguration.Direction) {
        var state = fourPageState(direction: direction)
        let moved = state.setContinuousSpreadIndex(2.5)
        #expect(moved)
        // Spread 2 spans 440–640, centre 540; the viewport centre is 50 past the offset.
        #expect(axis(state.contentOffset, direction) == 490)
    }

    @Test("The index stays in [0, spreadCount)")
    func clampedRange() {
        let state = fourPageState()
        #expect(state.continuousSpreadIndex(atAxisPosition: -30) == 0)
        // At and after the last spread's trailing edge (860) the index is 4 less one ulp.
        #expect(state.continuousSpreadIndex(atAxisPosition: 860) == Double(4).nextDown)
        #expect(state.continuousSpreadIndex(atAxisPosition: 5000) < 4)
        // A position exactly at a spread's leading edge is that spread's integer.
        #expect(state.continuousSpreadIndex(atAxisPosition: 440) == 2)
    }

    @Test("The index never decreases over a sweep of offsets", arguments: directions)
    func monotonic(direction: LayoutConfiguration.Direction) {
        var state = fourPageState(direction: direction)
        var previous = -1.0
        var distinct = Set<Double>()
        for offset in stride(from: 0.0, through: 760, by: 0.5) {
            state.setContentOffset(axisPoint(offset, direction))
            let index = state.continuousSpreadIndex
            #expect(index >= previous && index >= 0 && index < 4)
            previous = index
            distinct.insert(index)
        }
        // Constant in the three gaps, so fewer distinct values than offsets (1521 samples, each gap of
        // 20 points holds 41 samples of which 40 repeat a value: 3·40 = 120 repeats).
        #expect(distinct.count == 1521 - 120)
    }

    @Test("index → offset → index round trips over the reachable range", arguments: directions)
    func roundTrip(direction: LayoutConfiguration.Direction) {
        var state = fourPageState(direction: direction)
        // The viewport centre moves from 50 to 810: indices 0.25 … 3.75.
        for index in stride(from: 0.25, through: 3.75, by: 0.125) {
            state.setContinuousSpreadIndex(index)
            #expect(close(state.continuousSpreadIndex, index))
        }
    }

    @Test("Unreachable indices land at the nearest reachable offset")
    func unreachableIndexClamps() {
        var state = fourPageState()
        state.setContentOffset(point(0, 300))
        // 0.1 would need the centre at 20, i.e. offset −30: clamped to 0.
        state.setContinuousSpreadIndex(0.1)
        #expect(state.contentOffset.y == 0)
    }

    @Test("Empty documents have index 0")
    func emptyDocument() {
        let state = ViewerState(
            layout: DocumentLayout(
                pages: [], configuration: LayoutConfiguration(), viewportSize: PDFSize(width: 10, height: 10)))
        #expect(state.continuousSpreadIndex == 0 && state.spreadIndex == 0 && state.visiblePages.isEmpty)
    }
}
