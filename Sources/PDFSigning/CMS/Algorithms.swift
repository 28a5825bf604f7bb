import PDFCore

/// The digest algorithms of signatures (SHA-2; ISO 32000-2 §12.8.3.3 and ETSI EN 319 142-1).
public enum DigestAlgorithm: String, Hashable, Sendable, Codable, CaseIterable {
    /// SHA-256, SHA-384 or SHA-512 (FIPS 180-4).
    case sha256, sha384, sha512

    /// The digest length in bytes.
    public var length: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}

/// How the signer's key signs: RSA PKCS#1 v1.5, RSA-PSS (salt = digest length, MGF1 with the same
/// digest), or ECDSA.
public enum SignatureScheme: String, Hashable, Sendable, Codable {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2).
    case rsaPKCS1v15
    /// RSASSA-PSS (RFC 8017 §8.1), salt as long as the digest, MGF1 with the same digest.
    case rsaPSS
    /// ECDSA (FIPS 186-5), the signature DER-encoded (RFC 5480).
    case ecdsa
}

// MARK: - Object identifiers

extension ObjectIdentifier {
    /// id-data (RFC 5652 §4).
    package static let data: ObjectIdentifier = "1.2.840.113549.1.7.1"
    /// id-signedData (RFC 5652 §5.1).
    package static let signedData: ObjectIdentifier = "1.2.840.113549.1.7.2"
    /// id-ct-TSTInfo, the content of a time-stamp token (RFC 3161 §2.4.2).
    package static let tstInfo: ObjectIdentifier = "1.2.840.113549.1.9.16.1.4"

    /// id-contentType attribute (RFC 5652 §11.1).
    package static let contentTypeAttribute: ObjectIdentifier = "1.2.840.113549.1.9.3"
    /// id-messageDigest attribute (RFC 5652 §11.2).
    package static let messageDigestAttribute: ObjectIdentifier = "1.2.840.113549.1.9.4"
    /// id-signingTime attribute (RFC 5652 §11.3); PAdES forbids it (ETSI EN 319 142-1 §5.2.1).
    package static let signingTimeAttribute: ObjectIdentifier = "1.2.840.113549.1.9.5"
    /// id-aa-signingCertificate, ESS v1 with SHA-1 (RFC 2634 §5.4).
    package static let signingCertificateAttribute: ObjectIdentifier = "1.2.840.113549.1.9.16.2.12"
    /// id-aa-signingCertificateV2 (RFC 5035 §3).
    package static let signingCertificateV2Attribute: ObjectIdentifier = "1.2.840.113549.1.9.16.2.47"
    /// id-aa-CMSAlgorithmProtection (RFC 6211 §2).
    package static let algorithmProtectionAttribute: ObjectIdentifier = "1.2.840.113549.1.9.52"
    /// id-aa-signatureTimeStampToken, an unsigned attribute (RFC 3161 Appendix A).
    package static let timeStampTokenAttribute: ObjectIdentifier = "1.2.840.113549.1.9.16.2.14"

    /// id-sha1 (RFC 3370 §2.1), for reading only.
    package static let sha1: ObjectIdentifier = "1.3.14.3.2.26"
    /// id-sha256, id-sha384, id-sha512 (RFC 5754 §2).
    package static let sha256: ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    package static let sha384: ObjectIdentifier = "2.16.840.1.101.3.4.2.2"
    package static let sha512: ObjectIdentifier = "2.16.840.1.101.3.4.2.3"

    /// rsaEncryption (RFC 3370 §3.2, RFC 8017 Appendix C).
    package static let rsaEncryption: ObjectIdentifier = "1.2.840.113549.1.1.1"
    /// sha256WithRSAEncryption … sha512WithRSAEncryption (RFC 5754 §3.2).
    package static let sha256WithRSAEncryption: ObjectIdentifier = "1.2.840.113549.1.1.11"
    package static let sha384WithRSAEncryption: ObjectIdentifier = "1.2.840.113549.1.1.12"
    package static let sha512WithRSAEncryption: ObjectIdentifier = "1.2.840.113549.1.1.13"
    /// id-RSASSA-PSS (RFC 4055 §3.1, RFC 4056).
    package static let rsassaPSS: ObjectIdentifier = "1.2.840.113549.1.1.10"
    /// id-mgf1 (RFC 4055 §2.2).
    package static let mgf1: ObjectIdentifier = "1.2.840.113549.1.1.8"
    /// id-ecPublicKey (RFC 5480 §2.1.1).
    package static let ecPublicKey: ObjectIdentifier = "1.2.840.10045.2.1"
    /// ecdsa-with-SHA256 … ecdsa-with-SHA512 (RFC 5758 §3.2, RFC 5753 §7.1.2).
    package static let ecdsaWithSHA256: ObjectIdentifier = "1.2.840.10045.4.3.2"
    package static let ecdsaWithSHA384: ObjectIdentifier = "1.2.840.10045.4.3.3"
    package static let ecdsaWithSHA512: ObjectIdentifier = "1.2.840.10045.4.3.4"
    /// id-Ed25519 (RFC 8410 §3).
    package static let ed25519: ObjectIdentifier = "1.3.101.112"
}

