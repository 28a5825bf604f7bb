import PDFCore

/// `autograph metadata`: set document information as an incremental update.
enum MetadataCommand: Command {
    static let spec = CommandSpec(
        name: "metadata",
        summary: "Set document information (Title, Author …) as an incremental update",
        usage: "autograph metadata FILE -o OUT --set Key=Value [--set Key=Value …] [--password P]",
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the updated file (required)"),
            .init(
                name: "set", valueName: "Key=Value", help: "set an entry; an empty value removes it", repeatable: true),
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
            .init(name: "deterministic-id", help: "derive the new file ID from the content"),
        ],
        details: """
            The original bytes are kept unchanged as a prefix of OUT; the XMP metadata's dc:title,
            dc:creator, dc:description, pdf:Keywords, xmp:CreatorTool and pdf:Producer follow when present.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let settings = try arguments.values("set").map { setting throws(UsageError) -> (key: String, value: String?) in
            guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
                throw UsageError("--set wants Key=Value, got '\(setting)'")
            }
            let value = String(setting[setting.index(after: equals)...])
            return (String(setting[..<equals]), value.isEmpty ? nil : value)
        }
        guard !settings.isEmpty else { throw UsageError("nothing to set: give --set Key=Value") }
        let document = try openDocument(arguments)
        // Read every object so that damage anywhere is repaired in the update, not inherited.
        document.resolveAllObjects()
        var update = IncrementalUpdate(base: document)
        update.options.deterministicID = arguments.has("deterministic-id")
        update.setDocumentInformation(settings)
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try update.write(to: path)
        }
        console.print("wrote \(output)")
        return report(document.warnings, console: console)
    }
}
