/// Choices that make written output reproducible (ARCHITECTURE.md invariant 7).
public struct WriteOptions: Sendable {
    /// Derives new `/ID` entries from the written bytes instead of from randomness (qpdf `--deterministic-id`).
    public var deterministicID: Bool
    /// The source of AES initialisation vectors and random IDs; the system's secure source by default.
    public var randomBytes: @Sendable (Int) -> [UInt8]

    public init(
        deterministicID: Bool = false, randomBytes: @escaping @Sendable (Int) -> [UInt8] = SecureRandomSource.bytes
    ) {
        self.deterministicID = deterministicID
        self.randomBytes = randomBytes
    }

    public static let `default` = WriteOptions()
}

/// The system's cryptographically secure random bytes.
public enum SecureRandomSource {
    @Sendable public static func bytes(_ count: Int) -> [UInt8] { SecureRandom.bytes(count) }
}
