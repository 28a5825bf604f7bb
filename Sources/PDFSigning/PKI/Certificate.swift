import AutographCrypto

/// An X.509 certificate (RFC 5280 §4.1), immutable, over AutographCrypto's `X509Certificate`.
///
/// The fields a CMS needs (issuer Name, serial number) are the certificate's own bytes, read by
/// `DERReader`; names and keys are read by OpenSSL. Two certificates are equal when their DER is.
public final class Certificate: Hashable, Sendable, CustomStringConvertible {
    /// The parsed certificate in the crypto layer (names, keys, path validation).
    let x509: X509Certificate

    /// The certificate's DER encoding.
    public let derBytes: [UInt8]
    /// The subject as a one-line RFC 4514 (RFC 2253) string, most specific first:
    /// `CN=Signer P-256,O=Autograph Test,C=CH`. Non-ASCII characters are kept as UTF-8.
    public let subject: String
    /// The issuer, in the same form as `subject`.
    public let issuer: String
    /// The serial number (RFC 5280 §4.1.2.2) in upper-case hexadecimal, as `openssl x509 -serial`
    /// prints it (two digits per content octet, a sign octet 00 removed).
    public let serialNumber: String
    /// The start of the validity period, in seconds since 1970 (RFC 5280 §4.1.2.5).
    public let notBefore: Int
    /// The end of the validity period (inclusive), in seconds since 1970.
    public let notAfter: Int
    /// The complete DER of the issuer Name, as in the certificate (for a CMS IssuerAndSerialNumber,
    /// RFC 5652 §10.2.4).
    public let issuerDER: [UInt8]
    /// The complete DER of the serialNumber INTEGER, as in the certificate.
    public let serialDER: [UInt8]
    /// The complete DER of the subject Name, as in the certificate.
    public let subjectDER: [UInt8]
    /// The subject key identifier extension's value (RFC 5280 §4.2.1.2), if present.
    public let subjectKeyIdentifier: [UInt8]?
    /// Whether basicConstraints says this is a CA certificate (RFC 5280 §4.2.1.9).
    public let isCA: Bool
    /// The kind and size of the subject's public key.
    public let publicKeyKind: KeyKind

    /// Reads one DER-encoded certificate.
    ///
    /// - Parameter der: exactly one `Certificate` SEQUENCE.
    /// - Throws: `SigningError` `.certificateUnreadable` (-134) when it is not an X.509 certificate.
    public convenience init(der: [UInt8]) throws(SigningError) {
        var reader = DERReader(der)
        guard let node = try? reader.readNode(.sequence), reader.isAtEnd else {
            throw SigningError(.certificateUnreadable, "not a DER certificate")
        }
        let parsed = try signingStep(.certificateUnreadable, "not an X.509 certificate") {
            try X509Certificate(der: Array(node.encoded))
        }
        try self.init(wrapping: parsed, der: der)
    }

    /// Wraps a certificate of the crypto layer, reading its fields from `der` (nil: its own DER).
    init(wrapping x509: X509Certificate, der knownDER: [UInt8]? = nil) throws(SigningError) {
        let der = knownDER ?? x509.der
        let fields: Fields
        do {
            fields = try Fields(der: der)
        } catch {
            throw SigningError(.certificateUnreadable, "unreadable certificate: \(error.message)")
        }
        self.x509 = x509
        self.derBytes = der
        issuerDER = fields.issuer
        serialDER = fields.serial
        subjectDER = fields.subject
        notBefore = fields.notBefore
        notAfter = fields.notAfter
        serialNumber = fields.serialHex
        subject = x509.subjectLine
        issuer = x509.issuerLine
        isCA = x509.isCA
        subjectKeyIdentifier = x509.subjectKeyIdentifier
        publicKeyKind = x509.publicKey.map { KeyKind($0.kind) } ?? .other("unknown")
    }

    /// Reads every certificate in PEM text (`-----BEGIN CERTIFICATE-----` blocks, RFC 7468 §5), in
    /// order, skipping blocks of other kinds (keys …); stops at the first certificate that cannot be read.
    public static func certificates(pem: [UInt8]) -> [Certificate] {
        var result: [Certificate] = []
        for x509 in X509Certificate.all(pem: pem) {
            guard let certificate = try? Certificate(wrapping: x509) else { break }
            result.append(certificate)
        }
        return result
    }

