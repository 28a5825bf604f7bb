/// An OCSP response (RFC 6960 §4.2): the responder's status and, when it is successful, a
/// `BasicOCSPResponse` — the status of one or more certificates, signed by the certificates'
/// issuer or by a responder it delegated.
///
/// Reading a response checks its form only; ``problem(for:issuer:at:nonce:)`` says whether it can
/// be relied on for a certificate (signature, responder, coverage, freshness, nonce), and
/// ``status(of:issuer:)`` what it says of it. ``encoded`` is what a PDF keeps in its document
/// security store (`/DSS /OCSPs`, ISO 32000-2 §12.8.4.3).
///
/// ```
/// OCSPResponse ::= SEQUENCE { responseStatus ENUMERATED, responseBytes [0] EXPLICIT ResponseBytes OPTIONAL }
/// ResponseBytes ::= SEQUENCE { responseType OBJECT IDENTIFIER, response OCTET STRING }
/// BasicOCSPResponse ::= SEQUENCE { tbsResponseData ResponseData, signatureAlgorithm AlgorithmIdentifier,
///     signature BIT STRING, certs [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
/// ResponseData ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, responderID ResponderID,
///     producedAt GeneralizedTime, responses SEQUENCE OF SingleResponse,
///     responseExtensions [1] EXPLICIT Extensions OPTIONAL }
/// ```
public struct OCSPResponse: Sendable {
    /// The responder's `OCSPResponseStatus` (RFC 6960 §4.2.1); only ``successful`` carries statuses.
    public enum Status: Int, Hashable, Sendable, CustomStringConvertible {
        /// The response has valid confirmations.
        case successful = 0
        /// The request was not understood.
        case malformedRequest = 1
        /// The responder is in an inconsistent state.
        case internalError = 2
        /// The responder cannot answer now; try again later.
        case tryLater = 3
        /// The responder wants signed requests (`sigRequired`).
        case signatureRequired = 5
        /// The client may not ask this responder (RFC 5019 §2.2.3: it does not answer for this issuer).
        case unauthorized = 6

        /// The name RFC 6960 gives the status (`tryLater`, `sigRequired` …).
        public var description: String {
            switch self {
            case .successful: "successful"
            case .malformedRequest: "malformedRequest"
            case .internalError: "internalError"
            case .tryLater: "tryLater"
            case .signatureRequired: "sigRequired"
            case .unauthorized: "unauthorized"
            }
        }
    }

    /// How a response names its signer (RFC 6960 §4.2.1, `ResponderID`).
    public enum ResponderID: Hashable, Sendable {
        /// `byName`: the complete DER of the responder certificate's subject Name.
        case name([UInt8])
        /// `byKey`: the SHA-1 hash of the responder's `subjectPublicKey` BIT STRING content.
        case keyHash([UInt8])
    }

    /// What the response says of one certificate (RFC 6960 §4.2.1, `SingleResponse`).
    public struct SingleResponse: Hashable, Sendable {
        /// The certificate's serial number, in upper-case hexadecimal (as ``Certificate/serialNumber``).
        public let serialNumber: String
        /// Its status.
        public let status: CertificateStatus
        /// When the status was known to be correct, in seconds since 1970 (fractions dropped).
        public let thisUpdate: Int
        /// When newer information will be available, in seconds since 1970; nil when the responder
        /// always has newer information (RFC 6960 §4.2.2.1).
        public let nextUpdate: Int?
        /// The certificate it is about.
        package let certificateID: OCSPCertificateID
    }

    /// The complete DER of the `OCSPResponse`, as received: what goes into a document security
    /// store's `/OCSPs` (ISO 32000-2 §12.8.4.3).
    public let encoded: [UInt8]
    /// The responder's status; only a successful response carries certificate statuses.
    public let status: Status
    /// The DER of the `BasicOCSPResponse`; nil when the response has none (an unsuccessful status)
    /// or has another type.
    public let basicResponse: [UInt8]?
    /// How the response names its signer; nil without a basic response.
    public let responderID: ResponderID?
    /// When the responder signed the response, in seconds since 1970; nil without a basic response.
    public let producedAt: Int?
    /// The statuses the response gives, in its order.
    public let responses: [SingleResponse]
    /// The certificates the response carries (a delegated responder's, and perhaps its chain).
    public let certificates: [Certificate]
    /// The nonce the response echoes (RFC 6960 §4.4.1); nil when it carries none.
    public let nonce: [UInt8]?

