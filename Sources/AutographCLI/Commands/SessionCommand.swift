import PDFCore
import PDFSession
import PDFSigning

/// `autograph session`: the documents in progress of a store — list, resume (show its state and
/// write its current bytes), embed a CMS by document id (in any process), dispose.
enum SessionCommand: Command {
    static let spec = CommandSpec(
        name: "session",
        summary: "Documents in progress in a session store: list, resume, embed a CMS by id, dispose",
        usage: """
            autograph session list --store DB --user NAME [--key-file KEY]
                   autograph session resume ID --store DB --user NAME [-o OUT.pdf] [--key-file KEY]
                   autograph session embed ID --cms SIG.p7s -o OUT.pdf --store DB --user NAME [--key-file KEY]
                   autograph session dispose ID --store DB --user NAME [--key-file KEY]
            """,
        positionals: 1...2,
        options: [
            .init(name: "store", valueName: "DB", help: "the session store (SQLite file; required)"),
            .init(name: "user", valueName: "NAME", help: "the username the store belongs to (required)"),
            .init(name: "key-file", valueName: "KEY", help: "the 64-byte storage key (else $AUTOGRAPH_STORAGE_KEY)"),
            .init(name: "cms", valueName: "SIG.p7s", help: "embed: the detached CMS, DER or PEM"),
            .init(name: "output", short: "o", valueName: "OUT.pdf", help: "where to write the document"),
        ],
        details: """
            The key is read from --key-file (64 bytes, or 128 hex digits) or $AUTOGRAPH_STORAGE_KEY and never
            written. embed checks the CMS against the prepared digest (signo -129 when it signs something else,
            -136 when it is larger than the space reserved) and finishes the document's workflow.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let storePath = arguments.value("store") else { throw UsageError("--store DB is required") }
        guard let user = arguments.value("user") else { throw UsageError("--user NAME is required") }
        guard let key = try StorageKey.read(arguments) else {
            throw UsageError("give the storage key with --key-file or $\(StorageKey.environmentVariable)")
        }
        let controller = try SessionController(username: user, storageKey: key, storePath: storePath)
        let action = arguments.positionals[0]
        let id = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        switch (action, id) {
        case ("list", nil):
            let documents = try controller.documentsInProgress()
            for document in documents {
                var line = "\(document.documentID)\t\(describe(document.phase))\t\(document.revisionCount) revisions\t"
                line += "\(document.size) bytes"
                if let digest = document.digestToSign {
                    line += "\tdigest \(digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())"
                }
                console.print(line)
            }
            if documents.isEmpty { console.print("no document in progress") }
        case ("resume", let id?):
            guard let summary = try controller.documentsInProgress().first(where: { $0.documentID == id }) else {
                throw SessionError(.documentNotFound, "no document \"\(id)\" is in progress")
            }
            let session = try await controller.reopen(documentID: id)
            console.print("\(id): \(describe(summary.phase)), \(await session.pageCount) pages")
            for field in await session.formFields() {
                console.print("  \(field.name) (\(field.kind))\(field.isRequired ? " required" : ""): \(field.value)")
            }
            if let output = arguments.value("output") {
                try writeFile(output, await session.documentBytes)
                console.print("wrote \(output)")
            }
            await session.close()
        case ("embed", let id?):
            guard let cmsPath = arguments.value("cms") else { throw UsageError("--cms SIG.p7s is required") }
            guard let output = arguments.value("output") else { throw UsageError("-o OUT.pdf is required") }
            let signed = try await controller.embedSignature(documentID: id, cms: PEM.decode(try readFile(cmsPath)))
            try writeFile(output, signed)
            console.print("embedded the CMS into \(id); wrote \(output) (\(signed.count) bytes)")
        case ("dispose", let id?):
            guard try controller.documentInProgress(id) else {
                throw SessionError(.documentNotFound, "no document \"\(id)\" is in progress")
            }
            try controller.dispose(documentID: id)
            console.print("disposed \(id)")
        default:
            throw UsageError("expected list, or resume/embed/dispose with a document id")
        }
        return .success
    }

    static func describe(_ phase: SigningWorkflow.Phase) -> String {
        switch phase {
        case .editing: "editing"
        case .confirming: "waiting for confirmation"
        case .awaitingSignature: "prepared, waiting for a CMS"
        case .finished(let reason): "signed (\(reason))"
        default: "in a signing step"
        }
    }
}
