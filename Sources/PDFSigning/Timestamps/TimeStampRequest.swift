import AutographCrypto

/// An RFC 3161 time-stamp request (`TimeStampReq`, §2.4.1): the hash to stamp, a nonce that ties
/// the answer to this request, an optional policy, and whether the authority puts its certificate
/// in the token (needed to check the token without another source).
public struct TimeStampRequest: Sendable, Hashable {
    /// The algorithm of ``messageImprint``.
    public var digestAlgorithm: DigestAlgorithm
    /// The hash of the data to stamp (for a signature time-stamp, of the signature value).
    public var messageImprint: [UInt8]
    /// The nonce as the magnitude of a positive INTEGER, big-endian; the token must carry it back.
    public var nonce: [UInt8]
    /// The policy asked for (a dotted object identifier); nil lets the authority choose.
    public var policy: String?
    /// Whether the token must hold the authority's certificate (`certReq`).
    public var certificateRequested: Bool

    /// A request for `imprint`, the `algorithm` hash of the data, with a random 64-bit nonce.
    /// - Throws: `.invalidArgument` when the imprint's length is not the algorithm's;
    ///   `.signingFailed` when no random nonce can be drawn.
    public init(
        imprint: [UInt8], algorithm: DigestAlgorithm, policy: String? = nil, certificateRequested: Bool = true
    ) throws(SigningError) {
        guard imprint.count == algorithm.length else {
            throw SigningError(
                .invalidArgument, "a \(algorithm) imprint has \(algorithm.length) bytes, not \(imprint.count)")
        }
        if let policy, ObjectIdentifier(policy) == nil {
            throw SigningError(.invalidArgument, "the time-stamp policy \(policy) is not an object identifier")
        }
        var nonce: [UInt8]
        do {
            nonce = try SecureRandom.bytes(8)
        } catch {
            throw SigningError(.signingFailed, "no random nonce for the time-stamp request: \(error)")
        }
        nonce[0] &= 0x7F
        if nonce[0] == 0 { nonce[0] = 1 }  // eight significant bytes, and positive
        self.digestAlgorithm = algorithm
        self.messageImprint = imprint
        self.nonce = nonce
        self.policy = policy
        self.certificateRequested = certificateRequested
    }

    /// A request for the `algorithm` hash of `data`.
    /// - Throws: as ``init(imprint:algorithm:policy:certificateRequested:)``.
    public init(
        hashing data: [UInt8], algorithm: DigestAlgorithm = .sha256, policy: String? = nil
    ) throws(SigningError) {
        try self.init(imprint: try algorithm.hash(data), algorithm: algorithm, policy: policy)
    }

    /// The DER of the `TimeStampReq` (`application/timestamp-query`, RFC 3161 §3.4).
    public var encoded: [UInt8] {
        var writer = DERWriter()
        writer.sequence { request in
            request.integer(1)
            Self.writeImprint(algorithm: digestAlgorithm, hash: messageImprint, into: &request)
            if let policy, let identifier = ObjectIdentifier(policy) { request.objectIdentifier(identifier) }
            request.integer(unsignedBytes: nonce)
            if certificateRequested { request.boolean(true) }  // DEFAULT FALSE is omitted
        }
        return writer.bytes
    }

    /// `MessageImprint ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier, hashedMessage OCTET STRING }`.
    static func writeImprint(algorithm: DigestAlgorithm, hash: [UInt8], into writer: inout DERWriter) {
        writer.sequence { imprint in
            algorithm.algorithmIdentifier.write(to: &imprint)
            imprint.octetString(hash)
        }
    }
}
