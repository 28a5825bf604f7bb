public import PDFCore

/// Signs with a credential of a remote signing service through the CSC API (v1 or v2): only the
/// hash of our signed attributes travels; the service's raw signature is checked against the
/// credential's certificate and the CMS is assembled here.
///
/// ```swift
/// let client = try await CSCClient(baseURL: "https://qtsp.example")
/// let signer = try await CSCSigner(client: client, credentialID: "seal-1", pin: pin)
/// let signed = try await DocumentSigner(document: document, request: request, signer: signer).sign()
/// ```
///
/// Hashes are batched: while one `signatures/signHash` call is under way, the hashes of other
/// signatures made meanwhile with the same signer (several documents signed at once) wait and go
/// together in the next call, up to the credential's `multisign` and the initializer's `batchLimit`: one
/// authorization (one PIN entry, one SAD bound to all of them) and one signing call for the lot.
public struct CSCSigner: Signer {
    /// The credential: its certificates, key algorithms and authorization mode.
    public let credential: CSCCredential
    /// The raw signature scheme: PKCS#1 v1.5 or PSS for an RSA key, ECDSA for an EC key.
    public let scheme: SignatureScheme
    /// The signer's certificate, then the chain the service gives.
    public var certificates: [Certificate] { credential.certificates }
    /// The certificates' size, 1,024 bytes for the signature, and 2,048 for attributes and spare room.
    public var estimatedSize: Int { Self.estimate(certificates: certificates, signatureBytes: 1024) }
    let batcher: CSCBatcher

    /// Reads the credential and checks it can sign.
    ///
    /// - Parameters:
    ///   - client: the client of the service.
    ///   - credentialID: the credential's identifier (``CSCClient/credentialIDs(userID:)``).
    ///   - pin: its PIN, when its authorization mode is explicit.
    ///   - otp: its one-time password, when it asks for one (used once: one batch).
    ///   - authorizeCredential: for authorization mode `oauth2code`: gets the hashes to sign and
    ///     returns an access token of scope `credential` for them (the person authorized them at the
    ///     provider's page, see ``CSCOAuth/Authorization``), or throws `.cancelled`.
    ///   - scheme: `.rsaPSS` to sign an RSA key with PSS; nil is PKCS#1 v1.5 or ECDSA by the key.
    ///   - batchLimit: the most hashes one call signs (the credential's `multisign` caps it too).
    ///   - allowExpired: sign even when the certificate is outside its validity.
    ///   - now: the time the certificate's validity is checked at (seconds since 1970).
    /// - Throws: `.noPrivateKey` (−127) for an unknown or disabled credential; `.certificateNotFound`
    ///   (−147) when the service gives no certificate; `.certificateExpired` (−138) for a certificate
    ///   outside its validity; −127 for one the service says is revoked or suspended;
    ///   `.unsupportedAlgorithm` when the key is neither RSA nor EC, or offers no algorithm for the
    ///   scheme; `.invalidArgument` for an `oauth2code` credential without `authorizeCredential`.
    public init(
        client: CSCClient, credentialID: String, pin: String? = nil, otp: String? = nil,
        authorizeCredential: (@Sendable ([[UInt8]], DigestAlgorithm) async throws(SigningError) -> String)? = nil,
        scheme: SignatureScheme? = nil, batchLimit: Int = 16, allowExpired: Bool = false,
        now: Int = PDFDate.now().seconds
    ) async throws(SigningError) {
        let credential = try await client.credential(credentialID)
        guard credential.enabled else {
            throw SigningError(.noPrivateKey, "the credential \(credentialID) is disabled at the signing service")
        }
        switch credential.certificateStatus {
        case nil, "valid": break
        case "expired" where !allowExpired:
            throw SigningError(
                .certificateExpired, "the signing service says the certificate of \(credentialID) expired")
        case "expired": break
        case let status?:
            throw SigningError(
                .noPrivateKey, "the signing service says the certificate of \(credentialID) is \(status)")
        }
        guard allowExpired || credential.certificate.isValid(at: now) else {
            throw SigningError(
                .certificateExpired, "the certificate \(credential.certificate.subject) is not valid now")
        }
        if credential.authMode == "oauth2code", authorizeCredential == nil {
            throw SigningError(
                .invalidArgument,
                "the credential \(credentialID) is authorized by its owner at the provider's page (oauth2code)")
        }
        let chosen: SignatureScheme
        switch (credential.certificate.publicKeyKind, scheme) {
        case (.rsa, .rsaPSS?): chosen = .rsaPSS
        case (.rsa, _): chosen = .rsaPKCS1v15
        case (.ec, _): chosen = .ecdsa
        case (let kind, _):
            throw SigningError(.unsupportedAlgorithm, "a \(kind) key cannot sign through the CSC API here")
        }
        _ = try credential.signatureAlgorithm(for: chosen, digest: .sha256)
        self.credential = credential
        self.scheme = chosen
        batcher = CSCBatcher(
            client: client, credential: credential, scheme: chosen, pin: pin, otp: otp,
            authorizeCredential: authorizeCredential, limit: max(1, min(batchLimit, credential.multisign)))
    }

