public import PDFCore

/// A demo signing identity made on first run, so `autograph demo` and the web viewer's demo can
/// sign without a real certificate: a self-signed root CA and a signer certificate issued by it,
/// both P-256, every name saying it is a demo.
///
/// Nothing trusts the root unless it is added as a trust anchor (`autograph serve` adds it to its
/// own signature panel's, which says so), so validators report a demo signature as intact but not
/// trusted (``SignatureStatus/Verdict/untrusted``). The value is `Codable` so a session can keep it; its
/// `signerKeyPEM` is an unencrypted PKCS#8 key, so it belongs only in an encrypted store.
public struct DemoIdentity: Sendable, Codable, Hashable {
    /// The common name of every demo root.
    public static let rootCommonName = "Autograph Demo Root CA — not trusted"
    /// The organization of every demo certificate.
    public static let organization = "Autograph demo (not a real identity)"
    /// What follows the person's name in the signer's common name.
    public static let signerSuffix = " (Autograph demo)"

    /// The root CA certificate (DER), valid for 10 years.
    public var rootCertificateDER: [UInt8]
    /// The signer's certificate (DER) issued by the root, valid for 2 years.
    public var signerCertificateDER: [UInt8]
    /// The signer's private key as unencrypted PEM PKCS#8 (RFC 5208 §5): the session stores it encrypted.
    public var signerKeyPEM: [UInt8]

    /// Wraps stored parts (from `generate(name:now:)` earlier).
    public init(rootCertificateDER: [UInt8], signerCertificateDER: [UInt8], signerKeyPEM: [UInt8]) {
        self.rootCertificateDER = rootCertificateDER
        self.signerCertificateDER = signerCertificateDER
        self.signerKeyPEM = signerKeyPEM
    }

    /// Generates a new demo root and a signer certificate for `name`.
    ///
    /// The root is `CN=Autograph Demo Root CA — not trusted, O=Autograph demo (not a real identity)`;
    /// the signer is `CN=<name> (Autograph demo)` in the same organization (the name is shortened
    /// to keep the common name within 64 characters; an empty name becomes "Demo signer").
    ///
    /// - Parameters:
    ///   - name: the person the demo signer stands for.
    ///   - now: the current time in seconds since 1970 (both certificates start an hour before it).
    /// - Throws: `SigningError` `.unsupportedAlgorithm` or `.signingFailed` when OpenSSL fails.
    public static func generate(name: String, now: Int = PDFDate.now().seconds) throws(SigningError) -> DemoIdentity {
        let rootKey = try PrivateKey.generate(.p256)
        var rootBuilder = CertificateBuilder(commonName: rootCommonName, isCA: true, validityDays: 3652, now: now)
        rootBuilder.organization = organization
        rootBuilder.pathLength = 0
        let root = try rootBuilder.selfSigned(key: rootKey)

        let signerKey = try PrivateKey.generate(.p256)
        var signerBuilder = CertificateBuilder(commonName: signerCommonName(name), validityDays: 730, now: now)
        signerBuilder.organization = organization
        let signer = try signerBuilder.issued(publicKeyOf: signerKey, by: root, issuerKey: rootKey)
        return DemoIdentity(
            rootCertificateDER: root.derBytes, signerCertificateDER: signer.derBytes,
            signerKeyPEM: try signerKey.pem())
    }

    /// The root CA certificate, to add as a trust anchor where a demo signature should validate.
    /// - Throws: `SigningError` `.certificateUnreadable` (-134) when the stored bytes are damaged.
    public var rootCertificate: Certificate {
        get throws(SigningError) { try Certificate(der: rootCertificateDER) }
    }

    /// The signer's certificate.
    /// - Throws: `SigningError` `.certificateUnreadable` (-134) when the stored bytes are damaged.
    public var signerCertificate: Certificate {
        get throws(SigningError) { try Certificate(der: signerCertificateDER) }
    }

    /// A signer with the demo key, its certificate and the root as its chain.
    ///
    /// - Parameter now: the time the certificate's validity is checked at.
    /// - Throws: `SigningError` `.keyContainerUnreadable` (-124) or `.certificateUnreadable` (-134)
    ///   when the stored bytes are damaged, `.privateKeyNotFound` (-133) when key and certificate do
    ///   not match, `.certificateExpired` (-138) when the demo certificate is outside its validity.
    public func signer(now: Int = PDFDate.now().seconds) throws(SigningError) -> LocalKeySigner {
        try LocalKeySigner(
            key: try PrivateKey(pem: signerKeyPEM, password: nil), certificate: try signerCertificate,
            chain: [try rootCertificate], now: now)
    }

    /// `<name> (Autograph demo)`, the name shortened (whole characters) so the whole stays within
    /// the 64 characters X.520 allows a common name (RFC 5280 Appendix A.1 `ub-common-name`).
    static func signerCommonName(_ name: String) -> String {
        let trimmed = name.trimmingSpaces
        let base = trimmed.isEmpty ? "Demo signer" : trimmed
        let room = 64 - signerSuffix.unicodeScalars.count
        var kept = ""
        var used = 0
        for character in base {
            let count = character.unicodeScalars.count
            guard used + count <= room else { break }
            kept.append(character)
            used += count
        }
        return kept.trimmingSpaces + signerSuffix
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
