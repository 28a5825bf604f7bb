import COpenSSL

/// A PKCS#12 PFX (RFC 7292) owning an OpenSSL `PKCS12`: the integrity check and the decoding of
/// its key and certificates, as separate steps so the caller can tell a wrong password from an
/// algorithm OpenSSL cannot run.
package final class PKCS12Bundle {
    private let pointer: OpaquePointer

    /// Reads the DER of a PFX. Loads OpenSSL's legacy provider first (for RC2-40 and 3DES files).
    /// - Throws: `CryptoError` (`.pkcs12`) when the bytes are not a PFX.
    package init(der: [UInt8]) throws(CryptoError) {
        Providers.load()
        try CryptoOperation.begin(.pkcs12)
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .drained(.pkcs12, "d2i_PKCS12") }
        pointer = parsed
    }

    deinit { PKCS12_free(pointer) }

    /// Whether the PFX has an integrity MAC (RFC 7292 §5.1).
    package var hasMAC: Bool { PKCS12_mac_present(pointer) == 1 }

    /// Checks the MAC with `password` (nil: the absent password, distinct from "").
    /// - Returns: false when the MAC does not match and OpenSSL queued nothing: a wrong password.
    /// - Throws: `CryptoError` when the check could not run (an unknown MAC digest …).
    package func verifyMAC(password: String?) throws(CryptoError) -> Bool {
        let ok =
            password.map { text in PKCS12_verify_mac(pointer, text, Int32(text.utf8.count)) }
            ?? PKCS12_verify_mac(pointer, nil, 0)
        guard ok == 1 else {
            let queue = ErrorQueue.drain()
            guard queue.isEmpty else { throw CryptoError(.pkcs12, function: "PKCS12_verify_mac", queue: queue) }
            return false
        }
        return true
    }

    /// Adds a MAC made with `password` (SHA-256 … OpenSSL's default), so a PFX made without one
    /// (`openssl pkcs12 -nomac`) can be decoded with a non-empty password.
    package func setMAC(password: String) throws(CryptoError) {
        guard PKCS12_set_mac(pointer, password, Int32(password.utf8.count), nil, 0, 1, nil) == 1 else {
            throw .drained(.pkcs12, "PKCS12_set_mac")
        }
    }

    /// The PFX's contents decrypted with `password`: the private key, the certificate whose public
    /// key it is, and the other certificates in the file's order.
    /// - Throws: `CryptoError` (`.pkcs12`) when decryption or decoding fails; `isUnsupportedAlgorithm`
    ///   tells an algorithm OpenSSL cannot run.
    package func parse(
        password: String?
    ) throws(CryptoError) -> (key: AsymmetricKey?, certificate: X509Certificate?, others: [X509Certificate]) {
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var others: OpaquePointer?
        guard PKCS12_parse(pointer, password, &key, &certificate, &others) == 1 else {
            throw .drained(.pkcs12, "PKCS12_parse")
        }
        var chain: [X509Certificate] = []
        if let others {
            // The stack holds one reference of each certificate: each is taken over, then the stack freed.
            for index in 0..<OPENSSL_sk_num(others) {
                guard let element = OPENSSL_sk_value(others, index) else { continue }
                chain.append(X509Certificate(taking: OpaquePointer(element)))
            }
            OPENSSL_sk_free(others)
        }
        ErrorQueue.clear()
        return (key.map(AsymmetricKey.init(taking:)), certificate.map(X509Certificate.init(taking:)), chain)
    }
}

/// Loads OpenSSL's `legacy` provider (RC2, RC4, DES …, for PKCS#12 files made with RC2-40) and,
/// since loading one provider stops the implicit loading of the default one, the `default`
/// provider, once per process.
enum Providers {
    /// Whether the legacy provider is available (false when its module is not installed).
    static let legacyLoaded: Bool = {
        let defaultProvider = OSSL_PROVIDER_load(nil, "default")
        let legacyProvider = OSSL_PROVIDER_load(nil, "legacy")
        ErrorQueue.clear()
        return defaultProvider != nil && legacyProvider != nil
    }()

    /// Makes sure both providers were asked for.
    static func load() {
        _ = legacyLoaded
    }
}
