import AutographCrypto
import PDFCore

extension SignatureValidator {
    /// The `/SubFilter`s whose CMS this validator reads (ISO 32000-2 §12.8.3, ETSI EN 319 142-1).
    static let knownSubFilters: Set<String> = [
        "adbe.pkcs7.detached", "ETSI.CAdES.detached", "adbe.pkcs7.sha1", "ETSI.RFC3161",
    ]

    /// Reads the CMS of `/Contents` (see ``decodeCMS(_:)``), noting in `status` what is wrong.
    func readCMS(_ contents: [UInt8], status: inout SignatureStatus) -> CMSSignedData? {
        do {
            let (signedData, trailingBytes) = try Self.decodeCMS(contents)
            if trailingBytes { status.problems.append("/Contents holds bytes other than zeros after the CMS") }
            return signedData
        } catch {
            status.problems.append("the CMS in /Contents cannot be read: \(error.message)")
            return nil
        }
    }

    /// The CMS of a `/Contents` string: DER, or BER (indefinite lengths, as some signers write)
    /// re-encoded with definite lengths; the zero padding after it is ignored, and `trailingBytes`
    /// says whether anything else follows a BER one.
    /// - Throws: the DER reader's error when it is neither.
    static func decodeCMS(_ contents: [UInt8]) throws(SigningError) -> (CMSSignedData, trailingBytes: Bool) {
        let derError: SigningError
        do {
            return (try CMSSignedData(der: contents), false)
        } catch {
            derError = error
        }
        guard let (encoding, end) = try? BERConverter.definiteLength(contents),
            let signedData = try? CMSSignedData(der: encoding)
        else { throw derError }
        return (signedData, !contents[end...].allSatisfy { $0 == 0 })
    }

