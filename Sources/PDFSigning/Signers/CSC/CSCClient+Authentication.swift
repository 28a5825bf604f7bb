import AutographJSON
import HTTPClient
import Synchronization

extension CSCClient {
    /// Obtains the client's access token the way the service's `authType` asks:
    /// - `oauth2client`: `POST {oauth2}/oauth2/token` with `grant_type=client_credentials` (RFC 6749
    ///   §4.4), the client authenticated by HTTP basic authentication (§2.3.1);
    /// - `basic`: `POST …/auth/login` with HTTP basic authentication (CSC v1 §8.2, v2 §11.2);
    /// - `external` (or anything else) with no credentials given: no token.
    /// - Throws: `.wrongKeyContainerPassword` (−125) when the service refuses, or needs credentials
    ///   and none are given.
    func authenticate() async throws(SigningError) {
        let types = info.authTypes
        guard let clientID, let clientSecret else {
            if !types.isEmpty, !types.contains("external"), !types.contains("TLS"),
                !types.contains("oauth2code")
            {
                throw SigningError(
                    .wrongKeyContainerPassword,
                    "the signing service needs the client's credentials (authType \(types.joined(separator: ", ")))")
            }
            return
        }
        if types.contains("oauth2client") {
            // RFC 6749 §2.3.1: the id and secret form-encoded, then in HTTP basic authentication.
            let pair = CSCOAuth.formEncoded(clientID) + ":" + CSCOAuth.formEncoded(clientSecret)
            let answer = try await CSCOAuth.token(
                client: self, form: [("grant_type", "client_credentials"), ("client_id", clientID)],
                authorization: "Basic " + Base64.encode(Array(pair.utf8)))
            token.withLock { $0 = answer.accessToken }
        } else if types.contains("basic") {
            let url = "\(baseURL)/csc/\(version.rawValue)/auth/login"
            let basic = "Basic " + Base64.encode(Array("\(clientID):\(clientSecret)".utf8))
            let request = HTTPClientRequest(
                .post, url, headers: [("Content-Type", "application/json"), ("Authorization", basic)],
                body: JSONValue.object([("rememberMe", .bool(false))]).bytes)
            let (status, answer) = try await exchange(request, "auth/login")
            guard (200..<300).contains(status), let value = answer["access_token"]?.stringValue, !value.isEmpty else {
                throw Self.failure(status: status, body: answer, operation: "auth/login", credential: nil)
            }
            token.withLock { $0 = value }
        }
    }

    /// The `SigningError` for a CSC error answer (`{"error": "invalid_request", "error_description":
    /// "Invalid parameter credentialID"}`, CSC v1 §10.1, v2 §10.1; OAuth 2.0's RFC 6749 §5.2):
    /// - HTTP 401 or 403, or the errors `invalid_token`, `invalid_client`, `unauthorized_client`,
    ///   `access_denied`, `invalid_grant`: the service refused the access (−125);
    /// - `invalid_pin`, `invalid_otp` (v1), `invalid_authentication_data` (v2), or a description that
    ///   names the PIN, the OTP or a locked credential: −125;
    /// - HTTP 404, or a description that names `credentialID` (an unknown credential), or a
    ///   disabled key: −127;
    /// - anything else: −129, with the service's error and description.
    ///
    /// The service's text is shown cut to 200 characters, without control characters.
    static func failure(status: Int, body: JSONValue, operation: String, credential: String?) -> SigningError {
        let error = body["error"]?.stringValue.map(clean) ?? ""
        let detail = body["error_description"]?.stringValue.map(clean) ?? ""
        let said = error.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(error)" + (detail.isEmpty ? "" : ": \(detail)")
        // Whole words of the description: "mapping" names no PIN, "blocked" is no lock.
        let words = Set(detail.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init))
        let what = "the signing service refused \(operation)" + (credential.map { " for \($0)" } ?? "")
        if status == 401 || status == 403
            || ["invalid_token", "invalid_client", "unauthorized_client", "access_denied", "invalid_grant"]
                .contains(error)
        {
            return SigningError(.wrongKeyContainerPassword, "\(what): access refused (\(said))")
        }
        if ["invalid_pin", "invalid_otp", "invalid_authentication_data"].contains(error)
            || !words.isDisjoint(with: ["pin", "otp", "locked"])
        {
            return SigningError(.wrongKeyContainerPassword, "\(what): \(said)")
        }
        if credential != nil, status == 404 || !words.isDisjoint(with: ["credentialid", "disabled"]) {
            return SigningError(.noPrivateKey, "\(what): no such credential (\(said))")
        }
        return SigningError(.signingFailed, "\(what): \(said)")
    }

    /// `text` cut to 200 characters, control characters dropped (a service's words reach logs).
    static func clean(_ text: String) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(200))
    }
}
