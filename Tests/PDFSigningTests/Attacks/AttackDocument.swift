import PDFAuthoring
import PDFCore

/// The document the attacks start from: two pages; the first draws "Pay 100 EUR" with an indirect
/// font and a logo (a form XObject), and holds two text fields (`name`, `comment`), two empty
/// signature fields (`Signature1`, `Signature2`) and a square annotation with an appearance.
/// With `shadows`, it also carries what an attacker prepares before it is signed (Mainka et al.,
/// NDSS 2021): objects nothing references — another content stream, font, logo, and a whole
/// other catalog with its own page tree (and the same form).
struct AttackDocument {
    var bytes: [UInt8]
    var page: PDFReference
    var secondPage: PDFReference
    var content: PDFReference
    var font: PDFReference
    var logo: PDFReference
    var note: PDFReference
    var annots: PDFReference?
    var fields: [String: PDFReference]
    var shadowContent: PDFReference?
    var shadowFont: PDFReference?
    var shadowLogo: PDFReference?
    var shadowCatalog: PDFReference?
    var shadowNote: PDFReference?

    static let text = "BT /F1 18 Tf 72 700 Td (Pay 100 EUR to Alice) Tj ET q 1 0 0 1 400 650 cm /Logo Do Q"
    static let evilText = "BT /F1 18 Tf 72 700 Td (Pay 1000000 EUR to Mallory) Tj ET"

    /// A form XObject drawing `operators` in a 100 × 100 box.
    static func form(_ operators: String) -> PDFObject {
        .stream(
            PDFStream(
                dictionary: [
                    .type: .name("XObject"), .subtype: .name("Form"),
                    PDFName("BBox"): PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 100).object,
                ], data: Array(operators.utf8), compress: false))
    }

    static func make(xref: PDFBuilder.XRefForm = .table, shadows: Bool = false, indirectAnnots: Bool = false)
        -> AttackDocument
    {
        var builder = PDFBuilder()
        let page = builder.reserve()
        let secondPage = builder.reserve()
        let font = builder.add(
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type1"), PDFName("BaseFont"): .name("Helvetica"),
                PDFName("Encoding"): .name("WinAnsiEncoding"),
            ]))
        let logo = builder.add(form("0 0 1 rg 0 0 100 100 re f"))
        let content = builder.add(.stream(PDFStream(data: Array(text.utf8), compress: true)))
        func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PDFObject {
            PDFRectangle(x0: x, y0: y, x1: x + width, y1: y + height).object
        }
        var fields: [String: PDFReference] = [:]
        var annotations: [PDFObject] = []
        for (index, name) in ["name", "comment"].enumerated() {
            let reference = builder.add(
                .dictionary([
                    .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name("Tx"),
                    PDFName("T"): .string(PDFString(text: name)),
                    PDFName("Rect"): rect(72, 600 - Double(index) * 40, 250, 24),
                    PDFName("P"): .reference(page), PDFName("DA"): .string(PDFString(text: "/Helv 11 Tf 0 g")), .f: 4,
                ]))
            fields[name] = reference
            annotations.append(.reference(reference))
        }
        for (index, name) in ["Signature1", "Signature2"].enumerated() {
            let reference = builder.add(
                .dictionary([
                    .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
                    PDFName("T"): .string(PDFString(text: name)),
                    PDFName("Rect"): rect(72 + Double(index) * 240, 120, 220, 70), PDFName("P"): .reference(page),
                    .f: 4,
                ]))
            fields[name] = reference
            annotations.append(.reference(reference))
        }
        let noteAppearance = builder.add(form("1 0 0 RG 2 w 5 5 90 90 re S"))
        let note = builder.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Square"), PDFName("Rect"): rect(400, 400, 100, 100),
                PDFName("C"): [1, 0, 0], .f: 4, PDFName("Contents"): .string(PDFString(text: "checked")),
                PDFName("AP"): .dictionary([.n: .reference(noteAppearance)]),
            ]))
        annotations.append(.reference(note))
        var annots: PDFReference? = nil
        var annotsValue: PDFObject = .array(annotations)
        if indirectAnnots {
            annots = builder.add(.array(annotations))
            annotsValue = .reference(annots!)
        }
        let resources: PDFDictionary = [
            PDFName("Font"): .dictionary([PDFName("F1"): .reference(font)]),
            PDFName("XObject"): .dictionary([PDFName("Logo"): .reference(logo)]),
        ]
        builder.set(
            page,
            to: .dictionary([
                .type: .name(.page), .parent: .reference(builder.pages), .mediaBox: PDFRectangle.letter.object,
                .contents: .reference(content), .resources: .dictionary(resources), .annots: annotsValue,
            ]))
        builder.appendPage(page)
        builder.addPage(content: Array("BT /F1 18 Tf 72 700 Td (Terms, page 2) Tj ET".utf8), reserved: secondPage)

        var acroForm = PDFBuilder.acroForm(
            fields: ["name", "comment", "Signature1", "Signature2"].map { .reference(fields[$0]!) }
        )
        .dictionaryValue!
        acroForm[PDFName("DA")] = .string(PDFString(text: "/Helv 0 Tf 0 g"))
        builder.catalogEntries[.acroForm] = .dictionary(acroForm)
        var document = AttackDocument(
            bytes: [], page: page, secondPage: secondPage, content: content, font: font, logo: logo, note: note,
            annots: annots, fields: fields)
        if shadows {
            document.shadowContent = builder.add(.stream(PDFStream(data: Array(evilText.utf8), compress: true)))
            document.shadowFont = builder.add(
                .dictionary([
                    .type: .name("Font"), .subtype: .name("Type1"), PDFName("BaseFont"): .name("Courier"),
                    PDFName("Encoding"): .name("WinAnsiEncoding"),
                ]))
            document.shadowLogo = builder.add(form("1 0 0 rg 0 0 100 100 re f"))
            document.shadowNote = builder.add(
                .dictionary([
                    .type: .name("Annot"), .subtype: .name("FreeText"), PDFName("Rect"): rect(72, 690, 400, 30),
                    .f: 4, PDFName("Contents"): .string(PDFString(text: "VOID")),
                    PDFName("AP"): .dictionary([.n: .reference(document.shadowLogo!)]),
                ]))
            // A whole other document: its catalog and page tree, unused.
            let shadowPages = builder.reserve()
            let shadowPage = builder.add(
                .dictionary([
                    .type: .name(.page), .parent: .reference(shadowPages), .mediaBox: PDFRectangle.letter.object,
                    .contents: .reference(document.shadowContent!),
                    .resources: .dictionary([PDFName("Font"): .dictionary([PDFName("F1"): .reference(font)])]),
                ]))
            builder.set(
                shadowPages,
                to: .dictionary([.type: .name(.pages), .kids: [.reference(shadowPage)], .count: 1]))
            // It keeps the form, so the signature is still found and the swap must be reported.
            document.shadowCatalog = builder.add(
                .dictionary([.type: .name(.catalog), .pages: .reference(shadowPages), .acroForm: .dictionary(acroForm)])
            )
        }
        builder.info[PDFName("Title")] = .string(PDFString(text: "Invoice"))
        document.bytes = builder.build(xref: xref)
        return document
    }
}
