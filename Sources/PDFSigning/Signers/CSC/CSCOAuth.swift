import AutographCrypto
import AutographJSON
import HTTPClient

/// OAuth 2.0 with a CSC service's authorization server (CSC v1 §8.3, v2 §8.4; RFC 6749): the
/// authorization code flow with PKCE (RFC 7636, `S256`) by which a person lets an application use
/// their account (scope `service`) or sign given hashes with their credential (scope `credential`),
/// and the token requests behind it.
///
/// ```swift
/// let flow = try CSCOAuth.Authorization(client: client, redirectURI: "https://app.example/csc/return")
/// // send the person's browser to flow.url; the provider sends it back to redirectURI?code=…&state=…
/// let token = try await flow.token(code: code, state: state, clientSecret: secret)
/// ```
public enum CSCOAuth {
    /// What an access token answer gives (RFC 6749 §5.1).
    public struct Token: Sendable {
        /// The access token.
        public let accessToken: String
        /// Its lifetime in seconds, when the server says.
        public let expiresIn: Int?
        /// The refresh token, when the server gives one.
        public let refreshToken: String?
    }

    /// One authorization request: the URL to open in the person's browser, and what the answer is
    /// checked against when the browser comes back.
    public struct Authorization: Sendable {
        /// The URL of the provider's authorization page, with every parameter.
        public let url: String
        /// The redirect URI the provider sends the browser back to.
        public let redirectURI: String
        /// The random `state` the answer must carry back (RFC 6749 §10.12: a forged return is refused).
        public let state: String
        /// The PKCE code verifier: 32 random bytes, base64url (RFC 7636 §4.1); only its hash travels
        /// in the URL.
        let verifier: String
        let client: CSCClient

        /// An authorization request for the scope `service`, or, with `credential`, for signing
        /// `hashes` with that credential (scope `credential`, the hashes bound to the token).
        ///
        /// - Parameters:
        ///   - client: the client of the service (its ``CSCClient/clientID`` is the OAuth client).
        ///   - redirectURI: where the provider sends the browser back (registered with the provider).
        ///   - credential: the credential to authorize, for scope `credential`.
        ///   - hashes: the hashes the token will sign (scope `credential`).
        ///   - algorithm: their digest algorithm.
        /// - Throws: `.invalidArgument` when the client has no client id, the service no OAuth 2.0
        ///   server, or `redirectURI` is not http or https.
        public init(
            client: CSCClient, redirectURI: String, credential: String? = nil, hashes: [[UInt8]] = [],
            algorithm: DigestAlgorithm = .sha256
        ) throws(SigningError) {
            guard let clientID = client.clientID else {
                throw SigningError(.invalidArgument, "an OAuth 2.0 authorization needs the client's id")
            }
            guard HTTPClientRequest.isHTTP(redirectURI) else {
                throw SigningError(.invalidArgument, "the redirect URI must be http or https")
            }
            let random: [UInt8]
            do {
                random = try SecureRandom.bytes(48)
            } catch {
                throw SigningError(.signingFailed, "no random bytes for the authorization: \(error)")
            }
            verifier = CSCOAuth.base64URL(Array(random.prefix(32)))
            state = CSCOAuth.base64URL(Array(random.suffix(16)))
            let challenge = CSCOAuth.base64URL(try DigestAlgorithm.sha256.hash(Array(verifier.utf8)))
            var query: [(String, String)] = [
                ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
                ("scope", credential == nil ? "service" : "credential"), ("code_challenge", challenge),
                ("code_challenge_method", "S256"), ("state", state),
            ]
            if let credential {
                query += [("credentialID", credential), ("numSignatures", String(hashes.count))]
                let encoded = hashes.map { CSCOAuth.base64URL($0) }.joined(separator: ",")
                switch client.version {
                case .v1: query.append(("hash", encoded))
                case .v2:
                    query += [("hashes", encoded), ("hashAlgorithmOID", algorithm.objectIdentifier.description)]
                }
            }
            url = CSCOAuth.endpoint(client, "authorize") + "?" + CSCOAuth.form(query)
            self.redirectURI = redirectURI
            self.client = client
        }

        /// Exchanges the code the provider sent back for a token (RFC 6749 §4.1.3, with the PKCE
        /// verifier), after checking that `state` is this request's.
        /// - Parameters:
        ///   - code: the `code` parameter of the return.
        ///   - state: the `state` parameter of the return.
        ///   - clientSecret: the client's secret, for a confidential client.
        /// - Throws: `.cancelled` when `state` is not this request's (a forged or stale return);
        ///   `.wrongKeyContainerPassword` (−125) when the server refuses the code.
        public func token(code: String, state: String, clientSecret: String? = nil) async throws(SigningError) -> Token
        {
            guard state == self.state else {
                throw SigningError(.cancelled, "the authorization's answer is not for this request (its state differs)")
            }
            let form: [(String, String)] = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                ("code_verifier", verifier), ("client_id", client.clientID ?? ""),
            ]
            // A confidential client authenticates with HTTP basic authentication (RFC 6749 §2.3.1).
            let basic = clientSecret.map {
                "Basic " + Base64.encode(Array((formEncoded(client.clientID ?? "") + ":" + formEncoded($0)).utf8))
            }
            return try await CSCOAuth.token(client: client, form: form, authorization: basic)
        }
    }

    /// `{oauth2}/oauth2/NAME`: the service's OAuth 2.0 server (`info`'s `oauth2`, else the service itself).
    static func endpoint(_ client: CSCClient, _ name: String) -> String {
        var base = client.info.oauth2 ?? client.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return "\(base)/oauth2/\(name)"
    }

    /// POSTs a token request (`application/x-www-form-urlencoded`) and reads the token answered.
    static func token(
        client: CSCClient, form: [(String, String)], authorization: String?
    ) async throws(SigningError) -> Token {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
        ]
        if let authorization { headers.append(("Authorization", authorization)) }
        let request = HTTPClientRequest(
            .post, endpoint(client, "token"), headers: headers, body: Array(self.form(form).utf8))
        let (status, answer) = try await client.exchange(request, "oauth2/token")
        guard (200..<300).contains(status), let accessToken = answer["access_token"]?.stringValue,
            !accessToken.isEmpty, accessToken.utf8.count <= 16_384
        else {
            throw CSCClient.failure(status: status, body: answer, operation: "oauth2/token", credential: nil)
        }
        return Token(
            accessToken: accessToken, expiresIn: answer["expires_in"]?.intValue,
            refreshToken: answer["refresh_token"]?.stringValue)
    }

    /// `name=value&…`, each percent-encoded (RFC 3986 unreserved characters kept).
    static func form(_ pairs: [(String, String)]) -> String {
        pairs.map { formEncoded($0.0) + "=" + formEncoded($0.1) }.joined(separator: "&")
    }

    /// `text` percent-encoded: every byte but `A–Z a–z 0–9 - . _ ~` as `%XX`.
    static func formEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in text.utf8 {
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            {
                output.append(byte)
            } else {
                output += [0x25, digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Base64url without padding (RFC 4648 §5, RFC 7636 appendix A).
    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Base64.encode(bytes)
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
