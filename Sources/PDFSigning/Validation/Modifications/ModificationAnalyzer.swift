public import PDFCore
import Synchronization

/// Tells what changed in a document after each of its revisions, and judges it for a signature
/// (ISO 32000-2 §12.8.2; the classes of the published attacks on PDF signatures).
///
/// ```swift
/// let analyzer = ModificationAnalyzer(document: document)
/// let report = analyzer.report(forRevision: status.revision!)
/// print(report.level, report.disallowedChanges.map(\.reason))
/// ```
///
/// Each incremental update is compared with the revision before it, object by object, once; a
/// report applies the certification and the field locks in force for the signature of a revision
/// (read as of that revision) to the updates after it. The analysis reads objects, never whole
/// stream data it does not compare, so memory does not grow with the file.
public final class ModificationAnalyzer: Sendable {
    /// The document analysed.
    public let document: PDFDocument
    /// The signature fields whose signatures verify and the revision each signs (see ``init(document:signatures:)``).
    public let signatures: [String: Int]?
    private let cache = Mutex<Cache>(Cache())

    private struct Cache: ~Copyable {
        var revisions: [Int: PDFDocument] = [:]
        /// Revisions kept open: those signatures sign (their policy is read from them).
        var pinned: Set<Int> = []
        var steps: [Int: [ObservedChange]] = [:]
        var structure: [FileStructureCheck.Finding]? = nil
    }

    /// An analyzer of `document`.
    ///
    /// - Parameters:
    ///   - document: the document, opened (with its password when encrypted).
    ///   - signatures: the signature fields whose signatures verify (digest and CMS signature) and
    ///     the revision each signs, as ``SignatureValidator`` finds them: a signature field filled
    ///     by an update counts as signing only when it is one of them; anything else in it is only
    ///     an appearance ("sneaky signature"). Nil takes every signature dictionary as what it claims.
    public init(document: PDFDocument, signatures: [String: Int]? = nil) {
        self.document = document
        self.signatures = signatures
    }

    /// The most updates after a signature that are compared (a file of many thousand tiny updates
    /// would otherwise cost their square).
    public static let maximumUpdates = 500

    /// What changed after `revision`, judged by the certification and the locks in force for a
    /// signature of that revision.
    public func report(forRevision revision: Int) -> ModificationReport {
        let last = document.revisions.count - 1
        cache.withLock { _ = $0.pinned.insert(revision) }
        let signed = self.revision(revision)
        let policy = signed.map { MDPPolicy(document: $0) } ?? MDPPolicy(certification: nil, locks: [])
        var changes: [Modification] = []
        if last - revision > Self.maximumUpdates {
            // Each update is compared with a document opened as of the one before: bounded work.
            changes.append(
                Modification(
                    object: nil, kind: .structure, pageIndex: nil, allowed: false,
                    reason: "\(last - revision) updates follow the signature; more than \(Self.maximumUpdates) "
                        + "are not analysed", revision: revision + 1, level: .disallowed))
        } else if revision < last {
            for step in (revision + 1)...last {
                for change in observedChanges(of: step) {
                    let (allowed, level, why) = policy.judge(change)
                    changes.append(
                        Modification(
                            object: change.object, kind: change.kind, pageIndex: change.pageIndex, allowed: allowed,
                            reason: change.what + ": " + why, revision: step, level: allowed ? level : .disallowed))
                }
            }
        }
        // Damage that makes the signed revision itself ambiguous concerns every signature.
        changes += structureFindings().filter { $0.always || $0.change.revision > revision }.map(\.change)
        return ModificationReport(
            signedRevision: revision, lastRevision: last, certification: policy.certification, fieldLocks: policy.locks,
            changes: changes)
    }

    /// The classified changes of update `step` (compared with the revision before it), cached.
    func observedChanges(of step: Int) -> [ObservedChange] {
        if let cached = cache.withLock({ $0.steps[step] }) { return cached }
        guard let old = revision(step - 1), let new = revision(step) else {
            return [
                ObservedChange(
                    object: nil, kind: .structure, pageIndex: nil, category: .forbidden,
                    what: "revision \(step) cannot be read", field: nil)
            ]
        }
        let result = RevisionComparison.compare(old: old, new: new, revision: step, signatures: signatures)
        cache.withLock { cache in
            cache.steps[step] = result
            // Steps are compared in order: the revision before this one is not needed again.
            if !cache.pinned.contains(step - 1) { cache.revisions[step - 1] = nil }
        }
        return result
    }

    /// The document as of `index`, opened once.
    func revision(_ index: Int) -> PDFDocument? {
        if index == document.revisions.count - 1 { return document }
        if let cached = cache.withLock({ $0.revisions[index] }) { return cached }
        guard let opened = try? document.document(asOfRevision: index) else { return nil }
        cache.withLock { $0.revisions[index] = opened }
        return opened
    }

    func structureFindings() -> [FileStructureCheck.Finding] {
        if let cached = cache.withLock({ $0.structure }) { return cached }
        let findings = FileStructureCheck.findings(in: document)
        cache.withLock { $0.structure = findings }
        return findings
    }
}
