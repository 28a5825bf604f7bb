public import PDFCore

/// Checks an update before it is written: whether it would break a valid certification (`/DocMDP`)
/// or a field lock (`/FieldMDP`) of the document (ISO 32000-2 §12.8.2.2, §12.8.2.4), by analysing
/// the updated document exactly as ``SignatureValidator`` will.
///
/// ```swift
/// let updated = try PDFDocument(bytes: original + update)
/// if let violation = CertificationCheck.violations(original: document, updated: updated).first {
///     throw SigningError(.certificationViolated, violation.message)
/// }
/// ```
public enum CertificationCheck {
    /// A change an update makes that a signature's certification or lock forbids.
    public struct Violation: Sendable {
        /// The field of the certifying or locking signature the change would invalidate.
        public var signatureField: String
        /// The certification of the document, nil when only a field lock forbids the change.
        public var certification: CertificationLevel?
        /// The change.
        public var change: Modification
        /// What the change is, e.g. "the value of field 'Name' changed".
        public var what: String

        /// "the certification by 'Sig1' (certification P=1 permits no changes) forbids: …".
        public var message: String {
            let rule =
                certification.map { "the certification by '\(signatureField)' (\($0.description))" }
                ?? "the field lock of the signature in '\(signatureField)'"
            return "\(rule) forbids this change: \(what)"
        }
    }

    /// The certification and the locks in force in `document` (nil and empty for most documents):
    /// when both are absent, no update can violate anything and checking can be skipped.
    public static func restrictions(of document: PDFDocument) -> (
        certification: CertificationLevel?, locks: [FieldLock]
    ) {
        let policy = MDPPolicy(document: document)
        return (policy.certification, policy.locks)
    }

    /// The fields a lock of a signed signature in `document` covers, among `names`.
    public static func lockedFields(in document: PDFDocument, among names: [String]) -> Set<String> {
        let locks = MDPPolicy.locks(in: document)
        guard !locks.isEmpty else { return [] }
        return Set(names.filter { name in locks.contains { $0.locks(name) } })
    }

    /// The changes of the revisions `updated` adds to `original` that break a certification or a
    /// lock which is valid in `original` (intact, verifying, covering its revision, not already
    /// broken by a later change). Trust is not required: a certification is kept whoever made it.
    public static func violations(original: PDFDocument, updated: PDFDocument) -> [Violation] {
        let restrictions = restrictions(of: original)
        guard restrictions.certification != nil || !restrictions.locks.isEmpty else { return [] }
        let firstNew = original.revisions.count
        let analyzer = ModificationAnalyzer(document: updated)
        var violations: [Violation] = []
        for status in SignatureValidator(document: original, trustRoots: []).validate() {
            guard status.digestIntact, status.signatureValid, status.coverage >= .entireRevision,
                let revision = status.revision, status.modifications?.level != .disallowed,
                let signed = analyzer.revision(revision)
            else { continue }
            let policy = MDPPolicy(document: signed)
            guard policy.certification != nil || !policy.locks.isEmpty else { continue }
            let unrestricted = MDPPolicy(certification: nil, locks: [])
            for step in firstNew..<max(firstNew, updated.revisions.count) {
                for observed in analyzer.observedChanges(of: step) {
                    let judged = policy.judge(observed)
                    guard !judged.allowed else { continue }
                    // With only locks, a change is theirs to forbid only when it would be allowed without them.
                    if policy.certification == nil, !unrestricted.judge(observed).allowed { continue }
                    let change = Modification(
                        object: observed.object, kind: observed.kind, pageIndex: observed.pageIndex, allowed: false,
                        reason: observed.what + ": " + judged.why, revision: step, level: .disallowed)
                    violations.append(
                        Violation(
                            signatureField: status.fieldName, certification: policy.certification, change: change,
                            what: observed.what))
                }
            }
        }
        return violations
    }
}