// MARK: - AlgorithmIdentifier

/// An AlgorithmIdentifier (RFC 5280 §4.1.1.2): an algorithm and its parameters, kept as their DER.
package struct AlgorithmIdentifier: Hashable, Sendable, CustomStringConvertible {
    package var algorithm: ObjectIdentifier
    /// The parameters' complete encoding (tag included), or nil when absent.
    package var parameters: [UInt8]?

    package init(_ algorithm: ObjectIdentifier, parameters: [UInt8]? = nil) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    /// Reads `SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`.
    package init(from reader: inout DERReader) throws(SigningError) {
        (algorithm, parameters) = try reader.readSequence { (body) throws(SigningError) in
            let algorithm = try body.readObjectIdentifier()
            let parameters = body.isAtEnd ? nil : Array(try body.readNode().encoded)
            return (algorithm, parameters)
        }
    }

    /// Writes the SEQUENCE.
    package func write(to writer: inout DERWriter) {
        writer.sequence { body in
            body.objectIdentifier(algorithm)
            if let parameters { body.appendEncoded(parameters) }
        }
    }

    /// The DER of the SEQUENCE.
    package var encoded: [UInt8] {
        var writer = DERWriter()
        write(to: &writer)
        return writer.bytes
    }

    /// Whether the parameters are absent or NULL (the two encodings RFC 5754 §2 accepts for SHA-2).
    package var hasNoParameters: Bool { parameters == nil || parameters == [0x05, 0x00] }

    package var description: String { algorithm.description + (parameters == nil ? "" : " with parameters") }

    /// NULL parameters (RFC 3370 §3.2 for rsaEncryption and sha*WithRSAEncryption).
    package static let nullParameters: [UInt8] = [0x05, 0x00]
}

extension DigestAlgorithm {
    /// The algorithm's OBJECT IDENTIFIER (RFC 5754 §2).
    package var objectIdentifier: ObjectIdentifier {
        switch self {
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }

    /// The digest algorithm with this identifier; nil for others (SHA-1 and MD5 are not signed with).
    package init?(objectIdentifier: ObjectIdentifier) {
        switch objectIdentifier {
        case .sha256: self = .sha256
        case .sha384: self = .sha384
        case .sha512: self = .sha512
        default: return nil
        }
    }

    /// The DigestAlgorithmIdentifier with absent parameters, as RFC 5754 §2 says to write it.
    package var algorithmIdentifier: AlgorithmIdentifier { AlgorithmIdentifier(objectIdentifier) }
}

extension SignatureScheme {
    /// The SignerInfo signatureAlgorithm for this scheme with `digest`:
    /// - RSA PKCS#1 v1.5: rsaEncryption with NULL parameters (RFC 3370 §3.2, which every CMS verifier
    ///   must accept), or sha*WithRSAEncryption (RFC 5754 §3.2) when `rsaNamesDigest` is true;
    /// - RSA-PSS: id-RSASSA-PSS with explicit parameters — the digest, MGF1 with the same digest, salt
    ///   length = digest length, trailer field 1 omitted as DEFAULT (RFC 4055 §3.1, RFC 4056 §2);
    /// - ECDSA: ecdsa-with-SHA* with absent parameters (RFC 5758 §3.2).
    package func algorithmIdentifier(digest: DigestAlgorithm, rsaNamesDigest: Bool = false) -> AlgorithmIdentifier {
        switch self {
        case .rsaPKCS1v15:
            guard rsaNamesDigest else {
                return AlgorithmIdentifier(.rsaEncryption, parameters: AlgorithmIdentifier.nullParameters)
            }
            let identifier: ObjectIdentifier =
                switch digest {
                case .sha256: .sha256WithRSAEncryption
                case .sha384: .sha384WithRSAEncryption
                case .sha512: .sha512WithRSAEncryption
                }
            return AlgorithmIdentifier(identifier, parameters: AlgorithmIdentifier.nullParameters)
        case .rsaPSS:
            // The hash identifiers carry NULL parameters, as RFC 4055 §2.1 defines sha256Identifier …
            // and as OpenSSL writes them.
            let hash = AlgorithmIdentifier(digest.objectIdentifier, parameters: AlgorithmIdentifier.nullParameters)
            var writer = DERWriter()
            writer.sequence { parameters in
                parameters.explicit(0) { hash.write(to: &$0) }
                parameters.explicit(1) { AlgorithmIdentifier(.mgf1, parameters: hash.encoded).write(to: &$0) }
                parameters.explicit(2) { $0.integer(digest.length) }
            }
            return AlgorithmIdentifier(.rsassaPSS, parameters: writer.bytes)
        case .ecdsa:
            switch digest {
            case .sha256: return AlgorithmIdentifier(.ecdsaWithSHA256)
            case .sha384: return AlgorithmIdentifier(.ecdsaWithSHA384)
            case .sha512: return AlgorithmIdentifier(.ecdsaWithSHA512)
            }
        }
    }

