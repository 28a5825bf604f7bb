import PDFCore

/// One difference an incremental update makes, classified by what it is but not yet judged:
/// whether it is allowed depends on the certification and the locks in force for the signature
/// being validated (``MDPPolicy/judge(_:)``).
struct ObservedChange: Sendable {
    /// What the change is, for the rules of ISO 32000-2 §12.8.2.2 (Table 257) and §12.8.2.4.
    enum Category: Sendable {
        /// Nothing a reader shows: the update's own bookkeeping, objects nothing references.
        case bookkeeping
        /// A DSS or a document time-stamp (ETSI EN 319 142-1 §5.4: always permitted).
        case validationMaterial
        /// A signature placed in a signature field (empty, or new with the signature).
        case signing
        /// A new signature field left unsigned.
        case newSignatureField(visible: Bool)
        /// A field's value, its regenerated appearance, or its read-only flag.
        case formFilling
        /// `/Info` or XMP metadata.
        case metadata
        /// An annotation added, changed or removed.
        case annotation
        /// A new form field other than a signature field.
        case newFormField
        /// A change no rule permits.
        case forbidden
    }

    var object: Int?
    var kind: Modification.Kind
    var pageIndex: Int?
    var category: Category
    /// What happened, e.g. "the value of field 'Name' changed".
    var what: String
    /// The field concerned, for the locks.
    var field: String?
}

extension MDPPolicy {
    /// Whether the change is permitted under this policy, at which level, and why.
    func judge(_ change: ObservedChange) -> (allowed: Bool, level: ModificationLevel, why: String) {
        switch change.category {
        case .bookkeeping:
            return (true, .none, "bookkeeping only")
        case .validationMaterial:
            return (true, .ltv, "validation material is always permitted")
        case .signing:
            if let field = change.field, let lock = lock(covering: field) {
                return (false, .disallowed, "the field is locked by the signature in '\(lock.signatureField)'")
            }
            if certification == .noChanges { return (false, .disallowed, CertificationLevel.noChanges.description) }
            return (true, .signatures, "signing is permitted")
        case .newSignatureField(let visible):
            switch certification {
            case .noChanges?:
                return (false, .disallowed, CertificationLevel.noChanges.description)
            case .formFilling? where visible:
                return (
                    false, .disallowed,
                    "an unsigned signature field that shows an appearance is not signing, and "
                        + CertificationLevel.formFilling.description
                )
            default:
                return visible
                    ? (true, .annotations, "a visible widget is permitted like an annotation")
                    : (true, .signatures, "an empty invisible signature field is permitted for signing")
            }
        case .formFilling:
            if let field = change.field, let lock = lock(covering: field) {
                return (false, .disallowed, "the field is locked by the signature in '\(lock.signatureField)'")
            }
            if certification == .noChanges { return (false, .disallowed, CertificationLevel.noChanges.description) }
            return (true, .formFilling, "form filling is permitted")
        case .metadata:
            if certification == .noChanges { return (false, .disallowed, CertificationLevel.noChanges.description) }
            return (true, .formFilling, "metadata updates are permitted")
        case .annotation:
            if let certification, certification != .formFillingAndAnnotations {
                return (false, .disallowed, certification.description)
            }
            return (true, .annotations, certification == nil ? "annotations are permitted" : "P=3 permits annotations")
        case .newFormField:
            if let certification {
                return (false, .disallowed, "\(certification.description); adding form fields is not filling them")
            }
            return (true, .annotations, "a new field's widget is permitted like an annotation")
        case .forbidden:
            return (false, .disallowed, "not permitted after signing")
        }
    }
}
