import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The CSC API v2 paths and OAuth 2.0 flows against `Tests/Scripts/csc_v2_server.py`, a test server
/// written for these tests after the v2.0.0.2 specification (no installable server offers v2 or
/// OAuth here; the v1 paths are tested against a third-party server in `CSCTests`).
@Suite(
    "CSC v2 (spec-following test server): OAuth 2.0, explicit PIN and OTP, authorization code with PKCE",
    .enabled(if: CSCServer.isDummyInstalled, "certomancer-csc-dummy is not installed (scripts/install-deps test)"))
struct CSCVersion2Tests {
    static func client(_ server: CSCServer, secret: String = CSCServer.clientSecret) async throws -> CSCClient {
        try await CSCClient(baseURL: server.baseURL, clientID: CSCServer.clientID, clientSecret: secret)
    }

    @Test("v2 is discovered; client credentials give a token (a wrong secret is −125); the credentials read")
    func credentials() async throws {
        let server = try await CSCServer.specV2(services: try CSCTests.services())
        defer { server.stop() }
        #expect(await CSCTests.code { _ = try await Self.client(server, secret: "wrong") } == -125)
        let client = try await Self.client(server)
        #expect(
            client.version == .v2 && client.info.specs == "2.0.0.2" && client.info.authTypes.contains("oauth2client"))
        let identifiers = try await client.credentialIDs()
        #expect(Set(identifiers) == ["autograph/signer", "autograph/signer-ec", "autograph/signer-oauth"])
        let explicit = try await client.credential("autograph/signer")
        #expect(explicit.authMode == "explicit" && explicit.pin == .required && explicit.otp == .required)
        #expect(explicit.scal == 2 && explicit.certificates.count == 3)
        let oauth = try await client.credential("autograph/signer-oauth")
        #expect(oauth.authMode == "oauth2code")
        // Without a token the service answers 401: −125.
        let anonymous = try await CSCClient(baseURL: server.baseURL)
        #expect(await CSCTests.code { _ = try await anonymous.credentialIDs() } == -125)
    }

    @Test("An explicit credential signs with its PIN and OTP, an implicit one without; pyHanko and pdfsig accept both")
    func signs() async throws {
        let services = try CSCTests.services()
        let server = try await CSCServer.specV2(services: services)
        defer { server.stop() }
        let client = try await Self.client(server)
        let explicit = try await CSCSigner(
            client: client, credentialID: "autograph/signer", pin: CSCServer.pin, otp: CSCServer.otp)
        try await CSCTests.signAndCheck(TestDocuments.simple(), signer: explicit, services: services, name: "v2-rsa")
        let implicit = try await CSCSigner(client: client, credentialID: "autograph/signer-ec")
        try await CSCTests.signAndCheck(TestDocuments.simple(), signer: implicit, services: services, name: "v2-ec")
        let pss = try await CSCSigner(
            client: client, credentialID: "autograph/signer", pin: CSCServer.pin, otp: CSCServer.otp, scheme: .rsaPSS)
        try await CSCTests.signAndCheck(TestDocuments.simple(), signer: pss, services: services, name: "v2-pss")
    }

    @Test(
        "No PIN is −125 before anything is sent; a wrong PIN −125; three lock the credential, then even the right one is refused"
    )
    func wrongPIN() async throws {
        let server = try await CSCServer.specV2(services: try CSCTests.services())
        defer { server.stop() }
        let client = try await Self.client(server)
        func sign(pin: String?) async -> Int? {
            await CSCTests.code {
                let signer = try await CSCSigner(
                    client: client, credentialID: "autograph/signer", pin: pin, otp: CSCServer.otp)
                _ = try await DocumentSigner(
                    document: try PDFDocument(bytes: TestDocuments.simple()),
                    request: SignatureRequest(placement: .invisible), signer: signer
                ).sign()
            }
        }
        let before = server.requests().filter { $0.path.hasSuffix("authorize") }.count
        #expect(await sign(pin: nil) == -125)
        #expect(server.requests().filter { $0.path.hasSuffix("authorize") }.count == before)
        for _ in 0..<3 { #expect(await sign(pin: "0000") == -125) }
        do {
            let credential = try await client.credential("autograph/signer")
            _ = try await client.authorize(
                credential, hashes: [Array(repeating: 1, count: 32)], algorithm: .sha256, pin: CSCServer.pin,
                otp: CSCServer.otp)
            Issue.record("a locked credential authorized a signature")
        } catch {
            #expect(error.signoCode == -125 && error.message.lowercased().contains("locked"), "\(error.message)")
        }
    }

    /// Plays the person's browser: opens the authorization URL, which the test server answers with
    /// a redirect to the redirect URI (the person consented), and returns its `code` and `state`.
    static func consent(_ url: String) async throws -> (code: String, state: String) {
        let response = try await CurlTransport().send(HTTPClientRequest(.get, url))
        try #require(response.status == 302, "the authorization page answered \(response.status)")
        let location = try #require(response.header("Location"))
        let query = location.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { parameters[parts[0]] = parts[1].removingPercentEncoding }
        }
        return (try #require(parameters["code"], "\(location)"), try #require(parameters["state"]))
    }

    @Test(
        "oauth2code: the person authorizes the hashes at the provider's page (PKCE); the code gives the token that signs"
    )
    func authorizationCode() async throws {
        let services = try CSCTests.services()
        let server = try await CSCServer.specV2(services: services)
        defer { server.stop() }
        let client = try await Self.client(server)
        // Without a way to ask the person, an oauth2code credential cannot sign.
        #expect(
            await CSCTests.code { _ = try await CSCSigner(client: client, credentialID: "autograph/signer-oauth") }
                != nil)
        let signer = try await CSCSigner(client: client, credentialID: "autograph/signer-oauth") {
            hashes, algorithm throws(SigningError) in
            let flow = try CSCOAuth.Authorization(
                client: client, redirectURI: "http://127.0.0.1:9/return", credential: "autograph/signer-oauth",
                hashes: hashes, algorithm: algorithm)
            #expect(flow.url.contains("code_challenge_method=S256") && !flow.url.contains(flow.verifier))
            let answer: (code: String, state: String)
            do {
                answer = try await Self.consent(flow.url)
            } catch {
                throw SigningError(.cancelled, "\(error)")
            }
            // A return with another state (forged, or for another request) is refused.
            #expect(
                await CSCTests.code { _ = try await flow.token(code: answer.code, state: "forged") } == -129)
            return try await flow.token(code: answer.code, state: answer.state, clientSecret: CSCServer.clientSecret)
                .accessToken
        }
        try await CSCTests.signAndCheck(TestDocuments.simple(), signer: signer, services: services, name: "v2-oauth")
    }

    @Test("A code is used once: exchanging it again is −125 (invalid_grant)")
    func codeReuse() async throws {
        let server = try await CSCServer.specV2(services: try CSCTests.services())
        defer { server.stop() }
        let client = try await Self.client(server)
        let flow = try CSCOAuth.Authorization(client: client, redirectURI: "http://127.0.0.1:9/return")
        let answer = try await Self.consent(flow.url)
        let token = try await flow.token(code: answer.code, state: answer.state, clientSecret: CSCServer.clientSecret)
        #expect(!token.accessToken.isEmpty)
        // The service-scope token lists the credentials.
        let personal = try await CSCClient(baseURL: server.baseURL, accessToken: token.accessToken)
        #expect(try await personal.credentialIDs().count == 3)
        #expect(
            await CSCTests.code {
                _ = try await flow.token(code: answer.code, state: answer.state, clientSecret: CSCServer.clientSecret)
            } == -125)
    }
}
