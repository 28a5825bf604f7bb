import PDFAuthoring
import PDFCore

/// A one-page form with one field of each kind, for form tests. Field names and what they hold:
/// `name` (text), `notes` (multiline text), `code` (comb, MaxLen 6), `short` (MaxLen 5), `locked`
/// (read-only text), `agree` (checkbox), `color` (radio: red, green, blue), `country` (combo:
/// France, Germany, Italy), `languages` (multi-select list: de, en, fr, it), `send` (push
/// button), `signature` (signature field, unsigned), and `address.city` (a child of a parent field).
public enum TestForms {
    public static func make(needAppearances: Bool = false) -> [UInt8] {
        var builder = PDFBuilder()
        let page = builder.reserve()
        var annotations: [PDFObject] = []
        var fields: [PDFObject] = []
        func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PDFObject {
            PDFRectangle(x0: x, y0: y, x1: x + width, y1: y + height).object
        }
        func widget(_ entries: PDFDictionary, _ r: PDFObject) -> PDFDictionary {
            var dictionary = entries
            dictionary[.type] = .name("Annot")
            dictionary[.subtype] = .name("Widget")
            dictionary[.rect] = r
            dictionary[.p] = .reference(page)
            dictionary[.f] = 4
            dictionary[.mk] = .dictionary([.bc: [0, 0, 0], .bg: [1, 1, 1]])
            return dictionary
        }
        func addField(_ dictionary: PDFDictionary) {
            let reference = builder.add(.dictionary(dictionary))
            annotations.append(.reference(reference))
            fields.append(.reference(reference))
        }
        func text(_ name: String) -> PDFObject { .string(PDFString(text: name)) }
        let da = text("/Helv 0 Tf 0 g")
        addField(widget([.ft: .name("Tx"), .t: text("name"), .da: da], rect(72, 700, 250, 22)))
        addField(
            widget(
                [
                    .ft: .name("Tx"), .t: text("notes"), .ff: .integer(1 << 12),
                    .da: text("/Helv 10 Tf 0 0 1 rg"),
                ], rect(72, 600, 250, 80)))
        addField(
            widget(
                [
                    .ft: .name("Tx"), .t: text("code"), .ff: .integer(1 << 24),
                    .maxLen: 6, .da: da,
                ], rect(72, 560, 150, 22)))
        addField(
            widget(
                [
                    .ft: .name("Tx"), .t: text("short"), .maxLen: 5, .q: 2,
                    .da: da,
                ], rect(72, 520, 150, 22)))
        addField(
            widget(
                [
                    .ft: .name("Tx"), .t: text("locked"), .ff: 1, .v: text("fixed"),
                    .da: da,
                ], rect(72, 480, 150, 22)))
        addField(
            widget(
                [
                    .ft: .name("Btn"), .t: text("agree"), .v: .name("Off"), .as: .name("Off"),
                    .da: text("/ZaDb 0 Tf 0 g"),
                ], rect(72, 440, 18, 18)))
        // A radio group: a parent field with three widgets, one per colour.
        let group = builder.reserve()
        var kids: [PDFObject] = []
        for (index, state) in ["red", "green", "blue"].enumerated() {
            var kid = widget(
                [.parent: .reference(group), .as: .name("Off")], rect(72 + Double(index) * 30, 400, 18, 18))
            kid[.mk] = .dictionary([.bc: [0, 0, 0], .ca: text("l")])
            let bbox: PDFObject = PDFRectangle(x0: 0, y0: 0, x1: 18, y1: 18).object
            let on = builder.add(
                .stream(
                    PDFStream(
                        dictionary: [.type: .name("XObject"), .subtype: .name("Form"), .bBox: bbox],
                        data: Array("0 g 4 4 10 10 re f".utf8), compress: false)))
            let off = builder.add(
                .stream(
                    PDFStream(
                        dictionary: [.type: .name("XObject"), .subtype: .name("Form"), .bBox: bbox],
                        data: Array("0 G 0.5 0.5 17 17 re S".utf8), compress: false)))
            kid[.ap] = .dictionary([
                .n: .dictionary([PDFName(state): .reference(on), .off: .reference(off)])
            ])
            let reference = builder.add(.dictionary(kid))
            kids.append(.reference(reference))
            annotations.append(.reference(reference))
        }
        builder.set(
            group,
            to: .dictionary([
                .ft: .name("Btn"), .t: text("color"), .ff: .integer((1 << 15) | (1 << 14)),
                .kids: .array(kids), .v: .name("Off"), .da: text("/ZaDb 0 Tf 0 g"),
            ]))
        fields.append(.reference(group))
        addField(
            widget(
                [
                    .ft: .name("Ch"), .t: text("country"), .ff: .integer(1 << 17),
                    .opt: .array([text("France"), text("Germany"), text("Italy")]), .da: da,
                ], rect(72, 360, 150, 22)))
        addField(
            widget(
                [
                    .ft: .name("Ch"), .t: text("languages"), .ff: .integer(1 << 21),
                    .opt: .array([
                        .array([text("de"), text("Deutsch")]), .array([text("en"), text("English")]),
                        .array([text("fr"), text("Français")]), .array([text("it"), text("Italiano")]),
                    ]),
                    .da: text("/Helv 10 Tf 0 g"),
                ], rect(72, 260, 150, 80)))
        addField(
            widget(
                [.ft: .name("Btn"), .t: text("send"), .ff: .integer(1 << 16)],
                rect(300, 260, 60, 22)))
        addField(widget([.ft: .name(.sig), .t: text("signature")], rect(300, 200, 200, 50)))
        let parent = builder.reserve()
        let city = builder.add(
            .dictionary(
                widget(
                    [.parent: .reference(parent), .ft: .name("Tx"), .t: text("city"), .da: da],
                    rect(72, 200, 150, 22))))
        annotations.append(.reference(city))
        builder.set(parent, to: .dictionary([.t: text("address"), .kids: .array([.reference(city)])]))
        fields.append(.reference(parent))

        let helvetica: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), .baseFont: .name("Helvetica"),
            .encoding: .name("WinAnsiEncoding"),
        ])
        let dingbats: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), .baseFont: .name("ZapfDingbats"),
        ])
        var acroForm: PDFDictionary = [
            .fields: .array(fields), .da: da,
            .dr: .dictionary([
                .font: .dictionary([.helv: helvetica, .zaDb: dingbats])
            ]),
        ]
        if needAppearances { acroForm[.needAppearances] = true }
        builder.catalogEntries[.acroForm] = .dictionary(acroForm)
        let contents = builder.add(
            .stream(PDFStream(data: Array("BT /F1 18 Tf 72 750 Td (Test form) Tj ET".utf8), compress: true)))
        builder.set(
            page,
            to: .dictionary([
                .type: .name(.page), .parent: .reference(builder.pages), .mediaBox: PDFRectangle.letter.object,
                .contents: .reference(contents), .resources: .dictionary(PDFBuilder.helveticaResources),
                .annots: .array(annotations),
            ]))
        builder.appendPage(page)
        return builder.build()
    }
}

