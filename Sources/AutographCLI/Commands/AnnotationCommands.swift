import PDFAnnotations
import PDFCore

/// `autograph photo`: a photo as the appearance of a form field.
enum PhotoCommand: Command {
    static let spec = CommandSpec(
        name: "photo",
        summary: "Put a JPEG or PNG photo into a form field, scaled down to a maximum size",
        usage: "autograph photo FILE -o OUT --field NAME --image IMG [--max-width W --max-height H]",
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the document (required)"),
            .init(name: "field", valueName: "NAME", help: "the field's fully qualified name (required)"),
            .init(name: "image", valueName: "IMG", help: "a JPEG or PNG file (required)"),
            .init(name: "max-width", valueName: "W", help: "the largest width kept, in pixels (1000)"),
            .init(name: "max-height", valueName: "H", help: "the largest height kept, in pixels (1000)"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ])

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        guard let field = arguments.value("field") else { throw UsageError("--field NAME is required") }
        guard let imagePath = arguments.value("image") else { throw UsageError("--image IMG is required") }
        func pixels(_ name: String) throws -> Int {
            guard let text = arguments.value(name) else { return 1000 }
            guard let value = Int(text), value > 0 else { throw UsageError("--\(name) wants a positive number") }
            return value
        }
        let document = try openDocument(arguments)
        var filler = PhotoFieldFiller(
            document: document, maxWidth: try pixels("max-width"), maxHeight: try pixels("max-height"))
        filler.writeOptions.deterministicID = false
        let update = try filler.makeUpdate(placing: try readFile(imagePath), in: field)
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try update.write(to: path)
        }
        console.print("placed \(imagePath) in '\(field)'; wrote \(output)")
        return report(document.warnings, console: console)
    }
}

/// `autograph ink`: handwritten notes on a page, as ink annotations.
enum InkCommand: Command {
    static let spec = CommandSpec(
        name: "ink",
        summary: "Add a handwritten note (ink annotation) to a page",
        usage: "autograph ink FILE -o OUT --page N --strokes STROKES.json [--width W] [--color #RRGGBB]",
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the document (required)"),
            .init(name: "page", valueName: "N", help: "the page, from 1 (required)"),
            .init(
                name: "strokes", valueName: "STROKES.json",
                help: "[[[x, y] or [x, y, t, pressure], …], …] in the page's user space (required)"),
            .init(name: "width", valueName: "W", help: "the stroke width in points (2)"),
            .init(name: "color", valueName: "#RRGGBB", help: "the ink colour (#D91A1A)"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ])

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        guard let pageText = arguments.value("page") else { throw UsageError("--page N (from 1) is required") }
        guard let page = Int(pageText), page >= 1 else { throw UsageError("--page wants a page number from 1") }
        guard let strokesPath = arguments.value("strokes") else {
            throw UsageError("--strokes STROKES.json is required")
        }
        let strokes = try AppearanceFile.strokes(
            try parseJSON(try readFile(strokesPath)))
        var style = InkStyle()
        if let width = arguments.value("width") {
            guard let value = Double(width), value > 0, value <= 1000 else {
                throw UsageError("--width wants a number of points, above 0 and at most 1000")
            }
            style.width = value
        }
        if let color = arguments.value("color") { style.color = try AppearanceFile.color(color) }
        let document = try openDocument(arguments)
        try PageNumbers.check(page, count: document.pageCount)
        var session = try NotesSession(document: document, style: style)
        try session.add(strokes, onPage: page - 1)
        guard case .saved(var update, let count) = try session.save() else {
            throw UsageError("the strokes hold no points")
        }
        update.options.deterministicID = false
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try update.write(to: path)
        }
        console.print("added \(count) note (\(strokes.count) strokes) on page \(page); wrote \(output)")
        return report(document.warnings, console: console)
    }
}
