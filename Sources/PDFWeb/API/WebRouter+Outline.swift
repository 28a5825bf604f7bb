import AutographJSON
import PDFRendering
import PDFViewer

/// The document outline for the viewer's sidebar.
extension WebRouter {
    /// `GET /api/outline` → `{"items": [{"title", "page", "top", "open", "children"}], "truncated"}`:
    /// the bookmarks of the current document (`DocumentOutline`: bounded, loops ended), `page` from 0
    /// or null, `top` in user space or null.
    func outline() async throws(WebError) -> JSONValue {
        let (renderer, _) = try await backend.currentRenderer()
        let outline = DocumentOutline(document: renderer.document)
        func json(_ item: DocumentOutline.Item) -> JSONValue {
            .object([
                ("title", .string(item.title)), ("page", item.pageIndex.map(JSONValue.int) ?? .null),
                ("top", item.top.map(JSONValue.double) ?? .null), ("open", .bool(item.isOpen)),
                ("children", .array(item.children.map(json))),
            ])
        }
        return .object([("items", .array(outline.items.map(json))), ("truncated", .bool(outline.isTruncated))])
    }
}
