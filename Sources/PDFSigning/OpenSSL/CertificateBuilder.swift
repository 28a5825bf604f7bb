import COpenSSL
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
    /// nil draws 16 random octets (127 bits) from OpenSSL's generator for each certificate.
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
        OpenSSLErrors.clear()
        guard let x509 = X509_new() else { throw OpenSSLErrors.error(.signingFailed, "cannot make a certificate") }
        var owned = true
        defer { if owned { X509_free(x509) } }
        guard X509_set_version(x509, 2) == 1 else {  // v3 (RFC 5280 §4.1.2.1)
            throw OpenSSLErrors.error(.signingFailed, "cannot set the certificate version")
        }
        try setSerialNumber(x509)
        try setSubject(x509)
        let issuerName = issuer.map { X509_get_subject_name($0.x509) } ?? X509_get_subject_name(x509)
        guard X509_set_issuer_name(x509, issuerName) == 1 else {
            throw OpenSSLErrors.error(.signingFailed, "cannot set the issuer name")
        }
        guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter)) != nil
        else { throw OpenSSLErrors.error(.invalidArgument, "the validity period cannot be encoded") }
        guard X509_set_pubkey(x509, subjectKey.key) == 1 else {
            throw OpenSSLErrors.error(.signingFailed, "cannot set the public key")
        }
        try addExtensions(x509, issuer: issuer, issuerKey: issuerKey)
        // Ed25519 signs the message itself (RFC 8410 §6): no separate digest.
        let digest = issuerKey.kind == .ed25519 ? nil : EVP_sha256()
        guard X509_sign(x509, issuerKey.key, digest) > 0 else {
            throw OpenSSLErrors.error(.signingFailed, "signing the certificate with the \(issuerKey.kind) key failed")
        }
        owned = false
        return try Certificate(taking: x509)
    }

    private func setSerialNumber(_ x509: OpaquePointer) throws(SigningError) {
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
            magnitude = [UInt8](repeating: 0, count: 16)
            guard RAND_bytes(&magnitude, Int32(magnitude.count)) == 1 else {
                throw OpenSSLErrors.error(.signingFailed, "no random serial number")
            }
            magnitude[0] &= 0x7F  // 16 content octets, no sign octet
            magnitude[15] |= 0x01  // never zero
        }
        guard let number = BN_bin2bn(magnitude, Int32(magnitude.count), nil) else {
            throw OpenSSLErrors.error(.signingFailed, "cannot make the serial number")
        }
        defer { BN_free(number) }
        guard let integer = BN_to_ASN1_INTEGER(number, nil) else {
            throw OpenSSLErrors.error(.signingFailed, "cannot encode the serial number")
        }
        defer { ASN1_INTEGER_free(integer) }
        guard X509_set_serialNumber(x509, integer) == 1 else {
            throw OpenSSLErrors.error(.signingFailed, "cannot set the serial number")
        }
    }

    /// The subject Name, least specific first (C, O, OU, CN), as UTF8String (PrintableString for C).
    private func setSubject(_ x509: OpaquePointer) throws(SigningError) {
        guard !commonName.isEmpty else { throw SigningError(.invalidArgument, "the common name is empty") }
        guard let name = X509_get_subject_name(x509) else {
            throw OpenSSLErrors.error(.signingFailed, "the certificate has no subject name")
        }
        let entries: [(field: String, label: String, value: String?)] = [
            ("C", "country", country), ("O", "organization", organization),
            ("OU", "organizational unit", organizationalUnit), ("CN", "common name", commonName),
        ]
        for entry in entries {
            guard let value = entry.value else { continue }
            let bytes = Array(value.utf8)
            guard !bytes.isEmpty,
                X509_NAME_add_entry_by_txt(name, entry.field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1
            else {
                let rule = entry.field == "C" ? "two letters" : "1 to 64 characters"
                throw OpenSSLErrors.error(.invalidArgument, "the \(entry.label) \"\(value)\" is not usable (\(rule))")
            }
        }
    }

    private func addExtensions(
        _ x509: OpaquePointer, issuer: Certificate?, issuerKey: PrivateKey
    ) throws(SigningError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.x509 ?? x509, x509, nil, nil, 0)
        if issuer == nil {
            // A self-signed certificate has no issuer SKI yet: the key identifier comes from its key.
            guard X509V3_set_issuer_pkey(&context, issuerKey.key) == 1 else {
                throw OpenSSLErrors.error(.signingFailed, "cannot set the issuer key")
            }
        }
        var basicConstraints = isCA ? "critical,CA:TRUE" : "critical,CA:FALSE"
        if isCA, let pathLength {
            guard pathLength >= 0 else { throw SigningError(.invalidArgument, "a path length cannot be negative") }
            basicConstraints += ",pathlen:\(pathLength)"
        }
        var extensions: [(nid: Int32, value: String)] = [
            (NID_basic_constraints, basicConstraints),
            (NID_key_usage, isCA ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature,nonRepudiation"),
        ]
        if !extendedKeyUsage.isEmpty {
            extensions.append((NID_ext_key_usage, extendedKeyUsage.map(\.description).joined(separator: ",")))
        }
        extensions.append((NID_subject_key_identifier, "hash"))
        // keyid:always needs the issuer's subject key identifier; a CA without one is named instead.
        let authority = issuer == nil || issuer?.subjectKeyIdentifier != nil ? "keyid:always" : "issuer:always"
        extensions.append((NID_authority_key_identifier, authority))
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                let name = OBJ_nid2sn(nid).map { String(cString: $0) } ?? "\(nid)"
                throw OpenSSLErrors.error(.invalidArgument, "cannot make the \(name) extension \"\(value)\"")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(x509, made, -1) == 1 else {
                throw OpenSSLErrors.error(.signingFailed, "cannot add an extension")
            }
        }
    }
}
