import AutographCrypto

/// The parts of a certificate that checking an OCSP response needs: the subject's public key bits
/// (hashed into a CertID and a responder ID) and whether another certificate signed it.
extension Certificate {
    /// The certificate's signed parts (RFC 5280 §4.1): the `tbsCertificate` DER, the
    /// `signatureAlgorithm`, the `signatureValue` and the subject's key, the content of the
    /// `subjectPublicKey` BIT STRING of its `subjectPublicKeyInfo` (RFC 5280 §4.1.2.7).
    package struct SignedParts: Sendable {
        /// The `tbsCertificate` SEQUENCE's complete DER, over which the issuer signed.
        package var tbsCertificate: [UInt8]
        /// The issuer's signature algorithm.
        package var signatureAlgorithm: AlgorithmIdentifier
        /// The `signatureValue` BIT STRING.
        package var signature: DERBitString
        /// The `subjectPublicKey` BIT STRING's octets (without tag, length and unused-bits octet).
        package var subjectPublicKey: [UInt8]
    }

    /// Reads the signed parts from the certificate's DER.
    /// - Throws: `.malformedData` when the DER does not have the shape of RFC 5280 §4.1.
    package func signedParts() throws(SigningError) -> SignedParts {
        var reader = DERReader(derBytes)
        let parts = try reader.readSequence { (certificate) throws(SigningError) -> SignedParts in
            let tbsNode = try certificate.readNode(.sequence)
            var tbs = try tbsNode.contentReader()
            _ = try tbs.readOptionalNode(.context(0))  // version
            _ = try tbs.readNode(.integer)  // serialNumber
            _ = try tbs.readNode(.sequence)  // signature
            _ = try tbs.readNode(.sequence)  // issuer
            _ = try tbs.readNode(.sequence)  // validity
            _ = try tbs.readNode(.sequence)  // subject
            let key = try tbs.readSequence { (info) throws(SigningError) -> DERBitString in
                _ = try AlgorithmIdentifier(from: &info)
                return try info.readBitString()
            }
            let algorithm = try AlgorithmIdentifier(from: &certificate)
            let signature = try certificate.readBitString()
            return SignedParts(
                tbsCertificate: Array(tbsNode.encoded), signatureAlgorithm: algorithm, signature: signature,
                subjectPublicKey: Array(key.bytes))
        }
        try reader.finish()
        return parts
    }

    /// Whether `issuer` issued this certificate: its subject is this certificate's issuer Name and
    /// its key verifies this certificate's signature (RFC 5280 §6.1.3 (a)(1), (a)(4)).
    package func isSigned(by issuer: Certificate) -> Bool {
        guard issuerDER == issuer.subjectDER, let parts = try? signedParts(), parts.signature.unusedBits == 0 else {
            return false
        }
        return issuer.verifies(
            signature: Array(parts.signature.bytes), over: parts.tbsCertificate, algorithm: parts.signatureAlgorithm)
    }

    /// Whether this certificate's key verifies `signature` over `data` with `algorithm` (an X.509 or
    /// OCSP signatureAlgorithm, RFC 5280 §4.1.1.2): RSA PKCS#1 v1.5, RSA-PSS and ECDSA with SHA-2, and
    /// sha1WithRSAEncryption and ecdsa-with-SHA1, which old responders still use (RFC 3279 §2.2).
    /// An algorithm that names no digest (rsaEncryption) or is not supported gives false.
    package func verifies(signature: [UInt8], over data: [UInt8], algorithm: AlgorithmIdentifier) -> Bool {
        switch algorithm.algorithm {
        case .sha1WithRSASignature, .ecdsaWithSHA1Signature:
            let scheme: SignatureScheme = algorithm.algorithm == .sha1WithRSASignature ? .rsaPKCS1v15 : .ecdsa
            guard let digest = try? DigestHasher.hash(.sha1, [data]) else { return false }
            return verifySHA1(signature: signature, digest: digest, scheme: scheme, saltLength: nil)
        default:
            guard let (scheme, named, saltLength) = try? SignatureScheme.parse(algorithm), let named,
                let digest = try? named.hash(data)
            else { return false }
            return verify(
                signature: signature, digest: digest, digestAlgorithm: named, scheme: scheme, saltLength: saltLength)
        }
    }
}
