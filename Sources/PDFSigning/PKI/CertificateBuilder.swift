import AutographCrypto
public import PDFCore

/// Makes X.509 v3 certificates (RFC 5280 §4.1) with OpenSSL: a self-signed root, or a certificate
/// issued by a CA certificate and its key — enough for a demo or test PKI, not a CA product.
///
/// Every certificate gets a critical basicConstraints (RFC 5280 §4.2.1.9), a critical keyUsage
/// (§4.2.1.3: keyCertSign and cRLSign for a CA; digitalSignature and nonRepudiation — "content
/// commitment" — for an end entity), a subjectKeyIdentifier (§4.2.1.2, method 1: the SHA-1 of the
/// public key) and an authorityKeyIdentifier (§4.2.1.1). It is signed with SHA-256 (ECDSA or
/// RSA PKCS#1 v1.5, by the issuer's key).
///
/// ```swift
/// let rootKey = try PrivateKey.generate(.p256)
/// let root = try CertificateBuilder(commonName: "Test Root", isCA: true, validityDays: 3650)
///     .selfSigned(key: rootKey)
/// let signerKey = try PrivateKey.generate(.p256)
/// let signer = try CertificateBuilder(commonName: "Test Signer")
///     .issued(publicKeyOf: signerKey, by: root, issuerKey: rootKey)
/// ```
public struct CertificateBuilder: Sendable {
    /// The subject's common name (`CN`, at most 64 characters).
    public var commonName: String
    /// The subject's organization (`O`, at most 64 characters).
    public var organization: String?
    /// The subject's organizational unit (`OU`, at most 64 characters).
    public var organizationalUnit: String?
    /// The subject's country (`C`): a two-letter ISO 3166 code such as `"CH"`.
    public var country: String?
    /// The start of the validity period, in seconds since 1970 (RFC 5280 §4.1.2.5).
    public var notBefore: Int
    /// The end of the validity period (inclusive), in seconds since 1970.
    public var notAfter: Int
    /// The serial number's big-endian magnitude (RFC 5280 §4.1.2.2: positive, at most 20 octets);
    /// nil draws 16 random octets (126 random bits) from OpenSSL's generator for each certificate.
    public var serialNumber: [UInt8]?
    /// Whether the certificate is a CA's (basicConstraints `cA`, keyCertSign and cRLSign) or an end
    /// entity's (digitalSignature and nonRepudiation).
    public var isCA: Bool
    /// For a CA, the most intermediate CAs allowed below it (basicConstraints `pathLenConstraint`);
    /// nil for no limit. Ignored for an end entity.
    public var pathLength: Int?
    /// The extendedKeyUsage purposes (RFC 5280 §4.2.1.12), e.g. `"1.3.6.1.5.5.7.3.4"`
    /// (emailProtection) or `"1.3.6.1.5.5.7.3.36"` (documentSigning, RFC 9336); empty (the default)
    /// writes no extension, which leaves the key's use unrestricted.
    public var extendedKeyUsage: [ObjectIdentifier] = []
    /// The OCSP responders named in the authorityInfoAccess extension (RFC 5280 §4.2.2.1); with
    /// ``caIssuersURLs`` empty too (the default), no such extension.
    public var ocspURLs: [String] = []
    /// The addresses of the issuer's certificate named in the authorityInfoAccess extension.
    public var caIssuersURLs: [String] = []
    /// The CRL distribution points (RFC 5280 §4.2.1.13), each a full name URI; empty: no extension.
    public var crlDistributionPointURLs: [String] = []

    /// A builder valid from an hour before `now` (to forgive clocks that are a little behind) to
    /// `validityDays` days after it.
    ///
    /// - Parameters:
    ///   - commonName: the subject's `CN`.
    ///   - isCA: whether the certificate may issue certificates.
    ///   - validityDays: how long the certificate is valid from `now`.
    ///   - now: the current time in seconds since 1970.
    public init(commonName: String, isCA: Bool = false, validityDays: Int = 365, now: Int = PDFDate.now().seconds) {
        self.commonName = commonName
        self.isCA = isCA
        self.notBefore = now - 3600
        self.notAfter = now + validityDays * 86_400
    }

