/// Builds a detached CMS SignedData (RFC 5652 §5) for a PAdES signature (ETSI EN 319 142-1 §5.1,
/// ISO 32000-2 §12.8.3.4) in DER, in two steps so the key can be anywhere:
///
/// 1. `signedAttributes(messageDigest:)` — the DER of the SET OF signed attributes; its hash
///    (`signedAttributesDigest(messageDigest:)`) is what the key signs (RFC 5652 §5.4);
/// 2. `assemble(signedAttributes:signature:unsignedAttributes:)` — the ContentInfo with those exact
///    attribute bytes, the signature and the certificates.
///
/// The signed attributes are contentType (id-data), messageDigest, ESS signing-certificate-v2
/// (RFC 5035) and CMS algorithm protection (RFC 6211). There is no signingTime: PAdES forbids it
/// (ETSI EN 319 142-1 §5.2.1; the time is the signature dictionary's /M or a time-stamp).
package struct CMSSignedDataBuilder: Sendable {
    /// The signer's certificate; its issuer and serial number identify the signer.
    package let certificate: Certificate
    /// Certificates to include besides the signer's (intermediates, optionally the root).
    package let chain: [Certificate]
    /// The digest of the document's byte ranges and of the signed attributes.
    package let digestAlgorithm: DigestAlgorithm
    /// How the key signs.
    package let scheme: SignatureScheme
    /// For RSA PKCS#1 v1.5: write sha*WithRSAEncryption (RFC 5754 §3.2) instead of rsaEncryption
    /// (RFC 3370 §3.2) as the signatureAlgorithm.
    package var rsaSignatureAlgorithmNamesDigest = false

    package init(
        certificate: Certificate, chain: [Certificate], digestAlgorithm: DigestAlgorithm, scheme: SignatureScheme
    ) {
        self.certificate = certificate
        self.chain = chain
        self.digestAlgorithm = digestAlgorithm
        self.scheme = scheme
    }

    /// The SignerInfo's digestAlgorithm (absent parameters, RFC 5754 §2).
    package var digestAlgorithmIdentifier: AlgorithmIdentifier { digestAlgorithm.algorithmIdentifier }

    /// The SignerInfo's signatureAlgorithm (see `SignatureScheme.algorithmIdentifier`).
    package var signatureAlgorithmIdentifier: AlgorithmIdentifier {
        scheme.algorithmIdentifier(digest: digestAlgorithm, rsaNamesDigest: rsaSignatureAlgorithmNamesDigest)
    }

    /// The DER of the SET OF signed attributes (tag 0x31, RFC 5652 §5.4): exactly the bytes whose
    /// hash is signed; `assemble` stores them with the tag `[0]`.
    ///
    /// - Parameter messageDigest: the digest of the content (the document's byte ranges).
    /// - Throws: `SigningError` `.unsupportedAlgorithm` when the certificate's SHA-256 cannot be computed.
    package func signedAttributes(messageDigest: [UInt8]) throws(SigningError) -> [UInt8] {
        let certificateHash = try DigestAlgorithm.sha256.hash(certificate.derBytes)
        var writer = DERWriter()
        writer.set { attributes in
            Self.attribute(.contentTypeAttribute, into: &attributes) { $0.objectIdentifier(.data) }
            Self.attribute(.messageDigestAttribute, into: &attributes) { $0.octetString(messageDigest) }
            Self.attribute(.signingCertificateV2Attribute, into: &attributes) { value in
                // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } (RFC 5035 §3)
                value.sequence { signingCertificate in
                    signingCertificate.sequence { certificates in
                        // ESSCertIDv2: hashAlgorithm DEFAULT id-sha256 is omitted (X.690 §11.5).
                        certificates.sequence { essCertID in
                            essCertID.octetString(certificateHash)
                            // IssuerSerial ::= SEQUENCE { GeneralNames, CertificateSerialNumber }
                            essCertID.sequence { issuerSerial in
                                issuerSerial.sequence { generalNames in
                                    // directoryName [4] Name: explicit, Name being a CHOICE.
                                    generalNames.explicit(4) { $0.appendEncoded(certificate.issuerDER) }
                                }
                                issuerSerial.appendEncoded(certificate.serialDER)
                            }
                        }
                    }
                }
            }
            Self.attribute(.algorithmProtectionAttribute, into: &attributes) { value in
                // CMSAlgorithmProtection ::= SEQUENCE { digestAlgorithm,
                //     signatureAlgorithm [1] IMPLICIT SignatureAlgorithmIdentifier } (RFC 6211 §2)
                value.sequence { protection in
                    digestAlgorithmIdentifier.write(to: &protection)
                    protection.appendImplicit(1, retagging: signatureAlgorithmIdentifier.encoded)
                }
            }
        }
        return writer.bytes
    }

    /// The hash of `signedAttributes(messageDigest:)` with `digestAlgorithm`: what a raw signer (HSM,
    /// KMS, CSC service) signs with `scheme`.
    /// - Throws: `SigningError` `.unsupportedAlgorithm` when a digest cannot be computed.
    package func signedAttributesDigest(messageDigest: [UInt8]) throws(SigningError) -> [UInt8] {
        try digestAlgorithm.hash(signedAttributes(messageDigest: messageDigest))
    }

    /// The complete ContentInfo (RFC 5652 §3) holding a detached SignedData (§5.1, §5.2: no
    /// eContent) with one SignerInfo (§5.3).
    ///
    /// - Parameters:
    ///   - signedAttributes: what `signedAttributes(messageDigest:)` returned (tag 0x31), unchanged.
    ///   - signature: the raw signature over its hash (RSA octets or a DER ECDSA-Sig-Value).
    ///   - unsignedAttributes: a DER SET OF Attribute (tag 0x31) stored as `unsignedAttrs [1]`, e.g.
    ///     from `Self.unsignedAttributes(timeStampToken:)`; nil for none.
    package func assemble(signedAttributes: [UInt8], signature: [UInt8], unsignedAttributes: [UInt8]? = nil) -> [UInt8]
    {
        var certificates: [Certificate] = []
        for candidate in [certificate] + chain where !certificates.contains(candidate) {
            certificates.append(candidate)
        }
        var writer = DERWriter()
        writer.sequence { contentInfo in
            contentInfo.objectIdentifier(.signedData)
            contentInfo.explicit(0) { content in
                content.sequence { signedData in
                    signedData.integer(1)  // CMSVersion 1: IssuerAndSerialNumber, id-data (§5.1)
                    signedData.set { $0.appendEncoded(digestAlgorithmIdentifier.encoded) }
                    signedData.sequence { $0.objectIdentifier(.data) }  // EncapsulatedContentInfo, detached
                    signedData.set(tag: .context(0)) { set in
                        for member in certificates { set.appendEncoded(member.derBytes) }
                    }
                    signedData.set { signerInfos in
                        signerInfos.sequence { signerInfo in
                            signerInfo.integer(1)
                            signerInfo.sequence { issuerAndSerialNumber in
                                issuerAndSerialNumber.appendEncoded(certificate.issuerDER)
                                issuerAndSerialNumber.appendEncoded(certificate.serialDER)
                            }
                            digestAlgorithmIdentifier.write(to: &signerInfo)
                            signerInfo.appendEncoded(Self.retag(signedAttributes, as: 0xA0))
                            signatureAlgorithmIdentifier.write(to: &signerInfo)
                            signerInfo.octetString(signature)
                            if let unsignedAttributes {
                                signerInfo.appendEncoded(Self.retag(unsignedAttributes, as: 0xA1))
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// Signs with a local key: builds the signed attributes, signs their hash and assembles the CMS.
    ///
    /// - Throws: what `PrivateKey.sign` throws; `.unsupportedAlgorithm` when a digest cannot be computed.
    package func sign(messageDigest: [UInt8], with key: PrivateKey) throws(SigningError) -> [UInt8] {
        let attributes = try signedAttributes(messageDigest: messageDigest)
        let signature = try key.sign(
            digest: digestAlgorithm.hash(attributes), digestAlgorithm: digestAlgorithm, scheme: scheme)
        return assemble(signedAttributes: attributes, signature: signature)
    }

    /// A SET OF one id-aa-signatureTimeStampToken attribute (RFC 3161 Appendix A) holding `token`
    /// (a time-stamp token's ContentInfo DER), for `assemble`'s `unsignedAttributes`.
    package static func unsignedAttributes(timeStampToken token: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.set { attributes in
            attribute(.timeStampTokenAttribute, into: &attributes) { $0.appendEncoded(token) }
        }
        return writer.bytes
    }

    /// Writes `Attribute ::= SEQUENCE { attrType, attrValues SET OF AttributeValue }` with one value.
    private static func attribute(
        _ type: ObjectIdentifier, into writer: inout DERWriter, _ value: (inout DERWriter) -> Void
    ) {
        writer.sequence { attribute in
            attribute.objectIdentifier(type)
            attribute.set(value)
        }
    }

    /// The same TLV with another identifier octet (a SET 0x31 as `[0]` 0xA0 or `[1]` 0xA1 IMPLICIT).
    private static func retag(_ encoded: [UInt8], as identifier: UInt8) -> [UInt8] {
        guard !encoded.isEmpty else { return [] }
        var copy = encoded
        copy[0] = identifier
        return copy
    }
}
