import COpenSSL

/// Message digests through OpenSSL's EVP interface.
package enum Digest: Sendable {
    case md5, sha1, sha256, sha384, sha512

    private var algorithm: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }

    /// The digest length in bytes.
    package var length: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of the concatenation of `parts`.
    package func hash(_ parts: [UInt8]...) -> [UInt8] {
        var hasher = Hasher(self)
        for part in parts { hasher.update(part) }
        return hasher.finalize()
    }

    /// An incremental digest computation; it streams, so memory does not grow with the input.
    package struct Hasher: ~Copyable {
        private let context: OpaquePointer
        private let digest: Digest

        package init(_ digest: Digest) {
            self.digest = digest
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, digest.algorithm, nil)
        }

        package mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
        }

        package consuming func finalize() -> [UInt8] {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &output, &length)
            return Array(output.prefix(Int(length)))
        }

        deinit { EVP_MD_CTX_free(context) }
    }
}

/// Cryptographically secure random bytes (OpenSSL `RAND_bytes`).
package enum SecureRandom {
    package static func bytes(_ count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        if count > 0, RAND_bytes(&output, Int32(count)) != 1 {
            // OpenSSL seeds from the OS; failure means no entropy source at all.
            var generator = SystemRandomNumberGenerator()
            for index in output.indices { output[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return output
    }
}
