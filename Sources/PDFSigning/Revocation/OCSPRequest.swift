import AutographCrypto

/// An OCSP request (RFC 6960 §4.1) for one certificate: its `CertID` (SHA-1 hashes of the issuer's
/// Name and key, and the serial number) and a nonce that ties the response to this request (RFC
/// 6960 §4.4.1 as RFC 9654 restates it). Unsigned, as responders expect.
///
/// ```
/// OCSPRequest ::= SEQUENCE { tbsRequest TBSRequest }
/// TBSRequest  ::= SEQUENCE { requestList SEQUENCE OF Request, requestExtensions [2] EXPLICIT Extensions }
/// Request     ::= SEQUENCE { reqCert CertID }
/// ```
public struct OCSPRequest: Sendable, Hashable {
    /// The serial number of the certificate asked about, in upper-case hexadecimal (as
    /// ``Certificate/serialNumber``).
    public let serialNumber: String
    /// The nonce the response must echo, or nil when the request carries none.
    public let nonce: [UInt8]?
    /// The certificate asked about.
    package let certificateID: OCSPCertificateID

    /// The length of the nonce a request draws: 32 octets, as RFC 8954 §2.1 requires of clients and
    /// RFC 9654 §2.1 keeps as the minimum.
    public static let nonceLength = 32

    /// A request for `certificate`, issued by `issuer`, with a random nonce of ``nonceLength`` octets.
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is asked.
    ///   - issuer: the certificate of its issuer (whose subject is `certificate`'s issuer).
    /// - Throws: `.invalidArgument` when `issuer` is not the issuer of `certificate` (the Names
    ///   differ); `.malformedData` when the issuer's key cannot be read; `.signingFailed` when no
    ///   random nonce can be drawn.
    public init(certificate: Certificate, issuer: Certificate) throws(SigningError) {
        let nonce: [UInt8]
        do {
            nonce = try SecureRandom.bytes(Self.nonceLength)
        } catch {
            throw SigningError(.signingFailed, "no random nonce for the OCSP request: \(error)")
        }
        try self.init(certificate: certificate, issuer: issuer, nonce: nonce)
    }

    /// A request for `certificate`, issued by `issuer`, with the given nonce (for reproducible
    /// requests) or none.
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is asked.
    ///   - issuer: the certificate of its issuer.
    ///   - nonce: 1 to 128 octets (RFC 9654 §2.1), or nil for a request without a nonce extension.
    /// - Throws: `.invalidArgument` when `issuer` is not the issuer of `certificate` or the nonce's
    ///   length is out of range; `.malformedData` when the issuer's key cannot be read.
    public init(certificate: Certificate, issuer: Certificate, nonce: [UInt8]?) throws(SigningError) {
        guard certificate.issuerDER == issuer.subjectDER else {
            throw SigningError(
                .invalidArgument,
                "\(issuer.subject) is not the issuer of \(certificate.subject) (\(certificate.issuer))")
        }
        if let nonce, !(1...128).contains(nonce.count) {
            throw SigningError(.invalidArgument, "an OCSP nonce has 1 to 128 octets, not \(nonce.count)")
        }
        self.certificateID = try OCSPCertificateID(certificate: certificate, issuer: issuer)
        self.serialNumber = certificate.serialNumber
        self.nonce = nonce
    }

    /// The DER of the `OCSPRequest`, the body of an HTTP POST as `application/ocsp-request` (RFC 6960
    /// Appendix A.1).
    public var encoded: [UInt8] {
        var writer = DERWriter()
        writer.sequence { request in
            request.sequence { tbsRequest in
                // version [0] DEFAULT v1 and requestorName [1] are omitted.
                tbsRequest.sequence { list in
                    list.sequence { certificateID.write(to: &$0) }
                }
                if let nonce {
                    tbsRequest.explicit(2) { explicit in
                        explicit.sequence { extensions in
                            extensions.sequence { Self.writeNonceExtension(nonce, into: &$0) }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The nonce `Extension`'s content: its identifier and an extnValue holding the DER of
    /// `Nonce ::= OCTET STRING` (RFC 9654 §2.1: an OCTET STRING inside the extnValue OCTET STRING).
    static func writeNonceExtension(_ nonce: [UInt8], into writer: inout DERWriter) {
        writer.objectIdentifier(.ocspNonceExtension)
        var value = DERWriter()
        value.octetString(nonce)
        writer.octetString(value.bytes)
    }
}