    /// A certificate for `key`'s public key signed by `key` itself (a root CA, or a lone end entity):
    /// the issuer is the subject.
    ///
    /// - Throws: `SigningError` `.invalidArgument` when a field is not usable (an empty or too long
    ///   name, a country that is not two letters, an empty validity period, a zero or too long
    ///   serial number), `.signingFailed` when OpenSSL cannot build or sign the certificate.
    public func selfSigned(key: PrivateKey) throws(SigningError) -> Certificate {
        try build(subjectKey: key, issuer: nil, issuerKey: key)
    }

    /// A certificate for `subjectKey`'s public key, issued and signed by the CA `issuer` with its key
    /// `issuerKey`; the issuer Name is `issuer`'s subject and the authorityKeyIdentifier its subject
    /// key identifier.
    ///
    /// - Parameters:
    ///   - subjectKey: the key whose public key the certificate holds (only its public part is used).
    ///   - issuer: the issuing CA's certificate.
    ///   - issuerKey: the private key of `issuer`.
    /// - Throws: `SigningError` `.privateKeyNotFound` (-133) when `issuerKey` is not `issuer`'s key,
    ///   `.invalidArgument` when `issuer` is not a CA or a field is not usable, `.signingFailed` when
    ///   OpenSSL cannot build or sign the certificate.
    public func issued(
        publicKeyOf subjectKey: PrivateKey, by issuer: Certificate, issuerKey: PrivateKey
    ) throws(SigningError) -> Certificate {
        guard issuerKey.matches(issuer) else {
            throw SigningError(.privateKeyNotFound, "the issuer key does not belong to \(issuer.subject)")
        }
        guard issuer.isCA else {
            throw SigningError(.invalidArgument, "\(issuer.subject) is not a CA certificate: it cannot issue")
        }
        return try build(subjectKey: subjectKey, issuer: issuer, issuerKey: issuerKey)
    }

    // MARK: Building

    private func build(
        subjectKey: PrivateKey, issuer: Certificate?, issuerKey: PrivateKey
    ) throws(SigningError) -> Certificate {
        guard notBefore <= notAfter else {
            throw SigningError(.invalidArgument, "the validity period ends before it starts")
        }
        let x509: X509Builder
        do {
            x509 = try X509Builder()  // v3 (RFC 5280 §4.1.2.1)
        } catch {
            let message =
                error.function == "X509_set_version"
                ? "cannot set the certificate version" : "cannot make a certificate"
            throw SigningError(.signingFailed, message, crypto: error)
        }
        try setSerialNumber(x509)
        try setSubject(x509)
        try signingStep(.signingFailed, "cannot set the issuer name") { try x509.setIssuerName(from: issuer?.x509) }
        try signingStep(.invalidArgument, "the validity period cannot be encoded") {
            try x509.setValidity(notBefore: notBefore, notAfter: notAfter)
        }
        try signingStep(.signingFailed, "cannot set the public key") { try x509.setPublicKey(subjectKey.key) }
        try addExtensions(x509, issuer: issuer, issuerKey: issuerKey)
        // Ed25519 signs the message itself (RFC 8410 §6): no separate digest.
        let digest: MessageDigest? = issuerKey.kind == .ed25519 ? nil : .sha256
        let signed = try signingStep(.signingFailed, "signing the certificate with the \(issuerKey.kind) key failed") {
            try x509.sign(with: issuerKey.key, digest: digest)
        }
        return try Certificate(wrapping: signed)
    }

    private func setSerialNumber(_ x509: X509Builder) throws(SigningError) {
        var magnitude: [UInt8]
        if let serialNumber {
            guard serialNumber.contains(where: { $0 != 0 }) else {
                throw SigningError(.invalidArgument, "a serial number must be positive")
            }
            magnitude = Array(serialNumber.drop { $0 == 0 })
            // 20 octets of DER content at most, a sign octet included (RFC 5280 §4.1.2.2).
            guard magnitude.count < 20 || (magnitude.count == 20 && magnitude[0] < 0x80) else {
                throw SigningError(.invalidArgument, "a serial number has at most 20 octets")
            }
        } else {
            magnitude = try signingStep(.signingFailed, "no random serial number") { try SecureRandom.bytes(16) }
            // Always 16 content octets: the sign bit clear (no sign octet) and the next one set (a
            // leading zero octet would make it 15, which DER then drops). 126 random bits remain.
            magnitude[0] = magnitude[0] & 0x7F | 0x40
        }
        do {
            try x509.setSerialNumber(magnitude)
        } catch {
            let message =
                switch error.function {
                case "BN_bin2bn": "cannot make the serial number"
                case "BN_to_ASN1_INTEGER": "cannot encode the serial number"
                default: "cannot set the serial number"
                }
            throw SigningError(.signingFailed, message, crypto: error)
        }
    }

