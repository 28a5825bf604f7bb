import PDFSigning
import Synchronization

/// Signing with the person's own certificate at their trust service provider, through the CSC
/// API, in the web viewer:
///
/// 1. the viewer's button sends the person to the provider's authorization page (OAuth 2.0
///    authorization code with PKCE, scope `service`); the provider sends the browser back to
///    `GET /provider-return?code=…&state=…`, and the first credential of their account that signs
///    without a PIN (authorization mode `implicit`, else `oauth2code`) with a valid certificate
///    becomes the session's signer: the preview names its certificate;
/// 2. for an `oauth2code` credential (sole control at SCAL 2: its owner authorizes each hash), the
///    preview's Sign button sends the person to the provider once more, with the hash of the
///    prepared signature (scope `credential`); the return exchanges the code for a token bound to
///    that hash and confirms the signature, which the token then authorizes.
///
/// Each authorization is good for one return within ten minutes; its `state` is the only
/// credential that return carries (the provider's page is another site, so the browser sends no
/// cookie of this one), and it is unguessable (16 random bytes) and bound to this server.
public final class ProviderSigning: Sendable {
    /// What comes before `/csc/v1` or `/csc/v2` at the provider.
    public let baseURL: String
    /// The viewer's client id at the provider's OAuth 2.0 server.
    public let clientID: String
    let clientSecret: String?
    /// How long an authorization waits for its return.
    static let lifetime: Duration = .seconds(600)
    /// The most authorizations waiting at once (each button press makes one).
    static let maxPending = 32

    /// What an authorization is for.
    enum Purpose: Sendable {
        /// The person's account (scope `service`): choose their credential.
        case account
        /// One prepared signature (scope `credential`): the hash its token may sign.
        case signature(hash: [UInt8])
    }

    private struct Pending {
        var authorization: CSCOAuth.Authorization
        var purpose: Purpose
        var created: ContinuousClock.Instant
    }

    private let pending = Mutex<[String: Pending]>([:])
    /// Tokens of scope `credential` by the hash they authorize, each taken once by the signer.
    private let tokens = Mutex<[[UInt8]: String]>([:])

    /// A provider at `baseURL` where the viewer is the OAuth client `clientID` (with `clientSecret`
    /// for a confidential client).
    public init(baseURL: String, clientID: String, clientSecret: String?) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    /// The provider's authorization page for the person's account, returning to `redirectURI`.
    /// - Throws: `SigningError` −123 when the provider does not answer, `.invalidArgument` when it has
    ///   no OAuth 2.0 server.
    func begin(redirectURI: String) async throws(SigningError) -> String {
        let client = try await CSCClient(baseURL: baseURL, clientID: clientID)
        return remember(try CSCOAuth.Authorization(client: client, redirectURI: redirectURI), .account)
    }

    /// The provider's authorization page for the prepared signature whose digest is `digest`, made
    /// by `signer` (an `oauth2code` credential), returning to `redirectURI`.
    func beginSignature(
        signer: CSCSigner, digest: [UInt8], algorithm: DigestAlgorithm, redirectURI: String
    ) throws(SigningError) -> String {
        let hash = try signer.attributesHash(for: digest, algorithm: algorithm)
        let authorization = try CSCOAuth.Authorization(
            client: signer.client, redirectURI: redirectURI, credential: signer.credential.id, hashes: [hash],
            algorithm: algorithm)
        return remember(authorization, .signature(hash: hash))
    }

    private func remember(_ authorization: CSCOAuth.Authorization, _ purpose: Purpose) -> String {
        let now = ContinuousClock.now
        pending.withLock { waiting in
            waiting = waiting.filter { now - $0.value.created < Self.lifetime }
            if waiting.count >= Self.maxPending, let oldest = waiting.min(by: { $0.value.created < $1.value.created }) {
                waiting[oldest.key] = nil
            }
            waiting[authorization.state] = Pending(authorization: authorization, purpose: purpose, created: now)
        }
        return authorization.url
    }

    /// What a return brought: the person's signer, or the token for one prepared signature.
    enum Outcome {
        case signer(CSCSigner)
        case signatureAuthorized
    }

    /// The return of the authorization `state`: the code exchanged for the person's token, then
    /// their credential chosen (scope `service`), or the token kept for the signature (scope `credential`).
    /// - Throws: `.cancelled` for an unknown, used or expired `state`; −125 when the provider
    ///   refuses the code; −127 when the account has no credential the viewer signs with.
    func finish(code: String, state: String) async throws(SigningError) -> Outcome {
        let now = ContinuousClock.now
        let taken = pending.withLock { waiting in waiting.removeValue(forKey: state) }
        guard let taken, now - taken.created < Self.lifetime else {
            throw SigningError(
                .cancelled, "this authorization is unknown, used or expired: start again from the viewer")
        }
        let token = try await taken.authorization.token(code: code, state: state, clientSecret: clientSecret)
        switch taken.purpose {
        case .signature(let hash):
            tokens.withLock { $0[hash] = token.accessToken }
            return .signatureAuthorized
        case .account:
            return .signer(try await chooseCredential(token: token.accessToken))
        }
    }

    /// The first credential of the account that signs without a PIN: `implicit`, else `oauth2code`.
    private func chooseCredential(token: String) async throws(SigningError) -> CSCSigner {
        let client = try await CSCClient(baseURL: baseURL, clientID: clientID, accessToken: token)
        var refusals: [String] = []
        var perSignature: String?
        for id in try await client.credentialIDs().prefix(50) {
            do {
                let credential = try await client.credential(id)
                switch credential.authMode {
                case "implicit": return try await CSCSigner(client: client, credentialID: id)
                case "oauth2code": perSignature = perSignature ?? id
                default: refusals.append("\(id): authorized by \(credential.authMode)")
                }
            } catch {
                refusals.append("\(id): \(error.message)")
            }
        }
        if let perSignature {
            return try await CSCSigner(
                client: client, credentialID: perSignature,
                authorizeCredential: { [self] hashes, _ throws(SigningError) in try takeToken(for: hashes) },
                batchLimit: 1)
        }
        throw SigningError(
            .noPrivateKey,
            "your account at the provider has no credential this viewer signs with (implicit or oauth2code "
                + "authorization, a valid certificate)"
                + (refusals.isEmpty ? "" : ": " + refusals.prefix(5).joined(separator: "; ")))
    }

    /// The token the person's authorization of exactly `hashes` gave, once.
    /// - Throws: `.cancelled` when they did not authorize these hashes at the provider.
    private func takeToken(for hashes: [[UInt8]]) throws(SigningError) -> String {
        guard hashes.count == 1, let token = tokens.withLock({ $0.removeValue(forKey: hashes[0]) }) else {
            throw SigningError(.cancelled, "the signature was not authorized at the provider")
        }
        return token
    }

    /// Forgets `state` (the provider answered with an error).
    func cancel(state: String) {
        _ = pending.withLock { $0.removeValue(forKey: state) }
    }
}
