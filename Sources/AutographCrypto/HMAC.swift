import COpenSSL

/// HMAC (RFC 2104) with a SHA-2 digest, through OpenSSL 3's one-shot `EVP_Q_mac`: what signs the
/// requests `autograph serve --decisions` sends to a host's backend.
package enum HMAC {
    /// The authentication code of `message` under `key` with `digest` (SHA-256, SHA-384 or SHA-512):
    /// as many bytes as the digest.
    /// - Throws: `CryptoError` (`.mac`) for an empty key or a digest other than SHA-2, or when
    ///   OpenSSL fails.
    package static func authenticationCode(
        _ digest: MessageDigest = .sha256, key: [UInt8], message: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try CryptoOperation.begin(.mac)
        let name: String
        switch digest {
        case .sha256: name = "SHA256"
        case .sha384: name = "SHA384"
        case .sha512: name = "SHA512"
        case .md5, .sha1:
            throw .refused(.mac, "HMAC.authenticationCode", "HMAC is computed with SHA-2 only, not \(digest)")
        }
        guard !key.isEmpty else { throw .refused(.mac, "HMAC.authenticationCode", "an HMAC key has at least 1 byte") }
        var output = [UInt8](repeating: 0, count: digest.length)
        var written = 0
        let result = key.withUnsafeBytes { key in
            message.withUnsafeBufferPointer { message in
                output.withUnsafeMutableBufferPointer { output in
                    EVP_Q_mac(
                        nil, "HMAC", nil, name, nil, key.baseAddress, key.count, message.baseAddress, message.count,
                        output.baseAddress, output.count, &written)
                }
            }
        }
        guard result != nil else { throw .drained(.mac, "EVP_Q_mac") }
        guard written == digest.length else {
            throw .refused(.mac, "EVP_Q_mac", "HMAC wrote \(written) bytes for \(digest.length)")
        }
        return output
    }
}
