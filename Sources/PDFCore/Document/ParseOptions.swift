/// How a document is read: the password and the limits that keep hostile input bounded.
public struct ParseOptions: Sendable {
    /// The user or owner password of an encrypted document; nil tries the empty user password.
    public var password: String?
    /// Turns repairable damage into errors instead of warnings.
    public var strict: Bool
    /// The number of warnings kept; further warnings are counted in one final warning.
    public var maxWarnings: Int
    /// The deepest nesting of arrays and dictionaries in one object.
    public var maxNestingDepth: Int
    /// The largest decoded size of one stream, in bytes.
    public var maxDecodedStreamSize: Int
    /// The most objects a cross-reference index may declare.
    public var maxObjectCount: Int
    /// The longest `/Prev` chain followed.
    public var maxRevisions: Int
    /// The most bytes one document may decode, all together, to find its objects: its cross-reference
    /// streams and object streams (ISO 32000-2 §7.5.7, §7.5.8). Each decoding counts, a longer start of an
    /// object stream decoded again included, and the object streams' decoded starts are kept while the
    /// document is open; past the budget, an object stream is refused with `.limitExceeded` (its objects read
    /// as null with a warning, or opening fails when the catalog is one of them). Object streams are
    /// decoded only as far as the objects read need. Other streams are bounded by ``maxDecodedStreamSize``
    /// each, when they are decoded.
    public var maxDecodedStructureSize: Int

    /// Options for reading a document; each argument sets the property of the same name, and the defaults are those of
    /// ``default``.
    public init(
        password: String? = nil, strict: Bool = false, maxWarnings: Int = 1000, maxNestingDepth: Int = 256,
        maxDecodedStreamSize: Int = 1 << 30, maxObjectCount: Int = 8_000_000, maxRevisions: Int = 10_000,
        maxDecodedStructureSize: Int = 1 << 28
    ) {
        self.password = password
        self.strict = strict
        self.maxWarnings = maxWarnings
        self.maxNestingDepth = maxNestingDepth
        self.maxDecodedStreamSize = maxDecodedStreamSize
        self.maxObjectCount = maxObjectCount
        self.maxRevisions = maxRevisions
        self.maxDecodedStructureSize = maxDecodedStructureSize
    }

    /// No password, lenient repair, and limits sized for real documents: 1,000 warnings, nesting depth 256, 1 GiB per
    /// decoded stream, 8 million objects, 10,000 revisions, 256 MiB decoded from a document's cross-reference and
    /// object streams.
    public static let `default` = ParseOptions()
}