    /// Whether `seconds` (since 1970) is within the validity period (RFC 5280 §4.1.2.5).
    public func isValid(at seconds: Int) -> Bool {
        notBefore <= seconds && seconds <= notAfter
    }

    /// Checks a raw signature over a precomputed digest with this certificate's public key.
    ///
    /// - Parameters:
    ///   - signature: RSA: the signature octets (RFC 8017 §8.1.2, §8.2.2); ECDSA: a DER
    ///     `ECDSA-Sig-Value` (RFC 5480 §2.2 … RFC 3279 §2.2.3).
    ///   - digest: the hash of the signed data, `digestAlgorithm.length` bytes.
    ///   - digestAlgorithm: the hash that made `digest` (for RSA PKCS#1 v1.5, the DigestInfo's).
    ///   - scheme: RSA PKCS#1 v1.5, RSA-PSS (MGF1 with the same digest, salt = digest length) or ECDSA.
    /// - Returns: true only when the signature is valid; a key that cannot use `scheme` gives false.
    public func verify(
        signature: [UInt8], digest: [UInt8], digestAlgorithm: DigestAlgorithm, scheme: SignatureScheme
    ) -> Bool {
        verify(signature: signature, digest: digest, digestAlgorithm: digestAlgorithm, scheme: scheme, saltLength: nil)
    }

    /// `verify` with an RSA-PSS salt length other than the digest length (from a CMS's parameters).
    package func verify(
        signature: [UInt8], digest: [UInt8], digestAlgorithm: DigestAlgorithm, scheme: SignatureScheme,
        saltLength: Int?
    ) -> Bool {
        guard let key = x509.publicKey else { return false }
        return key.verify(
            signature: signature, digest: digest, algorithm: digestAlgorithm.messageDigest, scheme: scheme.rawScheme,
            saltLength: saltLength)
    }

    /// `verify` for a SHA-1 digest: old signatures are checked, never made, with SHA-1.
    package func verifySHA1(signature: [UInt8], digest: [UInt8], scheme: SignatureScheme, saltLength: Int?) -> Bool {
        guard let key = x509.publicKey else { return false }
        return key.verify(
            signature: signature, digest: digest, algorithm: .sha1, scheme: scheme.rawScheme, saltLength: saltLength)
    }

    /// Whether this certificate's issuer Name and serial number are `issuer` and `serial` (a CMS
    /// IssuerAndSerialNumber, RFC 5652 §10.2.4), compared as DER.
    package func matches(issuer: some Collection<UInt8>, serial: some Collection<UInt8>) -> Bool {
        issuerDER.elementsEqual(issuer) && serialDER.elementsEqual(serial)
    }

    /// The subject, `CN=…,O=…,C=…`.
    public var description: String { subject }

    /// True when both have the same DER bytes.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derBytes == rhs.derBytes }
    /// Hashes the DER bytes, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }

    // MARK: Helpers

    /// The fields read from the certificate's own DER (RFC 5280 §4.1).
    private struct Fields {
        var serial: [UInt8] = []
        var issuer: [UInt8] = []
        var subject: [UInt8] = []
        var notBefore = 0
        var notAfter = 0
        var serialHex = ""

        init(der: [UInt8]) throws(SigningError) {
            var reader = DERReader(der)
            try reader.readSequence { (certificate) throws(SigningError) in
                try certificate.readSequence { (tbs) throws(SigningError) in
                    _ = try tbs.readOptionalNode(.context(0))  // version
                    let serialNode = try tbs.readNode(.integer)
                    serial = Array(serialNode.encoded)
                    let magnitude =
                        serialNode.content.count > 1 ? serialNode.content.drop { $0 == 0 } : serialNode.content
                    serialHex = Hex.uppercase(magnitude.isEmpty ? serialNode.content.suffix(1) : magnitude)
                    _ = try tbs.readNode(.sequence)  // signature
                    issuer = Array(try tbs.readNode(.sequence).encoded)
                    (notBefore, notAfter) = try tbs.readSequence { (validity) throws(SigningError) in
                        (try validity.readTime(), try validity.readTime())
                    }
                    subject = Array(try tbs.readNode(.sequence).encoded)
                    while !tbs.isAtEnd { _ = try tbs.readNode() }  // key, unique IDs, extensions
                }
                while !certificate.isAtEnd { _ = try certificate.readNode() }  // algorithm, signature
            }
            try reader.finish()
        }
    }
}
