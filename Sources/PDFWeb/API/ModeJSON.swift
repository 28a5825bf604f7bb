import AutographJSON
import PDFAnnotations
import PDFAuthoring
import PDFViewer

/// The viewer's mode as the web API sends it (`/api/state`'s `mode`, and the answer of every route
/// that changes it): `{"name"}` with the mode's data, so that a viewer draws it — after a reload
/// too — from the session's state, never from its own copy.
enum ModeJSON {
    /// `browsing` and `signing` (the phase says which dialog) carry nothing more; `notes` its pen,
    /// notes (each `{"page", "width", "color", "strokes": [[{"x", "y"}…]…]}`, page user space) and
    /// whether undo and redo can act; `search` its query, results (`{"page", "quads"}`), current
    /// result (from 0, or null) and its highlight colour (null: the viewer's own); `viewerRect` the rectangle's id.
    static func mode(_ mode: ViewerMode) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(mode.name))]
        switch mode {
        case .browsing, .signing: break
        case .notes(let notes):
            members += [
                ("width", .double(notes.style.width)), ("color", SessionJSON.color(notes.style.color)),
                ("canUndo", .bool(notes.canUndo)), ("canRedo", .bool(notes.canRedo)),
                ("notes", .array(notes.notes.map(note))),
            ]
        case .search(let search):
            members += [
                ("query", .string(search.query)),
                (
                    "results",
                    .array(
                        search.results.map { hit in
                            .object([
                                ("page", .int(hit.page)),
                                ("quads", .array(hit.quads.map { .array($0.numbers.map { .double($0) }) })),
                            ])
                        })
                ),
                ("current", search.currentIndex.map { .int($0) } ?? .null),
                ("color", search.highlightColor.map(SessionJSON.color) ?? .null),
            ]
        case .viewerRect(let id): members.append(("id", .int(id)))
        }
        return .object(members)
    }

    private static func note(_ note: InkNote) -> JSONValue {
        .object([
            ("page", .int(note.pageIndex)), ("width", .double(note.style.width)),
            ("color", SessionJSON.color(note.style.color)),
            (
                "strokes",
                .array(
                    note.strokes.map { stroke in
                        .array(stroke.points.map { .object([("x", .double($0.x)), ("y", .double($0.y))]) })
                    })
            ),
        ])
    }
}
