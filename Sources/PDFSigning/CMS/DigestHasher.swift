import AutographCrypto

/// A streaming digest for signing and validation over AutographCrypto; it streams, so memory does
/// not grow with the document.
package struct DigestHasher: ~Copyable {
    private let context: DigestContext

    /// - Throws: `SigningError` `.unsupportedAlgorithm` when the digest cannot be set up (OpenSSL's
    ///   configuration refuses it).
    init(_ algorithm: MessageDigest) throws(SigningError) {
        context = try signingStep(.unsupportedAlgorithm, "the \(algorithm.rawValue) digest is not available") {
            try DigestContext(algorithm)
        }
    }

    package mutating func update(_ bytes: [UInt8]) {
        context.update(bytes)
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        context.update(bytes)
    }

    /// The digest of everything added.
    /// - Throws: `SigningError` `.unsupportedAlgorithm` when an update or the final step failed.
    package consuming func finalize() throws(SigningError) -> [UInt8] {
        let context = context
        return try signingStep(
            .unsupportedAlgorithm, "the \(context.algorithm.rawValue) digest could not be computed"
        ) { try context.finalize() }
    }

    /// The digest of the concatenation of `parts` with `algorithm`.
    static func hash(_ algorithm: MessageDigest, _ parts: [[UInt8]]) throws(SigningError) -> [UInt8] {
        var hasher = try DigestHasher(algorithm)
        for part in parts { hasher.update(part) }
        return try hasher.finalize()
    }
}

extension DigestAlgorithm {
    /// The AutographCrypto digest of this algorithm.
    var messageDigest: MessageDigest {
        switch self {
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// A streaming hasher for this algorithm.
    /// - Throws: `SigningError` `.unsupportedAlgorithm` when the digest cannot be set up.
    package func hasher() throws(SigningError) -> DigestHasher {
        try DigestHasher(messageDigest)
    }

    /// The digest of the concatenation of `parts`.
    /// - Throws: `SigningError` `.unsupportedAlgorithm` when the digest cannot be computed.
    package func hash(_ parts: [UInt8]...) throws(SigningError) -> [UInt8] {
        try DigestHasher.hash(messageDigest, parts)
    }
}
