import PDFCore
import PDFForms

/// `autograph export-values`: the form's values as JSON or XFDF.
enum ExportValuesCommand: Command {
    static let spec = CommandSpec(
        name: "export-values",
        summary: "Write the form's field values as JSON (default) or XFDF",
        usage: "autograph export-values FILE [--xfdf] [-o OUT] [--password P]",
        positionals: 1...1,
        options: [
            .init(
                name: "output", short: "o", valueName: "OUT",
                help: "where to write the values (standard output without it, or with -)"),
            .init(name: "xfdf", help: "write XFDF instead of JSON"),
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
        ])

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let output = arguments.value("output") ?? "-"
        let document = try openDocument(arguments)
        guard let form = AcroForm(document: document) else {
            throw FormError(.noForm, "the document has no interactive form")
        }
        let values = FormValues(form: form)
        let text =
            arguments.has("xfdf")
            ? XFDF.encode(
                values, form: form, documentName: arguments.positionals[0].split(separator: "/").last.map(String.init))
            : values.json
        if output == "-" {
            console.print(String(text.dropLast()))
        } else {
            let writer = try AtomicFileWriter(path: output)
            try writer.write(Array(text.utf8))
            try writer.commit()
            console.print("wrote \(values.entries.count) values to \(output)")
        }
        return report(document.warnings, console: console)
    }
}
