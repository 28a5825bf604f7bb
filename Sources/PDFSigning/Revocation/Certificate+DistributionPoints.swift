import HTTPClient

/// Where a certificate's issuer publishes its CRLs: the cRLDistributionPoints extension (RFC 5280
/// §4.2.1.13).
extension Certificate {
    /// The http and https URLs of the certificate's CRL distribution points (RFC 5280 §4.2.1.13), in
    /// the certificate's order, without repeats.
    ///
    /// Only distribution points that name their CRL by a full name (`distributionPoint [0]` →
    /// `fullName [0]` → `uniformResourceIdentifier [6]`) count, and only those whose CRL covers every
    /// reason and is issued by the certificate's issuer (no `reasons`, no `cRLIssuer`: partial and
    /// indirect CRLs are not used). LDAP and other schemes are left out. Empty when the certificate
    /// has no such extension or it cannot be read.
    public var crlDistributionPointURLs: [String] {
        var urls: [String] = []
        for uri in crlDistributionPointNames where HTTPClientRequest.isHTTP(uri) && !urls.contains(uri) {
            urls.append(uri)
        }
        return urls
    }

    /// Every URI (any scheme) that the full names of the certificate's complete, direct distribution
    /// points give — the names an issuing distribution point of a CRL is matched against (RFC 5280
    /// §6.3.3 (b)(2)(i)); empty when the certificate has none or its extension cannot be read.
    package var crlDistributionPointNames: [String] {
        guard let (_, value) = try? extensionValue(.crlDistributionPoints) else { return [] }
        var reader = DERReader(value)
        let names = try? reader.readSequence { (points) throws(SigningError) -> [String] in
            var names: [String] = []
            while !points.isAtEnd {
                try points.readSequence { (point) throws(SigningError) in
                    let uris = try point.readOptionalExplicit(0) { (name) throws(SigningError) in
                        try Self.distributionPointURIs(&name)
                    }
                    let partial = try point.readOptionalNode(.context(1, constructed: false)) != nil
                    let indirect = try point.readOptionalNode(.context(2)) != nil
                    guard !partial, !indirect, let uris else { return }
                    names += uris
                }
            }
            return names
        }
        return names ?? []
    }

    /// The URIs of a `DistributionPointName` (RFC 5280 §4.2.1.13): `fullName [0] GeneralNames`, of
    /// which the `uniformResourceIdentifier [6]` IA5Strings; none for `nameRelativeToCRLIssuer [1]`.
    ///
    /// - Throws: `.malformedData` when the name cannot be read.
    static func distributionPointURIs(_ reader: inout DERReader) throws(SigningError) -> [String] {
        guard reader.peekTag() == .context(0) else {
            _ = try reader.readNode()  // nameRelativeToCRLIssuer [1]
            return []
        }
        return try reader.readConstructed(.context(0)) { (names) throws(SigningError) -> [String] in
            var uris: [String] = []
            while !names.isAtEnd {
                let name = try names.readNode()
                guard name.tag == .context(6, constructed: false) else { continue }
                guard name.content.allSatisfy({ $0 < 0x80 }) else {
                    throw SigningError(.malformedData, "a uniformResourceIdentifier is not an IA5String")
                }
                uris.append(String(decoding: name.content, as: UTF8.self))
            }
            return uris
        }
    }
}

extension ObjectIdentifier {
    /// id-ce-cRLDistributionPoints (RFC 5280 §4.2.1.13).
    package static let crlDistributionPoints: ObjectIdentifier = "2.5.29.31"
}
