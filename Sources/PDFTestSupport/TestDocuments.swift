public import PDFCore

/// Small documents built for tests.
public enum TestDocuments {
    /// A document of `pages` pages, each with a line of text naming its number.
    public static func simple(pages: Int = 1, xref: PDFBuilder.XRefForm = .table, compress: Bool = true) -> [UInt8] {
        var builder = PDFBuilder()
        builder.info[PDFName("Title")] = .string(PDFString(text: "Test document"))
        for page in 0..<pages {
            builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Page \(page + 1)) Tj ET".utf8), compress: compress)
        }
        return builder.build(xref: xref)
    }

    /// A literal byte string from text.
    public static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
