public import PDFAnnotations
public import PDFAuthoring
import PDFCore

/// signo's notes mode: handwritten ink notes drawn over the pages, with undo and redo, saved as
/// one revision or cancelled. Nothing is stored until saved.
extension DocumentSession {
    /// Starts notes mode (signo `startNotesModeWithConfig:`): `notesModeDidStart`, or
    /// `notesModeDidFailToStart(code)` (a PDF/A-1 document, a signed or read-only one).
    public func startNotesMode(style: InkStyle = InkStyle()) async {
        do throws(SessionError) {
            try requireEditing("notes mode")
            let session: NotesSession
            do {
                session = try NotesSession(document: document, style: style)
            } catch {
                throw SessionError(error)
            }
            notes = session
            try await run(.startNotes)
        } catch {
            emit(.notesModeDidFailToStart(code: error.signoCode))
        }
    }

    /// Whether notes mode is active.
    public var isInNotesMode: Bool { notes != nil }

    /// Changes the style of the notes drawn from now on (signo `changeNotesConfig:`).
    public func changeNotesStyle(_ style: InkStyle) throws(SessionError) {
        guard notes != nil else { throw SessionError(.invalidState, "notes mode is not active") }
        notes?.style = style
    }

    /// Adds a note: strokes in PDF user space of page `pageIndex` (from 0).
    public func addNote(_ strokes: [InkStroke], pageIndex: Int) throws(SessionError) {
        guard notes != nil else { throw SessionError(.invalidState, "notes mode is not active") }
        do {
            try notes?.add(strokes, onPage: pageIndex)
        } catch {
            throw SessionError(error)
        }
    }

    /// The notes drawn so far in this notes session.
    public var currentNotes: [InkNote] { notes?.notes ?? [] }

    /// signo `undoNote`: no effect without notes.
    @discardableResult
    public func undoNote() -> Bool { notes?.undo() ?? false }

    /// signo `redoNote`: no effect without an undone note.
    @discardableResult
    public func redoNote() -> Bool { notes?.redo() ?? false }

    /// signo `cancelNotesMode`: the notes are dropped; no effect when notes mode is not active.
    public func cancelNotesMode() async {
        guard notes != nil else { return }
        notes = nil
        try? await run(.finishNotes)
    }

    /// signo `saveAndFinishNotesMode`: the notes become one revision; `notesModeDidFinish(saved:)`
    /// (false when there were none) or `notesModeDidFinishWithFailure(code)` (notes mode stays on).
    public func saveAndFinishNotesMode() async {
        guard let session = notes else {
            emit(.notesModeDidFinishWithFailure(code: -150))
            return
        }
        do throws(SessionError) {
            let outcome: NotesSession.Outcome
            do {
                outcome = try session.save(date: clock())
            } catch {
                throw SessionError(error)
            }
            if case .saved(let update, _) = outcome { try appendRevision(update) }
            notes = nil
            try? await run(.finishNotes)
            emit(.notesModeDidFinish(saved: outcome.saved))
        } catch {
            emit(.notesModeDidFinishWithFailure(code: error.signoCode))
        }
    }
}