extension TestForms {
    /// A two-page agreement for signing tests: text fields (`required` ones flagged, `photo` a
    /// larger box for a photo) on page 1, the signature fields side by side on page 2, each page
    /// headed by its label; PDF/A-1b metadata when `pdfA1`. `invisibleSignatures` are signature fields
    /// whose widget has no area (`/Rect [0 0 0 0]`), as invisible signatures have.
    public static func agreement(
        width: Double = 595, height: Double = 842, text: [String] = ["name", "comment"], required: Set<String> = [],
        signatures: [String] = ["Signature1"], photo: String? = nil, fieldTop: Double = 700,
        labels: (String, String) = ("Page one", "Page two"), labelY: Double = 760, pdfA1: Bool = false,
        invisibleSignatures: [String] = []
    ) -> [UInt8] {
        var builder = PDFBuilder(version: "1.7")
        let first = builder.reserve()
        let second = builder.reserve()
        var fields: [PDFObject] = []
        var firstAnnotations: [PDFObject] = []
        var secondAnnotations: [PDFObject] = []
        for (index, name) in (text + (photo.map { [$0] } ?? [])).enumerated() {
            let y = fieldTop - Double(index) * 40
            let isPhoto = name == photo
            var field: PDFDictionary = [
                .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name("Tx"),
                .t: .string(PDFString(text: name)),
                .rect: PDFRectangle(x0: 72, y0: y, x1: isPhoto ? 272 : 372, y1: y + (isPhoto ? 120 : 24))
                    .object,
                .p: .reference(first), .da: .string(PDFString(text: "/Helv 11 Tf 0 g")), .f: 4,
            ]
            if required.contains(name) { field[.ff] = .integer(2) }
            let reference = builder.add(.dictionary(field))
            fields.append(.reference(reference))
            firstAnnotations.append(.reference(reference))
        }
        for (index, name) in (signatures + invisibleSignatures).enumerated() {
            let x = 72 + Double(index) * 240
            let rect =
                invisibleSignatures.contains(name)
                ? PDFRectangle.zero : PDFRectangle(x0: x, y0: 120, x1: x + 220, y1: 190)
            let reference = builder.add(
                .dictionary([
                    .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
                    .t: .string(PDFString(text: name)), .rect: rect.object, .p: .reference(second), .f: 4,
                ]))
            fields.append(.reference(reference))
            secondAnnotations.append(.reference(reference))
        }
        for (page, annotations, label) in [
            (first, firstAnnotations, labels.0), (second, secondAnnotations, labels.1),
        ] {
            builder.addPage(
                width: width, height: height, content: Array("BT /F1 18 Tf 72 \(labelY) Td (\(label)) Tj ET".utf8),
                extra: [.annots: .array(annotations)], reserved: page)
        }
        builder.catalogEntries[.acroForm] = PDFBuilder.acroForm(fields: fields)
        if pdfA1 {
            builder.catalogEntries[.metadata] = .reference(
                builder.add(TestDocuments.pdfAMetadata(part: 1, conformance: "B")))
        }
        return builder.build()
    }
}
