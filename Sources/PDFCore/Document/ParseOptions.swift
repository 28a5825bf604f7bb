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

    /// Options for reading a document; each argument sets the property of the same name, and the defaults are those of
    /// ``default``.
    public init(
        password: String? = nil, strict: Bool = false, maxWarnings: Int = 1000, maxNestingDepth: Int = 256,
        maxDecodedStreamSize: Int = 1 << 30, maxObjectCount: Int = 8_000_000, maxRevisions: Int = 10_000
    ) {
        self.password = password
        self.strict = strict
        self.maxWarnings = maxWarnings
        self.maxNestingDepth = maxNestingDepth
        self.maxDecodedStreamSize = maxDecodedStreamSize
        self.maxObjectCount = maxObjectCount
        self.maxRevisions = maxRevisions
    }

    /// No password, lenient repair, and limits sized for real documents: 1,000 warnings, nesting depth 256, 1 GiB per
    /// decoded stream, 8 million objects, 10,000 revisions.
    public static let `default` = ParseOptions()
}