    /// The `responseType`, when the response has `responseBytes`.
    package let responseType: ObjectIdentifier?
    /// The `tbsResponseData` DER, over which the responder signed.
    package let signedData: [UInt8]
    /// The responder's signature algorithm; nil without a basic response.
    package let signatureAlgorithm: AlgorithmIdentifier?
    /// The signature BIT STRING's octets; empty without a basic response.
    package let signature: [UInt8]
    /// The signature BIT STRING's unused bits (0 for every signature algorithm).
    package let signatureUnusedBits: Int

    /// Reads a response.
    ///
    /// - Parameter der: one DER `OCSPResponse` (BER with indefinite lengths is converted first;
    ///   what was signed is DER and keeps its bytes).
    /// - Throws: `.malformedData` when it is not an `OCSPResponse`, its status is not one RFC 6960
    ///   defines, or its basic response, a single response or a certificate in it cannot be read.
    public init(der: [UInt8]) throws(SigningError) {
        let bytes = BERConverter.needsConversion(der) ? try BERConverter.definiteLength(der).encoding : der
        var reader = DERReader(bytes)
        let (statusValue, body) = try reader.readSequence {
            (response) throws(SigningError) -> (Int, (ObjectIdentifier, [UInt8])?) in
            let status = try response.readEnumerated()
            let body = try response.readOptionalExplicit(0) {
                (explicit) throws(SigningError) -> (ObjectIdentifier, [UInt8]) in
                try explicit.readSequence { (responseBytes) throws(SigningError) in
                    (try responseBytes.readObjectIdentifier(), Array(try responseBytes.readOctetString()))
                }
            }
            return (status, body)
        }
        try reader.finish()
        guard let status = Status(rawValue: statusValue) else {
            throw SigningError(.malformedData, "OCSP: response status \(statusValue) is not defined")
        }
        self.encoded = der
        self.status = status
        self.responseType = body?.0
        let basic: Basic?
        if let (type, response) = body, type == .basicOCSPResponse {
            basic = try Basic(der: response)
            basicResponse = response
        } else {
            basic = nil
            basicResponse = nil
        }
        responderID = basic?.responderID
        producedAt = basic?.producedAt
        responses = basic?.responses ?? []
        certificates = basic?.certificates ?? []
        nonce = basic?.nonce
        signedData = basic?.signedData ?? []
        signatureAlgorithm = basic?.signatureAlgorithm
        signature = basic.map { Array($0.signature.bytes) } ?? []
        signatureUnusedBits = basic?.signature.unusedBits ?? 0
    }

    /// The fields of a `BasicOCSPResponse`.
    private struct Basic {
        var signedData: [UInt8] = []
        var responderID: ResponderID = .keyHash([])
        var producedAt = 0
        var responses: [SingleResponse] = []
        var nonce: [UInt8]?
        var signatureAlgorithm = AlgorithmIdentifier(.sha256)
        var signature = DERBitString(bytes: [], unusedBits: 0)
        var certificates: [Certificate] = []

        init(der: [UInt8]) throws(SigningError) {
            var reader = DERReader(der)
            try reader.readSequence { (basic) throws(SigningError) in
                let data = try basic.readNode(.sequence)
                signedData = Array(data.encoded)
                var fields = try data.contentReader()
                try readResponseData(&fields)
                try fields.finish()
                signatureAlgorithm = try AlgorithmIdentifier(from: &basic)
                signature = try basic.readBitString()
                let list = try basic.readOptionalExplicit(0) { (explicit) throws(SigningError) in
                    try explicit.readNode(.sequence)
                }
                if let list {
                    var items = try list.contentReader()
                    while !items.isAtEnd {
                        let node = try items.readNode(.sequence)
                        do throws(SigningError) {
                            certificates.append(try Certificate(der: Array(node.encoded)))
                        } catch {
                            throw SigningError(.malformedData, "OCSP: a certificate is unreadable: \(error.message)")
                        }
                    }
                }
            }
            try reader.finish()
        }

