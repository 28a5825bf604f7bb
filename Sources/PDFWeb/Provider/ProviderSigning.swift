public import PDFSigning
import Synchronization

/// Signing with the person's own certificate at their trust service provider, through the CSC
/// API: the viewer sends the person to the provider's authorization page (OAuth 2.0 authorization
/// code with PKCE, scope `service`), the provider sends the browser back to
/// `GET /provider-return?code=…&state=…`, and the signatures prepared from then on are made with
/// the first credential of their account that signs without a further step (authorization mode
/// `implicit`) and whose certificate is valid. The preview then shows that certificate's name.
///
/// Each authorization is good for one return within ``lifetime``; its `state` is the only
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

    private struct Pending {
        var authorization: CSCOAuth.Authorization
        var created: ContinuousClock.Instant
    }

    private let pending = Mutex<[String: Pending]>([:])

    /// A provider at `baseURL` where the viewer is the OAuth client `clientID` (with `clientSecret`
    /// for a confidential client).
    public init(baseURL: String, clientID: String, clientSecret: String?) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    /// The provider's authorization page for a new authorization returning to `redirectURI`.
    /// - Throws: `SigningError` −123 when the provider does not answer, `.invalidArgument` when it has
    ///   no OAuth 2.0 server.
    func begin(redirectURI: String) async throws(SigningError) -> String {
        let client = try await CSCClient(baseURL: baseURL, clientID: clientID)
        let authorization = try CSCOAuth.Authorization(client: client, redirectURI: redirectURI)
        let now = ContinuousClock.now
        pending.withLock { waiting in
            waiting = waiting.filter { now - $0.value.created < Self.lifetime }
            if waiting.count >= Self.maxPending, let oldest = waiting.min(by: { $0.value.created < $1.value.created }) {
                waiting[oldest.key] = nil
            }
            waiting[authorization.state] = Pending(authorization: authorization, created: now)
        }
        return authorization.url
    }

    /// The signer for the return of the authorization `state`: the code exchanged for the person's
    /// token, their credentials read, the first usable one chosen.
    /// - Throws: `.cancelled` for an unknown, used or expired `state`; −125 when the provider
    ///   refuses the code; −127 when the account has no credential that signs without a further step.
    func finish(code: String, state: String) async throws(SigningError) -> CSCSigner {
        let now = ContinuousClock.now
        let taken = pending.withLock { waiting in waiting.removeValue(forKey: state) }
        guard let taken, now - taken.created < Self.lifetime else {
            throw SigningError(
                .cancelled, "this authorization is unknown, used or expired: start again from the viewer")
        }
        let token = try await taken.authorization.token(code: code, state: state, clientSecret: clientSecret)
        let client = try await CSCClient(baseURL: baseURL, clientID: clientID, accessToken: token.accessToken)
        var refusals: [String] = []
        for id in try await client.credentialIDs().prefix(50) {
            do {
                let credential = try await client.credential(id)
                guard credential.authMode == "implicit" else {
                    refusals.append("\(id): authorized by \(credential.authMode)")
                    continue
                }
                return try await CSCSigner(client: client, credentialID: id)
            } catch {
                refusals.append("\(id): \(error.message)")
            }
        }
        throw SigningError(
            .noPrivateKey,
            "your account at the provider has no credential this viewer signs with (implicit authorization, a valid "
                + "certificate)" + (refusals.isEmpty ? "" : ": " + refusals.prefix(5).joined(separator: "; ")))
    }

    /// Forgets `state` (the provider answered with an error).
    func cancel(state: String) {
        _ = pending.withLock { $0.removeValue(forKey: state) }
    }
}
