/// The extensions of a certificate Autograph reads itself (RFC 5280 §4.2).
extension Certificate {
    /// The extended key usage (RFC 5280 §4.2.1.12): its purposes and whether the extension is
    /// critical; nil when the certificate has none (or it cannot be read).
    package var extendedKeyUsage: (purposes: [ObjectIdentifier], critical: Bool)? {
        guard let (critical, value) = try? extensionValue(.extendedKeyUsage) else { return nil }
        var reader = DERReader(value)
        guard
            let purposes = try? reader.readSequence({ (list) throws(SigningError) -> [ObjectIdentifier] in
                var purposes: [ObjectIdentifier] = []
                while !list.isAtEnd { purposes.append(try list.readObjectIdentifier()) }
                return purposes
            })
        else { return nil }
        return (purposes, critical)
    }

    /// The extension `identifier`'s criticality and value (the extnValue's octets); nil when absent.
    /// - Throws: `.malformedData` when the certificate's DER cannot be walked to its extensions.
    package func extensionValue(_ identifier: ObjectIdentifier) throws(SigningError) -> (Bool, [UInt8])? {
        var reader = DERReader(derBytes)
        var certificate = try reader.readNode(.sequence).contentReader()
        var fields = try certificate.readNode(.sequence).contentReader()
        while !fields.isAtEnd {
            let node = try fields.readNode()
            guard node.tag == .context(3) else { continue }
            var explicit = try node.contentReader()
            var extensions = try explicit.readNode(.sequence).contentReader()
            while !extensions.isAtEnd {
                var entry = try extensions.readNode(.sequence).contentReader()
                guard try entry.readObjectIdentifier() == identifier else { continue }
                let critical = entry.peekTag() == .boolean ? try entry.readBoolean() : false
                return (critical, Array(try entry.readOctetString()))
            }
        }
        return nil
    }
}

extension ObjectIdentifier {
    /// id-ce-extKeyUsage (RFC 5280 §4.2.1.12).
    package static let extendedKeyUsage: ObjectIdentifier = "2.5.29.37"
    /// id-kp-timeStamping (RFC 5280 §4.2.1.12).
    package static let timeStamping: ObjectIdentifier = "1.3.6.1.5.5.7.3.8"
}
