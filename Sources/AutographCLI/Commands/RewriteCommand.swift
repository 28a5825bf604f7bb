import PDFCore

/// `autograph rewrite`: a full rewrite (renumbered, unreferenced objects dropped).
enum RewriteCommand: Command {
    static let spec = CommandSpec(
        name: "rewrite",
        summary: "Write a clean copy of a PDF: renumbered, garbage-collected, optionally compressed or decrypted",
        usage: "autograph rewrite FILE -o OUT [--password P] [--decrypt] [--object-streams] [--deterministic-id]",
        positionals: 1...1,
        options: [
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the new file (required)"),
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
            .init(name: "decrypt", help: "write the copy without encryption"),
            .init(name: "object-streams", help: "pack objects into object streams with a cross-reference stream"),
            .init(name: "deterministic-id", help: "derive the file ID from the content (same input, same bytes)"),
        ],
        details: "A full rewrite invalidates signatures; to change a signed document use incremental commands.")

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let document = try openDocument(arguments)
        var options = DocumentWriter.Options()
        options.decrypt = arguments.has("decrypt")
        options.objectStreams = arguments.has("object-streams")
        options.write.deterministicID = arguments.has("deterministic-id")
        try DocumentWriter(document: document, options: options).write(to: output)
        console.print("wrote \(output)")
        return report(document.warnings, console: console)
    }
}
