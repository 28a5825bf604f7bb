import AutographCrypto

/// Choices that make written output reproducible (ARCHITECTURE.md invariant 7).
public struct WriteOptions: Sendable {
    /// Derives new `/ID` entries from the written bytes instead of from randomness (qpdf `--deterministic-id`).
    public var deterministicID: Bool
    /// The source of AES initialisation vectors and random IDs; the system's secure source by default.
    /// An error it throws stops the write (a `PDFError`, as `SecureRandomSource.bytes` throws).
    public var randomBytes: @Sendable (Int) throws(PDFError) -> [UInt8]

    /// Options for writing; by default random `/ID` entries and initialisation vectors from ``SecureRandomSource``.
    public init(
        deterministicID: Bool = false,
        randomBytes: @escaping @Sendable (Int) throws(PDFError) -> [UInt8] = SecureRandomSource.bytes
    ) {
        self.deterministicID = deterministicID
        self.randomBytes = randomBytes
    }

    /// Random IDs from the system's secure generator.
    public static let `default` = WriteOptions()
}

/// The system's cryptographically secure random bytes (OpenSSL's generator, seeded by the
/// operating system).
public enum SecureRandomSource {
    /// `count` random bytes.
    /// - Throws: `PDFError` `.writeFailed` when the generator fails; there is no weaker fallback,
    ///   which would make IVs and file identifiers predictable without anyone noticing.
    @Sendable public static func bytes(_ count: Int) throws(PDFError) -> [UInt8] {
        do {
            return try SecureRandom.bytes(count)
        } catch {
            throw PDFError(.writeFailed, "no random bytes from the system's secure generator", crypto: error)
        }
    }
}
