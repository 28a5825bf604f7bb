import COpenSSL

/// HKDF with SHA-256 (RFC 5869, extract then expand) through OpenSSL's `EVP_PKEY_HKDF`, configured
/// with `OSSL_PARAM`s ("digest", "key", "salt", "info").
enum HKDF {
    /// Derives `length` bytes (at most 255 × 32) from `key`, `salt` and `info`; nil only when
    /// OpenSSL refuses (its error queue is emptied).
    static func sha256(key: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8]? {
        guard length > 0, length <= 255 * 32, let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            return nil
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key = key
        var salt = salt
        var info = info
        var digest = Array("SHA256".utf8CString)
        // OpenSSL copies the parameters in EVP_PKEY_CTX_set_params: the buffers need only live for it.
        let configured = key.withUnsafeMutableBytes { key in
            salt.withUnsafeMutableBytes { salt in
                info.withUnsafeMutableBytes { info in
                    digest.withUnsafeMutableBufferPointer { digest in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(name("digest"), digest.baseAddress, 0),
                            OSSL_PARAM_construct_octet_string(name("key"), key.baseAddress, key.count),
                            OSSL_PARAM_construct_octet_string(name("salt"), salt.baseAddress, salt.count),
                            OSSL_PARAM_construct_octet_string(name("info"), info.baseAddress, info.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        return EVP_PKEY_derive_init(context) == 1 && EVP_PKEY_CTX_set_params(context, &parameters) == 1
                    }
                }
            }
        }
        var output = [UInt8](repeating: 0, count: length)
        var written = length
        guard configured, EVP_PKEY_derive(context, &output, &written) == 1, written == length else {
            ERR_clear_error()
            return nil
        }
        return output
    }

    /// A parameter name that outlives the call building the `OSSL_PARAM` (which keeps the pointer;
    /// a `String` argument would only be valid during that call).
    private static func name(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