        private mutating func readResponseData(_ fields: inout DERReader) throws(SigningError) {
            let version = try fields.readOptionalExplicit(0) { (explicit) throws(SigningError) in
                try explicit.readInt()
            }
            if let version, version != 0 {
                throw SigningError(.malformedData, "OCSP: ResponseData version \(version + 1) is not v1")
            }
            let responder = try fields.readNode()
            if responder.tag == .context(1) {
                var name = try responder.contentReader()
                responderID = .name(Array(try name.readNode(.sequence).encoded))
                try name.finish()
            } else if responder.tag == .context(2) {
                var key = try responder.contentReader()
                responderID = .keyHash(Array(try key.readOctetString()))
                try key.finish()
            } else {
                throw SigningError(.malformedData, "OCSP: the responder ID is \(responder.tag), not [1] or [2]")
            }
            producedAt = try fields.readTime()
            try fields.readSequence { (list) throws(SigningError) in
                while !list.isAtEnd { responses.append(try Self.readSingleResponse(&list)) }
            }
            _ = try fields.readOptionalExplicit(1) { (explicit) throws(SigningError) in
                try explicit.readSequence { (extensions) throws(SigningError) in
                    while !extensions.isAtEnd {
                        try extensions.readSequence { (entry) throws(SigningError) in
                            let identifier = try entry.readObjectIdentifier()
                            _ = try entry.readOptionalNode(.boolean)
                            let value = try entry.readOctetString()
                            guard identifier == .ocspNonceExtension else { return }
                            // RFC 9654: the extnValue holds a DER OCTET STRING; RFC 2560's responders
                            // put the nonce's octets there as they are.
                            var inner = DERReader(value)
                            if let octets = try? inner.readOctetString(), inner.isAtEnd {
                                nonce = Array(octets)
                            } else {
                                nonce = Array(value)
                            }
                        }
                    }
                }
            }
        }

        /// `SingleResponse ::= SEQUENCE { certID CertID, certStatus CertStatus, thisUpdate
        /// GeneralizedTime, nextUpdate [0] EXPLICIT GeneralizedTime OPTIONAL, singleExtensions [1]
        /// EXPLICIT Extensions OPTIONAL }`.
        private static func readSingleResponse(_ list: inout DERReader) throws(SigningError) -> SingleResponse {
            try list.readSequence { (single) throws(SigningError) -> SingleResponse in
                let certificateID = try OCSPCertificateID(from: &single)
                let statusNode = try single.readNode()
                let status: CertificateStatus
                if statusNode.tag == .context(0, constructed: false) {  // good [0] IMPLICIT NULL
                    guard statusNode.content.isEmpty else {
                        throw SigningError(.malformedData, "OCSP: the good status has content")
                    }
                    status = .good
                } else if statusNode.tag == .context(1) {  // revoked [1] IMPLICIT RevokedInfo
                    var info = try statusNode.contentReader()
                    let time = try info.readTime()
                    let reason = try info.readOptionalExplicit(0) { (explicit) throws(SigningError) in
                        try explicit.readEnumerated()
                    }
                    try info.finish()
                    status = .revoked(time: time, reason: reason.flatMap(RevocationReason.init(rawValue:)))
                } else if statusNode.tag == .context(2, constructed: false) {  // unknown [2] IMPLICIT UnknownInfo
                    status = .unknown
                } else {
                    throw SigningError(.malformedData, "OCSP: the certificate status is \(statusNode.tag)")
                }
                let thisUpdate = try single.readTime()
                let nextUpdate = try single.readOptionalExplicit(0) { (explicit) throws(SigningError) in
                    try explicit.readTime()
                }
                _ = try single.readOptionalNode(.context(1))  // singleExtensions
                var serial = DERReader(certificateID.serialDER)
                let magnitude = try serial.readInteger().drop { $0 == 0 }
                return SingleResponse(
                    serialNumber: magnitude.isEmpty ? "00" : Hex.uppercase(magnitude), status: status,
                    thisUpdate: thisUpdate, nextUpdate: nextUpdate, certificateID: certificateID)
            }
        }
    }
}
