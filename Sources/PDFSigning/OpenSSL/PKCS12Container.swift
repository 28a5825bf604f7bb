import COpenSSL

/// A PKCS#12 key container (RFC 7292): a private key, its certificate and the chain.
public struct PKCS12Container: Sendable {
    /// Opens a PKCS#12 file (`.p12`, `.pfx`), modern (PBES2 with AES, RFC 8018) or legacy
    /// (pbeWithSHA1And40BitRC2-CBC and 3DES, RFC 7292 Appendix C; OpenSSL's legacy provider is loaded
    /// for them).
    ///
    /// The certificate returned is the one whose public key is the private key's; the others are
    /// the chain, in the file's order. A container with certificates only loads with a nil key; one
    /// whose key matches none of its certificates loads with a nil certificate.
    ///
    /// - Parameters:
    ///   - bytes: the DER of the PFX.
    ///   - password: the password (RFC 7292 Appendix B.1: BMPString); nil or empty tries both the
    ///     empty and the absent password.
    /// - Throws: `SigningError`
    ///   - `.keyContainerUnreadable` (-124) when the bytes are not a PKCS#12 PFX, or one that cannot
    ///     be decoded after its integrity check passed;
    ///   - `.wrongKeyContainerPassword` (-125) when the integrity MAC does not match the password
    ///     (or, without a MAC, when decryption fails);
    ///   - `.unsupportedKeyContainer` (-126) when the PFX uses an algorithm OpenSSL cannot run (an
    ///     unknown MAC digest, cipher or key derivation).
    public static func load(
        _ bytes: [UInt8], password: String?
    ) throws(SigningError) -> (key: PrivateKey?, certificate: Certificate?, chain: [Certificate]) {
        OpenSSLProviders.load()
        OpenSSLErrors.clear()
        let parsed = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let pkcs12 = parsed else {
            throw OpenSSLErrors.error(.keyContainerUnreadable, "not a PKCS#12 file")
        }
        defer { PKCS12_free(pkcs12) }

        // Check the MAC first (RFC 7292 §5.1): a mismatch without any OpenSSL error is a wrong password.
        var candidates: [String?] = (password ?? "").isEmpty ? [nil, ""] : [password]
        let hasMAC = PKCS12_mac_present(pkcs12) == 1
        if hasMAC {
            var verified: String?? = nil
            var errors: [OpenSSLErrors.Entry] = []
            for candidate in candidates where verified == nil {
                let ok =
                    candidate.map { text in PKCS12_verify_mac(pkcs12, text, Int32(text.utf8.count)) }
                    ?? PKCS12_verify_mac(pkcs12, nil, 0)
                if ok == 1 { verified = .some(candidate) } else { errors += OpenSSLErrors.drain() }
            }
            guard let verified else {
                if errors.isEmpty {
                    throw SigningError(.wrongKeyContainerPassword, "wrong password for the PKCS#12 file")
                }
                throw OpenSSLErrors.error(
                    .unsupportedKeyContainer, "the PKCS#12 integrity check cannot run", errors)
            }
            candidates = [verified]
        } else if let password, !password.isEmpty {
            // PKCS12_parse insists on a MAC for a non-empty password; a container made without one
            // (`openssl pkcs12 -nomac`) gets one computed here, and decryption tells the password.
            guard PKCS12_set_mac(pkcs12, password, Int32(password.utf8.count), nil, 0, 1, nil) == 1 else {
                throw OpenSSLErrors.error(.keyContainerUnreadable, "cannot read the PKCS#12 file without a MAC")
            }
        }

        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var others: OpaquePointer?
        var errors: [OpenSSLErrors.Entry] = []
        for candidate in candidates {
            let ok = PKCS12_parse(pkcs12, candidate, &key, &certificate, &others)
            if ok == 1 { break }
            errors += OpenSSLErrors.drain()
            key = nil
            certificate = nil
            others = nil
        }
        if key == nil && certificate == nil && others == nil && !errors.isEmpty {
            if errors.contains(where: OpenSSLErrors.isUnsupportedAlgorithm) {
                throw OpenSSLErrors.error(
                    .unsupportedKeyContainer, "the PKCS#12 file uses an unsupported algorithm", errors)
            }
            if !hasMAC {
                throw OpenSSLErrors.error(.wrongKeyContainerPassword, "cannot decrypt the PKCS#12 file", errors)
            }
            throw OpenSSLErrors.error(.keyContainerUnreadable, "cannot decode the PKCS#12 contents", errors)
        }
        OpenSSLErrors.clear()

        let privateKey = key.map { PrivateKey(taking: $0) }
        let leaf = certificate.flatMap { try? Certificate(taking: $0) }
        var chain: [Certificate] = []
        if let others {
            for index in 0..<OPENSSL_sk_num(others) {
                guard let element = OPENSSL_sk_value(others, index) else { continue }
                let x509 = OpaquePointer(element)
                X509_up_ref(x509)
                if let member = try? Certificate(taking: x509) { chain.append(member) }
            }
            // The stack's references: drop each, then the stack.
            for index in 0..<OPENSSL_sk_num(others) {
                if let element = OPENSSL_sk_value(others, index) { X509_free(OpaquePointer(element)) }
            }
            OPENSSL_sk_free(others)
        }
        OpenSSLErrors.clear()
        return (privateKey, leaf, chain)
    }
}
