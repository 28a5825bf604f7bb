import COpenSSL

/// OpenSSL's thread-local error queue, drained into Swift values right after a failing call
/// (STYLE rule 10), so no stale error is blamed on a later call.
enum OpenSSLErrors {
    /// One queued error: OpenSSL's packed code and its one-line text.
    struct Entry {
        var code: UInt
        var text: String

        var library: Int32 { ERR_GET_LIB(code) }
        var reason: Int32 { ERR_GET_REASON(code) }
    }

    /// Removes every queued error and returns them, oldest first.
    static func drain() -> [Entry] {
        var entries: [Entry] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if entries.count < 16 { entries.append(Entry(code: code, text: text)) }
        }
        return entries
    }

    /// Empties the queue (after a failure that is an answer, not an error).
    static func clear() {
        ERR_clear_error()
    }

    /// A `SigningError` with `message` followed by OpenSSL's queued errors, which are removed.
    static func error(_ code: SigningError.Code, _ message: String) -> SigningError {
        error(code, message, drain())
    }

    /// A `SigningError` with `message` followed by already drained `entries`.
    static func error(_ code: SigningError.Code, _ message: String, _ entries: [Entry]) -> SigningError {
        guard !entries.isEmpty else { return SigningError(code, message) }
        return SigningError(code, message + " (OpenSSL: " + entries.map(\.text).joined(separator: "; ") + ")")
    }

    /// Whether an entry says an algorithm is unknown or not available (not that data is wrong).
    static func isUnsupportedAlgorithm(_ entry: Entry) -> Bool {
        let reason = entry.reason
        if reason == ERR_R_UNSUPPORTED { return true }
        switch entry.library {
        case ERR_LIB_EVP:
            return [
                EVP_R_UNKNOWN_CIPHER, EVP_R_UNKNOWN_DIGEST, EVP_R_UNKNOWN_PBE_ALGORITHM, EVP_R_UNSUPPORTED_ALGORITHM,
                EVP_R_UNSUPPORTED_CIPHER, EVP_R_UNSUPPORTED_KEYLENGTH, EVP_R_UNSUPPORTED_KEY_DERIVATION_FUNCTION,
                EVP_R_UNSUPPORTED_PRF, EVP_R_UNSUPPORTED_PRIVATE_KEY_ALGORITHM, EVP_R_UNSUPPORTED_KEY_SIZE,
                EVP_R_UNSUPPORTED_SALT_TYPE, EVP_R_UNSUPPORTED_KEY_TYPE,
            ].contains(reason)
        case ERR_LIB_PKCS12:
            return [PKCS12_R_UNKNOWN_DIGEST_ALGORITHM, PKCS12_R_UNSUPPORTED_PKCS12_MODE].contains(reason)
        default:
            return false
        }
    }
}

/// Loads OpenSSL's `legacy` provider (RC2, RC4, DES …, for PKCS#12 files made with RC2-40) and,
/// since loading one provider stops the implicit loading of the default one, the `default` provider,
/// once per process.
enum OpenSSLProviders {
    /// Whether the legacy provider is available (false when its module is not installed).
    static let legacyLoaded: Bool = {
        let defaultProvider = OSSL_PROVIDER_load(nil, "default")
        let legacyProvider = OSSL_PROVIDER_load(nil, "legacy")
        OpenSSLErrors.clear()
        return defaultProvider != nil && legacyProvider != nil
    }()

    /// Makes sure both providers were asked for.
    static func load() {
        _ = legacyLoaded
    }
}

/// Runs `body` with a read-only memory BIO over `bytes` (alive only for the call).
func withMemoryBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) -> T?) -> T? {
    bytes.withUnsafeBytes { buffer -> T? in
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
        defer { BIO_free(bio) }
        return body(bio)
    }
}

/// Collects what `body` writes into a memory BIO.
func readingMemoryBIO(_ body: (OpaquePointer) -> Void) -> [UInt8] {
    guard let bio = BIO_new(BIO_s_mem()) else { return [] }
    defer { BIO_free(bio) }
    body(bio)
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = BIO_read(bio, &chunk, Int32(chunk.count))
        guard count > 0 else { break }
        output.append(contentsOf: chunk[0..<Int(count)])
    }
    return output
}
