public import PDFCore

/// Something that turns a document digest into a CMS SignedData (ARCHITECTURE.md "Signing
/// pipeline"): a local key, an app's callback (signo `computeDigitalSignature`), or a remote service
/// that signs the hash of our signed attributes. Every call is `async`.
public protocol Signer: Sendable {
    /// The signer's certificate followed by its chain, when known before signing (for `/Name`,
    /// the appearance and the size estimate); empty when only the CMS will tell.
    var certificates: [Certificate] { get }

    /// The bytes to reserve for the CMS (generous; adaptive sizing corrects a wrong guess).
    var estimatedSize: Int { get }

    /// The detached CMS SignedData (DER) whose messageDigest is `digest`.
    /// - Throws: `SigningError` (`.cancelled` when a person or a delegate declines).
    func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8]
}

extension Signer {
    /// The common name of the signer's certificate (`CN=`), when known.
    public var signerName: String? {
        guard let subject = certificates.first?.subject else { return nil }
        for part in subject.split(separator: ",") {
            let trimmed = part.drop { $0 == " " }
            if trimmed.hasPrefix("CN=") { return String(trimmed.dropFirst(3)) }
        }
        return subject
    }

    /// An estimate from the certificates: their size, the signature, attributes and room to spare.
    static func estimate(certificates: [Certificate], signatureBytes: Int) -> Int {
        let certificateBytes = certificates.reduce(0) { $0 + $1.derBytes.count }
        return certificateBytes + signatureBytes + 2048
    }
}

/// Signs with a local key: a PKCS#12 file and its password, or a PEM key with its certificate and chain.
public struct LocalKeySigner: Signer {
    /// The private key that signs.
    public let key: PrivateKey
    /// The signer's certificate; its public key is ``key``'s.
    public let certificate: Certificate
    /// The intermediate (and root) certificates embedded after the signer's.
    public let chain: [Certificate]
    /// The raw signature scheme: PKCS#1 v1.5, PSS or ECDSA.
    public var scheme: SignatureScheme
    /// The signer's certificate, then the chain.
    public var certificates: [Certificate] { [certificate] + chain }
    /// The certificates' size, 1,024 bytes for the signature, and 2,048 for attributes and spare room.
    public var estimatedSize: Int { Self.estimate(certificates: certificates, signatureBytes: 1024) }

    /// - Parameters:
    ///   - key: the private key that signs.
    ///   - certificate: the signer's certificate; its public key must be `key`'s.
    ///   - chain: the intermediate (and root) certificates to embed.
    ///   - scheme: the raw signature scheme (PKCS#1 v1.5, PSS or ECDSA).
    ///   - allowExpired: sign even when the certificate is outside its validity (otherwise -138).
    ///   - now: the time the validity is checked at (seconds since 1970).
    /// - Throws: `.noPrivateKey` (-127), `.privateKeyNotFound` (-133) when key and certificate do not
    ///   match, `.certificateExpired` (-138).
    public init(
        key: PrivateKey, certificate: Certificate, chain: [Certificate] = [], scheme: SignatureScheme? = nil,
        allowExpired: Bool = false, now: Int = PDFDate.now().seconds
    ) throws(SigningError) {
        guard key.matches(certificate) else {
            throw SigningError(
                .privateKeyNotFound, "the private key does not belong to the certificate \(certificate.subject)")
        }
        guard allowExpired || certificate.isValid(at: now) else {
            throw SigningError(
                .certificateExpired,
                "the certificate \(certificate.subject) is not valid now (it expired or is not yet valid)")
        }
        self.key = key
        self.certificate = certificate
        self.chain = chain.filter { $0 != certificate }
        self.scheme = scheme ?? key.defaultScheme
    }

    /// Opens a PKCS#12 key container.
    /// - Throws: `.keyContainerNotFound` (-123), `.keyContainerUnreadable` (-124),
    ///   `.wrongKeyContainerPassword` (-125), `.unsupportedKeyContainer` (-126), `.noPrivateKey` (-127),
    ///   `.certificateNotFound` (-147), `.certificateExpired` (-138).
    public init(
        pkcs12 path: String, password: String?, scheme: SignatureScheme? = nil, allowExpired: Bool = false,
        now: Int = PDFDate.now().seconds
    ) throws(SigningError) {
        let bytes = try LocalKeySigner.read(path, missing: .keyContainerNotFound)
        let container = try PKCS12Container.load(bytes, password: password)
        guard let key = container.key else { throw SigningError(.noPrivateKey, "\(path) holds no private key") }
        guard let certificate = container.certificate else {
            throw SigningError(.certificateNotFound, "\(path) holds no certificate for its private key")
        }
        try self.init(
            key: key, certificate: certificate, chain: container.chain, scheme: scheme, allowExpired: allowExpired,
            now: now)
    }

    /// Reads a PEM key (optionally encrypted with `password`), the signer's certificate and its chain.
    /// - Throws: `.keyContainerNotFound` (-123), `.keyContainerUnreadable` (-124), `.wrongKeyContainerPassword`
    ///   (-125), `.certificateUnreadable` (-134), `.privateKeyNotFound` (-133), `.certificateExpired` (-138).
    public init(
        keyPEM keyPath: String, password: String? = nil, certificatePEM certificatePath: String,
        chainPEM chainPath: String? = nil,
        scheme: SignatureScheme? = nil, allowExpired: Bool = false, now: Int = PDFDate.now().seconds
    ) throws(SigningError) {
        let key = try PrivateKey(
            pem: try LocalKeySigner.read(keyPath, missing: .keyContainerNotFound), password: password)
        let certificates = Certificate.certificates(
            pem: try LocalKeySigner.read(certificatePath, missing: .certificateUnreadable))
        guard let certificate = certificates.first else {
            throw SigningError(.certificateUnreadable, "\(certificatePath) holds no PEM certificate")
        }
        var chain = Array(certificates.dropFirst())
        if let chainPath {
            chain += Certificate.certificates(pem: try LocalKeySigner.read(chainPath, missing: .certificateUnreadable))
        }
        try self.init(
            key: key, certificate: certificate, chain: chain, scheme: scheme, allowExpired: allowExpired, now: now)
    }

