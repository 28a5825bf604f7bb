/// The identifiers of certificate status checking (RFC 5280, RFC 6960). Their names spell out what
/// they identify, so that they stay apart from the certificate extensions other files declare.
extension ObjectIdentifier {
    /// id-pe-authorityInfoAccess, the authority information access extension (RFC 5280 §4.2.2.1).
    package static let authorityInformationAccess: ObjectIdentifier = "1.3.6.1.5.5.7.1.1"
    /// id-ad-ocsp: an access description naming an OCSP responder (RFC 5280 §4.2.2.1).
    package static let ocspResponderAccess: ObjectIdentifier = "1.3.6.1.5.5.7.48.1"
    /// id-ad-caIssuers: an access description naming the issuer's certificates (RFC 5280 §4.2.2.1).
    package static let caIssuersAccess: ObjectIdentifier = "1.3.6.1.5.5.7.48.2"
    /// id-pkix-ocsp-basic, the response type of a `BasicOCSPResponse` (RFC 6960 §4.2.1).
    package static let basicOCSPResponse: ObjectIdentifier = "1.3.6.1.5.5.7.48.1.1"
    /// id-pkix-ocsp-nonce, the nonce extension of requests and responses (RFC 6960 §4.4.1, RFC 9654).
    package static let ocspNonceExtension: ObjectIdentifier = "1.3.6.1.5.5.7.48.1.2"
    /// id-kp-OCSPSigning, the extended key usage of a delegated responder (RFC 6960 §4.2.2.2).
    package static let ocspSigningPurpose: ObjectIdentifier = "1.3.6.1.5.5.7.3.9"
    /// sha1WithRSAEncryption (RFC 3279 §2.2.1): old responders and certificates still sign with it;
    /// it is checked, never made.
    package static let sha1WithRSASignature: ObjectIdentifier = "1.2.840.113549.1.1.5"
    /// ecdsa-with-SHA1 (RFC 3279 §2.2.3), checked only.
    package static let ecdsaWithSHA1Signature: ObjectIdentifier = "1.2.840.10045.4.1"
}
