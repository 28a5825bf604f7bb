import AutographJSON
import PDFCore

/// `autograph info`: what a document is made of.
enum InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        summary: "Describe a PDF: title and author, version, pages, encryption, revisions, form, signatures, damage",
        usage: "autograph info FILE [--password P] [--json]",
        positionals: 1...1,
        options: [
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
            .init(name: "json", help: "print a JSON object instead of text"),
        ],
        details: """
            The document information dictionary (Title, Author, Subject, Keywords, Creator, Producer,
            CreationDate, ModDate; ISO 32000-2 §14.3.3) comes first, its text strings decoded
            (PDFDocEncoding or UTF-16BE) and its dates shown as 2026-11-29 13:15 +01:00; in JSON it is
            "information": {"Title": "…", …}, with only the entries the document has.
            Exit code 3 means the document was read, with damage repaired (see the warnings).
            """)

    struct Report {
        var file: String
        var fileSize: Int
        /// The document information dictionary's entries that are there, in ``informationKeys``' order.
        var information: [(key: String, value: String)] = []
        var version: String
        var pages: Int
        var pageSizes: [[Double]]
        var encrypted: Bool
        var encryption: Encryption?
        var revisions: Int
        var revisionEnds: [Int]
        var xref: [String]
        var recovered: Bool
        var hasForm: Bool
        var formFields: Int
        var signatureFields: Int
        var signatures: Int
        var warnings: [String]

        struct Encryption {
            var handler: String
            var version: Int
            var revision: Int
            var keyLength: Int
            var method: String
            var encryptsMetadata: Bool
            var openedWithOwnerPassword: Bool
        }
    }

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let path = arguments.positionals[0]
        let document = try openDocument(arguments)
        let pages = document.pages
        let form = FormSummary(document: document)
        let warnings = document.warnings
        var report = Report(
            file: path, fileSize: document.fileSize, version: document.version, pages: pages.count,
            pageSizes: pages.map { page in
                let size = page.displaySize
                return [rounded(size.width), rounded(size.height)]
            },
            encrypted: document.encryption != nil,
            encryption: document.encryption.map { info in
                Report.Encryption(
                    handler: info.handler, version: info.version, revision: info.revision, keyLength: info.keyLength,
                    method: info.streamMethod, encryptsMetadata: info.encryptsMetadata,
                    openedWithOwnerPassword: info.openedWithOwnerPassword)
            },
            revisions: document.revisions.count, revisionEnds: document.revisions.map(\.endOffset),
            xref: document.revisions.map(\.form.rawValue), recovered: document.wasRecovered,
            hasForm: form.hasForm, formFields: form.fieldCount, signatureFields: form.signatureFieldCount,
            signatures: form.signedCount, warnings: warnings.map(\.description))
        report.information = information(document)
        if arguments.has("json") {
            console.print(report.json.prettyText)
        } else {
            console.print(text(report))
        }
        return warnings.isEmpty ? .success : .successWithWarnings
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// The entries of the document information dictionary (§14.3.3, Table 349) that `info` shows, in order.
    static let informationKeys = [
        "Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate",
    ]

    /// The document information dictionary's text strings decoded (§7.9.2.2: PDFDocEncoding,
    /// UTF-16BE or UTF-8 with their byte order marks) and its dates (§7.9.4) as
    /// `2026-11-29 13:15 +01:00` (the string as it is when it is no date); a name is shown as its
    /// text, any other kind of value is left out.
    static func information(_ document: PDFDocument) -> [(key: String, value: String)] {
        guard let info = document.info else { return [] }
        return informationKeys.compactMap { key -> (key: String, value: String)? in
            let value = document.resolve(info[PDFName(key)] ?? .null)
            let text: String
            if let string = value.stringValue {
                if key.hasSuffix("Date"), let date = PDFDate(pdfString: string.bytes) {
                    text = date.displayString
                } else {
                    text = string.text
                }
            } else if let name = value.nameValue {
                text = name.string
            } else {
                return nil
            }
            return (key, text)
        }
    }

    private static func text(_ report: Report) -> String {
        var lines: [(String, String)] = []
        lines.append(("File", "\(report.file) (\(report.fileSize) bytes)"))
        // From the document: shown inline, so a line break in a title cannot start a line of the report.
        for (key, value) in report.information { lines.append((key, Console.inline(value))) }
        lines.append(("PDF version", report.version.isEmpty ? "unknown" : report.version))
        lines.append(("Pages", String(report.pages)))
        if !report.pageSizes.isEmpty { lines.append(("Page sizes", pageSizes(report.pageSizes))) }
        if let encryption = report.encryption {
            lines.append(
                (
                    "Encryption",
                    "\(encryption.handler) V\(encryption.version) R\(encryption.revision), \(encryption.method) "
                        + "(\(encryption.keyLength)-bit key), opened with the "
                        + (encryption.openedWithOwnerPassword ? "owner" : "user") + " password"
                ))
        } else {
            lines.append(("Encryption", "none"))
        }
        let ends = report.revisionEnds.map(String.init).joined(separator: ", ")
        lines.append(("Revisions", "\(report.revisions) (ending at \(ends))"))
        lines.append(("Cross-reference", report.xref.joined(separator: ", ")))
        lines.append(("Form", report.hasForm ? "\(report.formFields) fields" : "none"))
        lines.append(("Signatures", "\(report.signatures) signed of \(report.signatureFields) signature fields"))
        lines.append(("Warnings", String(report.warnings.count)))
        let width = (lines.map(\.0.count).max() ?? 0) + 2
        var text = lines.map { $0.0 + ":" + String(repeating: " ", count: width - $0.0.count) + $0.1 }
            .joined(separator: "\n")
        for warning in report.warnings { text += "\n  - " + warning }
        return text
    }

    /// "1–3: 612 × 792 pt, 4: 842 × 595 pt": runs of equal sizes.
    private static func pageSizes(_ sizes: [[Double]]) -> String {
        var runs: [(first: Int, last: Int, size: [Double])] = []
        for (index, size) in sizes.enumerated() {
            if let last = runs.last, last.size == size {
                runs[runs.count - 1].last = index
            } else {
                runs.append((index, index, size))
            }
        }
        let shown = runs.prefix(8).map { run -> String in
            let pages = run.first == run.last ? "\(run.first + 1)" : "\(run.first + 1)–\(run.last + 1)"
            return
                "\(pages): \(PDFReal.format(run.size[0], precision: 2)) × \(PDFReal.format(run.size[1], precision: 2)) pt"
        }
        return shown.joined(separator: ", ") + (runs.count > 8 ? ", …" : "")
    }
}

