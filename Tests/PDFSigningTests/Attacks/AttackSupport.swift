import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Documents signed by `DocumentSigner` and attacked by updates written by hand (``HandUpdate``),
/// then validated by `SignatureValidator` and by pyHanko (``PyHankoVerdict``).
enum Attack {
    static let root = TestPaths.fixture("pki", "root.cert.pem")
    /// The signing time every test signature claims.
    static let signingTime = PDFDate(seconds: 1_800_000_000)

    static func signer(_ name: String = "signer-rsa2048") throws -> LocalKeySigner {
        try LocalKeySigner(pkcs12: TestPaths.fixture("pki", "\(name).p12"), password: "secret")
    }

    /// `bytes` signed in the field `field` (an existing empty one when the document has it, else a
    /// new one, invisible unless `placement` says otherwise).
    static func sign(
        _ bytes: [UInt8], field: String = "Signature1", placement: SignatureRequest.Placement? = nil,
        certification: SignatureRequest.Certification? = nil, lock: SignatureRequest.FieldLock? = nil,
        signer name: String = "signer-rsa2048"
    ) async throws -> [UInt8] {
        let document = try PDFDocument(bytes: bytes)
        let exists = AcroForm(document: document)?.field(named: field) != nil
        var request = SignatureRequest(fieldName: field, placement: placement ?? (exists ? .existingField : .invisible))
        request.reason = "Approved"
        request.signingTime = signingTime
        request.certification = certification
        request.lockFields = lock
        return try await DocumentSigner(document: document, request: request, signer: try signer(name)).sign().bytes()
    }

    static func validate(_ bytes: [UInt8]) throws -> [SignatureStatus] {
        let roots = Certificate.certificates(pem: Array(try Data(contentsOf: URL(fileURLWithPath: root))))
        return SignatureValidator(document: try PDFDocument(bytes: bytes), trustRoots: roots).validate()
    }

    // Where pyHanko 0.38 and ISO 32000-2 part, and we follow the standard.

    /// pyHanko's default policy has no rule for markup annotations (a TODO in its
    /// `form_field_rules.py`): a new or changed annotation is an unexplained object to it.
    static let noAnnotationRule =
        "pyHanko has no rule for markup annotations (its form_field_rules.py leaves them to do): "
        + "a new or changed annotation is an unexplained object to it, even where P=3 or no certification permits it"
    /// pyHanko permits new signature fields only after approval signatures.
    static let noSignatureFieldAfterCertification =
        "pyHanko permits a new signature field only after approval signatures, never after a certification, "
        + "where ISO 32000-2 permits signing after P=2 and annotations (a visible widget) after P=3"
    /// pyHanko counts metadata updates as LTA_UPDATES.
    static let metadataIsLTA =
        "pyHanko counts /Info and XMP metadata updates as LTA_UPDATES, permitted even after P=1; "
        + "we count them at the form filling level, not permitted after P=1"
    /// pyHanko exempts /DR, /DA and /NeedAppearances of the form from comparison.
    static let acroFormKeysExempt =
        "pyHanko exempts the form's /DR, /DA and /NeedAppearances from comparison (ACROFORM_EXEMPT_STRICT_COMPARISON: "
        + "Acrobat rewrites them), so a font redefined there or every field redrawn from its value passes"
    /// pyHanko reads only what the cross-reference chain names.
    static let trailingBytesIgnored =
        "pyHanko reads only the revisions the cross-reference chain names and ignores bytes after the last "
        + "%%EOF, which readers that repair damaged files may show"

    /// What pyHanko is expected to say beside us.
    enum PyHanko {
        /// The same verdict in pyHanko's words (see ``PyHankoVerdict/agrees(with:)``).
        case agrees
        /// pyHanko says `word`, for the reason given (it is stricter than ISO 32000-2, or reads the file otherwise).
        case says(String, because: String)
    }

    /// One change expected in the report: its kind, whether it is allowed, and its page (when not nil).
    struct Change: CustomStringConvertible {
        var kind: Modification.Kind
        var allowed: Bool
        var page: Int?

        var description: String {
            "\(kind) \(allowed ? "allowed" : "disallowed")" + (page.map { " on page \($0)" } ?? "")
        }

