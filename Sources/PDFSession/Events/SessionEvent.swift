public import PDFAuthoring
public import PDFCore
public import PDFForms

/// What happens in a session, in order, on `DocumentSession.events` (WYSIWYS
/// `WYSPdfViewerDelegate` / `WYSSignatureProcessDelegate`, signo `STSignoInfoDelegate`'s
/// notifications). Decisions the app must return are `SessionDelegate` methods instead.
public enum SessionEvent: Sendable {
    /// The document is loaded (WYSIWYS `documentDidLoad`).
    case documentDidLoad(pageCount: Int)
    /// The current page changed (WYSIWYS `didPageChanged`), from 0.
    case pageChanged(Int)
    /// A field's value changed and was saved to the store.
    case fieldChanged(FieldInfo)
    /// The document was saved (signo `documentSaved`).
    case documentSaved
    /// A signature that accepts the document did not start (accept, the sign button, a field, a
    /// host): these required fields are empty (WYSIWYS `missingRequiredFormField`). The call that
    /// started it throws `requiredFieldsEmpty`.
    case missingRequiredFormField([FieldInfo])
    /// Several empty signature fields: the person chooses one (WYSIWYS `selectSignatureFormField`).
    case selectSignatureFormField([FieldInfo])
    /// The person chose (WYSIWYS `didSelectSignatureFormField`).
    case didSelectSignatureFormField(FieldInfo)
    /// No handwritten signature is saved (or signo capture): the person draws one; the app calls
    /// `captureSignature(_:)` or `cancelSignatureCapture()`. The field is nil for a new field.
    case signatureCaptureRequired(field: String?, configuration: SignatureCaptureConfiguration)
    /// Several handwritten signatures are saved: the person picks one (`chooseSavedSignature(id:)`).
    case savedSignatureSelectionRequired([SavedSignature])
    /// The visible signature waits to be placed (WYSIWYS `signatureRequiresPositioning`): the app
    /// calls `signaturePositioned(page:rect:)` or `cancelSignaturePositioning()`.
    case signatureRequiresPositioning(pageIndex: Int, proposedRect: PDFRectangle)
    /// The preview of the exact bytes to be signed (WYSIWYS `onConfirmationRequired`): the app
    /// calls `confirmSignature()` or `cancelConfirmation()`.
    case onConfirmationRequired(ConfirmationPreview)
    /// Preparing starts (WYSIWYS `willPrepareDocument`): after the preview is confirmed when there
    /// is one, as the seed orders them, so a spinner shown on it never covers the preview.
    case willPrepareDocument
    /// The digest to sign (WYSIWYS `documentPreparedForSignature:withReason:`).
    case documentPreparedForSignature(digest: [UInt8], reason: String)
    /// Signed: the reason ("accepted", "refused" …) and the signed file (WYSIWYS
    /// `processDidFinishWithReason:andDocument:`). After a refusal the document is complete; after
    /// any other signature the session is editing again, ready for the next field or signer.
    case processDidFinish(reason: String, document: [UInt8])
    /// The host completed the document (`completeDocument()`): no more signatures or edits.
    case documentCompleted
    /// Signing failed (WYSIWYS `processDidFailWithError`); the error carries the signo code.
    case processDidFail(SessionError)
    /// The process stopped while a signature was under way, and the restarted session settled it
    /// (``DocumentSession/signingRecovery``): it waits for the confirmation again, still awaits the
    /// host's CMS, or was discarded (and why). Emitted once, right after `documentDidLoad`.
    case signingInterrupted(SigningWorkflow.Recovery)
    /// signo `signingProcessConfirmed`: the field is signed.
    case signingProcessConfirmed(field: String)
    /// signo `signingProcessCancelled`: the person or the delegate cancelled (nil: a new field).
    case signingProcessCancelled(field: String?)
    /// signo `signingProcessFailed:errorText:errorCode:`.
    case signingProcessFailed(field: String?, code: Int, text: String)
    /// A signature field was created (signo `createNewSignatureField`).
    case signatureFieldCreated(FieldInfo)
    /// The fields that take photos were declared (`setPhotoFieldNames`): a viewer shows their buttons.
    case photoFieldsDeclared([String])
    /// A photo was placed in a photo field.
    case photoPlaced(field: String)
    /// signo `photoCaptureFailed:errorText:errorCode:`.
    case photoCaptureFailed(field: String, code: Int, text: String)
    /// signo `notesModeDidStartSuccessfully` / `onNotesModeFailedToStart`.
    case notesModeDidStart
    /// Notes mode could not start (a PDF/A-1, signed or read-only document); `code` is the signo code.
    case notesModeDidFailToStart(code: Int)
    /// signo `notesModeDidFinishWithSavedStatus` / `onNotesModeDidFinishWithFailure`.
    case notesModeDidFinish(saved: Bool)
    /// The notes could not be saved; notes mode stays on. `code` is the signo code.
    case notesModeDidFinishWithFailure(code: Int)
    /// The configuration changed while the session runs (signo `enableTouchEvents:`,
    /// `enableAutoRotation`, a capture configuration set in `willStartSigning`): the viewer redraws
    /// what it shows from these.
    case configurationChanged(viewer: ViewerConfiguration, capture: SignatureCaptureConfiguration)
}

