import AutographJSON
import Foundation
import PDFCore
import PDFTestSupport
import PDFViewer
import Testing

/// The document outline: read as pypdf reads the same file (titles, pages, nesting), and bounded
/// on hostile outlines (loops, depth).
@Suite struct DocumentOutlineTests {
    /// Writes, with pypdf, five pages and an outline of every kind of destination, and prints pypdf's
    /// own reading of it as JSON: [[title, page or null, children], …].
    static let script = #"""
        import io, json, sys
        import pypdf
        from pypdf.generic import (ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject,
                                   TextStringObject)
        writer = pypdf.PdfWriter()
        for _ in range(5):
            writer.add_blank_page(width=595, height=842)
        one = writer.add_outline_item(title="Chapter 1", page_number=0)
        writer.add_outline_item(title="Section 1.1 — Überblick", page_number=1, parent=one)
        writer.add_outline_item(title="Section 1.2", page_number=2, parent=one)
        # A named destination (the /Names /Dests tree), reached through a go-to action.
        writer.add_named_destination("chapter-two", 3)
        two = writer.add_outline_item_dict(
            DictionaryObject({NameObject("/Title"): TextStringObject("Chapter 2"),
                              NameObject("/A"): DictionaryObject({NameObject("/S"): NameObject("/GoTo"),
                                                                  NameObject("/D"): TextStringObject("chapter-two")})}))
        writer.add_outline_item(title="Appendix", page_number=4, fit=pypdf.generic.Fit.xyz(top=500))
        writer.add_outline_item_dict(
            DictionaryObject({NameObject("/Title"): TextStringObject("Web site"),
                              NameObject("/A"): DictionaryObject({NameObject("/S"): NameObject("/URI"),
                                                                  NameObject("/URI"): TextStringObject("https://example.org")})}))
        writer.write(sys.argv[1])
        reader = pypdf.PdfReader(sys.argv[1])
        def read(items):
            out = []
            for item in items:
                if isinstance(item, list):
                    out[-1][2] = read(item)
                    continue
                try:
                    page = reader.get_destination_page_number(item)
                except Exception:
                    page = None
                out.append([item.title, page if page is not None and page >= 0 else None, []])
            return out
        print(json.dumps(read(reader.outline)))
        """#

    static func flatten(_ items: [DocumentOutline.Item]) -> JSONValue {
        .array(
            items.map {
                .array([.string($0.title), $0.pageIndex.map(JSONValue.int) ?? .null, flatten($0.children)])
            })
    }

    @Test(
        "titles, pages and nesting as pypdf reads them: explicit, named in the name tree, an action to another place",
        .enabled(if: Requirement.python("pypdf"), "pypdf is not installed"))
    func asPypdfReadsIt() async throws {
        let directory = try TestPaths.temporaryDirectory("outline")
        let path = directory + "/outline.pdf"
        let printed = try Oracle.run("python3", ["-c", Self.script, path])
        #expect(printed.status == 0, "\(printed.output)")
        let expected = try JSONValue.parse(Array(printed.output.utf8))
        let document = try PDFDocument(contentsOfFile: path)
        let outline = DocumentOutline(document: document)
        #expect(Self.flatten(outline.items) == expected)
        #expect(outline.items.count == 4)
        #expect(outline.items[2].top == 500)
        #expect(outline.items[3].pageIndex == nil)
        #expect(!outline.isTruncated)
        // The same through the viewer's API.
        let server = try await TestServer(document: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        defer { Task { await server.stop() } }
        let reply = try await server.request("/api/outline")
        #expect(reply.status == 200)
        let items = reply.json["items"]?.arrayValue ?? []
        #expect(items.map { $0["title"]?.stringValue ?? "" } == outline.items.map { $0.title })
        #expect(items.first?["children"]?.arrayValue?.count == 2)
        #expect(items[2]["top"]?.doubleValue == 500)
        #expect(items[3]["page"] == .null)
    }

    /// A document of one page whose outline objects are `items` (numbered from 4 on).
    static func document(outlineFirst: Int, _ items: [String]) throws -> PDFDocument {
        var out: [UInt8] = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        let objects =
            [
                "<< /Type /Catalog /Pages 2 0 R /Outlines 3 0 R >>",
                "<< /Type /Pages /Count 1 /Kids [\(items.count + 4) 0 R] >>",
                "<< /Type /Outlines /First \(outlineFirst) 0 R >>",
            ] + items + ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"]
        for (index, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n\(body)\nendobj\n".utf8)
        }
        let xref = out.count
        var table = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
        table += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return try PDFDocument(bytes: out + Array(table.utf8))
    }

    @Test("an item that is its own next, or a child of itself, ends its list; depth and titles are bounded")
    func hostileOutlines() throws {
        let page = "5 0 R"
        // 4: /Next 4 (itself) and /First 4 (its own child).
        let loop = try Self.document(
            outlineFirst: 4, ["<< /Title (Loop\u{7}\n) /Dest [\(page) /Fit] /Next 4 0 R /First 4 0 R /Count 1 >>"])
        let items = DocumentOutline(document: loop).items
        #expect(items.count == 1)
        #expect(items[0].children.isEmpty)
        #expect(items[0].title == "Loop")
        #expect(items[0].pageIndex == 0)
        // 40 levels, each the only child of the one before.
        let depth = 40
        let nested = (0..<depth).map { level in
            "<< /Title (Level \(level + 1)) /Dest [\(depth + 4) 0 R /XYZ 0 150 0]"
                + (level + 1 < depth ? " /First \(level + 5) 0 R" : "") + " >>"
        }
        let deep = try Self.document(outlineFirst: 4, nested)
        let outline = DocumentOutline(document: deep)
        var level = 0
        var current = outline.items
        while let first = current.first {
            level += 1
            #expect(first.top == 150)
            current = first.children
        }
        #expect(level == DocumentOutline.maxDepth)
        #expect(outline.isTruncated)
        // A title of 100,000 characters is cut; a destination naming no page has none.
        let long = try Self.document(
            outlineFirst: 4, ["<< /Title (\(String(repeating: "x", count: 100_000))) /Dest [99 0 R /Fit] >>"])
        let cut = DocumentOutline(document: long).items
        #expect(cut.first?.title.count == DocumentOutline.maxTitleLength)
        #expect(cut.first?.pageIndex == nil)
    }
}
