import PDFSession
import PDFSigning
import Synchronization

/// Signing with the person's own certificate at their trust service provider, through the CSC
/// API, in the web viewer:
///
/// 1. the viewer's button sends the person to the provider's authorization page (OAuth 2.0
///    authorization code with PKCE, scope `service`); the provider sends the browser back to
///    `GET /provider-return?code=…&state=…`, and the first credential of their account that signs
///    without a PIN (authorization mode `implicit`, else `oauth2code`) with a valid certificate
///    becomes the session's signer: the preview names its certificate. The account's credentials
///    stay listed (`credentials(for:)`): the person may choose another in the viewer, one whose
///    authorization is explicit with its PIN and one-time password (`select(_:for:pin:otp:)`),
///    which is chosen for nobody until then when the account has no other;
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
        /// The document session the person signed in from (not kept alive by a waiting authorization).
        weak var owner: DocumentSession?
    }

    /// A credential of the person's account as the viewer lists it (nothing secret).
    struct Credential: Sendable {
        var id: String
        /// The common name of its certificate.
        var signer: String
        /// `once` (implicit), `perSignature` (oauth2code) or `pin` (explicit: a PIN, a one-time
        /// password or both, entered in the viewer).
        var authorization: String
        var pin: CSCCredential.Presence
        var otp: CSCCredential.Presence
        /// How the provider names the PIN.
        var pinLabel: String
    }

    /// The person's account once they signed in at the provider: its client (their token) and the
    /// credentials the viewer signs with, for the document session they signed in from only.
    private struct Account: Sendable {
        var client: CSCClient
        var credentials: [Credential]
        weak let owner: DocumentSession?
    }

    private let pending = Mutex<[String: Pending]>([:])
    private let account = Mutex<Account?>(nil)

    /// The credentials of the person's account at the provider, once they signed in there from
    /// `session` (another session sees none).
    func credentials(for session: DocumentSession?) -> [Credential] {
        account.withLock { account in
            guard let account, let session, account.owner === session else { return [] }
            return account.credentials
        }
    }
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
    func begin(redirectURI: String, from session: DocumentSession) async throws(SigningError) -> String {
        let client = try await CSCClient(baseURL: baseURL, clientID: clientID)
        return remember(
            try CSCOAuth.Authorization(client: client, redirectURI: redirectURI), .account, owner: session)
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
        return remember(authorization, .signature(hash: hash), owner: nil)
    }

    private func remember(_ authorization: CSCOAuth.Authorization, _ purpose: Purpose, owner: DocumentSession?)
        -> String
    {
        let now = ContinuousClock.now
        pending.withLock { waiting in
            waiting = waiting.filter { now - $0.value.created < Self.lifetime }
            if waiting.count >= Self.maxPending, let oldest = waiting.min(by: { $0.value.created < $1.value.created }) {
                waiting[oldest.key] = nil
            }
            waiting[authorization.state] = Pending(
                authorization: authorization, purpose: purpose, created: now, owner: owner)
        }
        return authorization.url
    }

    /// What a return brought: the person's signer; their account, whose credential they choose in
    /// the viewer (each one asks for a PIN); or the token for one prepared signature.
    enum Outcome {
        /// The signer for `session`, the document session the person signed in from.
        case signer(CSCSigner, session: DocumentSession)
        case chooseCredential(session: DocumentSession)
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
            guard let owner = taken.owner else { throw SigningError(.cancelled, "the document was closed") }
            return try await connect(token: token.accessToken, owner: owner)
        }
    }

    /// Lists the account's credentials and chooses the first that signs without a PIN: `implicit`,
    /// else `oauth2code`; with only explicit ones, the person chooses in the viewer.
    private func connect(token: String, owner: DocumentSession) async throws(SigningError) -> Outcome {
        // A new sign-in replaces the account before anything else: none of the old one stays listed.
        forgetAccount()
        let client = try await CSCClient(baseURL: baseURL, clientID: clientID, accessToken: token)
        var refusals: [String] = []
        var credentials: [Credential] = []
        for id in try await client.credentialIDs().prefix(50) {
            do {
                let credential = try await client.credential(id)
                let authorization: String
                switch credential.authMode {
                case "implicit": authorization = "once"
                case "oauth2code": authorization = "perSignature"
                case "explicit": authorization = "pin"
                default:
                    refusals.append("\(id): authorized by \(credential.authMode)")
                    continue
                }
                guard credential.enabled, [nil, "valid"].contains(credential.certificateStatus) else {
                    refusals.append("\(id): disabled, or its certificate is not valid")
                    continue
                }
                var name = credential.certificate.subject
                for part in name.split(separator: ",") where part.drop(while: { $0 == " " }).hasPrefix("CN=") {
                    name = String(part.drop(while: { $0 == " " }).dropFirst(3))
                }
                credentials.append(
                    Credential(
                        id: id, signer: String(name.prefix(200)), authorization: authorization, pin: credential.pin,
                        otp: credential.otp, pinLabel: String(credential.pinLabel.prefix(100))))
            } catch {
                refusals.append("\(id): \(error.message)")
            }
        }
        guard !credentials.isEmpty else {
            throw SigningError(
                .noPrivateKey,
                "your account at the provider has no credential this viewer signs with (a valid certificate; "
                    + "implicit, oauth2code or explicit authorization)"
                    + (refusals.isEmpty ? "" : ": " + refusals.prefix(5).joined(separator: "; ")))
        }
        account.withLock { $0 = Account(client: client, credentials: credentials, owner: owner) }
        guard
            let first = credentials.first(where: { $0.authorization == "once" })
                ?? credentials.first(where: { $0.authorization == "perSignature" })
        else { return .chooseCredential(session: owner) }
        return .signer(try await select(first.id, for: owner, pin: nil, otp: nil), session: owner)
    }

    /// The signer of the account's credential `id`, with its PIN and one-time password when its
    /// authorization is explicit (the service checks them when the first signature is made).
    /// - Throws: −127 when the account `session` signed in to (or no account) has no such
    ///   credential; `.invalidArgument` when a PIN or one-time password the credential requires is
    ///   missing; what ``CSCSigner`` throws.
    func select(_ id: String, for session: DocumentSession, pin: String?, otp: String?) async throws(SigningError)
        -> CSCSigner
    {
        let chosen = account.withLock { account -> (CSCClient, Credential)? in
            guard let account, account.owner === session,
                let credential = account.credentials.first(where: { $0.id == id })
            else { return nil }
            return (account.client, credential)
        }
        guard let (client, credential) = chosen else {
            throw SigningError(
                .noPrivateKey, "no credential \(id.prefix(100)) in your account at the provider: sign in there again")
        }
        switch credential.authorization {
        case "perSignature":
            return try await CSCSigner(
                client: client, credentialID: id,
                authorizeCredential: { [self] hashes, _ throws(SigningError) in try takeToken(for: hashes) },
                batchLimit: 1)
        case "pin":
            let pin = pin.flatMap { $0.isEmpty ? nil : $0 }
            let otp = otp.flatMap { $0.isEmpty ? nil : $0 }
            if credential.pin == .required && pin == nil {
                throw SigningError(.invalidArgument, "enter the \(credential.pinLabel) of \(credential.signer)")
            }
            if credential.otp == .required && otp == nil {
                throw SigningError(.invalidArgument, "enter the one-time password of \(credential.signer)")
            }
            return try await CSCSigner(client: client, credentialID: id, pin: pin, otp: otp)
        default:
            return try await CSCSigner(client: client, credentialID: id)
        }
    }

    /// Forgets the person's account (their token and credentials): after a signature is made with
    /// it, the next signer on the document signs in again.
    func forgetAccount() {
        account.withLock { $0 = nil }
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
