import PDFAuthoring
import PDFCore
import PDFForms

/// `autograph fill`: fill a form from JSON or XFDF values, as an incremental update.
enum FillCommand: Command {
    static let spec = CommandSpec(
        name: "fill",
        summary: "Fill form fields from JSON or XFDF values, with appearances every viewer shows",
        usage:
            "autograph fill FILE --values VALUES.json|VALUES.xfdf -o OUT [--flatten] [--font FONT.ttf] [--password P]",
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(
                name: "values", valueName: "FILE",
                help: "the values: JSONValue {\"name\": \"text\" | true | [\"a\", \"b\"]} or XFDF"),
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the filled document (required)"),
            .init(name: "flatten", help: "bake the appearances into the pages and remove the fields"),
            .init(name: "font", valueName: "FONT.ttf", help: "a TrueType font for text the fields' fonts cannot draw"),
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
            .init(name: "refuse-need-appearances", help: "fail (signo -137) when the form sets /NeedAppearances"),
            .init(name: "deterministic-id", help: "derive the new file ID from the content"),
        ],
        details: """
            Every value is checked before anything is written: an unknown or read-only field, a value that
            is not an option, text longer than /MaxLen or of the wrong kind stops with the field's name.
            The original bytes stay an exact prefix of OUT.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        guard let valuesPath = arguments.value("values") else { throw UsageError("--values FILE is required") }
        let document = try openDocument(arguments)
        guard let form = AcroForm(document: document) else {
            throw FormError(.noForm, "the document has no interactive form")
        }
        let source = try ByteSource(contentsOfFile: valuesPath)
        let text = withExtendedLifetime(source) { String(decoding: source.buffer, as: UTF8.self) }
        let values: FormValues
        if text.drop(while: { $0.isWhitespace }).hasPrefix("<") {
            values = try XFDF.decode(text, form: form)
        } else {
            values = try FormValues(json: text)
        }
        var options = FormFiller.Options()
        options.write.deterministicID = arguments.has("deterministic-id")
        if arguments.has("refuse-need-appearances") { options.needAppearances = .refuse }
        if let fontPath = arguments.value("font") { options.font = try EmbeddedFont(path: fontPath) }
        var filler = FormFiller(form: form, options: options)
        try filler.setValues(values.entries)
        if arguments.has("flatten") {
            let filled = try PDFDocument(bytes: try filler.documentBytes(), options: document.options)
            guard let filledForm = AcroForm(document: filled) else {
                throw FormError(.noForm, "the filled form cannot be read")
            }
            let update = try FormFlattener(form: filledForm, options: options.write).makeUpdate()
            try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
                try update.write(to: path)
            }
        } else {
            try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
                try filler.write(to: path)
            }
        }
        console.print("filled \(values.entries.count) fields; wrote \(output)")
        return report(document.warnings, console: console)
    }
}