    /// Checks what the CMS signs against the document (RFC 5652 §5.6) and the CMS signature,
    /// setting ``SignatureStatus/digestIntact`` and ``SignatureStatus/signatureValid``.
    func checkIntegrity(_ signedData: CMSSignedData, ranges: [Range<Int>]?, status: inout SignatureStatus) {
        guard let signer = signedData.signerInfos.first else {
            status.problems.append("the CMS has no SignerInfo")
            return
        }
        if signedData.signerInfos.count > 1 {
            status.problems.append("the CMS has \(signedData.signerInfos.count) SignerInfos; only the first is checked")
        }
        status.cmsSigningTime = signer.signingTime
        let certificate = signedData.signerCertificate(for: signer)
        status.signerCertificate = certificate
        if certificate == nil { status.problems.append("the CMS does not carry the signer's certificate") }
        let (name, digest) = Self.digest(for: signer.digestAlgorithm.algorithm)
        status.digestAlgorithm = name
        if !signedData.digestAlgorithms.contains(where: { $0.algorithm == signer.digestAlgorithm.algorithm }) {
            // Harmless (RFC 5652 §5.1: a list for one-pass processing), but readers that hash with it fail.
            status.problems.append("the SignedData's digestAlgorithms do not list the SignerInfo's \(name)")
        }
        guard let digest else {
            unsupported("the digest algorithm \(name)", &status)
            return
        }

        // The content whose digest the CMS signs, and whether the document matches it.
        let contentDigest: [UInt8]
        var documentMatches = true
        let subFilter = status.subFilter ?? ""
        do {
            switch subFilter {
            case "adbe.pkcs7.sha1":
                // The encapsulated content is the SHA-1 digest of the byte ranges (§12.8.3.3.1).
                guard let content = signedData.content else {
                    status.problems.append(
                        "an adbe.pkcs7.sha1 CMS must encapsulate the SHA-1 digest, and has no content")
                    return
                }
                guard let ranges else { return }
                documentMatches = try content == hash(.sha1, ranges)
                if !documentMatches {
                    status.problems.append(
                        "the SHA-1 digest of the signed bytes is not the one the CMS encapsulates: the document was changed"
                    )
                }
                contentDigest = try DigestHasher.hash(digest, [content])
            case "ETSI.RFC3161":
                // A document time-stamp: a time-stamp token whose message imprint is the ranges' digest (§12.8.5).
                guard signedData.contentType == .tstInfo, let content = signedData.content,
                    let imprint = try? Self.messageImprint(content)
                else {
                    status.problems.append("an ETSI.RFC3161 signature must be a time-stamp token, and is not")
                    return
                }
                let (imprintName, imprintDigest) = Self.digest(for: imprint.algorithm)
                guard let imprintDigest else {
                    unsupported("the time-stamp's digest algorithm \(imprintName)", &status)
                    return
                }
                guard let ranges else { return }
                documentMatches = try imprint.hashedMessage == hash(imprintDigest, ranges)
                if !documentMatches {
                    status.problems.append(
                        "the digest of the signed bytes is not the time-stamp's message imprint: the document was changed"
                    )
                }
                contentDigest = try DigestHasher.hash(digest, [content])
            default:
                if status.subFilter == nil {
                    status.problems.append("the signature dictionary has no /SubFilter; read as a detached CMS")
                } else if !Self.knownSubFilters.contains(subFilter) {
                    status.problems.append("unknown /SubFilter \(subFilter); read as a detached CMS")
                }
                if signedData.content != nil {
                    status.problems.append("the detached CMS encapsulates content, which is ignored")
                }
                guard let ranges else { return }
                contentDigest = try hash(digest, ranges)
            }
        } catch {
            // The crypto library cannot compute the digest: nothing can be said about integrity.
            status.problems.append(error.message)
            return
        }
        let isDetached = subFilter != "adbe.pkcs7.sha1" && subFilter != "ETSI.RFC3161"

        if let signedAttributes = signer.signedAttributesToVerify {
            if let messageDigest = signer.messageDigest {
                let matches = messageDigest == contentDigest
                status.digestIntact = documentMatches && matches
                if !matches {
                    status.problems.append(
                        isDetached
                            ? "the digest of the signed bytes is not the CMS messageDigest: the document was changed"
                            : "the CMS messageDigest is not the digest of its encapsulated content")
                }
            } else {
                status.problems.append("the CMS has no messageDigest signed attribute")
            }
            var contentTypeMatches = true
            if let type = signer.contentType, type != signedData.contentType {
                status.problems.append("the contentType attribute (\(type)) is not the encapsulated content's type")
                contentTypeMatches = false
            }
            status.signatureValid =
                verify(signer, certificate: certificate, digestName: name, data: signedAttributes, status: &status)
                && contentTypeMatches
        } else {
            // No signed attributes: the signature is over the content's digest itself (RFC 5652 §5.4),
            // so for a detached signature integrity and signature are one check.
            status.signatureValid = verify(
                signer, certificate: certificate, digestName: name, precomputed: contentDigest, status: &status)
            status.digestIntact = documentMatches && (isDetached ? status.signatureValid : true)
        }
    }

