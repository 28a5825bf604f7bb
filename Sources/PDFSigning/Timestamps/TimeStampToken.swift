/// An RFC 3161 time-stamp token (§2.4.2): a CMS SignedData whose content is a `TSTInfo` — the
/// time an authority saw a hash — signed by the authority's time-stamping key.
///
/// Reading a token checks only its form; ``problem(imprint:algorithm:nonce:)`` checks everything
/// else: the authority's signature, the message digest of the `TSTInfo`, that the signing
/// certificate may stamp time (a critical extended key usage of `id-kp-timeStamping` alone, RFC
/// 3161 §2.3) and was valid at the time stamped, the imprint, and the nonce when one was sent.
/// Whether that certificate chains to a trusted root is the validator's question.
public struct TimeStampToken: Sendable {
    /// The token's DER (a ContentInfo), as stored in a signature's unsigned attributes or in a
    /// document time-stamp's `/Contents`.
    public let encoded: [UInt8]
    /// The time stamped (`genTime`), in seconds since 1970 (fractions of a second dropped).
    public let time: Int
    /// The authority's policy (a dotted object identifier).
    public let policy: String
    /// The token's serial number in upper-case hexadecimal.
    public let serialNumber: String
    /// The hash algorithm of ``messageImprint``; nil for one Autograph does not compute (SHA-1 …).
    public let digestAlgorithm: DigestAlgorithm?
    /// The hash the authority stamped.
    public let messageImprint: [UInt8]
    /// The nonce (the magnitude of the INTEGER), when the request sent one.
    public let nonce: [UInt8]?
    /// The certificates the token carries.
    public let certificates: [Certificate]
    /// The authority's signing certificate, when the token carries it.
    public let signerCertificate: Certificate?

    let signedData: CMSSignedData

    /// Reads a token.
    /// - Throws: `.malformedData` when it is not a SignedData of one signer holding a `TSTInfo`.
    public init(der: [UInt8]) throws(SigningError) {
        let signedData = try CMSSignedData(der: der)
        guard signedData.contentType == .tstInfo, let content = signedData.content else {
            throw SigningError(.malformedData, "time-stamp token: the content is not a TSTInfo")
        }
        guard signedData.signerInfos.count == 1, let signerInfo = signedData.signerInfos.first else {
            throw SigningError(
                .malformedData, "time-stamp token: \(signedData.signerInfos.count) signers instead of one")
        }
        var reader = DERReader(content)
        var fields: (Int, String, AlgorithmIdentifier, [UInt8], ArraySlice<UInt8>, [UInt8]?)?
        try reader.readSequence { (info) throws(SigningError) in
            guard try info.readInt() == 1 else { throw SigningError(.malformedData, "TSTInfo: version is not 1") }
            let policy = try info.readObjectIdentifier()
            let (algorithm, hash) = try info.readSequence { (imprint) throws(SigningError) in
                (try AlgorithmIdentifier(from: &imprint), Array(try imprint.readOctetString()))
            }
            let serial = try info.readInteger()
            let time = try info.readTime()
            _ = try info.readOptionalNode(.sequence)  // accuracy
            _ = try info.readOptionalNode(.boolean)  // ordering
            let nonce = try info.readOptionalNode(.integer).map { Array($0.content.drop { $0 == 0 }) }
            while !info.isAtEnd { _ = try info.readNode() }  // tsa [0], extensions [1]
            fields = (time, policy.description, algorithm, hash, serial, nonce)
        }
        try reader.finish()
        guard let (time, policy, algorithm, hash, serial, nonce) = fields else {
            throw SigningError(.malformedData, "time-stamp token: no TSTInfo")
        }
        self.encoded = signedData.encoded
        self.time = time
        self.policy = policy
        self.serialNumber = serial.drop { $0 == 0 }.map { String($0, radix: 16, uppercase: true) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        self.digestAlgorithm = DigestAlgorithm(objectIdentifier: algorithm.algorithm)
        self.messageImprint = hash
        self.nonce = nonce
        self.certificates = signedData.certificates
        self.signerCertificate = signedData.signerCertificate(for: signerInfo)
        self.signedData = signedData
    }

    /// The authority's name: its signing certificate's subject, when the token carries it.
    public var authority: String? { signerCertificate?.subject }

    /// Why the token does not stamp `imprint` (an `algorithm` hash) validly, or nil when it does:
    /// the first problem found among the signature, the `TSTInfo`'s digest, the certificate's
    /// purpose and validity, the imprint and, when `nonce` is given, the nonce.
    public func problem(imprint: [UInt8], algorithm: DigestAlgorithm, nonce: [UInt8]? = nil) -> String? {
        guard let signerInfo = signedData.signerInfos.first else { return "the token has no signer" }
        guard let certificate = signerCertificate else {
            return "the token does not carry the authority's certificate"
        }
        guard let digest = signerInfo.digest, let content = signedData.content,
            let hashed = try? digest.hash(content), signerInfo.messageDigest == hashed
        else { return "the TSTInfo does not match the digest the authority signed" }
        guard signerInfo.contentType == nil || signerInfo.contentType == .tstInfo else {
            return "the authority signed another content type"
        }
        guard signedData.verifySignature(of: signerInfo) else { return "the authority's signature is not valid" }
        switch certificate.extendedKeyUsage {
        case nil: return "the authority's certificate has no extended key usage (RFC 3161 needs timeStamping)"
        case let usage?:
            guard usage.purposes == [.timeStamping] else {
                return "the authority's certificate is not for time-stamping alone (RFC 3161 §2.3)"
            }
            guard usage.critical else { return "the authority's extended key usage is not critical (RFC 3161 §2.3)" }
        }
        guard certificate.isValid(at: time) else {
            return "the authority's certificate was not valid at the time stamped"
        }
        guard digestAlgorithm == algorithm, messageImprint == imprint else {
            return "the token stamps another hash than the one asked for"
        }
        if let nonce, self.nonce != Array(nonce.drop { $0 == 0 }) {
            return "the token's nonce is not the request's"
        }
        return nil
    }

    /// Checks the token against the request it answers (see ``problem(imprint:algorithm:nonce:)``).
    /// - Throws: `.timestampFailed` (−146) naming the problem.
    public func check(answering request: TimeStampRequest) throws(SigningError) {
        if let problem = problem(
            imprint: request.messageImprint, algorithm: request.digestAlgorithm, nonce: request.nonce)
        {
            throw SigningError(.timestampFailed, "the time-stamp is not valid: \(problem)")
        }
    }
}
