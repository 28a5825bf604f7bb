public import PDFAuthoring
public import PDFCore

/// Small documents built for tests.
public enum TestDocuments {
    /// A document of `pages` pages, each with a line of text naming its number.
    public static func simple(pages: Int = 1, xref: PDFBuilder.XRefForm = .table, compress: Bool = true) -> [UInt8] {
        var builder = PDFBuilder()
        builder.info[.title] = .string(PDFString(text: "Test document"))
        for page in 0..<pages {
            builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Page \(page + 1)) Tj ET".utf8), compress: compress)
        }
        return builder.build(xref: xref)
    }

    /// XMP metadata claiming PDF/A `part` and `conformance`, in element or attribute form (ISO 19005).
    public static func pdfAMetadata(part: Int, conformance: String, attributes: Bool = true) -> PDFObject {
        let identification =
            attributes
            ? "<rdf:Description rdf:about='' xmlns:pdfaid='http://www.aiim.org/pdfa/ns/id/' pdfaid:part='\(part)' pdfaid:conformance='\(conformance)'/>"
            : """
            <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
              <pdfaid:part>\(part)</pdfaid:part>
              <pdfaid:conformance>\(conformance)</pdfaid:conformance>
            </rdf:Description>
            """
        let xmp = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            \(identification)
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        return .stream(
            PDFStream(
                dictionary: [.type: .name("Metadata"), .subtype: .name("XML")], data: Array(xmp.utf8), compress: false))
    }

    /// A literal byte string from text.
    public static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