/// A form field as the app sees it (signo `STFormFieldInfoDTO` / `STSignatureFieldInfoDTO`).
public struct FieldInfo: Sendable, Hashable, Codable {
    /// The fully qualified field name.
    public var name: String
    /// The field kind's raw value: `text`, `checkbox`, `radio`, `button`, `combo`, `list`, `signature` or `unknown`.
    public var kind: String
    /// The page of the first widget, from 0 (nil when on no page).
    public var pageIndex: Int?
    /// The first widget's rectangle in PDF user space.
    public var rect: PDFRectangle?
    /// True when the field must be filled before the document is accepted (`/Ff` bit 2).
    public var isRequired: Bool
    /// True when the field cannot be changed (`/Ff` bit 1).
    public var isReadOnly: Bool
    /// For signature fields: signed already.
    public var isSigned: Bool
    /// The value as text (checkbox state, selections joined by ", ").
    public var value: String
    /// The tooltip (`/TU`), for labels.
    public var label: String?
    /// The choices of a list or combo box, the states of a checkbox or radio group.
    public var options: [String]

    /// The app's view of `field`: its first widget on a page (else its first widget) gives the page and rectangle.
    public init(_ field: FormField) {
        name = field.name
        kind = field.kind.rawValue
        let widget = field.widgets.first { $0.pageIndex != nil } ?? field.widgets.first
        pageIndex = widget?.pageIndex
        rect = widget?.rect
        isRequired = field.isRequired
        isReadOnly = field.isReadOnly
        if case .signature(let signed) = field.value { isSigned = signed } else { isSigned = false }
        value = field.value.description
        label = field.alternateName
        options =
            switch field.kind {
            case .checkbox, .radio: field.states
            case .comboBox, .listBox: field.options.map(\.exportValue)
            default: []
            }
    }
}

/// A handwritten signature kept in the store (WYSIWYS signature settings).
public struct SavedSignature: Sendable, Hashable, Codable {
    /// The signature's number in the store, unique among the person's saved signatures.
    public var id: Int
    /// The handwriting as captured, y growing downwards (screen coordinates).
    public var strokes: [InkStroke]
    /// When it was captured.
    public var created: PDFDate

    /// A saved signature; each argument sets the property of the same name.
    public init(id: Int, strokes: [InkStroke], created: PDFDate) {
        self.id = id
        self.strokes = strokes
        self.created = created
    }
}

/// The confirmation preview: pages of the prepared file, rendered from the very bytes whose digest
/// will be signed.
public struct ConfirmationPreview: Sendable {
    /// The page that changed most (the signature's page, or the first for a refusal), from 0.
    public var pageIndex: Int
    /// That page as PNG.
    public var png: [UInt8]
    /// The digest of the prepared bytes, the one that will be signed.
    public var digest: [UInt8]
    /// The prepared file (placeholder in place of the CMS), to show every page if the app wants.
    public var preparedDocument: [UInt8]
    /// Every page the prepared revision changes, from 0: all of them for a refusal (each carries the
    /// watermark), else the signature's page. Show each from ``preparedDocument``.
    public var changedPages: [Int]
    /// True when the signature refuses the document (WYSIWYS refuse): what is confirmed is a refusal.
    public var isRefusal: Bool = false
}
