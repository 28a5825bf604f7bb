import AutographCrypto

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
    ///   - password: the password (RFC 7292 Appendix B.1: BMPString); nil (none given) or empty tries
    ///     both the empty and the absent password.
    /// - Throws: `SigningError`
    ///   - `.keyContainerUnreadable` (-124) when the bytes are not a PKCS#12 PFX, or one that cannot
    ///     be decoded after its integrity check passed;
    ///   - `.wrongKeyContainerPassword` (-125) when the integrity MAC does not match the password
    ///     (or, without a MAC, when decryption fails): "needs a password" when none was given (nil)
    ///     and neither the absent nor the empty one opens it, "wrong password" otherwise;
    ///   - `.unsupportedKeyContainer` (-126) when the PFX uses an algorithm OpenSSL cannot run (an
    ///     unknown MAC digest, cipher or key derivation).
    public static func load(
        _ bytes: [UInt8], password: String?
    ) throws(SigningError) -> (key: PrivateKey?, certificate: Certificate?, chain: [Certificate]) {
        let pkcs12 = try signingStep(.keyContainerUnreadable, "not a PKCS#12 file") { try PKCS12Bundle(der: bytes) }

        // Check the MAC first (RFC 7292 §5.1): a mismatch without any OpenSSL error is a wrong password.
        var candidates: [String?] = (password ?? "").isEmpty ? [nil, ""] : [password]
        let hasMAC = pkcs12.hasMAC
        if hasMAC {
            var verified: String?? = nil
            var errors: [OpenSSLError] = []
            for candidate in candidates where verified == nil {
                do {
                    if try pkcs12.verifyMAC(password: candidate) { verified = .some(candidate) }
                } catch {
                    errors += error.queue
                }
            }
            guard let verified else {
                if errors.isEmpty {
                    // Neither the absent nor the empty password (PKCS12_verify_mac with NULL and "") opens it.
                    throw password == nil
                        ? SigningError(.wrongKeyContainerPassword, "the PKCS#12 file needs a password")
                        : SigningError(.wrongKeyContainerPassword, "wrong password for the PKCS#12 file")
                }
                throw SigningError(.unsupportedKeyContainer, "the PKCS#12 integrity check cannot run", queue: errors)
            }
            candidates = [verified]
        } else if let password, !password.isEmpty {
            // PKCS12_parse insists on a MAC for a non-empty password; a container made without one
            // (`openssl pkcs12 -nomac`) gets one computed here, and decryption tells the password.
            try signingStep(.keyContainerUnreadable, "cannot read the PKCS#12 file without a MAC") {
                try pkcs12.setMAC(password: password)
            }
        }

        var contents: (key: AsymmetricKey?, certificate: X509Certificate?, others: [X509Certificate])?
        var errors: [OpenSSLError] = []
        for candidate in candidates {
            do {
                contents = try pkcs12.parse(password: candidate)
                break
            } catch {
                errors += error.queue
            }
        }
        guard let contents else {
            if errors.contains(where: \.isUnsupportedAlgorithm) {
                throw SigningError(
                    .unsupportedKeyContainer, "the PKCS#12 file uses an unsupported algorithm", queue: errors)
            }
            if errors.isEmpty { return (nil, nil, []) }
            if !hasMAC {
                let message =
                    password == nil ? "the PKCS#12 file needs a password" : "cannot decrypt the PKCS#12 file"
                throw SigningError(.wrongKeyContainerPassword, message, queue: errors)
            }
            throw SigningError(.keyContainerUnreadable, "cannot decode the PKCS#12 contents", queue: errors)
        }
        let privateKey = contents.key.map(PrivateKey.init(wrapping:))
        let leaf = contents.certificate.flatMap { try? Certificate(wrapping: $0) }
        let chain = contents.others.compactMap { try? Certificate(wrapping: $0) }
        return (privateKey, leaf, chain)
    }
}