extension InfoCommand.Report {
    /// The report as JSON; keys are documented in README.md (`pages`, `encrypted`, `revisions`,
    /// `formFields`, `signatures`, `warnings` …).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "file": .string(file), "fileSize": .int(fileSize), "version": .string(version), "pages": .int(pages),
            "pageSizes": .array(pageSizes.map { .array($0.map { .double($0) }) }), "encrypted": .bool(encrypted),
            "revisions": .int(revisions), "revisionEnds": .array(revisionEnds.map { .int($0) }),
            "xref": .array(xref.map { .string($0) }), "recovered": .bool(recovered), "hasForm": .bool(hasForm),
            "formFields": .int(formFields), "signatureFields": .int(signatureFields), "signatures": .int(signatures),
            "warnings": .array(warnings.map { .string($0) }),
        ]
        object["information"] = .object(information.map { ($0.key, JSONValue.string($0.value)) })
        if let encryption {
            object["encryption"] = .object(sortingKeys: [
                "handler": .string(encryption.handler), "version": .int(encryption.version),
                "revision": .int(encryption.revision), "keyLength": .int(encryption.keyLength),
                "method": .string(encryption.method), "encryptsMetadata": .bool(encryption.encryptsMetadata),
                "openedWithOwnerPassword": .bool(encryption.openedWithOwnerPassword),
            ])
        }
        return .object(sortingKeys: object)
    }
}

/// Counts the interactive form's terminal fields and signatures (ISO 32000-2 §12.7.4, §12.8).
struct FormSummary {
    var hasForm = false
    var fieldCount = 0
    var signatureFieldCount = 0
    var signedCount = 0

    init(document: PDFDocument) {
        guard let acroForm = document.resolve(document.catalog?[.acroForm] ?? .null).dictionaryValue else { return }
        hasForm = true
        var visited: Set<PDFReference> = []
        func visit(_ object: PDFObject, inheritedType: PDFName?, depth: Int) {
            if let reference = object.referenceValue, !visited.insert(reference).inserted { return }
            guard depth < 64, let field = document.resolve(object).dictionaryValue else { return }
            let type = document.resolve(field[.ft] ?? .null).nameValue ?? inheritedType
            let kids = document.resolve(field[.kids] ?? .null).arrayValue ?? []
            // Kids that carry a partial name (/T) are fields; the others are widgets of this field.
            let fieldKids = kids.filter { document.resolve($0).dictionaryValue?[.t] != nil }
            if fieldKids.isEmpty {
                fieldCount += 1
                if type == .sig {
                    signatureFieldCount += 1
                    if document.resolve(field[.v] ?? .null).dictionaryValue != nil { signedCount += 1 }
                }
                return
            }
            for kid in fieldKids { visit(kid, inheritedType: type, depth: depth + 1) }
        }
        for field in document.resolve(acroForm[.fields] ?? .null).arrayValue ?? [] {
            visit(field, inheritedType: nil, depth: 0)
        }
    }
}