        static func allowed(_ kind: Modification.Kind, page: Int? = nil) -> Change {
            Change(kind: kind, allowed: true, page: page)
        }

        static func disallowed(_ kind: Modification.Kind, page: Int? = nil) -> Change {
            Change(kind: kind, allowed: false, page: page)
        }
    }

    /// Validates `bytes` and expects the signature in `field` to have `verdict`, `level` (when
    /// given) and each of `changes` among its reported changes; then compares pyHanko's verdict.
    @discardableResult
    static func expect(
        _ bytes: [UInt8], field: String = "Signature1", verdict: SignatureStatus.Verdict,
        level: ModificationLevel? = nil, changes: [Change] = [], pyHanko: PyHanko = .agrees,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> SignatureStatus {
        if let directory = ProcessInfo.processInfo.environment["AUTOGRAPH_ATTACK_DUMP"] {
            let name =
                "\(sourceLocation.fileName.replacingOccurrences(of: ".swift", with: ""))-\(sourceLocation.line)-\(field)"
            try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name).pdf"))
        }
        let statuses = try validate(bytes)
        let status = try #require(
            statuses.first { $0.fieldName == field }, "no signature in '\(field)': \(statuses.map(\.fieldName))",
            sourceLocation: sourceLocation)
        let summary = describe(status)
        #expect(status.verdict == verdict, "\(summary)", sourceLocation: sourceLocation)
        if let level {
            #expect(status.modifications?.level == level, "\(summary)", sourceLocation: sourceLocation)
        }
        for change in changes {
            let found = status.modifications?.changes.contains {
                $0.kind == change.kind && $0.allowed == change.allowed
                    && (change.page == nil || $0.pageIndex == change.page)
            }
            #expect(found == true, "expected \(change) in \(summary)", sourceLocation: sourceLocation)
        }
        try compare(bytes, status: status, pyHanko: pyHanko, sourceLocation: sourceLocation)
        return status
    }

    /// Compares pyHanko's verdict on `status`'s signature with ours.
    static func compare(
        _ bytes: [UInt8], status: SignatureStatus, pyHanko: PyHanko, sourceLocation: SourceLocation
    ) throws {
        guard let verdicts = try PyHankoVerdict.verdicts(bytes, sourceLocation: sourceLocation) else { return }
        let theirs =
            verdicts[status.fieldName] ?? verdicts["*"]
            ?? PyHankoVerdict(word: "REJECTED", details: "pyHanko found no signature in '\(status.fieldName)'")
        let ours = PyHankoVerdict.word(for: status)
        if ProcessInfo.processInfo.environment["AUTOGRAPH_ATTACK_REPORT"] != nil {
            print(
                "attack-report \(sourceLocation.fileName):\(sourceLocation.line) \(status.fieldName): ours \(ours) "
                    + "(\(status.verdict)), pyHanko \(theirs.word)")
        }
        switch pyHanko {
        case .agrees:
            #expect(
                theirs.agrees(with: ours), "pyHanko: \(theirs); ours: \(ours) — \(describe(status))",
                sourceLocation: sourceLocation)
        case .says(let word, let reason):
            #expect(
                theirs.word == word, "pyHanko: \(theirs), expected \(word) (\(reason)); ours: \(ours)",
                sourceLocation: sourceLocation)
        }
    }

    /// The status, its verdict and every change, for messages.
    static func describe(_ status: SignatureStatus) -> String {
        let changes = status.modifications?.changes.map {
            "[r\($0.revision) \($0.kind)\($0.pageIndex.map { " p\($0)" } ?? "") \($0.allowed ? "ok" : "NO") \($0.level): \($0.reason)]"
        }
        return "\(status.fieldName): \(status.verdict), valid \(status.isValid), coverage \(status.coverage), "
            + "level \(status.modifications.map { "\($0.level)" } ?? "nil"), changes \(changes ?? []), "
            + "problems \(status.problems)"
    }

    /// The offset of the last occurrence of `needle` in `bytes`.
    static func lastOffset(of needle: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var start = bytes.count - pattern.count
        while start >= 0 {
            if bytes[start] == pattern[0], bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
                return start
            }
            start -= 1
        }
        return nil
    }
}
