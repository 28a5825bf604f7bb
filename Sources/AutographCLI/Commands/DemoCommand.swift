import PDFCore
import PDFForms
import PDFSession
import PDFSigning

/// `autograph demo`: the whole job through a signing session, printing each event as it happens.
enum DemoCommand: Command {
    static let spec = CommandSpec(
        name: "demo",
        summary: "Fill and sign the demo form through a session with a demo identity, printing each event",
        usage: "autograph demo [--out DIR] [--name NAME] [--storage-key-file KEY]",
        positionals: 0...0,
        options: [
            .init(name: "out", valueName: "DIR", help: "where the store and the files go (default .build/demo)"),
            .init(name: "name", valueName: "NAME", help: "the signer's name (default Ada Lovelace)"),
        ] + StorageKey.options,
        details: """
            Makes the demo form, opens it in a session (store DIR/store.sqlite), fills it, accepts it: the
            handwritten signature is drawn on the first run and reused afterwards, the preview is written to
            DIR/preview.png and confirmed, the document is signed with the demo identity (made on the first run
            and kept in the store; its root DIR/demo-root.pem is trusted by nothing) and verified. The store's key:
            --storage-key-file KEY (alias --key-file; mode 600) or $AUTOGRAPH_STORAGE_KEY; without one the store
            uses a public key that protects nothing (make a real one with `\(StorageKey.generation)`).
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let directory = arguments.value("out") ?? ".build/demo"
        let name = arguments.value("name") ?? "Ada Lovelace"
        let demo = try DemoStore(
            directory: directory, name: name, arguments: arguments, console: console, command: "demo")
        let controller = demo.controller
        let identity = demo.identity
        let root = try identity.rootCertificate
        console.print(
            "demo: signing as \"\(try identity.signerCertificate.subject)\" (a demo identity, not a real one)")

        let form = DemoForm.make()
        try writeFile(directory + "/demo-form.pdf", form)
        var configuration = demo.configuration
        configuration.appearance.signatureDescription = "Signed with the Autograph demo"
        configuration.attributes.signatureLocation = "Autograph demo"
        let session = try await controller.open(
            pdf: form, documentID: "demo-agreement", signatureConfiguration: configuration)

        try await session.setValues([
            ("Name", .text(name)), ("Email", .text("ada@example.org")), ("Country", .text("Switzerland")),
            ("Agree", .bool(true)),
        ])
        try await session.acceptDocument()
        var signed: [UInt8]?
        for await event in session.events {
            console.print("event: " + describe(event))
            switch event {
            case .signatureCaptureRequired:
                console.print("demo: drawing a handwritten signature (saved for the next runs)")
                try await session.captureSignature(DemoForm.signatureStrokes())
            case .savedSignatureSelectionRequired(let saved):
                try await session.chooseSavedSignature(id: saved[0].id)
            case .selectSignatureFormField(let fields):
                try await session.selectSignatureField(fields[0].name)
            case .signatureRequiresPositioning(let page, let rect):
                try await session.signaturePositioned(pageIndex: page, rect: rect)
            case .onConfirmationRequired(let preview):
                try writeFile(directory + "/preview.png", preview.png)
                console.print(
                    "demo: preview of page \(preview.pageIndex + 1) written to \(directory)/preview.png; confirming")
                try await session.confirmSignature()
            case .processDidFinish(_, let document):
                signed = document
            case .processDidFail(let error):
                throw error
            default:
                break
            }
            if signed != nil { break }
        }
        await session.close()
        guard let signed else { throw SessionError(.invalidState, "the session ended without a signed document") }
        let output = directory + "/signed.pdf"
        try writeFile(output, signed)
        try controller.dispose(documentID: "demo-agreement")
        let statuses = SignatureValidator(document: try PDFDocument(bytes: signed), trustRoots: [root]).validate()
        for status in statuses {
            console.print(
                "verify: \(status.fieldName): intact \(status.digestIntact), valid \(status.signatureValid), "
                    + "trusted (demo root) \(status.trust.isTrusted), covers \(status.coverage)")
        }
        console.print("demo: wrote \(output) (\(signed.count) bytes)")
        return statuses.count == 1 && statuses.allSatisfy(\.isValid) ? .success : .failure
    }

    /// One line per event, with what matters in it.
    static func describe(_ event: SessionEvent) -> String {
        switch event {
        case .documentDidLoad(let pages): "documentDidLoad (\(pages) page\(pages == 1 ? "" : "s"))"
        case .fieldChanged(let field): "fieldChanged \(field.name) = \(field.value)"
        case .missingRequiredFormField(let fields): "missingRequiredFormField \(fields.map(\.name))"
        case .selectSignatureFormField(let fields): "selectSignatureFormField \(fields.map(\.name))"
        case .didSelectSignatureFormField(let field): "didSelectSignatureFormField \(field.name)"
        case .signatureCaptureRequired(let field, _): "signatureCaptureRequired \(field ?? "(new field)")"
        case .savedSignatureSelectionRequired(let saved): "savedSignatureSelectionRequired \(saved.map(\.id))"
        case .signatureRequiresPositioning(let page, let rect): "signatureRequiresPositioning page \(page + 1) \(rect)"
        case .onConfirmationRequired(let preview): "onConfirmationRequired (\(preview.png.count)-byte preview)"
        case .documentPreparedForSignature(let digest, let reason):
            "documentPreparedForSignature \(reason) digest \(digest.map { String($0, radix: 16) }.joined().prefix(16))…"
        case .processDidFinish(let reason, let document): "processDidFinish \(reason) (\(document.count) bytes)"
        case .processDidFail(let error): "processDidFail \(error.message) (signo \(error.signoCode))"
        case .signingProcessFailed(let field, let code, let text):
            "signingProcessFailed \(field ?? "-") \(code) \(text)"
        default: "\(event)"
        }
    }
}