    /// How a SignerInfo's signatureAlgorithm says to check its signature: the scheme, the digest
    /// that the algorithm names (nil when it names none, as rsaEncryption), and for RSA-PSS the salt
    /// length (RFC 4055 §3.1 defaults: SHA-1, MGF1-SHA-1, 20; only an MGF1 digest equal to the
    /// message digest is supported).
    ///
    /// - Throws: `.unsupportedAlgorithm` for other algorithms, `.malformedData` for bad parameters.
    package static func parse(
        _ identifier: AlgorithmIdentifier
    ) throws(SigningError) -> (scheme: SignatureScheme, digest: DigestAlgorithm?, pssSaltLength: Int?) {
        switch identifier.algorithm {
        case .rsaEncryption: return (.rsaPKCS1v15, nil, nil)
        case .sha256WithRSAEncryption: return (.rsaPKCS1v15, .sha256, nil)
        case .sha384WithRSAEncryption: return (.rsaPKCS1v15, .sha384, nil)
        case .sha512WithRSAEncryption: return (.rsaPKCS1v15, .sha512, nil)
        case .ecPublicKey: return (.ecdsa, nil, nil)
        case .ecdsaWithSHA256: return (.ecdsa, .sha256, nil)
        case .ecdsaWithSHA384: return (.ecdsa, .sha384, nil)
        case .ecdsaWithSHA512: return (.ecdsa, .sha512, nil)
        case .rsassaPSS:
            guard let parameters = identifier.parameters else {
                throw SigningError(.unsupportedAlgorithm, "RSASSA-PSS without parameters means SHA-1")
            }
            var reader = DERReader(parameters)
            let (hash, mask, salt) = try reader.readSequence { (body) throws(SigningError) in
                let hash = try body.readOptionalExplicit(0) { (inner) throws(SigningError) in
                    try AlgorithmIdentifier(from: &inner)
                }
                let mask = try body.readOptionalExplicit(1) { (inner) throws(SigningError) in
                    try AlgorithmIdentifier(from: &inner)
                }
                let salt = try body.readOptionalExplicit(2) { (inner) throws(SigningError) in try inner.readInt() }
                let trailer = try body.readOptionalExplicit(3) { (inner) throws(SigningError) in try inner.readInt() }
                guard trailer == nil || trailer == 1 else {
                    throw SigningError(.unsupportedAlgorithm, "RSASSA-PSS trailer field \(trailer ?? 0)")
                }
                return (hash, mask, salt)
            }
            guard let hash, let digest = DigestAlgorithm(objectIdentifier: hash.algorithm) else {
                throw SigningError(.unsupportedAlgorithm, "RSASSA-PSS with a digest other than SHA-2")
            }
            guard let mask, mask.algorithm == .mgf1, let maskParameters = mask.parameters else {
                throw SigningError(.unsupportedAlgorithm, "RSASSA-PSS with a mask generation other than MGF1-SHA-2")
            }
            var maskReader = DERReader(maskParameters)
            let maskDigest = try AlgorithmIdentifier(from: &maskReader)
            guard maskDigest.algorithm == hash.algorithm else {
                throw SigningError(.unsupportedAlgorithm, "RSASSA-PSS with MGF1 over another digest")
            }
            let saltLength = salt ?? 20
            guard (0...1024).contains(saltLength) else {
                throw SigningError(.malformedData, "RSASSA-PSS salt length \(saltLength)")
            }
            return (.rsaPSS, digest, saltLength)
        default:
            throw SigningError(.unsupportedAlgorithm, "signature algorithm \(identifier.algorithm)")
        }
    }
}