    /// Checks the SignerInfo's signature with `certificate`, over the digest of `data` or over `precomputed`.
    private func verify(
        _ signer: CMSSignerInfo, certificate: Certificate?, digestName: String, data: [UInt8]? = nil,
        precomputed: [UInt8]? = nil, status: inout SignatureStatus
    ) -> Bool {
        guard let certificate else { return false }
        // SHA-1 signatures are checked (old documents carry them); they are never made.
        if digestName == "sha1" {
            let scheme: SignatureScheme
            switch certificate.publicKeyKind {
            case .rsa: scheme = .rsaPKCS1v15
            case .ec: scheme = .ecdsa
            default:
                unsupported("checking SHA-1 signatures with a \(certificate.publicKeyKind) key", &status)
                return false
            }
            guard let value = digest(.sha1, of: data, precomputed: precomputed, status: &status) else { return false }
            let valid = certificate.verifySHA1(
                signature: signer.signature, digest: value, scheme: scheme, saltLength: nil)
            if !valid { status.problems.append("the CMS signature does not verify with the signer's certificate") }
            return valid
        }
        guard let algorithm = DigestAlgorithm(rawValue: digestName) else {
            unsupported(
                "checking \(digestName.uppercased()) signatures (only SHA-1 and SHA-2 ones can be checked)", &status)
            return false
        }
        let parsed: (scheme: SignatureScheme, digest: DigestAlgorithm?, pssSaltLength: Int?)
        do {
            parsed = try SignatureScheme.parse(signer.signatureAlgorithm)
        } catch {
            if error.code == .unsupportedAlgorithm {
                unsupported("the signature algorithm \(signer.signatureAlgorithm.algorithm)", &status)
            } else {
                status.problems.append("the signature algorithm cannot be read: \(error.message)")
            }
            return false
        }
        if let named = parsed.digest, named != algorithm {
            status.problems.append(
                "the signature algorithm names \(named.rawValue) but the digest algorithm is \(algorithm.rawValue)")
            return false
        }
        guard let value = digest(algorithm.messageDigest, of: data, precomputed: precomputed, status: &status) else {
            return false
        }
        let valid = certificate.verify(
            signature: signer.signature, digest: value, digestAlgorithm: algorithm, scheme: parsed.scheme,
            saltLength: parsed.pssSaltLength)
        if !valid { status.problems.append("the CMS signature does not verify with the signer's certificate") }
        return valid
    }

    /// `precomputed`, or the digest of `data`; nil, with the failure noted as a problem, when the
    /// crypto library cannot compute it.
    private func digest(
        _ algorithm: MessageDigest, of data: [UInt8]?, precomputed: [UInt8]?, status: inout SignatureStatus
    ) -> [UInt8]? {
        if let precomputed { return precomputed }
        do {
            return try DigestHasher.hash(algorithm, [data ?? []])
        } catch {
            status.problems.append(error.message)
            return nil
        }
    }

    /// The digest of the byte ranges, streamed in chunks (memory does not grow with the file).
    /// - Throws: `SigningError` `.unsupportedAlgorithm` when the digest cannot be computed.
    func hash(_ digest: MessageDigest, _ ranges: [Range<Int>]) throws(SigningError) -> [UInt8] {
        var hasher = try DigestHasher(digest)
        for range in ranges {
            document.forEachChunk(in: range) { hasher.update($0) }
        }
        return try hasher.finalize()
    }

    /// The name and the digest of a digest algorithm identifier: SHA-2, SHA-1 and MD5 are
    /// computed (the last two only to check integrity); others give their dotted identifier and nil.
    static func digest(for identifier: ObjectIdentifier) -> (name: String, digest: MessageDigest?) {
        switch identifier {
        case .sha256: ("sha256", .sha256)
        case .sha384: ("sha384", .sha384)
        case .sha512: ("sha512", .sha512)
        case .sha1: ("sha1", .sha1)
        case .md5: ("md5", .md5)
        case .sha224: ("sha224", nil)
        default: (identifier.description, nil)
        }
    }

    /// A TSTInfo's messageImprint (RFC 3161 §2.4.2): the digest algorithm and the digest.
    static func messageImprint(
        _ tstInfo: [UInt8]
    ) throws(SigningError) -> (algorithm: ObjectIdentifier, hashedMessage: [UInt8]) {
        var reader = DERReader(tstInfo)
        return try reader.readSequence { (body) throws(SigningError) in
            _ = try body.readInteger()  // version
            _ = try body.readObjectIdentifier()  // policy
            let imprint = try body.readSequence { (imprint) throws(SigningError) in
                let algorithm = try AlgorithmIdentifier(from: &imprint)
                return (algorithm.algorithm, Array(try imprint.readOctetString()))
            }
            while !body.isAtEnd { _ = try body.readNode() }
            return imprint
        }
    }
}

extension ObjectIdentifier {
    /// id-md5 (RFC 1321, RFC 3370 §2.2), read only to check old signatures' integrity.
    static let md5: ObjectIdentifier = "1.2.840.113549.2.5"
    /// id-sha224 (RFC 5754 §2.1), not computed.
    static let sha224: ObjectIdentifier = "2.16.840.1.101.3.4.2.4"
}
