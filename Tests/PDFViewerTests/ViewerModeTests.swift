import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFViewer
import Testing

@Suite struct ViewerModeTests {
    enum ModeError: Error { case wrongMode }

    static let red = PDFColor.rgb(1, 0, 0)
    static let yellow = PDFColor.rgb(1, 1, 0)

    @Test("Signing takes the screen from browsing or a search, not from notes or an open rectangle")
    func signing() {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.endSigning()))
        #expect(changed(machine.beginSigning()) && machine.mode == .signing)
        // Already signing: still true, still signing; nothing else starts meanwhile.
        #expect(changed(machine.beginSigning()) && machine.mode == .signing)
        #expect(!changed(machine.beginNotes()) && !changed(machine.beginViewerRect(id: 1)))
        #expect(!changed(machine.beginSearch(query: "a", results: [], highlightColor: Self.red)))
        #expect(changed(machine.endSigning()) && machine.isBrowsing)
        // A search gives way (its highlights go); notes and a rectangle do not.
        machine.beginSearch(query: "a", results: [], highlightColor: Self.red)
        #expect(changed(machine.beginSigning()) && machine.mode == .signing)
        machine.endSigning()
        machine.beginNotes()
        #expect(!changed(machine.beginSigning()) && machine.notes != nil)
        machine.cancel()
        machine.beginViewerRect(id: 4)
        #expect(!changed(machine.beginSigning()) && machine.mode == .viewerRect(id: 4))
    }

    @Test("A viewer rectangle ends only by its own id")
    func viewerRect() {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.endViewerRect(id: 1)))
        #expect(changed(machine.beginViewerRect(id: 1)))
        #expect(!changed(machine.beginViewerRect(id: 2)) && machine.mode == .viewerRect(id: 1))
        #expect(!changed(machine.endViewerRect(id: 2)) && machine.mode == .viewerRect(id: 1))
        #expect(changed(machine.endViewerRect(id: 1)) && machine.isBrowsing)
        #expect(machine.mode.name == "browsing" && ViewerMode.viewerRect(id: 3).name == "viewerRect")
    }

    @Test("Notes: notes per page, undo, redo, a new note clears redo, save and cancel")
    func notes() throws {
        var machine = ViewerModeMachine()
        #expect(!changed(machine.addNote([stroke(point(1, 1))], page: 0)) && !changed(machine.undoNote()))
        #expect(machine.notes == nil && changed(machine.saveNotes()) == nil)
        #expect(changed(machine.beginNotes(style: InkStyle(width: 3, color: Self.red))))
        #expect(!changed(machine.beginSearch(query: "a", results: [], highlightColor: Self.red)))
        #expect(!changed(machine.beginNotes()))
        #expect(!changed(machine.undoNote()) && !changed(machine.redoNote()))
        #expect(!changed(machine.addNote([stroke()], page: 0)) && !changed(machine.addNote([], page: 0)))
        #expect(!changed(machine.addNote([stroke(point(1, 1))], page: -1)))
        #expect(changed(machine.addNote([stroke(point(1, 1), point(2, 2))], page: 0)))
        machine.setNoteStyle(InkStyle(width: 1, color: Self.yellow))
        #expect(changed(machine.addNote([stroke(point(3, 3))], page: 1)))
        let notes = try #require(machine.notes)
        #expect(notes.notes(onPage: 0).count == 1 && notes.notes(onPage: 1).map(\.style.width) == [1])
        #expect(changed(machine.undoNote()))
        #expect(changed(machine.redoNote()) && !changed(machine.redoNote()))
        #expect(changed(machine.undoNote()))
        #expect(changed(machine.addNote([stroke(point(4, 4))], page: 2)))
        // The new note emptied the redo stack.
        #expect(!changed(machine.redoNote()) && machine.notes?.canRedo == false)
        let saved = try #require(changed(machine.saveNotes()))
        #expect(saved.map(\.pageIndex) == [0, 2] && saved[0].style.width == 3)
        #expect(machine.isBrowsing && changed(machine.saveNotes()) == nil)
        machine.beginNotes()
        machine.addNote([stroke(point(1, 1))], page: 0)
        #expect(changed(machine.cancel()) && machine.isBrowsing && !changed(machine.cancel()))
        #expect(!changed(machine.setNoteStyle(InkStyle())))
    }

    @Test("Search: next/previous wrap, a result by index, colour changes, a new search replaces, finish clears")
    func search() throws {
        var machine = ViewerModeMachine()
        #expect(changed(machine.nextSearchResult()) == nil && !changed(machine.finishSearch()))
        #expect(changed(machine.showSearchResult(at: 0)) == nil)
        let quad = try #require(ViewerQuad([0, 0, 10, 0, 10, 10, 0, 10]))
        #expect(quad.boundingBox == PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 10))
        #expect(quad.numbers == [0, 0, 10, 0, 10, 10, 0, 10])
        #expect(ViewerQuad([1, 2, 3]) == nil)
        let results = [0, 3, 7].map { SearchHit(page: $0, quads: [quad]) }
        #expect(changed(machine.beginSearch(query: "x", results: results, highlightColor: Self.yellow)))
        var pages: [Int?] = []
        for _ in 0..<4 { pages.append(machine.nextSearchResult()?.page) }
        // 0, 3, 7, then wraps to 0.
        #expect(pages == [0, 3, 7, 0])
        // Previous from the first wraps to the last, with a new highlight colour.
        #expect(changed(machine.previousSearchResult(highlightColor: Self.red))?.page == 7)
        guard case .search(let session) = machine.mode else { throw ModeError.wrongMode }
        #expect(session.currentIndex == 2 && session.highlightColor == Self.red && session.query == "x")
        // By index; one it has not changes nothing.
        #expect(changed(machine.showSearchResult(at: 1, highlightColor: Self.yellow))?.page == 3)
        #expect(changed(machine.showSearchResult(at: 3)) == nil && changed(machine.showSearchResult(at: -1)) == nil)
        guard case .search(let after) = machine.mode else { throw ModeError.wrongMode }
        #expect(after.currentIndex == 1 && after.highlightColor == Self.yellow)
        // A new search replaces the old one, none current.
        #expect(changed(machine.beginSearch(query: "y", results: [results[2]], highlightColor: Self.red)))
        guard case .search(let replaced) = machine.mode else { throw ModeError.wrongMode }
        #expect(replaced.query == "y" && replaced.currentIndex == nil && replaced.results.count == 1)
        #expect(changed(machine.finishSearch()) && machine.isBrowsing)
        // Previous with none current picks the last; no results → nil.
        machine.beginSearch(query: "x", results: results, highlightColor: Self.red)
        #expect(changed(machine.previousSearchResult())?.page == 7)
        machine.beginSearch(query: "z", results: [], highlightColor: Self.red)
        #expect(changed(machine.nextSearchResult()) == nil)
    }
}
