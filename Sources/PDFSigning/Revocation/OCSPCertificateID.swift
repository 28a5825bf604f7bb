import AutographCrypto

/// An OCSP `CertID` (RFC 6960 §4.1.1): which certificate a request asks about and a response
/// answers for, named by hashes of its issuer's Name and key and by its serial number.
///
/// ```
/// CertID ::= SEQUENCE {
///     hashAlgorithm   AlgorithmIdentifier,
///     issuerNameHash  OCTET STRING, -- hash of the issuer's distinguished name
///     issuerKeyHash   OCTET STRING, -- hash of the issuer's public key
///     serialNumber    CertificateSerialNumber }
/// ```
package struct OCSPCertificateID: Hashable, Sendable {
    /// The hash algorithm of both hashes, as written.
    package var hashAlgorithm: AlgorithmIdentifier
    /// The hash of the issuer's subject Name DER, as it stands in the issuer's certificate.
    package var issuerNameHash: [UInt8]
    /// The hash of the issuer's `subjectPublicKey` BIT STRING content (tag, length and the unused-bits
    /// octet excluded).
    package var issuerKeyHash: [UInt8]
    /// The complete DER of the serial number INTEGER.
    package var serialDER: [UInt8]

    /// The CertID of `certificate`, issued by `issuer`, with `digest` hashes (SHA-1, as RFC 5019 §2.1.1
    /// profiles it and every responder accepts, unless said otherwise).
    /// - Throws: `.malformedData` when the issuer's key cannot be read; `.unsupportedAlgorithm` when
    ///   the digest cannot be computed.
    init(certificate: Certificate, issuer: Certificate, digest: MessageDigest = .sha1) throws(SigningError) {
        guard let identifier = Self.identifier(of: digest) else {
            throw SigningError(.unsupportedAlgorithm, "an OCSP CertID cannot be hashed with \(digest.rawValue)")
        }
        // RFC 3370 §2.1 and RFC 5754 §2: SHA hashes have absent or NULL parameters; OpenSSL writes NULL.
        hashAlgorithm = AlgorithmIdentifier(identifier, parameters: AlgorithmIdentifier.nullParameters)
        issuerNameHash = try DigestHasher.hash(digest, [issuer.subjectDER])
        issuerKeyHash = try DigestHasher.hash(digest, [try issuer.signedParts().subjectPublicKey])
        serialDER = certificate.serialDER
    }

    /// Reads a CertID.
    /// - Throws: `.malformedData` when it is not one.
    package init(from reader: inout DERReader) throws(SigningError) {
        (hashAlgorithm, issuerNameHash, issuerKeyHash, serialDER) = try reader.readSequence {
            (body) throws(SigningError) in
            (
                try AlgorithmIdentifier(from: &body), Array(try body.readOctetString()),
                Array(try body.readOctetString()), Array(try body.readNode(.integer).encoded)
            )
        }
    }

    /// Writes the CertID.
    package func write(to writer: inout DERWriter) {
        writer.sequence { body in
            hashAlgorithm.write(to: &body)
            body.octetString(issuerNameHash)
            body.octetString(issuerKeyHash)
            body.appendEncoded(serialDER)
        }
    }

    /// Whether this CertID names `certificate` issued by `issuer`: the same serial number, and the
    /// issuer's Name and key hashed with this CertID's algorithm (SHA-1 or SHA-2) give its hashes.
    package func identifies(_ certificate: Certificate, issuer: Certificate) -> Bool {
        guard serialDER == certificate.serialDER, let digest = Self.digest(of: hashAlgorithm.algorithm),
            issuerNameHash.count == digest.length, issuerKeyHash.count == digest.length,
            let key = try? issuer.signedParts().subjectPublicKey,
            let nameHash = try? DigestHasher.hash(digest, [issuer.subjectDER]),
            let keyHash = try? DigestHasher.hash(digest, [key])
        else { return false }
        return nameHash == issuerNameHash && keyHash == issuerKeyHash
    }

    /// The digest a CertID's hash algorithm names; nil for others (MD5 …).
    static func digest(of identifier: ObjectIdentifier) -> MessageDigest? {
        switch identifier {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        default: nil
        }
    }

    /// The identifier of a digest a CertID may use.
    static func identifier(of digest: MessageDigest) -> ObjectIdentifier? {
        switch digest {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        case .md5: nil
        }
    }
}
