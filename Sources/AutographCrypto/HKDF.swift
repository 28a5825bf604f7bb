import COpenSSL

/// HKDF with SHA-256 (RFC 5869, extract then expand) through OpenSSL's `EVP_PKEY_HKDF`, configured
/// with `OSSL_PARAM`s ("digest", "key", "salt", "info").
package enum HKDF {
    /// Derives `length` bytes (1 … 255 × 32) from the input keying material `key`, `salt` and `info`.
    /// - Throws: `CryptoError` (`.hkdf`) for a length out of range, or when OpenSSL fails.
    package static func sha256(key: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        try CryptoOperation.begin(.hkdf)
        guard length > 0, length <= 255 * 32 else {
            throw .refused(.hkdf, "HKDF.sha256", "HKDF-SHA-256 derives 1 to 8160 bytes, not \(length)")
        }
        let context = try PKeyContext(id: EVP_PKEY_HKDF, .hkdf)
        var key = key
        var salt = salt
        var info = info
        var digest = Array("SHA256".utf8CString)
        // OpenSSL copies the parameters in EVP_PKEY_CTX_set_params: the buffers need only live for it.
        let configured = key.withUnsafeMutableBytes { key in
            salt.withUnsafeMutableBytes { salt in
                info.withUnsafeMutableBytes { info in
                    digest.withUnsafeMutableBufferPointer { digest -> String? in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(name("digest"), digest.baseAddress, 0),
                            OSSL_PARAM_construct_octet_string(name("key"), key.baseAddress, key.count),
                            OSSL_PARAM_construct_octet_string(name("salt"), salt.baseAddress, salt.count),
                            OSSL_PARAM_construct_octet_string(name("info"), info.baseAddress, info.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        guard EVP_PKEY_derive_init(context.pointer) == 1 else { return "EVP_PKEY_derive_init" }
                        guard EVP_PKEY_CTX_set_params(context.pointer, &parameters) == 1 else {
                            return "EVP_PKEY_CTX_set_params"
                        }
                        return nil
                    }
                }
            }
        }
        if let failed = configured { throw .drained(.hkdf, failed) }
        var output = [UInt8](repeating: 0, count: length)
        var written = length
        guard EVP_PKEY_derive(context.pointer, &output, &written) == 1 else {
            throw .drained(.hkdf, "EVP_PKEY_derive")
        }
        guard written == length else {
            throw .refused(.hkdf, "EVP_PKEY_derive", "HKDF wrote \(written) bytes for \(length)")
        }
        return output
    }

    /// A parameter name that outlives the call building the `OSSL_PARAM` (which keeps the pointer;
    /// a `String` argument would only be valid during that call).
    private static func name(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
