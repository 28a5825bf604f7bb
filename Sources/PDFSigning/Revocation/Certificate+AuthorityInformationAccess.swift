/// Where to ask about a certificate: the authority information access extension (RFC 5280 §4.2.2.1).
extension Certificate {
    /// The URLs of the OCSP responders that answer for this certificate (access method id-ad-ocsp of
    /// the authority information access extension, RFC 5280 §4.2.2.1), in the extension's order.
    ///
    /// Only `uniformResourceIdentifier` locations are taken; empty when the certificate has no such
    /// extension or it cannot be read.
    public var ocspURLs: [String] {
        authorityInformationAccessURLs(.ocspResponderAccess)
    }

    /// The URLs where the certificates of this certificate's issuer can be downloaded (access method
    /// id-ad-caIssuers, RFC 5280 §4.2.2.1: a DER certificate or a "certs-only" CMS), in order.
    ///
    /// Only `uniformResourceIdentifier` locations are taken; empty when there is none or the
    /// extension cannot be read.
    public var caIssuersURLs: [String] {
        authorityInformationAccessURLs(.caIssuersAccess)
    }

    /// The `uniformResourceIdentifier` locations (`[6] IMPLICIT IA5String`) of the access
    /// descriptions with `method` in `AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF
    /// AccessDescription`. Other kinds of location and URLs holding spaces or control characters
    /// are skipped; an extension that cannot be read gives none.
    package func authorityInformationAccessURLs(_ method: ObjectIdentifier) -> [String] {
        guard let (_, value) = try? extensionValue(.authorityInformationAccess) else { return [] }
        var reader = DERReader(value)
        let urls = try? reader.readSequence { (list) throws(SigningError) -> [String] in
            var urls: [String] = []
            while !list.isAtEnd {
                try list.readSequence { (description) throws(SigningError) in
                    let accessMethod = try description.readObjectIdentifier()
                    let location = try description.readNode()
                    guard accessMethod == method, location.tag == .context(6, constructed: false),
                        !location.content.isEmpty, location.content.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
                    else { return }
                    urls.append(String(decoding: location.content, as: UTF8.self))
                }
            }
            return urls
        }
        guard let urls, reader.isAtEnd else { return [] }
        return urls
    }
}
