import PDFAuthoring
import PDFCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The project's demo form: a one-page agreement with a required name, an e-mail address, a
/// required "I agree" checkbox, a country list and an empty signature field. Made here, so the
/// demo needs no file from anywhere.
enum DemoForm {
    static func make() -> [UInt8] {
        var builder = PDFBuilder(version: "1.7")
        builder.info[.title] = .string(PDFString(text: "Autograph demo agreement"))
        builder.info[.producer] = .string(PDFString(text: "Autograph \(AutographCLI.version)"))
        let page = builder.reserve()
        var fields: [PDFObject] = []
        func add(_ entries: PDFDictionary, _ rect: PDFRectangle) {
            var widget = entries
            widget[.type] = .name("Annot")
            widget[.subtype] = .name("Widget")
            widget[.rect] = rect.object
            widget[.p] = .reference(page)
            widget[.f] = 4
            widget[.mk] = .dictionary([.bc: [0.4, 0.4, 0.4], .bg: [1, 1, 1]])
            fields.append(.reference(builder.add(.dictionary(widget))))
        }
        func text(_ value: String) -> PDFObject { .string(PDFString(text: value)) }
        let da = text("/Helv 11 Tf 0 g")
        add(
            [
                .ft: .name("Tx"), .t: text("Name"), .tu: text("Your full name"), .ff: 2,
                .da: da,
            ], PDFRectangle(x0: 150, y0: 600, x1: 450, y1: 624))
        add(
            [
                .ft: .name("Tx"), .t: text("Email"), .tu: text("Your e-mail address"),
                .da: da,
            ], PDFRectangle(x0: 150, y0: 560, x1: 450, y1: 584))
        add(
            [
                .ft: .name("Ch"), .t: text("Country"), .tu: text("Country"),
                .ff: .integer(1 << 17),
                .opt: .array(["Switzerland", "Germany", "France", "Italy", "Austria"].map(text)),
                .da: da,
            ], PDFRectangle(x0: 150, y0: 520, x1: 450, y1: 544))
        let on = builder.add(
            .stream(
                PDFStream(
                    dictionary: [
                        .type: .name("XObject"), .subtype: .name("Form"),
                        .bBox: PDFRectangle(x0: 0, y0: 0, x1: 16, y1: 16).object,
                    ],
                    data: Array("0 g 3 8 m 7 3 l 13 13 l 2 w S".utf8), compress: false)))
        let off = builder.add(
            .stream(
                PDFStream(
                    dictionary: [
                        .type: .name("XObject"), .subtype: .name("Form"),
                        .bBox: PDFRectangle(x0: 0, y0: 0, x1: 16, y1: 16).object,
                    ],
                    data: [], compress: false)))
        add(
            [
                .ft: .name("Btn"), .t: text("Agree"), .tu: text("I agree to the terms"),
                .ff: 2, .v: .name("Off"), .as: .name("Off"),
                .ap: .dictionary([
                    .n: .dictionary([.yes: .reference(on), .off: .reference(off)])
                ]),
                .da: text("/ZaDb 0 Tf 0 g"),
            ], PDFRectangle(x0: 150, y0: 476, x1: 166, y1: 492))
        add(
            [.ft: .name(.sig), .t: text("Signature"), .tu: text("Your signature")],
            PDFRectangle(x0: 150, y0: 300, x1: 450, y1: 400))

        var content = "BT /F1 22 Tf 72 760 Td (Demo agreement) Tj ET\n"
        let lines = [
            "This agreement was written by Autograph to show filling and signing.",
            "Fill in the form, sign in the box, confirm the preview: what you see is what you sign.",
        ]
        for (index, line) in lines.enumerated() {
            content += "BT /F1 11 Tf 72 \(720 - index * 16) Td (\(line)) Tj ET\n"
        }
        for (label, y) in [("Name", 607), ("E-mail", 567), ("Country", 527), ("I agree", 479), ("Signature", 383)] {
            content += "BT /F1 11 Tf 72 \(y) Td (\(label)) Tj ET\n"
        }
        content += "0.6 G 150 300 300 100 re S\n"
        builder.addPage(
            width: 595, height: 842, content: Array(content.utf8), extra: [.annots: .array(fields)], reserved: page)
        builder.catalogEntries[.acroForm] = PDFBuilder.acroForm(fields: fields)
        return builder.build()
    }

    /// A handwritten-looking signature: a looping cursive line (a prolate cycloid whose loops
    /// vary in height) and an underline, as a pen draws them (screen coordinates, y down), with
    /// pressure and timestamps.
    static func signatureStrokes() -> [InkStroke] {
        var time = 0.0
        let loops = (0...160).map { step -> InkPoint in
            let t = Double(step) / 160 * 9 * Double.pi
            let height: Double = 14 + 8 * sin(t / 3)
            let x: Double = 10 + 7 * t - 13 * sin(t)
            let y: Double = 45 - height * cos(t)
            time += 0.008
            return InkPoint(x: x, y: y, time: time, pressure: 0.35 + 0.3 * (1 - cos(t)) / 2)
        }
        let underline = (0...24).map { step -> InkPoint in
            time += 0.01
            let x = 4 + Double(step) * 9
            return InkPoint(x: x, y: 78 + 3 * sin(Double(step) / 4), time: time, pressure: 0.5)
        }
        return [InkStroke(loops), InkStroke(underline)]
    }
}
