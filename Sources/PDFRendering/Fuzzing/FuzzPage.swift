import PDFCore
import PDFGraphics

/// A one-page document made around a fuzzing input, drawn the way `autograph render` and the web
/// viewer draw a page: interpreted with a render budget, replayed by cairo at a small size, and read
/// for its text. Shared by ``ContentFuzzInput`` and ``FontFuzzInput`` (and the tests that replay
/// what the fuzzers found).
///
/// Objects are written as PDF text: object 1 is the catalog, 2 the page tree, 3 the page (a
/// 200 × 200 point media box), 4 its content stream; the caller's objects follow from 5, and the
/// page's `/Resources` is the caller's dictionary text (which refers to them).
struct FuzzPage {
    /// One indirect object: its dictionary (or other object) text, and the stream's bytes if it is one.
    struct Object {
        var text: String
        var stream: [UInt8]?

        init(_ text: String, stream: [UInt8]? = nil) {
            self.text = text
            self.stream = stream
        }
    }

    /// The page's content stream.
    var content: [UInt8]
    /// The page's `/Resources` dictionary, as PDF text.
    var resources: String
    /// Objects 5, 6, … of the document.
    var objects: [Object] = []

    /// The document's bytes, with a correct cross-reference table.
    var bytes: [UInt8] {
        var all = [
            Object("<< /Type /Catalog /Pages 2 0 R >>"),
            Object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            Object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources \(resources) /Contents 4 0 R >>"),
            Object("<< >>", stream: content),
        ]
        all += objects
        var output = Array("%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        for (index, object) in all.enumerated() {
            offsets.append(output.count)
            output += Array("\(index + 1) 0 obj\n".utf8)
            if let stream = object.stream {
                // The dictionary text ends with ">>": /Length goes in front of it.
                var text = object.text
                if text.hasSuffix(">>") { text.removeLast(2) }
                output += Array("\(text) /Length \(stream.count) >>\nstream\n".utf8)
                output += stream
                output += Array("\nendstream".utf8)
            } else {
                output += Array(object.text.utf8)
            }
            output += Array("\nendobj\n".utf8)
        }
        let xref = output.count
        output += Array("xref\n0 \(all.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            let digits = String(offset)
            output += Array((String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n").utf8)
        }
        output += Array("trailer\n<< /Size \(all.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return output
    }

    /// Opens the document and draws its page: the display list under a budget of one second and
    /// 200,000 items, the page at `dpi` (a 200-point page is 28 pixels at 10 dpi), then its text.
    /// Returns the warnings the interpreter reported (nil when the document did not open).
    @discardableResult
    func draw(dpi: Double = 10, fonts: FontRenderer = .shared) -> [String]? {
        var parse = ParseOptions()
        parse.maxDecodedStreamSize = 1 << 24
        parse.maxObjectCount = 10_000
        guard let document = try? PDFDocument(bytes: bytes, options: parse) else { return nil }
        let renderer = DocumentRenderer(document: document, fonts: fonts)
        var options = RenderOptions()
        options.dpi = dpi
        options.budget = RenderBudget(timeLimit: .seconds(1), maxItems: 200_000)
        let list = renderer.graphics.displayList(pageAt: 0, budget: options.budget)
        if options.budget?.stop == nil {
            let image = renderer.render(list, pageAt: 0, options: options)
            precondition(image.rgba.count == image.width * image.height * 4, "a rendered image has the size it claims")
        }
        _ = TextExtractor(graphics: renderer.graphics).text(of: list, pageAt: 0)
        return list.warnings
    }
}
