/// Signature time-stamps (RFC 3161 Appendix A; ETSI EN 319 142-1 §5.3, PAdES B-T): a token over
/// the hash of the signature value, stored as the SignerInfo's unsigned attribute
/// `id-aa-signatureTimeStampToken`. The signature itself — its signed attributes, its value — is
/// not touched, so any signer's CMS can be stamped after the fact.
public enum SignatureTimestamp {
    /// `cms` with a time-stamp from `authority` over its (only) signer's signature value, hashed
    /// with `algorithm`.
    /// - Throws: `.timestampFailed` (−146) when the authority gives no valid token;
    ///   `.malformedData` when `cms` is not a SignedData of one signer.
    public static func adding(
        to cms: [UInt8], from authority: any TimeStampAuthority, algorithm: DigestAlgorithm = .sha256
    ) async throws(SigningError) -> [UInt8] {
        let signedData = try CMSSignedData(der: cms)
        guard signedData.signerInfos.count == 1, let signerInfo = signedData.signerInfos.first else {
            throw SigningError(.malformedData, "a signature time-stamp needs a CMS of one signer")
        }
        let request = try TimeStampRequest(hashing: signerInfo.signature, algorithm: algorithm)
        let token = try await authority.timeStamp(request)
        return try inserting(token: token.encoded, into: signedData.encoded)
    }

    /// `cms` (one SignerInfo) with `token` added to its unsigned attributes: every other byte of
    /// the SignedData is copied as it was.
    static func inserting(token: [UInt8], into cms: [UInt8]) throws(SigningError) -> [UInt8] {
        var attribute = DERWriter()
        attribute.sequence { value in
            value.objectIdentifier(.timeStampTokenAttribute)
            value.set { $0.appendEncoded(token) }
        }
        var reader = DERReader(cms)
        var contentInfo = try reader.readNode(.sequence).contentReader()
        let type = try contentInfo.readNode(.objectIdentifier)
        var explicit = try contentInfo.readNode(.context(0)).contentReader()
        var signedData = try explicit.readNode(.sequence).contentReader()
        var parts: [DERNode] = []
        while !signedData.isAtEnd { parts.append(try signedData.readNode()) }
        guard let signerInfos = parts.popLast(), signerInfos.tag == .set else {
            throw SigningError(.malformedData, "CMS: no SignerInfos")
        }
        var infos = try signerInfos.contentReader()
        var fields = try infos.readNode(.sequence).contentReader()
        guard infos.isAtEnd else { throw SigningError(.malformedData, "CMS: more than one SignerInfo") }
        var children: [DERNode] = []
        while !fields.isAtEnd { children.append(try fields.readNode()) }
        // unsignedAttrs [1] IMPLICIT SET OF Attribute comes last; the token joins the ones there.
        var unsigned: [UInt8] = []
        if let last = children.last, last.tag == .context(1) {
            unsigned = Array(last.content)
            children.removeLast()
        }
        var writer = DERWriter()
        writer.sequence { info in
            info.appendEncoded(type.encoded)
            info.explicit(0) { content in
                content.sequence { body in
                    for part in parts { body.appendEncoded(part.encoded) }
                    body.set { set in
                        set.sequence { signer in
                            for child in children { signer.appendEncoded(child.encoded) }
                            signer.append(tag: .context(1), content: unsigned + attribute.bytes)
                        }
                    }
                }
            }
        }
        return writer.bytes
    }
}
