import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFViewer
import Testing

@Suite struct ViewerModeTests {
    @Test("Form editing: tab order, wrapping, focus by name, invalid calls")
    func formEditing() {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.focusNextField()) && !changed(machine.endFormEditing()))
        #expect(!changed(machine.beginFormEditing(fields: [])))
        #expect(!changed(machine.beginFormEditing(fields: ["a", "b"], focus: "zz")))
        #expect(machine.isBrowsing)
        #expect(changed(machine.beginFormEditing(fields: ["a", "b", "c"])))
        var order: [String?] = []
        for step in [true, true, false, false] {
            if step { machine.focusNextField() } else { machine.focusPreviousField() }
            if case .formEditing(let editing) = machine.mode { order.append(editing.focusedField) }
        }
        // None focused → next: a, next: b, previous: a, previous wraps to c.
        #expect(order == ["a", "b", "a", "c"])
        machine.focusNextField()
        if case .formEditing(let editing) = machine.mode { #expect(editing.focusedField == "a") }
        #expect(!changed(machine.beginFormEditing(fields: ["x"])))
        #expect(changed(machine.focusField("b")) && !changed(machine.focusField("zz")))
        if case .formEditing(let editing) = machine.mode { #expect(editing.focusedIndex == 1) }
        #expect(changed(machine.endFormEditing()) && machine.isBrowsing)
    }

    @Test("Field selection → capture → positioning → confirm")
    func signingFlow() throws {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.chooseField("sig1")))
        #expect(!changed(machine.beginFieldSelection(candidates: [])))
        #expect(changed(machine.beginFieldSelection(candidates: ["sig1", "sig2"])))
        #expect(!changed(machine.chooseField("other")))
        #expect(changed(machine.chooseField("sig2")))
        #expect(machine.mode == .signatureCapture(field: "sig2"))
        #expect(!changed(machine.beginSignatureCapture()))
        let geometry = page(200, 100)
        let placement = SignaturePlacement(
            page: 0, rect: PDFRectangle(x0: 150, y0: 10, x1: 190, y1: 40), geometry: geometry)
        #expect(!changed(machine.moveSignature(byViewDelta: point(1, 1), geometry: geometry, zoom: 1)))
        #expect(changed(machine.finishSignatureCapture(placement: placement)))
        // Moving 100 view pixels right at zoom 2 is 50 points: x 200…240, stopped at the edge: 160…200.
        #expect(changed(machine.moveSignature(byViewDelta: point(100, 0), geometry: geometry, zoom: 2)))
        let result = try #require(changed(machine.confirmSignaturePosition()))
        #expect(result.page == 0 && result.rect == PDFRectangle(x0: 160, y0: 10, x1: 200, y1: 40))
        #expect(machine.isBrowsing && changed(machine.confirmSignaturePosition()) == nil)
        // Capture can also start from form editing.
        machine.beginFormEditing(fields: ["a"])
        #expect(changed(machine.beginSignatureCapture(field: "a")))
    }

    /// The page is [0 0 200 100] upright: the view box is 200 × 100 with y = 100 − PDF y.
    @Test(
        "Positioning stays inside the page and above the minimum size",
        arguments: [
            // Start [160 10 200 40] = view box (160, 60, 40, 30).
            // Up 1000 (y −1000): stops at the top, box y 0…30 → PDF y 70…100.
            (PlacementStep.move(point(0, -1000)), PDFRectangle(x0: 160, y0: 70, x1: 200, y1: 100)),
            // Left 1000: stops at x 0…40.
            (.move(point(-1000, 0)), PDFRectangle(x0: 0, y0: 10, x1: 40, y1: 40)),
            // Bottom-right corner far out: stops at the page's right (200) and bottom (box 100 → PDF 0).
            (.resize(.bottomRight, point(1000, 1000)), PDFRectangle(x0: 160, y0: 0, x1: 200, y1: 40)),
            // Top-left corner far in: stops 10 from the fixed bottom-right corner (200, 90 in the box).
            (.resize(.topLeft, point(1000, 1000)), PDFRectangle(x0: 190, y0: 10, x1: 200, y1: 20)),
            // Top-left corner out by 50 each way: box (110, 10) … (200, 90) → PDF x 110…200, y 10…90.
            (.resize(.topLeft, point(-50, -50)), PDFRectangle(x0: 110, y0: 10, x1: 200, y1: 90)),
            // Top-right corner out: x stops at 200; top at box 60 − 20 = 40 → PDF y 60.
            (.resize(.topRight, point(30, -20)), PDFRectangle(x0: 160, y0: 10, x1: 200, y1: 60)),
            // Bottom-left corner: box x 160 − 20 = 140, bottom 90 + 5 = 95 → PDF y 5.
            (.resize(.bottomLeft, point(-20, 5)), PDFRectangle(x0: 140, y0: 5, x1: 200, y1: 40)),
        ])
    func positioningClamps(step: PlacementStep, expected: PDFRectangle) {
        let geometry = page(200, 100)
        var placement = SignaturePlacement(
            page: 0, rect: PDFRectangle(x0: 160, y0: 10, x1: 200, y1: 40), geometry: geometry)
        switch step {
        case .move(let delta): placement.move(byViewDelta: delta, geometry: geometry, zoom: 1)
        case .resize(let handle, let delta):
            placement.resize(handle: handle, byViewDelta: delta, geometry: geometry, zoom: 1)
        }
        #expect(close(placement.rect, expected))
    }

    enum PlacementStep: Sendable {
        case move(PDFPoint)
        case resize(ResizeHandle, PDFPoint)
    }

    @Test("A placement starting off the page is pulled onto it and grown to the minimum size")
    func placementInitClamps() {
        // [−50 −50 −40 −45] is 10 × 5: grown to 10 × 10, then moved into the page's lower-left corner.
        let placement = SignaturePlacement(
            page: 0, rect: PDFRectangle(x0: -50, y0: -50, x1: -40, y1: -45), geometry: page(200, 100))
        #expect(close(placement.rect, PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 10)))
    }

    @Test("Moving right on a page rotated 90° moves up in PDF space")
    func rotatedPlacement() {
        // Crop [0 0 100 200] rotated 90°: view box x = PDF y, view box y = PDF x.
        let geometry = page(100, 200, rotation: 90)
        var placement = SignaturePlacement(
            page: 0, rect: PDFRectangle(x0: 10, y0: 10, x1: 30, y1: 50), geometry: geometry)
        placement.move(byViewDelta: point(20, 0), geometry: geometry, zoom: 1)
        #expect(close(placement.rect, PDFRectangle(x0: 10, y0: 30, x1: 30, y1: 70)))
    }

    @Test(
        "A viewer rectangle confirms to its page index (from 0) or to (zero, nil) on no page",
        arguments: [
            // See ViewerConversionTests.mixedState: page 1 (rotated 90°, crop [10 20 110 220]) is at view
            // y 20…120. View (40, 60, 20, 20) → view box (40…60, 40…60) → PDF x 50…70, y 60…80.
            (rect(40, 60, 20, 20), ViewerRectResult(rect: PDFRectangle(x0: 50, y0: 60, x1: 70, y1: 80), pageIndex: 1)),
            // Centre (200, 70) is on page 1's right edge; the part on the page is view x 190…200 →
            // view box x 190…200 → PDF y 210…220.
            (
                rect(190, 60, 20, 20),
                ViewerRectResult(rect: PDFRectangle(x0: 50, y0: 210, x1: 70, y1: 220), pageIndex: 1)
            ),
            // Centre (50, 10) is content y 210: the gap between the pages.
            (rect(40, 0, 20, 20), ViewerRectResult(rect: PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0), pageIndex: nil)),
        ])
    func viewerRect(viewRect: PDFRectangle, expected: ViewerRectResult) throws {
        var machine = ViewerModeMachine()
        #expect(changed(machine.confirmViewerRect(in: ViewerConversionTests.mixedState())) == nil)
        #expect(changed(machine.beginViewerRect(id: 7, rect: viewRect)))
        #expect(!changed(machine.beginViewerRect(id: 8, rect: viewRect)))
        let result = try #require(changed(machine.confirmViewerRect(in: ViewerConversionTests.mixedState())))
        #expect(result.pageIndex == expected.pageIndex && close(result.rect, expected.rect))
        #expect(machine.isBrowsing)
    }

    @Test("A viewer rectangle moves and resizes, keeping its minimum size")
    func viewerRectEditing() throws {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.moveViewerRect(by: point(1, 1))))
        machine.beginViewerRect(id: 1, rect: rect(40, 0, 20, 20))
        // From the gap down 60 onto page 1: the first case of the table above.
        #expect(changed(machine.moveViewerRect(by: point(0, 60))))
        // The top-left handle pushed past the opposite corner stops 10 from it: (50, 70, 10, 10).
        #expect(changed(machine.resizeViewerRect(handle: .topLeft, by: point(100, 100))))
        guard case .viewerRect(let session) = machine.mode else { throw ModeError.wrongMode }
        #expect(session.id == 1 && session.rect == rect(50, 70, 10, 10))
        #expect(changed(machine.cancel()) && machine.isBrowsing && !changed(machine.cancel()))
    }

    enum ModeError: Error { case wrongMode }

    @Test("Notes: strokes per page, undo, redo, a new stroke clears redo, save and cancel")
    func notes() throws {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.addStroke(stroke(point(1, 1)), page: 0)) && !changed(machine.undoStroke()))
        #expect(changed(machine.beginNotes(style: InkStyle(width: 3, color: .rgb(1, 0, 0)))))
        #expect(!changed(machine.beginSearch(results: [])))
        #expect(!changed(machine.undoStroke()) && !changed(machine.redoStroke()))
        #expect(!changed(machine.addStroke(stroke(), page: 0)))
        #expect(changed(machine.addStroke(stroke(point(1, 1), point(2, 2)), page: 0)))
        machine.setNoteStyle(InkStyle(width: 1, color: .rgb(1, 1, 0)))
        #expect(changed(machine.addStroke(stroke(point(3, 3)), page: 1)))
        guard case .notes(let session) = machine.mode else { throw ModeError.wrongMode }
        #expect(session.notes(onPage: 0).count == 1 && session.notes(onPage: 1).map(\.style.width) == [1])
        #expect(changed(machine.undoStroke()))
        #expect(changed(machine.redoStroke()) && !changed(machine.redoStroke()))
        #expect(changed(machine.undoStroke()))
        #expect(changed(machine.addStroke(stroke(point(4, 4)), page: 2)))
        // The new stroke emptied the redo stack.
        #expect(!changed(machine.redoStroke()))
        let saved = try #require(changed(machine.saveNotes()))
        #expect(saved.map(\.pageIndex) == [0, 2] && saved[0].style.width == 3)
        #expect(machine.isBrowsing && changed(machine.saveNotes()) == nil)
        machine.beginNotes()
        machine.addStroke(stroke(point(1, 1)), page: 0)
        #expect(changed(machine.cancel()) && machine.isBrowsing)
    }

    @Test("Search: next/previous wrap, colour changes, finish clears")
    func search() throws {
        var machine = ViewerModeMachine()
        #expect(changed(machine.nextSearchResult()) == nil && !changed(machine.finishSearch()))
        let quad = try #require(ViewerQuad([0, 0, 10, 0, 10, 10, 0, 10]))
        #expect(quad.boundingBox == PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 10))
        #expect(ViewerQuad([1, 2, 3]) == nil)
        let results = [0, 3, 7].map { SearchHit(page: $0, quads: [quad]) }
        #expect(changed(machine.beginSearch(results: results)))
        #expect(!changed(machine.beginNotes()))
        var pages: [Int?] = []
        for _ in 0..<4 { pages.append(machine.nextSearchResult()?.page) }
        // 0, 3, 7, then wraps to 0.
        #expect(pages == [0, 3, 7, 0])
        // Previous from the first wraps to the last, with a new highlight colour.
        #expect(changed(machine.previousSearchResult(highlightColor: .red))?.page == 7)
        guard case .search(let session) = machine.mode else { throw ModeError.wrongMode }
        #expect(session.currentIndex == 2 && session.highlightColor == .red)
        #expect(changed(machine.finishSearch()) && machine.isBrowsing)
        // Previous with none current picks the last; no results → nil.
        machine.beginSearch(results: results)
        #expect(changed(machine.previousSearchResult())?.page == 7)
        machine.finishSearch()
        machine.beginSearch(results: [])
        #expect(changed(machine.nextSearchResult()) == nil)
    }
}