    /// The CMS with the service's signature over the signed attributes' hash.
    /// - Throws: `SigningError` from the service (−123 unreachable, −125 PIN or OTP, −129 refused),
    ///   `.signingFailed` when its signature does not verify with the credential's certificate.
    public func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        let builder = CMSSignedDataBuilder(
            certificate: certificates[0], chain: Array(certificates.dropFirst()), digestAlgorithm: algorithm,
            scheme: scheme)
        let attributes = try builder.signedAttributes(messageDigest: digest)
        let hash = try algorithm.hash(attributes)
        var signature = try await batcher.sign(hash, algorithm: algorithm)
        let certificate = certificates[0]
        let verifies = { (bytes: [UInt8]) in
            certificate.verify(signature: bytes, digest: hash, digestAlgorithm: algorithm, scheme: scheme)
        }
        if !verifies(signature), scheme == .ecdsa, let der = try? PKCS11Signer.ecdsaDER(signature), verifies(der) {
            // Some services answer ECDSA as r‖s (the PKCS#11 and JWS form) rather than DER.
            signature = der
        }
        guard verifies(signature) else {
            throw SigningError(.signingFailed, "the signing service's signature does not verify with the certificate")
        }
        return builder.assemble(signedAttributes: attributes, signature: signature)
    }

    /// How many requests the service has had from this signer's client.
    public var requestCount: Int { batcher.client.requestCount }

    /// The client of the service.
    public var client: CSCClient { batcher.client }

    /// The hash ``cms(for:algorithm:)`` sends the service for `digest`: that of our signed
    /// attributes (they hold no time, so the same digest gives the same hash). An `oauth2code`
    /// credential's owner authorizes it at the provider's page before the signature is made.
    /// - Throws: `SigningError` when the certificate's hash cannot be computed.
    public func attributesHash(for digest: [UInt8], algorithm: DigestAlgorithm) throws(SigningError) -> [UInt8] {
        let builder = CMSSignedDataBuilder(
            certificate: certificates[0], chain: Array(certificates.dropFirst()), digestAlgorithm: algorithm,
            scheme: scheme)
        return try algorithm.hash(try builder.signedAttributes(messageDigest: digest))
    }
}

/// Gathers the hashes signed at once into batches: the first hash goes at once; those that come
/// while a batch is under way go together in the next, up to `limit` and with one digest algorithm.
actor CSCBatcher {
    private struct Pending {
        var id: Int
        var hash: [UInt8]
        var algorithm: DigestAlgorithm
    }

    nonisolated let client: CSCClient
    private let credential: CSCCredential
    private let scheme: SignatureScheme
    private let pin: String?
    private let otp: String?
    private let authorizeCredential: (@Sendable ([[UInt8]], DigestAlgorithm) async throws(SigningError) -> String)?
    private let limit: Int
    private var pending: [Pending] = []
    /// The callers not answered yet, by id: waiting for a batch or in one under way.
    private var waiting: [Int: CheckedContinuation<Result<[UInt8], SigningError>, Never>] = [:]
    private var nextID = 0
    private var draining = false
    /// Set when the service refused the PIN or OTP: later batches fail at once rather than spend
    /// the tries a service allows before it locks the credential.
    private var refusal: SigningError?
    /// A one-time password goes with one authorization only.
    private var otpUsed = false

    init(
        client: CSCClient, credential: CSCCredential, scheme: SignatureScheme, pin: String?, otp: String?,
        authorizeCredential: (@Sendable ([[UInt8]], DigestAlgorithm) async throws(SigningError) -> String)?,
        limit: Int
    ) {
        self.client = client
        self.credential = credential
        self.scheme = scheme
        self.pin = pin
        self.otp = otp
        self.authorizeCredential = authorizeCredential
        self.limit = limit
    }

    /// The service's raw signature of `hash`, signed in the next batch. A cancelled caller is
    /// answered `.cancelled` at once, whether its hash waits or is in a batch under way (whose
    /// signature is then dropped).
    func sign(_ hash: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        let id = nextID
        nextID += 1
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting[id] = continuation
                pending.append(Pending(id: id, hash: hash, algorithm: algorithm))
                if !draining {
                    draining = true
                    Task { await drain() }
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
        return try result.get()
    }

    /// Answers the caller `id` `.cancelled` and forgets its hash, unless it was answered already.
    private func cancel(_ id: Int) {
        guard let continuation = waiting.removeValue(forKey: id) else { return }
        pending.removeAll { $0.id == id }
        continuation.resume(returning: .failure(SigningError(.cancelled, "the signature was cancelled")))
    }

    /// Signs batches until none is left; hashes added meanwhile join the next.
    private func drain() async {
        while let first = pending.first {
            var batch: [Pending] = []
            var rest: [Pending] = []
            for item in pending {
                if batch.count < limit, item.algorithm == first.algorithm {
                    batch.append(item)
                } else {
                    rest.append(item)
                }
            }
            pending = rest
            let result: Result<[[UInt8]], SigningError>
            do {
                result = .success(try await signBatch(batch.map(\.hash), first.algorithm))
            } catch {
                result = .failure(error)
            }
            for (index, item) in batch.enumerated() {
                waiting.removeValue(forKey: item.id)?.resume(returning: result.map { $0[index] })
            }
        }
        draining = false
    }

    /// One authorization and one signing call for `hashes`.
    private func signBatch(_ hashes: [[UInt8]], _ algorithm: DigestAlgorithm) async throws(SigningError) -> [[UInt8]] {
        if let authorizeCredential {
            let token = try await authorizeCredential(hashes, algorithm)
            return try await client.signHashes(
                hashes, credential: credential, algorithm: algorithm, scheme: scheme, sad: nil, credentialToken: token)
        }
        if let refusal { throw refusal }
        let otp = otpUsed ? nil : self.otp
        otpUsed = otpUsed || otp != nil
        let sad: String
        do {
            sad = try await client.authorize(credential, hashes: hashes, algorithm: algorithm, pin: pin, otp: otp)
        } catch {
            if error.code == .wrongKeyContainerPassword { refusal = error }
            throw error
        }
        return try await client.signHashes(
            hashes, credential: credential, algorithm: algorithm, scheme: scheme, sad: sad)
    }
}
