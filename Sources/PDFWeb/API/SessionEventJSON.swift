import AutographJSON
import PDFCore
import PDFSession

extension SessionJSON {
    /// An event's name (its case name) and data, as sent on `/api/events`; every page in them counts
    /// from 0 (`page`, `pages`), as everywhere in the API.
    static func event(_ event: SessionEvent) -> (name: String, data: JSONValue) {
        switch event {
        case .documentDidLoad(let pageCount): ("documentDidLoad", .object([("pageCount", .int(pageCount))]))
        case .pageChanged(let index): ("pageChanged", .object([("page", .int(index))]))
        case .fieldChanged(let field): ("fieldChanged", Self.field(field))
        case .documentSaved: ("documentSaved", .object([]))
        case .missingRequiredFormField(let fields): ("missingRequiredFormField", Self.fields(fields))
        case .selectSignatureFormField(let fields): ("selectSignatureFormField", Self.fields(fields))
        case .didSelectSignatureFormField(let field): ("didSelectSignatureFormField", Self.field(field))
        case .signatureCaptureRequired(let field, let configuration):
            (
                "signatureCaptureRequired",
                .object(
                    [("field", field.map { .string($0) } ?? .null)]
                        + (capture(configuration).objectMembers ?? []))
            )
        case .savedSignatureSelectionRequired(let saved):
            ("savedSignatureSelectionRequired", .object([("signatures", .array(saved.map(savedSignature)))]))
        case .signatureRequiresPositioning(let pageIndex, let proposed):
            ("signatureRequiresPositioning", .object([("page", .int(pageIndex)), ("rect", rect(proposed))]))
        case .onConfirmationRequired(let preview):
            (
                "onConfirmationRequired",
                .object(
                    [("page", .int(preview.pageIndex)), ("url", .string("/api/preview.png"))]
                        + changedPages(preview.changedPages)
                        + [("digest", .string(hex(preview.digest))), ("refusal", .bool(preview.isRefusal))])
            )
        case .willPrepareDocument: ("willPrepareDocument", .object([]))
        case .documentPreparedForSignature(let digest, let reason):
            ("documentPreparedForSignature", .object([("digest", .string(hex(digest))), ("reason", .string(reason))]))
        case .processDidFinish(let reason, let document):
            (
                "processDidFinish",
                .object([
                    ("reason", .string(reason)), ("size", .int(document.count)), ("url", .string("/api/download")),
                ])
            )
        case .documentCompleted: ("documentCompleted", .object([]))
        case .photoFieldsDeclared(let names):
            ("photoFieldsDeclared", .object([("fields", .array(names.map { .string($0) }))]))
        case .processDidFail(let error): ("processDidFail", Self.error(error))
        case .signingInterrupted(let recovery): ("signingInterrupted", Self.recovery(recovery))
        case .signingProcessConfirmed(let field): ("signingProcessConfirmed", .object([("field", .string(field))]))
        case .signingProcessCancelled(let field):
            ("signingProcessCancelled", .object([("field", field.map { .string($0) } ?? .null)]))
        case .signingProcessFailed(let field, let code, let text):
            (
                "signingProcessFailed",
                .object([
                    ("field", field.map { .string($0) } ?? .null), ("signoCode", .int(code)),
                    ("message", .string(text)),
                ])
            )
        case .signatureFieldCreated(let field): ("signatureFieldCreated", Self.field(field))
        case .photoPlaced(let field): ("photoPlaced", .object([("field", .string(field))]))
        case .photoCaptureFailed(let field, let code, let text):
            (
                "photoCaptureFailed",
                .object([("field", .string(field)), ("signoCode", .int(code)), ("message", .string(text))])
            )
        case .notesModeDidStart: ("notesModeDidStart", .object([]))
        case .notesModeDidFailToStart(let code): ("notesModeDidFailToStart", .object([("signoCode", .int(code))]))
        case .notesModeDidFinish(let saved): ("notesModeDidFinish", .object([("saved", .bool(saved))]))
        case .notesModeDidFinishWithFailure(let code):
            ("notesModeDidFinishWithFailure", .object([("signoCode", .int(code))]))
        case .configurationChanged(let viewer, let capture):
            ("configurationChanged", .object([("viewer", Self.viewer(viewer)), ("capture", Self.capture(capture))]))
        }
    }

    /// What a restart did with a signature under way: `{"outcome", "message"}`, the outcome
    /// `confirmAgain`, `signed`, `awaitingCMS` or `discarded`, the message a sentence for the person.
    static func recovery(_ recovery: SigningWorkflow.Recovery) -> JSONValue {
        let (outcome, message): (String, String)
        switch recovery {
        case .confirmAgain:
            outcome = "confirmAgain"
            message =
                "The server stopped while your signature was being made, and nothing was signed. "
                + "Check the preview and sign again."
        case .signed:
            outcome = "signed"
            message = "The server stopped just after your signature was made: it is in the document."
        case .awaitingCMS:
            outcome = "awaitingCMS"
            message = "The server stopped while the signature was awaited; it still waits for it."
        case .discarded(let reason):
            outcome = "discarded"
            message =
                "The server stopped before your signature was made (\(reason)): nothing was signed and the "
                + "signature was removed. Your entries and earlier signatures are kept; sign again."
        }
        return .object([("outcome", .string(outcome)), ("message", .string(message))])
    }
}
