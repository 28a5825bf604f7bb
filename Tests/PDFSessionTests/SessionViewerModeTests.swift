import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFTestSupport
import PDFViewer
import Testing

@testable import PDFSession

/// The session owns the viewer's mode (PDFViewer's machine): notes, search and viewer rectangles
/// exclude each other and the signing workflow, and every refusal is an error a viewer can show.
@Suite struct SessionViewerModeTests {
    static let quad = ViewerQuad([72, 700, 120, 700, 120, 712, 72, 712])!

    static func session(_ id: String) async throws -> DocumentSession {
        let (controller, _) = try SessionFixtures.controller()
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        return try await controller.open(
            pdf: SessionFixtures.form(), documentID: id, signatureConfiguration: configuration)
    }

    @Test("Search: results on the document's pages, next and by index in a colour, replaced, finished")
    func search() async throws {
        let session = try await Self.session("search")
        #expect(await session.viewerMode == .browsing)
        let outside = await #expect(throws: SessionError.self) {
            try await session.beginSearch(query: "x", results: [SearchHit(page: 2, quads: [Self.quad])])
        }
        #expect(outside?.code == .invalidArgument)
        let stepped = await #expect(throws: SessionError.self) { try await session.stepSearch(by: 1) }
        #expect(stepped?.code == .invalidState)
        let hits = [SearchHit(page: 0, quads: [Self.quad]), SearchHit(page: 1, quads: [Self.quad])]
        try await session.beginSearch(query: "agreement", results: hits)
        #expect(try await session.stepSearch(by: -1)?.page == 1)
        #expect(try await session.stepSearch(by: 1)?.page == 0)
        let red = PDFColor.rgb(1, 0, 0)
        #expect(try await session.showSearchResult(at: 1, highlightColor: red).page == 1)
        let missing = await #expect(throws: SessionError.self) { try await session.showSearchResult(at: 2) }
        #expect(missing?.code == .invalidArgument)
        guard case .search(let shown) = await session.viewerMode else {
            Issue.record("not searching")
            return
        }
        #expect(shown.currentIndex == 1 && shown.highlightColor == red && shown.query == "agreement")
        // A new search replaces the old one, with no colour of its own.
        try await session.beginSearch(query: "page", results: [])
        guard case .search(let replaced) = await session.viewerMode else { return }
        #expect(replaced.highlightColor == nil && replaced.results.isEmpty && replaced.query == "page")
        #expect(try await session.stepSearch(by: 1) == nil)
        await session.finishSearch()
        #expect(await session.viewerMode == .browsing)
    }

    @Test("Notes live in the mode: a search ends when notes start; nothing else starts meanwhile")
    func notes() async throws {
        let session = try await Self.session("notes")
        let log = EventLog(session)
        try await session.beginSearch(query: "x", results: [])
        await session.startNotesMode(style: InkStyle(width: 4, color: .rgb(0, 0, 1)))
        #expect(await log.first("notesModeDidStart") != nil)
        #expect(await session.phase == .notes)
        let search = await #expect(throws: SessionError.self) { try await session.beginSearch(query: "x", results: []) }
        #expect(search?.code == .invalidState)
        let rect = await #expect(throws: SessionError.self) { try await session.beginViewerRect() }
        #expect(rect?.code == .invalidState)
        let far = await #expect(throws: SessionError.self) {
            try await session.addNote([InkStroke([InkPoint(x: 1e6, y: 0)])], pageIndex: 0)
        }
        #expect(far?.code == .invalidArgument)
        try await session.addNote(SessionFixtures.scribble(), pageIndex: 1)
        try await session.addNote(SessionFixtures.scribble(count: 5), pageIndex: 0)
        #expect(await session.undoNote())
        guard case .notes(let notes) = await session.viewerMode else {
            Issue.record("not in notes mode")
            return
        }
        #expect(notes.notes.map(\.pageIndex) == [1] && notes.canRedo && notes.style.width == 4)
        // Bounded: past the limit a note is refused, and the ones drawn stay.
        for _ in 1..<DocumentSession.maxNotes {
            try await session.addNote([InkStroke([InkPoint(x: 1, y: 1)])], pageIndex: 0)
        }
        let tooMany = await #expect(throws: SessionError.self) {
            try await session.addNote([InkStroke([InkPoint(x: 1, y: 1)])], pageIndex: 0)
        }
        #expect(tooMany?.code == .invalidArgument)
        #expect(await session.currentNotes.count == DocumentSession.maxNotes)
        await session.cancelNotesMode()
        #expect(await session.viewerMode == .browsing)
        #expect(await session.phase == .editing)
        #expect(await session.currentNotes.isEmpty)
    }

    @Test("A viewer rectangle: ids from the session, one open at a time, signing and notes wait for it")
    func viewerRectangle() async throws {
        let session = try await Self.session("rect")
        let log = EventLog(session)
        let id = try await session.beginViewerRect()
        #expect(await session.viewerMode == .viewerRect(id: id))
        let again = await #expect(throws: SessionError.self) { _ = try await session.beginViewerRect() }
        #expect(again?.code == .invalidState)
        let accept = await #expect(throws: SessionError.self) { try await session.acceptDocument() }
        #expect(accept?.code == .invalidState && accept?.message.contains("viewer rectangle") == true)
        await session.startNotesMode()
        #expect(await log.first("notesModeDidFailToStart") != nil)
        #expect(await session.phase == .editing)
        let other = await #expect(throws: SessionError.self) { try await session.viewerRectCancelled(id: id + 1) }
        #expect(other?.code == .invalidState)
        let onPage = PDFRectangle(x0: 100, y0: 100, x1: 300, y1: 170)
        #expect(try await session.viewerRectConfirmed(rect: onPage, pageIndex: 0, id: id))
        #expect(await session.viewerMode == .browsing)
        let closed = await #expect(throws: SessionError.self) {
            _ = try await session.viewerRectConfirmed(rect: onPage, pageIndex: 0, id: id)
        }
        #expect(closed?.code == .invalidState)
        let next = try await session.beginViewerRect()
        #expect(next != id)
        try await session.viewerRectCancelled(id: next)
        #expect(await session.viewerMode == .browsing)
    }

    @Test("Signing has the screen from accept to the end, and a search shown ends")
    func signing() async throws {
        let session = try await Self.session("signing")
        try await session.beginSearch(query: "x", results: [SearchHit(page: 0, quads: [Self.quad])])
        try await session.acceptDocument()
        #expect(await session.phase == .capturingSignature)
        #expect(await session.viewerMode == .signing)
        let search = await #expect(throws: SessionError.self) { try await session.beginSearch(query: "x", results: []) }
        #expect(search?.code == .invalidState)
        try await session.cancelSigning()
        #expect(await session.phase == .editing)
        #expect(await session.viewerMode == .browsing)
        try await session.acceptDocument()
        try await session.typeSignature("Ada Lovelace")
        #expect(await session.phase == .confirming)
        #expect(await session.viewerMode == .signing)
        try await session.confirmSignature()
        // Signed: the session edits again (another field, another signer) and the viewer browses.
        #expect(await session.phase == .editing)
        #expect(await session.viewerMode == .browsing)
    }
}
