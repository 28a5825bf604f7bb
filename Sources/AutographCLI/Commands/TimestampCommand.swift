import PDFCore
import PDFSigning

/// `autograph timestamp`: a document time-stamp (RFC 3161) as an incremental update.
enum TimestampCommand: Command {
    static let spec = CommandSpec(
        name: "timestamp",
        summary: "Add a document time-stamp (RFC 3161, ETSI.RFC3161) from a time-stamp authority",
        usage: """
            autograph timestamp FILE -o OUT --tsa URL [--tsa-user U --tsa-password-file F | --tsa-token-file F]
                   [--field NAME] [--hash sha256|sha384|sha512] [--size BYTES]
            """,
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(
                name: "output", short: "o", valueName: "OUT",
                help: "where to write the time-stamped document (required)"),
            .init(name: "field", valueName: "NAME", help: "the time-stamp field's name (default: a free SignatureN)"),
            .init(
                name: "hash", valueName: "ALG", help: "the hash the authority stamps: sha256 (default), sha384, sha512"),
            .init(name: "size", valueName: "BYTES", help: "the bytes reserved for the token (default 8192)"),
            .init(name: "deterministic-id", help: "derive the new file ID from the content"),
        ] + TimeStampOptions.specs,
        details: """
            The authority stamps the hash of the whole document as it is, earlier signatures included, in an
            invisible /DocTimeStamp field: proof that the document existed at that time (PAdES B-LTA's last step).
            The token is checked before it is written (its signature, the authority's time-stamping
            certificate, the hash, the nonce); an authority that fails is -146 and nothing is written.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        guard let authority = try TimeStampOptions.authority(arguments) else {
            throw UsageError("--tsa URL is required")
        }
        let document = try openDocument(arguments)
        var stamper = DocumentTimestamper(document: document, authority: authority)
        stamper.fieldName = arguments.value("field")
        stamper.writeOptions.deterministicID = arguments.has("deterministic-id")
        if let hash = arguments.value("hash") { stamper.digestAlgorithm = try SignatureOptions.digestAlgorithm(hash) }
        if let size = arguments.value("size") {
            guard let bytes = Int(size), (1024...1_000_000).contains(bytes) else {
                throw UsageError("--size must be a number of bytes from 1024 to 1000000")
            }
            stamper.contentsSize = bytes
        }
        let stamped = try await stamper.timestamp()
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try stamped.write(to: path)
        }
        let token = try? TimeStampToken(der: stamped.cms)
        console.print(
            "time-stamped by \(token?.authority ?? "?") at \(token.map { PDFDate(seconds: $0.time).pdfString } ?? "?") "
                + "(\(stamped.cms.count) of \(stamped.prepared.signature.capacity) bytes reserved); wrote \(output)")
        return report(document.warnings, console: console)
    }
}
