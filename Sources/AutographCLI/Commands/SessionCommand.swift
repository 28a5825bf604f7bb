import PDFCore
import PDFSession
import PDFSigning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `autograph session`: the documents in progress of a store — list, resume (show its state and
/// write its current bytes), embed a CMS by document id (in any process), dispose — and moving the
/// whole store to another storage key (rekey).
enum SessionCommand: Command {
    static let spec = CommandSpec(
        name: "session",
        summary: "Documents in progress in a session store: list, resume, embed a CMS by id, dispose; rekey the store",
        usage: """
            autograph session list --store DB --user NAME [--storage-key-file KEY]
                   autograph session resume ID --store DB --user NAME [-o OUT.pdf] [--storage-key-file KEY]
                   autograph session embed ID --cms SIG.p7s -o OUT.pdf --store DB --user NAME [--storage-key-file KEY]
                   autograph session dispose ID --store DB --user NAME [--storage-key-file KEY]
                   autograph session rekey --store DB --user NAME [--user NAME …] --storage-key-file OLD|--from-public-key
                                           --new-storage-key-file NEW
            """,
        positionals: 1...2,
        options: [
            .init(name: "store", valueName: "DB", help: "the session store (SQLite file; required, must exist)"),
            .init(
                name: "user", valueName: "NAME", help: "the username the store belongs to (required; rekey: each user)",
                repeatable: true),
        ] + StorageKey.options + [
            .init(name: "cms", valueName: "SIG.p7s", help: "embed: the detached CMS, DER or PEM"),
            .init(name: "output", short: "o", valueName: "OUT.pdf", help: "where to write the document"),
            .init(name: "new-storage-key-file", valueName: "NEW", help: "rekey: the key to move the store to"),
            .init(name: "from-public-key", help: "rekey: the store was made without a key (the public demo key)"),
        ],
        details: """
            The key is read from --storage-key-file (alias --key-file; 64 bytes or 128 hex digits, refused unless
            only its owner may read it) or $AUTOGRAPH_STORAGE_KEY and never written. Without one, the public demo
            key that `autograph serve` and `autograph demo` use without a key (serve's user is "demo").
            embed checks the CMS against the prepared digest (signo -129 when it signs something else, -136 when
            it is larger than the space reserved) and finishes the document's workflow.
            rekey seals every record of the store again under NEW, in one transaction: nothing changes when the
            old key is wrong (wrongStorageKey) or anything fails. Name every user of the store with --user.
            Make a key with `\(StorageKey.generation)`.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let storePath = arguments.value("store") else { throw UsageError("--store DB is required") }
        guard access(storePath, F_OK) == 0 else { throw UsageError("no store is at \(storePath)") }
        let users = arguments.values("user")
        guard let user = users.first else { throw UsageError("--user NAME is required") }
        let action = arguments.positionals[0]
        if action == "rekey" {
            guard arguments.positionals.count == 1 else { throw UsageError("rekey takes no document id") }
            return try rekey(storePath, users: users, arguments, console: console)
        }
        guard users.count == 1 else { throw UsageError("--user given more than once") }
        let given = try StorageKey.read(arguments)
        let controller: SessionController
        do {
            controller = try SessionController(
                username: user, storageKey: given ?? StorageKey.publicDemoKey, storePath: storePath)
        } catch  where given == nil && error.code == .wrongStorageKey {
            throw UsageError(
                "\(storePath) was made with a storage key: give it with --storage-key-file KEY or "
                    + "$\(StorageKey.environmentVariable)")
        } catch {
            throw StorageKey.explained(error, keyGiven: given != nil, storePath: storePath, user: user)
        }
        if given == nil {
            console.error(StorageKey.publicKeyWarning(command: "session", storePath: storePath, user: user))
        }
        let id = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        switch (action, id) {
        case ("list", nil):
            let documents = try controller.documentsInProgress()
            for document in documents {
                var line =
                    "\(Console.inline(document.documentID))\t\(describe(document.phase))\t\(document.revisionCount) revisions\t"
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
                console.print(
                    "  \(Console.inline(field.name)) (\(field.kind))\(field.isRequired ? " required" : ""): "
                        + Console.inline(field.value))
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
            throw UsageError("expected list or rekey, or resume/embed/dispose with a document id")
        }
        return .success
    }

    /// `session rekey`: the whole store under the new key, in one transaction.
    static func rekey(_ storePath: String, users: [String], _ arguments: Arguments, console: Console) throws
        -> ExitCode
    {
        guard let newPath = arguments.value("new-storage-key-file") else {
            throw UsageError("rekey: --new-storage-key-file NEW is required (make one with \(StorageKey.generation))")
        }
        let old: [UInt8]
        if arguments.has("from-public-key") {
            guard arguments.values("storage-key-file").isEmpty, arguments.values("key-file").isEmpty else {
                throw UsageError("rekey: give either --storage-key-file OLD or --from-public-key")
            }
            old = StorageKey.publicDemoKey
        } else {
            guard let given = try StorageKey.read(arguments) else {
                throw UsageError("rekey: give the old key with --storage-key-file OLD, or --from-public-key")
            }
            old = given
        }
        let new = try StorageKey.read(file: newPath)
        let summary = try SessionController.rekeyStore(at: storePath, usernames: users, from: old, to: new)
        console.print(
            "rekeyed \(storePath): \(summary.records) records of \(summary.users) user(s), \(summary.documents) "
                + "document(s), now under the key in \(newPath)")
        return .success
    }

    static func describe(_ phase: SigningWorkflow.Phase) -> String {
        switch phase {
        case .editing: "editing"
        case .confirming: "waiting for confirmation"
        case .awaitingSignature: "prepared, waiting for a CMS"
        case .finished(let reason): "complete (\(reason))"
        default: "in a signing step"
        }
    }
}
