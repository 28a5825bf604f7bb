import COpenSSL

/// A public or private key (RSA, EC, Ed25519 or another kind OpenSSL reads), owning an OpenSSL
/// `EVP_PKEY`.
package final class AsymmetricKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never changed after init; each operation makes its own context.
    let pointer: OpaquePointer

    /// The key's kind and size.
    package let kind: Kind

    /// The kind and size of a key, as OpenSSL reports it.
    package enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// An rsaEncryption key of `bits` modulus bits (RFC 8017).
        case rsa(bits: Int)
        /// An RSASSA-PSS-only key (RFC 4055 §1.2).
        case rsaPSS(bits: Int)
        /// An EC key on a named curve: the NIST name where there is one (`"P-256"`), else OpenSSL's.
        case ec(curve: String)
        /// An Ed25519 key (RFC 8410).
        case ed25519
        /// Another kind, named as OpenSSL names it (`"DSA"`, `"ED448"` …).
        case other(String)

        package var description: String {
            switch self {
            case .rsa(let bits), .rsaPSS(let bits): "RSA \(bits)"
            case .ec(let curve): "EC \(curve)"
            case .ed25519: "Ed25519"
            case .other(let name): name
            }
        }

        init(_ key: OpaquePointer) {
            switch EVP_PKEY_get_base_id(key) {
            case EVP_PKEY_RSA: self = .rsa(bits: Int(EVP_PKEY_get_bits(key)))
            case EVP_PKEY_RSA_PSS: self = .rsaPSS(bits: Int(EVP_PKEY_get_bits(key)))
            case EVP_PKEY_EC:
                var buffer = [CChar](repeating: 0, count: 80)
                var length = 0
                guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else {
                    ErrorQueue.clear()
                    self = .ec(curve: "unknown")
                    return
                }
                let name = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let nid = OBJ_sn2nid(name)
                if nid != NID_undef, let nist = EC_curve_nid2nist(nid) {
                    self = .ec(curve: String(cString: nist))
                } else {
                    self = .ec(curve: name)
                }
            case EVP_PKEY_ED25519: self = .ed25519
            default: self = .other(EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown")
            }
        }
    }

    /// Wraps an `EVP_PKEY` whose reference this object takes over.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
        kind = Kind(pointer)
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Reads the first private key in PEM text: PKCS#8 `PRIVATE KEY` (RFC 5208 §5), encrypted PKCS#8
    /// `ENCRYPTED PRIVATE KEY` (RFC 5958 §3), or a traditional `RSA PRIVATE KEY` / `EC PRIVATE KEY`,
    /// also with OpenSSL's `Proc-Type: 4,ENCRYPTED`.
    ///
    /// - Parameter password: the password of an encrypted key; without one an encrypted key fails
    ///   (OpenSSL is never left to prompt on the terminal).
    /// - Throws: `CryptoError` (`.keyReading`) when no key can be read.
    package convenience init(privateKeyPEM pem: [UInt8], password: String?) throws(CryptoError) {
        try CryptoOperation.begin(.keyReading)
        let bio = try MemoryBIO(reading: pem, .keyReading)
        var passwordBytes: [CChar] = password.map { Array($0.utf8CString) } ?? []
        defer { for index in passwordBytes.indices { passwordBytes[index] = 0 } }
        let parsed = passwordBytes.withUnsafeMutableBufferPointer { buffer in
            PEM_read_bio_PrivateKey(
                bio.pointer, nil, passwordCallback, password == nil ? nil : UnsafeMutableRawPointer(buffer.baseAddress))
        }
        guard let parsed else { throw .drained(.keyReading, "PEM_read_bio_PrivateKey") }
        self.init(taking: parsed)
    }

    /// The key as PEM PKCS#8: `PRIVATE KEY`, or with a password `ENCRYPTED PRIVATE KEY` — PBES2 with
    /// PBKDF2-HMAC-SHA-256 and AES-256-CBC (RFC 8018 §6.2), as `openssl pkcs8 -topk8 -v2 aes-256-cbc`
    /// writes it.
    /// - Throws: `CryptoError` (`.keyWriting`) for an empty password or when OpenSSL fails.
    package func pkcs8PEM(password: [UInt8]?) throws(CryptoError) -> [UInt8] {
        try CryptoOperation.begin(.keyWriting)
        let bio = try MemoryBIO(.keyWriting)
        let written: Int32
        if var password {
            guard !password.isEmpty else {
                throw .refused(.keyWriting, "pkcs8PEM", "an encrypted key needs a non-empty password")
            }
            defer { for index in password.indices { password[index] = 0 } }
            written = password.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    PEM_write_bio_PKCS8PrivateKey(
                        bio.pointer, pointer, EVP_aes_256_cbc(), characters.baseAddress, Int32(characters.count), nil,
                        nil)
                }
            }
        } else {
            written = PEM_write_bio_PKCS8PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil)
        }
        guard written == 1 else { throw .drained(.keyWriting, "PEM_write_bio_PKCS8PrivateKey") }
        let output = bio.readAll()
        guard !output.isEmpty else { throw .drained(.keyWriting, "BIO_read") }
        return output
    }

    /// The public key as a DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7); empty when OpenSSL
    /// cannot encode it.
    package var subjectPublicKeyInfo: [UInt8] {
        defer { ErrorQueue.clear() }
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        return written == length ? output : []
    }

    /// Whether `other` holds the same public key (for a private key: whether `other` is its public
    /// key, or the private key of it).
    package func hasSamePublicKey(as other: AsymmetricKey) -> Bool {
        defer { ErrorQueue.clear() }
        return EVP_PKEY_eq(other.pointer, pointer) == 1
    }
}

/// OpenSSL's `pem_password_cb`: copies the NUL-terminated password at `context` into `buffer`; with
/// no password it returns -1, so an encrypted key fails instead of prompting on the terminal.
private let passwordCallback:
    @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) ->
        Int32 = { buffer, size, _, context in
            guard let buffer, let context else { return -1 }
            let password = context.assumingMemoryBound(to: CChar.self)
            let length = min(Int(strlen(password)), Int(size))
            buffer.update(from: password, count: length)
            return Int32(length)
        }
