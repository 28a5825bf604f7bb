import PDFCore
import PDFSigning

/// `autograph extend`: validation material (PAdES B-LT) and, with `--tsa`, a document time-stamp
/// (B-LTA) for a signed document; run again later, an archive renewal.
enum ExtendCommand: Command {
    static let spec = CommandSpec(
        name: "extend",
        summary: "Add validation material (certificates, OCSP, CRLs) and a document time-stamp to a signed PDF",
        usage: """
            autograph extend FILE -o OUT [--tsa URL [--tsa-user U --tsa-password-file F | --tsa-token-file F]]
                   [--certs CERTS.pem ...]
            """,
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(
                name: "output", short: "o", valueName: "OUT", help: "where to write the extended document (required)"),
            .init(
                name: "certs", valueName: "CERTS.pem",
                help: "certificates that complete the paths (roots, intermediates the signatures lack); repeatable",
                repeatable: true),
            .init(name: "deterministic-id", help: "derive the new files' IDs from the content"),
        ] + TimeStampOptions.specs,
        details: """
            For every signature and time-stamp in FILE, the certificates of its path and an OCSP response (or, when
            the responder fails, a CRL) for each certificate but the root are fetched from the addresses the
            certificates give and written into the document's /DSS in one incremental update (B-LT). With --tsa a
            document time-stamp then covers it all (B-LTA); extending a B-LTA document again before its last
            time-stamp's certificate expires renews the archive. What could not be fetched is said on stderr and
            the rest is written; the exit code is then 3.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let authority = try TimeStampOptions.authority(arguments)
        var extra: [Certificate] = []
        for path in arguments.values("certs") {
            let found = Certificate.certificates(pem: try readFile(path))
            guard !found.isEmpty else { throw UsageError("--certs \(path) holds no PEM certificate") }
            extra += found
        }
        let document = try openDocument(arguments)
        var validation = LongTermValidation(document: document, revocation: OnlineRevocationSource())
        validation.extraCertificates = extra
        validation.writeOptions.deterministicID = arguments.has("deterministic-id")
        // The document streamed to a file beside OUT, each update appended (invariant 4).
        let writer = try AtomicFileWriter(path: output)
        let problems = try await validation.write(to: writer, after: 0, archivingWith: authority)
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try writer.commit(as: path)
        }
        for problem in problems { console.error("autograph extend: " + problem) }
        console.print(
            (authority == nil ? "validation material added" : "validation material and a document time-stamp added")
                + "; wrote \(output)")
        return problems.isEmpty ? report(document.warnings, console: console) : .successWithWarnings
    }
}
