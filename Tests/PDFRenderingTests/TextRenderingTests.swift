import Foundation
import PDFCore
import PDFFonts
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Text drawn by the whole pipeline (interpreter, font model, FreeType faces through cairo-ft)
/// against MuPDF (`mutool draw`) and, where said, poppler (`pdftoppm`).
@Suite("Text against MuPDF")
struct TextRenderingTests {
    /// A font resource: the standard 14 fonts are not embedded, so they are drawn from URW base35 by
    /// us and by MuPDF alike.
    static func standardFont(_ name: String, encoding: String = "/WinAnsiEncoding") -> String {
        "<< /Type /Font /Subtype /Type1 /BaseFont /\(name) \(encoding.isEmpty ? "" : "/Encoding \(encoding)") >>"
    }

    static let standard14 = [
        "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold",
        "Times-Italic", "Times-BoldItalic", "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique",
        "Symbol", "ZapfDingbats",
    ]

    @Test("the standard 14 fonts (not embedded) at several sizes match MuPDF at 72 and 150 dpi")
    func standardFonts() throws {
        var resources = ""
        var content = "BT\n"
        var y = 760.0
        for (index, name) in Self.standard14.enumerated() {
            let symbolic = name == "Symbol" || name == "ZapfDingbats"
            resources += "/F\(index) \(Self.standardFont(name, encoding: symbolic ? "" : "/WinAnsiEncoding")) "
            for size in [7.0, 11.0, 19.0] {
                let text =
                    symbolic ? "abcdefgh ABCDEFG 12345 \\(\\)" : "Quick brown fox: 0123 \\351\\340\\374 (\(name))"
                content += "/F\(index) \(size) Tf 1 0 0 1 \(20 + (size - 7) * 2) \(y) Tm (\(text)) Tj\n"
                y -= size + 3
            }
        }
        content += "ET"
        let page = TextPage(width: 612, height: 792, content: content, resources: "<< /Font << \(resources) >> >>")
        try Fidelity.expectMatch(page.rendered(), label: "standard 14")
        try Fidelity.expectMatch(page.rendered(dpi: 150), label: "standard 14 at 150 dpi")
    }

    // MARK: Helpers

    /// Our rendering (RGB over white) and MuPDF's of `page` at `dpi`.
    static func renderBoth(_ page: TextPage, dpi: Double) throws -> (ours: OracleImage, theirs: OracleImage) {
        let bytes = page.bytes()
        let path = try TestPaths.temporaryDirectory("text") + "/page.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var options = RenderOptions()
        options.dpi = dpi
        let (image, _) = DocumentRenderer(document: try PDFDocument(bytes: bytes)).render(pageAt: 0, options: options)
        let theirs = try RenderedPage.render(path, page: 1, dpi: dpi)
        if ProcessInfo.processInfo.environment["RENDER_DUMP"] != nil {
            try Data(image.pngData()).write(to: URL(fileURLWithPath: path + ".ours.png"))
            print("images in \(path)*")
        }
        return (OracleImage(image), OracleImage(width: theirs.width, height: theirs.height, pixels: theirs.pixels))
    }

    /// Whether the `size`×`size` square at (`x`, `y`) (pixels, from the top left) has a dark pixel.
    static func ink(_ pixels: [UInt8], width: Int, x: Int, y: Int, size: Int) -> Bool {
        let height = pixels.count / 3 / width
        for row in max(0, y)..<min(height, y + size) {
            for column in max(0, x)..<min(width, x + size) where pixels[(row * width + column) * 3] < 128 {
                return true
            }
        }
        return false
    }
}

/// A one-page PDF with objects from 5 on, for text tests (fonts, descriptors, font files).
struct TextPage {
    var width = 300.0
    var height = 200.0
    var content: String
    var resources = "<<>>"
    var objects: [HandPage.Object] = []

    func bytes() -> [UInt8] { handPage.bytes() }

    var handPage: HandPage {
        HandPage(width: width, height: height, content: content, resources: resources, objects: objects)
    }

    /// The page drawn by ``DocumentRenderer`` and by MuPDF, or poppler, at `dpi`, for
    /// ``Fidelity/expectMatch(_:tolerance:label:sourceLocation:)`` (the interpreter's problems, such
    /// as substituted fonts, are not checked here).
    func rendered(dpi: Double = 72, poppler: Bool = false) throws -> RenderingPair {
        try handPage.rendered(dpi: dpi, poppler: poppler, checkingWarnings: false)
    }
}
