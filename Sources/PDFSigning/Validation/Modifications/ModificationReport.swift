import PDFCore

/// How far a document was changed after a signature, from least to most (ISO 32000-2 §12.8.2.2
/// and ETSI EN 319 142-1 §5.4; the levels of pyHanko's `ModificationLevel`, with signing told
/// apart from form filling).
public enum ModificationLevel: Int, Comparable, Sendable, CustomStringConvertible {
    /// Nothing that shows: no later revision, or only bookkeeping (`/Info /ModDate`, `/ID`'s
    /// second element, unreferenced objects).
    case none
    /// Validation material only: a DSS (`/DSS`, `/VRI`) or document time-stamps.
    case ltv
    /// New signatures, in empty or new signature fields (with their appearances).
    case signatures
    /// Form field values and their regenerated appearances (and metadata).
    case formFilling
    /// Annotations added, changed or removed (permitted by certification level 3 or no certification).
    case annotations
    /// A change no rule permits: the page content, the page tree, the catalog, a font, a locked field…
    case disallowed

    /// Orders the levels from ``none`` to ``disallowed``.
    public static func < (lhs: ModificationLevel, rhs: ModificationLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `none`, `ltv`, `signatures`, `formFilling`, `annotations` or `disallowed` (`verify --json`).
    public var description: String {
        switch self {
        case .none: "none"
        case .ltv: "ltv"
        case .signatures: "signatures"
        case .formFilling: "formFilling"
        case .annotations: "annotations"
        case .disallowed: "disallowed"
        }
    }
}

/// One difference between the revision a signature signs and a later one.
public struct Modification: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Hashable {
        /// A page's content stream (its `/Contents`, or a stream it draws).
        case pageContent
        /// A page's dictionary, a page added, removed or replaced, or the page tree.
        case page
        /// An annotation other than a form field's widget.
        case annotation
        /// A form field or its widget (value, appearance, flags, a field added or removed).
        case field
        /// A signature: a new one, a signature field, or a signature dictionary.
        case signature
        /// The document security store (`/DSS`) or a document time-stamp.
        case dss
        /// The document catalog (or the trailer's `/Root` pointing elsewhere).
        case catalog
        /// The interactive form dictionary (`/AcroForm`).
        case form
        /// A font.
        case font
        /// An external object (image or form XObject) or other resource.
        case xobject
        /// An optional content group or its configuration.
        case optionalContent
        /// Document metadata (`/Info`, the catalog's `/Metadata`).
        case metadata
        /// An object that was not part of the document when it was signed, made part of it.
        case hiddenObject
        /// Bytes after the last `%%EOF` that are not a complete incremental update.
        case trailingBytes
        /// The file structure: cross-reference sections, `/Prev`, hybrid tables.
        case structure
        /// Anything else the document references.
        case other
    }

    /// The object that changed (nil for changes of the file structure).
    public var object: Int?
    /// What changed.
    public var kind: Kind
    /// The page concerned (0-based), when one is.
    public var pageIndex: Int?
    /// Whether the certification, the field locks and ISO 32000-2 §12.8.2.2 permit it.
    public var allowed: Bool
    /// What changed and why it is or is not permitted, in one sentence.
    public var reason: String
    /// The revision that made the change (see `PDFDocument.revisions`).
    public var revision: Int
    /// The level of the change (``ModificationLevel/disallowed`` when not allowed).
    public var level: ModificationLevel

    /// A difference; each argument sets the property of the same name.
    public init(
        object: Int?, kind: Kind, pageIndex: Int?, allowed: Bool, reason: String, revision: Int,
        level: ModificationLevel
    ) {
        self.object = object
        self.kind = kind
        self.pageIndex = pageIndex
        self.allowed = allowed
        self.reason = reason
        self.revision = revision
        self.level = level
    }
}

/// What changed after one signature, and whether the certification and the field locks in force
/// permit it: a value, never an error (a damaged update is a disallowed change).
public struct ModificationReport: Sendable {
    /// The revision the signature signs.
    public var signedRevision: Int
    /// The document's last revision.
    public var lastRevision: Int
    /// The certification in force (`/DocMDP` of the document's certification signature), nil when
    /// the document is not certified (as of the signed revision).
    public var certification: CertificationLevel?
    /// The fields locked by this signature and the earlier ones (`/FieldMDP`, a signature field's `/Lock`).
    public var fieldLocks: [FieldLock]
    /// Every difference found, oldest revision first.
    public var changes: [Modification]

    /// A report; each argument sets the property of the same name.
    public init(
        signedRevision: Int, lastRevision: Int, certification: CertificationLevel?, fieldLocks: [FieldLock],
        changes: [Modification]
    ) {
        self.signedRevision = signedRevision
        self.lastRevision = lastRevision
        self.certification = certification
        self.fieldLocks = fieldLocks
        self.changes = changes
    }

    /// The highest level of the changes: ``ModificationLevel/disallowed`` when one is not allowed.
    public var level: ModificationLevel {
        changes.reduce(ModificationLevel.none) { max($0, $1.allowed ? $1.level : .disallowed) }
    }

    /// The changes that are not allowed.
    public var disallowedChanges: [Modification] { changes.filter { !$0.allowed } }
}

/// The permissions of a certification signature (`/DocMDP /P`, ISO 32000-2 §12.8.2.2, Table 257).
public enum CertificationLevel: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No changes (but validation material and document time-stamps).
    case noChanges = 1
    /// Form filling, page templates and signing.
    case formFilling = 2
    /// Form filling, signing and annotations.
    case formFillingAndAnnotations = 3

    /// What the level permits, for messages.
    public var description: String {
        switch self {
        case .noChanges: "certification P=1 permits no changes"
        case .formFilling: "certification P=2 permits form filling and signing only"
        case .formFillingAndAnnotations: "certification P=3 permits form filling, signing and annotations"
        }
    }
}

/// A field lock in force (`/FieldMDP` transform, ISO 32000-2 §12.8.2.4; a signature field's
/// `/Lock`, §12.7.5.5): which signature made it, and the fields it covers as a request names them.
public struct FieldLock: Sendable, Hashable {
    /// The signature field whose signature locks the fields.
    public var signatureField: String
    /// The fields covered: all, those named, or all but those named.
    public var scope: SignatureRequest.FieldLock

    /// A lock by the signature in `signatureField` over the fields `scope` names.
    public init(signatureField: String, scope: SignatureRequest.FieldLock) {
        self.signatureField = signatureField
        self.scope = scope
    }

    /// `/Action`: `All`, `Include` or `Exclude`.
    public var action: String {
        switch scope {
        case .all: "All"
        case .include: "Include"
        case .exclude: "Exclude"
        }
    }

    /// `/Fields`: fully qualified names (none for `All`).
    public var fields: [String] {
        switch scope {
        case .all: []
        case .include(let names), .exclude(let names): names
        }
    }

    /// Whether the lock covers the field `name` (a name covers the fields below it too, §12.7.4.2).
    public func locks(_ name: String) -> Bool {
        guard name != signatureField else { return false }
        let named = fields.contains { name == $0 || name.hasPrefix($0 + ".") }
        switch scope {
        case .all: return true
        case .include: return named
        case .exclude: return !named
        }
    }
}
