import COpenSSL

/// The message digests Autograph uses: SHA-2 to sign and check, SHA-1 to check old signatures,
/// MD5 where PDF encryption (ISO 32000-2 §7.6.3.3, §7.6.4.3) and file identifiers need it.
package enum MessageDigest: String, Hashable, Sendable, CaseIterable {
    case md5, sha1, sha256, sha384, sha512

    /// The digest's length in bytes.
    package var length: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// OpenSSL's `EVP_MD`.
    var algorithm: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }

    /// The digest of the concatenation of `parts`.
    /// - Throws: `CryptoError` (`.digest`) when OpenSSL cannot compute it (the algorithm is not
    ///   available in its configuration, or memory ran out).
    package func hash(_ parts: [UInt8]...) throws(CryptoError) -> [UInt8] {
        let context = try DigestContext(self)
        for part in parts { context.update(part) }
        return try context.finalize()
    }
}

/// An incremental digest computation over an OpenSSL `EVP_MD_CTX`: it streams, so memory does not
/// grow with the input.
///
/// `update` does not throw, so hashing a file in a loop stays plain: a failing update (which the
/// built-in digests never report) is remembered and thrown by `finalize`.
package final class DigestContext {
    private let context: OpaquePointer
    /// The algorithm.
    package let algorithm: MessageDigest
    private var failure: CryptoError?
    private var finished = false

    /// A context ready for data.
    /// - Throws: `CryptoError` (`.digest`) when the algorithm cannot be set up.
    package init(_ algorithm: MessageDigest) throws(CryptoError) {
        try CryptoOperation.begin(.digest)
        guard let context = EVP_MD_CTX_new() else { throw .drained(.digest, "EVP_MD_CTX_new") }
        guard EVP_DigestInit_ex(context, algorithm.algorithm, nil) == 1 else {
            let error = CryptoError.drained(.digest, "EVP_DigestInit_ex")
            EVP_MD_CTX_free(context)  // deinit does not run for an object whose init threw
            throw error
        }
        self.context = context
        self.algorithm = algorithm
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, failure == nil else { return }
        precondition(!finished, "a digest context is used after finalize")
        if EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) != 1 {
            failure = .drained(.digest, "EVP_DigestUpdate")
        }
    }

    /// Adds `bytes` to the digest.
    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added; the context cannot be used afterwards.
    /// - Throws: `CryptoError` (`.digest`) when an update or the final step failed.
    package func finalize() throws(CryptoError) -> [UInt8] {
        precondition(!finished, "a digest context is finalized twice")
        finished = true
        if let failure { throw failure }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1 else {
            throw .drained(.digest, "EVP_DigestFinal_ex")
        }
        output.removeSubrange(Int(length)...)
        return output
    }
}