    /// The CMS SignedData made with the key: the signed attributes (content type, message digest, signing certificate,
    /// algorithm protection) signed with ``scheme``.
    /// - Throws: `SigningError` when the key cannot sign with the scheme and algorithm.
    public func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        let builder = CMSSignedDataBuilder(
            certificate: certificate, chain: chain, digestAlgorithm: algorithm, scheme: scheme)
        return try builder.sign(messageDigest: digest, with: key)
    }

    static func read(_ path: String, missing: SigningError.Code) throws(SigningError) -> [UInt8] {
        do {
            let source = try ByteSource(contentsOfFile: path)
            return withExtendedLifetime(source) { Array(source.buffer) }
        } catch {
            throw SigningError(missing, "cannot read \(path): \(error.message)")
        }
    }
}

/// The app makes the whole CMS from the document digest (signo `computeDigitalSignature`, WYSIWYS
/// `documentPreparedForSignature` → `embedSignature`). Returning nil cancels. The CMS is checked
/// before it is embedded: its messageDigest must be the document's.
public struct ExternalCMSSigner: Signer {
    /// The signer's certificate and chain when the app knows them; empty when only the CMS will tell.
    public let certificates: [Certificate]
    /// The bytes to reserve for the CMS, as given or estimated at initialisation.
    public let estimatedSize: Int
    private let callback: @Sendable ([UInt8], DigestAlgorithm) async -> [UInt8]?

    /// - Parameters:
    ///   - certificates: the signer's certificate and chain when the app knows them (for the appearance and size).
    ///   - estimatedSize: the bytes to reserve (by default estimated from the certificates, else 16 KB);
    ///     too small costs one more round, never a failure.
    ///   - callback: gets the digest and its algorithm and returns the whole DER CMS, or nil to cancel.
    public init(
        certificates: [Certificate] = [], estimatedSize: Int? = nil,
        callback: @escaping @Sendable (_ digest: [UInt8], _ algorithm: DigestAlgorithm) async -> [UInt8]?
    ) {
        self.certificates = certificates
        self.estimatedSize =
            estimatedSize
            ?? (certificates.isEmpty ? 16_384 : Self.estimate(certificates: certificates, signatureBytes: 1024))
        self.callback = callback
    }

    /// The CMS the callback returns for `digest`, after checking that its messageDigest is `digest`.
    /// - Throws: `SigningError` `.cancelled` when the callback returns nil, `.malformedData` when the CMS
    ///   cannot be read, `.signingFailed` when its messageDigest is missing or another.
    public func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        guard let cms = await callback(digest, algorithm) else {
            throw SigningError(.cancelled, "the signer returned no signature")
        }
        try CMSCheck.messageDigest(of: cms, matches: digest)
        return cms
    }
}

/// A remote key (HSM, cloud KMS, a CSC API service) signs the hash of our signed attributes; we
/// assemble the CMS around its raw signature and the certificate chain it gives.
public struct RawSignatureSigner: Signer {
    /// The signer's certificate first, then its chain.
    public let certificates: [Certificate]
    /// The raw signature scheme the remote key uses.
    public let scheme: SignatureScheme
    /// The certificates' size, 1,024 bytes for the signature, and 2,048 for attributes and spare room.
    public var estimatedSize: Int { Self.estimate(certificates: certificates, signatureBytes: 1024) }
    private let sign: @Sendable ([UInt8], DigestAlgorithm) async -> [UInt8]?

    /// - Parameters:
    ///   - certificates: the signer's certificate first, then its chain.
    ///   - scheme: the raw signature scheme the remote key uses.
    ///   - sign: gets the digest of the DER signed attributes and returns the raw signature
    ///     (PKCS#1 v1.5 or PSS bytes, or a DER ECDSA signature), or nil to cancel.
    public init(
        certificates: [Certificate], scheme: SignatureScheme,
        sign: @escaping @Sendable (_ attributesDigest: [UInt8], _ algorithm: DigestAlgorithm) async -> [UInt8]?
    ) throws(SigningError) {
        guard !certificates.isEmpty else {
            throw SigningError(.certificateNotFound, "a raw signer needs its certificate")
        }
        self.certificates = certificates
        self.scheme = scheme
        self.sign = sign
    }

    /// The CMS assembled around the raw signature the remote key makes of the signed attributes' digest.
    /// - Throws: `SigningError` `.cancelled` when the remote key returns nil, `.signingFailed` when
    ///   its signature does not verify with the signer's certificate.
    public func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        let builder = CMSSignedDataBuilder(
            certificate: certificates[0], chain: Array(certificates.dropFirst()), digestAlgorithm: algorithm,
            scheme: scheme)
        let attributes = try builder.signedAttributes(messageDigest: digest)
        let toSign = try algorithm.hash(attributes)
        guard let signature = await sign(toSign, algorithm) else {
            throw SigningError(.cancelled, "the signing service returned no signature")
        }
        // A wrong signature is caught here rather than by every validator later.
        guard
            certificates[0].verify(signature: signature, digest: toSign, digestAlgorithm: algorithm, scheme: scheme)
        else {
            throw SigningError(.signingFailed, "the signing service's signature does not verify with the certificate")
        }
        return builder.assemble(signedAttributes: attributes, signature: signature)
    }
}
