import COpenSSL

/// An X.509 v3 certificate being built (an OpenSSL `X509` not yet signed), for a test or demo PKI.
///
/// Each step is its own call so the caller can say which field was not usable; `sign(with:)`
/// hands the finished certificate over.
package final class X509Builder {
    private let pointer: OpaquePointer

    /// An empty v3 certificate (RFC 5280 §4.1.2.1).
    /// - Throws: `CryptoError` (`.certificateBuilding`); `function` is `"X509_set_version"` when only
    ///   the version could not be set.
    package init() throws(CryptoError) {
        try CryptoOperation.begin(.certificateBuilding)
        guard let pointer = X509_new() else { throw .drained(.certificateBuilding, "X509_new") }
        self.pointer = pointer
        guard X509_set_version(pointer, 2) == 1 else { throw .drained(.certificateBuilding, "X509_set_version") }
    }

    deinit { X509_free(pointer) }

    /// Sets the serial number from its big-endian magnitude (positive, at most 20 content octets).
    package func setSerialNumber(_ magnitude: [UInt8]) throws(CryptoError) {
        guard let number = BN_bin2bn(magnitude, Int32(magnitude.count), nil) else {
            throw .drained(.certificateBuilding, "BN_bin2bn")
        }
        defer { BN_free(number) }
        guard let integer = BN_to_ASN1_INTEGER(number, nil) else {
            throw .drained(.certificateBuilding, "BN_to_ASN1_INTEGER")
        }
        defer { ASN1_INTEGER_free(integer) }
        guard X509_set_serialNumber(pointer, integer) == 1 else {
            throw .drained(.certificateBuilding, "X509_set_serialNumber")
        }
    }

    /// Appends a subject Name entry (`field` "C", "O", "OU", "CN") as UTF8String (PrintableString
    /// for C); OpenSSL checks the sizes the field allows.
    package func addSubjectEntry(_ field: String, value: [UInt8]) throws(CryptoError) {
        guard let name = X509_get_subject_name(pointer) else {
            throw .drained(.certificateBuilding, "X509_get_subject_name")
        }
        guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, Int32(value.count), -1, 0) == 1 else {
            throw .drained(.certificateBuilding, "X509_NAME_add_entry_by_txt")
        }
    }

    /// Sets the issuer Name to `issuer`'s subject, or with nil to this certificate's own subject.
    package func setIssuerName(from issuer: X509Certificate?) throws(CryptoError) {
        let name = X509_get_subject_name(issuer?.pointer ?? pointer)
        guard X509_set_issuer_name(pointer, name) == 1 else {
            throw .drained(.certificateBuilding, "X509_set_issuer_name")
        }
    }

    /// Sets the validity period (seconds since 1970, RFC 5280 §4.1.2.5).
    package func setValidity(notBefore: Int, notAfter: Int) throws(CryptoError) {
        guard ASN1_TIME_set(X509_getm_notBefore(pointer), time_t(notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(pointer), time_t(notAfter)) != nil
        else { throw .drained(.certificateBuilding, "ASN1_TIME_set") }
    }

    /// Sets the subject's public key (from a private or public key).
    package func setPublicKey(_ key: AsymmetricKey) throws(CryptoError) {
        guard X509_set_pubkey(pointer, key.pointer) == 1 else {
            throw .drained(.certificateBuilding, "X509_set_pubkey")
        }
    }

    /// The extensions `addExtension` makes.
    package enum Extension: Sendable {
        case basicConstraints, keyUsage, extendedKeyUsage, subjectKeyIdentifier, authorityKeyIdentifier
        case authorityInfoAccess, crlDistributionPoints

        var nid: Int32 {
            switch self {
            case .authorityInfoAccess: NID_info_access
            case .crlDistributionPoints: NID_crl_distribution_points
            case .basicConstraints: NID_basic_constraints
            case .keyUsage: NID_key_usage
            case .extendedKeyUsage: NID_ext_key_usage
            case .subjectKeyIdentifier: NID_subject_key_identifier
            case .authorityKeyIdentifier: NID_authority_key_identifier
            }
        }

        /// OpenSSL's short name ("basicConstraints").
        package var shortName: String { OBJ_nid2sn(nid).map { String(cString: $0) } ?? "\(nid)" }
    }

    /// Where extension values such as `"keyid:always"` and `"hash"` take the keys from: `issuer`
    /// (nil: this certificate, self-signed with `issuerKey`).
    package func setExtensionContext(issuer: X509Certificate?, issuerKey: AsymmetricKey) throws(CryptoError) {
        context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? pointer, pointer, nil, nil, 0)
        if issuer == nil {
            // A self-signed certificate has no issuer SKI yet: the key identifier comes from its key.
            guard X509V3_set_issuer_pkey(&context, issuerKey.pointer) == 1 else {
                throw .drained(.certificateBuilding, "X509V3_set_issuer_pkey")
            }
        }
    }

    private var context = X509V3_CTX()

    /// Adds an extension from OpenSSL's configuration syntax (`"critical,CA:TRUE,pathlen:0"`), after
    /// `setExtensionContext`.
    /// - Throws: `CryptoError` with `function` `"X509V3_EXT_nconf_nid"` when the value is not usable,
    ///   `"X509_add_ext"` when it cannot be added.
    package func addExtension(_ kind: Extension, _ value: String) throws(CryptoError) {
        guard let made = X509V3_EXT_nconf_nid(nil, &context, kind.nid, value) else {
            throw .drained(.certificateBuilding, "X509V3_EXT_nconf_nid")
        }
        defer { X509_EXTENSION_free(made) }
        guard X509_add_ext(pointer, made, -1) == 1 else { throw .drained(.certificateBuilding, "X509_add_ext") }
    }

    /// Signs the certificate with `key` over `digest` (nil for Ed25519, which signs the message
    /// itself, RFC 8410 §6) and returns it; the builder is not used afterwards.
    package func sign(with key: AsymmetricKey, digest: MessageDigest?) throws(CryptoError) -> X509Certificate {
        guard X509_sign(pointer, key.pointer, digest?.algorithm) > 0 else {
            throw .drained(.certificateBuilding, "X509_sign")
        }
        guard let certificate = X509Certificate(borrowing: pointer) else {
            throw .drained(.certificateBuilding, "X509_up_ref")
        }
        return certificate
    }
}
