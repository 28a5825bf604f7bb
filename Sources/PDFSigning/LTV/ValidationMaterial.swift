/// What a validator needs to check a signature years later without the network: the certificates
/// of its paths, and OCSP responses and CRLs for each certificate that can be revoked — each in
/// DER, as a PDF's `/DSS` stores them (ISO 32000-2 §12.8.4.3; ETSI EN 319 142-1 §5.4.2).
public struct ValidationMaterial: Sendable, Hashable {
    /// Certificates (DER), the signer's and the authorities' paths.
    public var certificates: [[UInt8]] = []
    /// OCSP responses (DER `OCSPResponse`, RFC 6960 §4.2.1).
    public var ocspResponses: [[UInt8]] = []
    /// CRLs (DER `CertificateList`, RFC 5280 §5.1).
    public var crls: [[UInt8]] = []

    /// Material from its parts.
    public init(certificates: [[UInt8]] = [], ocspResponses: [[UInt8]] = [], crls: [[UInt8]] = []) {
        self.certificates = certificates
        self.ocspResponses = ocspResponses
        self.crls = crls
    }

    /// Whether there is nothing.
    public var isEmpty: Bool { certificates.isEmpty && ocspResponses.isEmpty && crls.isEmpty }

    /// Adds what `other` has and this has not (each item once, in order).
    public mutating func merge(_ other: ValidationMaterial) {
        for item in other.certificates where !certificates.contains(item) { certificates.append(item) }
        for item in other.ocspResponses where !ocspResponses.contains(item) { ocspResponses.append(item) }
        for item in other.crls where !crls.contains(item) { crls.append(item) }
    }
}
