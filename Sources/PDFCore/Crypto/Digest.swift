import AutographCrypto

/// Message digests for PDF encryption, file identifiers and font subset tags, computed by
/// AutographCrypto; a failure is a `PDFError`.
package enum Digest: Sendable {
    case md5, sha1, sha256, sha384, sha512

    var algorithm: MessageDigest {
        switch self {
        case .md5: .md5
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// The digest length in bytes.
    package var length: Int { algorithm.length }

    /// The digest of the concatenation of `parts`.
    /// - Throws: `PDFError` `.unsupported` when the digest cannot be computed (OpenSSL's
    ///   configuration refuses the algorithm, as a FIPS one does MD5).
    package func hash(_ parts: [UInt8]...) throws(PDFError) -> [UInt8] {
        var hasher = try Hasher(self)
        for part in parts { hasher.update(part) }
        return try hasher.finalize()
    }

    /// An incremental digest computation; it streams, so memory does not grow with the input.
    package struct Hasher: ~Copyable {
        private let context: DigestContext

        /// - Throws: `PDFError` `.unsupported` when the digest cannot be set up.
        package init(_ digest: Digest) throws(PDFError) {
            do {
                context = try DigestContext(digest.algorithm)
            } catch {
                throw PDFError(.unsupported, "the \(digest.algorithm.rawValue) digest is not available", crypto: error)
            }
        }

        package mutating func update(_ bytes: [UInt8]) {
            context.update(bytes)
        }

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            context.update(bytes)
        }

        /// - Throws: `PDFError` `.unsupported` when an update or the final step failed.
        package consuming func finalize() throws(PDFError) -> [UInt8] {
            do {
                return try context.finalize()
            } catch {
                throw PDFError(
                    .unsupported, "the \(context.algorithm.rawValue) digest could not be computed", crypto: error)
            }
        }
    }
}

extension PDFError {
    /// A core error for a failure in AutographCrypto: `message`, then what OpenSSL queued.
    init(
        _ code: Code, _ message: String, crypto error: CryptoError, fileID: StaticString = #fileID, line: Int = #line
    ) {
        self.init(code, error.annotating(message), fileID: fileID, line: line)
    }
}
