/// A CMS SignedData (RFC 5652 §5) read from DER — a PDF signature's /Contents, or a time-stamp
/// token (RFC 3161 §2.4.2) — with every part's original bytes.
package struct CMSSignedData: Sendable {
    /// The ContentInfo's DER, without the zero padding that followed it.
    package var encoded: [UInt8]
    /// CMSVersion (1 for PAdES signatures, 3 for time-stamp tokens).
    package var version: Int
    package var digestAlgorithms: [AlgorithmIdentifier]
    /// eContentType: id-data for signatures, id-ct-TSTInfo for time-stamp tokens.
    package var contentType: ObjectIdentifier
    /// eContent's octets; nil for a detached signature.
    package var content: [UInt8]?
    /// The certificates that OpenSSL could read (other CertificateChoices are skipped).
    package var certificates: [Certificate]
    /// The CRLs (`crls [1]`), each RevocationInfoChoice's DER.
    package var revocationInfo: [[UInt8]]
    package var signerInfos: [CMSSignerInfo]

    /// Reads a ContentInfo holding a SignedData.
    ///
    /// - Parameter der: the DER, optionally followed by zero bytes (the unused part of /Contents).
    /// - Throws: `SigningError` `.malformedData` when it is not DER, not a SignedData, or anything but
    ///   zeros follows it.
    package init(der: [UInt8]) throws(SigningError) {
        var reader = DERReader(der)
        let contentInfo = try reader.readNode(.sequence)
        guard reader.remainingBytes.allSatisfy({ $0 == 0 }) else {
            throw SigningError(.malformedData, "CMS: data after the ContentInfo at offset \(reader.position)")
        }
        var outer = try contentInfo.contentReader()
        guard try outer.readObjectIdentifier() == .signedData else {
            throw SigningError(.malformedData, "CMS: the ContentInfo does not hold a SignedData")
        }
        var parsed: Self?
        try outer.readExplicit(0) { (explicit) throws(SigningError) in
            try explicit.readSequence { (body) throws(SigningError) in
                parsed = try Self(encoded: Array(contentInfo.encoded), body: &body)
            }
        }
        try outer.finish()
        guard let parsed else { throw SigningError(.malformedData, "CMS: no SignedData") }
        self = parsed
    }

    private init(encoded: [UInt8], body: inout DERReader) throws(SigningError) {
        self.encoded = encoded
        version = try body.readInt()
        digestAlgorithms = try body.readSet { (set) throws(SigningError) in
            var algorithms: [AlgorithmIdentifier] = []
            while !set.isAtEnd { algorithms.append(try AlgorithmIdentifier(from: &set)) }
            return algorithms
        }
        (contentType, content) = try body.readSequence { (encapsulated) throws(SigningError) in
            let type = try encapsulated.readObjectIdentifier()
            let content = try encapsulated.readOptionalExplicit(0) { (explicit) throws(SigningError) in
                Array(try explicit.readOctetString())
            }
            return (type, content)
        }
        certificates = []
        if let set = try body.readOptionalNode(.context(0)) {
            var choices = try set.contentReader()
            while !choices.isAtEnd {
                let choice = try choices.readNode()
                guard choice.tag == .sequence else { continue }
                if let certificate = try? Certificate(der: Array(choice.encoded)) { certificates.append(certificate) }
            }
        }
        revocationInfo = []
        if let set = try body.readOptionalNode(.context(1)) {
            var choices = try set.contentReader()
            while !choices.isAtEnd { revocationInfo.append(Array(try choices.readNode().encoded)) }
        }
        signerInfos = try body.readSet { (set) throws(SigningError) in
            var infos: [CMSSignerInfo] = []
            while !set.isAtEnd { infos.append(try CMSSignerInfo(from: &set)) }
            return infos
        }
    }

    /// The certificate `signerInfo` names: by issuer and serial number, or by subject key identifier.
    package func signerCertificate(for signerInfo: CMSSignerInfo) -> Certificate? {
        switch signerInfo.identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            certificates.first { $0.matches(issuer: issuer, serial: serial) }
        case .subjectKeyIdentifier(let identifier):
            certificates.first { $0.subjectKeyIdentifier == identifier }
        }
    }

    /// Checks `signerInfo`'s signature over its signed attributes (re-encoded with the SET OF tag,
    /// RFC 5652 §5.4) with its certificate's public key. The caller still compares the
    /// messageDigest attribute with the content's digest (§5.6).
    ///
    /// - Returns: true only when the signature is valid; false as well when there are no signed
    ///   attributes, no certificate, the algorithms are not supported (RSA PKCS#1 v1.5, RSA-PSS
    ///   with MGF1 over the same SHA-2 digest, ECDSA with SHA-2) or the digest cannot be computed.
    package func verifySignature(of signerInfo: CMSSignerInfo) -> Bool {
        guard let certificate = signerCertificate(for: signerInfo), let signed = signerInfo.signedAttributesToVerify,
            let digest = signerInfo.digest,
            let (scheme, namedDigest, saltLength) = try? SignatureScheme.parse(signerInfo.signatureAlgorithm),
            namedDigest == nil || namedDigest == digest,
            let hashed = try? digest.hash(signed)
        else { return false }
        return certificate.verify(
            signature: signerInfo.signature, digest: hashed, digestAlgorithm: digest, scheme: scheme,
            saltLength: saltLength)
    }
}