    /// The subject Name, least specific first (C, O, OU, CN), as UTF8String (PrintableString for C).
    private func setSubject(_ x509: X509Builder) throws(SigningError) {
        guard !commonName.isEmpty else { throw SigningError(.invalidArgument, "the common name is empty") }
        let entries: [(field: String, label: String, value: String?)] = [
            ("C", "country", country), ("O", "organization", organization),
            ("OU", "organizational unit", organizationalUnit), ("CN", "common name", commonName),
        ]
        for entry in entries {
            guard let value = entry.value else { continue }
            let bytes = Array(value.utf8)
            let rule = entry.field == "C" ? "two letters" : "1 to 64 characters"
            guard !bytes.isEmpty else {
                throw SigningError(.invalidArgument, "the \(entry.label) \"\(value)\" is not usable (\(rule))")
            }
            do {
                try x509.addSubjectEntry(entry.field, value: bytes)
            } catch {
                let message =
                    error.function == "X509_get_subject_name"
                    ? "the certificate has no subject name"
                    : "the \(entry.label) \"\(value)\" is not usable (\(rule))"
                let code: SigningError.Code =
                    error.function == "X509_get_subject_name" ? .signingFailed : .invalidArgument
                throw SigningError(code, message, crypto: error)
            }
        }
    }

    private func addExtensions(_ x509: X509Builder, issuer: Certificate?, issuerKey: PrivateKey) throws(SigningError) {
        try signingStep(.signingFailed, "cannot set the issuer key") {
            try x509.setExtensionContext(issuer: issuer?.x509, issuerKey: issuerKey.key)
        }
        var basicConstraints = isCA ? "critical,CA:TRUE" : "critical,CA:FALSE"
        if isCA, let pathLength {
            guard pathLength >= 0 else { throw SigningError(.invalidArgument, "a path length cannot be negative") }
            basicConstraints += ",pathlen:\(pathLength)"
        }
        var extensions: [(kind: X509Builder.Extension, value: String)] = [
            (.basicConstraints, basicConstraints),
            (.keyUsage, isCA ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature,nonRepudiation"),
        ]
        if !extendedKeyUsage.isEmpty {
            extensions.append((.extendedKeyUsage, extendedKeyUsage.map(\.description).joined(separator: ",")))
        }
        let urls = ocspURLs + caIssuersURLs + crlDistributionPointURLs
        // OpenSSL's configuration syntax separates values with commas.
        if let bad = urls.first(where: {
            $0.isEmpty || $0.contains(",") || $0.unicodeScalars.contains { $0.value < 0x21 }
        }) {
            throw SigningError(.invalidArgument, "\"\(bad)\" cannot be written as a URI (empty, a comma or a space)")
        }
        let access = ocspURLs.map { "OCSP;URI:" + $0 } + caIssuersURLs.map { "caIssuers;URI:" + $0 }
        if !access.isEmpty { extensions.append((.authorityInfoAccess, access.joined(separator: ","))) }
        if !crlDistributionPointURLs.isEmpty {
            extensions.append(
                (.crlDistributionPoints, crlDistributionPointURLs.map { "URI:" + $0 }.joined(separator: ",")))
        }
        extensions.append((.subjectKeyIdentifier, "hash"))
        // keyid:always needs the issuer's subject key identifier; a CA without one is named instead.
        let authority = issuer == nil || issuer?.subjectKeyIdentifier != nil ? "keyid:always" : "issuer:always"
        extensions.append((.authorityKeyIdentifier, authority))
        for (kind, value) in extensions {
            do {
                try x509.addExtension(kind, value)
            } catch {
                guard error.function == "X509_add_ext" else {
                    throw SigningError(
                        .invalidArgument, "cannot make the \(kind.shortName) extension \"\(value)\"", crypto: error)
                }
                throw SigningError(.signingFailed, "cannot add an extension", crypto: error)
            }
        }
    }
}
