/// A CMS Attribute (RFC 5652 §5.3): a type and its values, each kept as its DER.
package struct CMSAttribute: Hashable, Sendable {
    package var type: ObjectIdentifier
    /// Each AttributeValue's complete encoding.
    package var values: [[UInt8]]

    /// Reads `Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }`.
    init(from reader: inout DERReader) throws(SigningError) {
        (type, values) = try reader.readSequence { (attribute) throws(SigningError) in
            let type = try attribute.readObjectIdentifier()
            let values = try attribute.readSet { (set) throws(SigningError) in
                var values: [[UInt8]] = []
                while !set.isAtEnd { values.append(Array(try set.readNode().encoded)) }
                return values
            }
            return (type, values)
        }
    }

    /// Reads a SET OF Attribute given as the node that holds it (`[0]`/`[1]` IMPLICIT).
    static func list(in node: DERNode) throws(SigningError) -> [CMSAttribute] {
        var reader = try node.contentReader()
        var attributes: [CMSAttribute] = []
        while !reader.isAtEnd { attributes.append(try CMSAttribute(from: &reader)) }
        return attributes
    }
}

/// One signer of a CMS SignedData (RFC 5652 §5.3), as read, with its original bytes.
package struct CMSSignerInfo: Sendable {
    /// How the SignerInfo names its certificate (RFC 5652 §5.3 SignerIdentifier).
    package enum Identifier: Hashable, Sendable {
        /// IssuerAndSerialNumber: the issuer Name's and the serial INTEGER's complete DER.
        case issuerAndSerialNumber(issuer: [UInt8], serial: [UInt8])
        /// subjectKeyIdentifier [0]: the key identifier's octets.
        case subjectKeyIdentifier([UInt8])
    }

    /// CMSVersion: 1 with IssuerAndSerialNumber, 3 with a subject key identifier.
    package var version: Int
    package var identifier: Identifier
    package var digestAlgorithm: AlgorithmIdentifier
    /// The signed attributes exactly as in the CMS, `[0]` tag included; nil when there are none.
    package var signedAttributesDER: [UInt8]?
    package var signedAttributes: [CMSAttribute]
    package var signatureAlgorithm: AlgorithmIdentifier
    /// The signature value's octets.
    package var signature: [UInt8]
    /// The unsigned attributes exactly as in the CMS, `[1]` tag included; nil when there are none.
    package var unsignedAttributesDER: [UInt8]?
    package var unsignedAttributes: [CMSAttribute]

    /// Reads a SignerInfo.
    init(from reader: inout DERReader) throws(SigningError) {
        var version = 0
        var identifier = Identifier.subjectKeyIdentifier([])
        var digestAlgorithm = AlgorithmIdentifier(.sha256)
        var signedNode: DERNode?
        var signatureAlgorithm = AlgorithmIdentifier(.sha256)
        var signature: [UInt8] = []
        var unsignedNode: DERNode?
        try reader.readSequence { (info) throws(SigningError) in
            version = try info.readInt()
            if let keyIdentifier = try info.readOptionalNode(.context(0, constructed: false)) {
                identifier = .subjectKeyIdentifier(Array(keyIdentifier.content))
            } else {
                identifier = try info.readSequence { (sid) throws(SigningError) in
                    let issuer = try sid.readNode(.sequence)
                    let serial = try sid.readNode(.integer)
                    return .issuerAndSerialNumber(issuer: Array(issuer.encoded), serial: Array(serial.encoded))
                }
            }
            digestAlgorithm = try AlgorithmIdentifier(from: &info)
            signedNode = try info.readOptionalNode(.context(0))
            signatureAlgorithm = try AlgorithmIdentifier(from: &info)
            signature = Array(try info.readOctetString())
            unsignedNode = try info.readOptionalNode(.context(1))
        }
        self.version = version
        self.identifier = identifier
        self.digestAlgorithm = digestAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
        self.signedAttributesDER = signedNode.map { Array($0.encoded) }
        self.signedAttributes =
            try signedNode.map { (node) throws(SigningError) in try CMSAttribute.list(in: node) } ?? []
        self.unsignedAttributesDER = unsignedNode.map { Array($0.encoded) }
        self.unsignedAttributes =
            try unsignedNode.map { (node) throws(SigningError) in try CMSAttribute.list(in: node) } ?? []
    }

    /// The digest algorithm, when it is one of the SHA-2 ones signatures are made with.
    package var digest: DigestAlgorithm? { DigestAlgorithm(objectIdentifier: digestAlgorithm.algorithm) }

    /// The first signed attribute of `type`.
    package func signedAttribute(_ type: ObjectIdentifier) -> CMSAttribute? {
        signedAttributes.first { $0.type == type }
    }

    /// The first unsigned attribute of `type`.
    package func unsignedAttribute(_ type: ObjectIdentifier) -> CMSAttribute? {
        unsignedAttributes.first { $0.type == type }
    }

    /// The signed messageDigest attribute's value (RFC 5652 §11.2), nil when absent or malformed.
    package var messageDigest: [UInt8]? {
        firstValue(of: .messageDigestAttribute).flatMap { (value) -> [UInt8]? in
            var reader = DERReader(value)
            return (try? reader.readOctetString()).map(Array.init)
        }
    }

    /// The signed contentType attribute's value (RFC 5652 §11.1).
    package var contentType: ObjectIdentifier? {
        firstValue(of: .contentTypeAttribute).flatMap { (value) -> ObjectIdentifier? in
            var reader = DERReader(value)
            return try? reader.readObjectIdentifier()
        }
    }

    /// The signed signingTime attribute (RFC 5652 §11.3) in seconds since 1970; PAdES signatures
    /// have none.
    package var signingTime: Int? {
        firstValue(of: .signingTimeAttribute).flatMap { (value) -> Int? in
            var reader = DERReader(value)
            return try? reader.readTime()
        }
    }

    /// The signature time-stamp token (RFC 3161 Appendix A): its ContentInfo's DER.
    package var timeStampToken: [UInt8]? {
        unsignedAttribute(.timeStampTokenAttribute)?.values.first
    }

    /// The bytes the signature covers: the signed attributes re-tagged as a SET OF (0x31), as
    /// RFC 5652 §5.4 says ("the IMPLICIT [0] tag … is not used for the DER encoding").
    package var signedAttributesToVerify: [UInt8]? {
        guard var bytes = signedAttributesDER, !bytes.isEmpty else { return nil }
        bytes[0] = 0x31
        return bytes
    }

    private func firstValue(of type: ObjectIdentifier) -> [UInt8]? {
        signedAttribute(type)?.values.first
    }
}
