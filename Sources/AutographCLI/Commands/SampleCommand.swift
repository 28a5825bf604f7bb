import PDFAuthoring
import PDFCore

/// `autograph sample`: writes the sample document that `make run` and the tutorials use.
enum SampleCommand: Command {
    static let spec = CommandSpec(
        name: "sample",
        summary: "Write a sample PDF made by Autograph (three pages, a form with a signature field)",
        usage: "autograph sample -o OUT [--xref-stream]",
        positionals: 0...0,
        options: [
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the sample (required)"),
            .init(name: "xref-stream", help: "write a cross-reference stream instead of a table"),
        ])

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let bytes = makeSample().build(xref: arguments.has("xref-stream") ? .stream : .table)
        let writer = try AtomicFileWriter(path: output)
        try writer.write(bytes)
        try writer.commit()
        console.print("wrote \(output) (\(bytes.count) bytes)")
        return .success
    }

    /// A small agreement: three A4 pages of text, a text field for the name and an empty signature field.
    static func makeSample() -> PDFBuilder {
        var builder = PDFBuilder(version: "1.7")
        builder.info[.title] = .string(PDFString(text: "Autograph sample agreement"))
        builder.info[.producer] = .string(PDFString(text: "Autograph \(AutographCLI.version)"))
        let paragraphs = [
            "This agreement is a sample document written by Autograph.",
            "Fill in your name, sign in the box below, and what you see is what you sign.",
        ]
        var fields: [PDFObject] = []
        for pageNumber in 1...3 {
            var text = "BT /F1 20 Tf 72 770 Td (Sample agreement, page \(pageNumber) of 3) Tj ET\n"
            for (line, paragraph) in paragraphs.enumerated() {
                text += "BT /F1 11 Tf 72 \(730 - line * 18) Td (\(paragraph)) Tj ET\n"
            }
            if pageNumber == 3 {
                text += "0.5 G 72 140 220 50 re S 72 220 220 24 re S\n"
                text += "BT /F1 9 Tf 72 248 Td (Name) Tj ET BT /F1 9 Tf 72 194 Td (Signature) Tj ET\n"
                let page = builder.reserve()
                let name = builder.add(
                    .dictionary([
                        .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name("Tx"),
                        .t: .string(PDFString(text: "Name")),
                        .rect: PDFRectangle(x0: 72, y0: 220, x1: 292, y1: 244).object,
                        .p: .reference(page),
                        .da: .string(PDFString(text: "/Helv 11 Tf 0 g")), .f: 4,
                    ]))
                let signature = builder.add(
                    .dictionary([
                        .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
                        .t: .string(PDFString(text: "Signature1")),
                        .rect: PDFRectangle(x0: 72, y0: 140, x1: 292, y1: 190).object,
                        .p: .reference(page), .f: 4,
                    ]))
                fields = [.reference(name), .reference(signature)]
                builder.addPage(
                    width: 595, height: 842, content: Array(text.utf8), extra: [.annots: .array(fields)],
                    reserved: page)
            } else {
                builder.addPage(width: 595, height: 842, content: Array(text.utf8))
            }
        }
        builder.catalogEntries[.acroForm] = PDFBuilder.acroForm(fields: fields)
        return builder
    }
}
