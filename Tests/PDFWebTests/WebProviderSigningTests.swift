import AutographJSON
import Foundation
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFWeb

/// Signing in the viewer with the person's own certificate at a trust service provider (CSC API
/// v2 with OAuth 2.0 and PKCE), against the spec-following v2 test server (`CSCServer.specV2`):
/// the viewer's button, the provider's page, the return, and the signature the preview announced.
@Suite(
    "The viewer signs with the person's certificate at their provider (CSC, OAuth 2.0 with PKCE)",
    .enabled(if: CSCServer.isDummyInstalled, "certomancer-csc-dummy is not installed (scripts/install-deps test)"))
struct WebProviderSigningTests {
    /// How the browser arrives back from the provider's site.
    static let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"]

    /// The viewer's server with the CSC v2 test server as its people's provider (the credentials
    /// of `listing`, all when it is empty).
    static func servers(_ services: Certomancer, listing: [String] = []) async throws -> (CSCServer, TestServer) {
        let provider = try await CSCServer.specV2(services: services, listing: listing)
        let server = try await TestServer(
            provider: ProviderSigning(
                baseURL: provider.baseURL, clientID: CSCServer.clientID, clientSecret: CSCServer.clientSecret))
        return (provider, server)
    }

    /// `POST path`, then the browser at the provider's page (the person consents) and back:
    /// the return's answer.
    static func visitProvider(_ server: TestServer, _ path: String) async throws -> TestServer.Reply {
        let begun = try await server.post(path)
        try #require(begun.status == 201, "\(begun.text)")
        let location = try await CurlTransportGet.location(try #require(begun.json["url"]?.stringValue))
        let back = try #require(location.split(separator: "/", maxSplits: 3).last.map { "/" + $0 })
        return try await server.request(back, auth: .none, headers: navigation)
    }
    @Test(
        "The provider's page sends the browser back; the return chooses the certificate once; the signature is theirs")
    func providerSigning() async throws {
        let services = try Certomancer.shared(wholeSeconds: true)
        let provider = try await CSCServer.specV2(services: services)
        defer { provider.stop() }
        let server = try await TestServer(
            provider: ProviderSigning(
                baseURL: provider.baseURL, clientID: CSCServer.clientID, clientSecret: CSCServer.clientSecret))
        defer { Task { await server.stop() } }
        let before = try await server.request("/api/provider-signing").json
        #expect(before["available"]?.boolValue == true && before["signer"] == .null)

        let begun = try await server.post("/api/provider-signing")
        #expect(begun.status == 201, "\(begun.text)")
        let page = try #require(begun.json["url"]?.stringValue)
        #expect(page.hasPrefix(provider.baseURL + "/oauth2/authorize?") && page.contains("code_challenge_method=S256"))
        #expect(page.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(server.port)%2Fprovider-return"))

        // The browser at the provider: the person consents, the provider redirects back.
        let consent = try await CurlTransportGet.location(page)
        let back = try #require(consent.split(separator: "/", maxSplits: 3).last.map { "/" + $0 })
        #expect(back.hasPrefix("/provider-return?"))
        let returned = try await server.request(back, auth: .none, headers: Self.navigation)
        #expect(returned.status == 200 && returned.text.contains("Certomancer EC Signer"), "\(returned.text)")
        #expect(returned.text.contains("http-equiv=\"refresh\""))
        // The same return again, or a forged one, chooses nothing.
        #expect(try await server.request(back, auth: .none, headers: Self.navigation).status != 200)
        let forged = try await server.request(
            "/provider-return?code=x&state=forged", auth: .none, headers: Self.navigation)
        #expect(forged.status != 200 && !forged.text.contains("<script"))
        // The return is the only path that takes no credential.
        #expect(try await server.request("/api/provider-signing", auth: .none, headers: Self.navigation).status == 403)

        let after = try await server.request("/api/provider-signing").json
        #expect(after["signer"]?.stringValue == "Certomancer EC Signer", "\(after)")
        // The account's credentials are listed, for the person to choose another; no secret among them.
        let ids = (after["credentials"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        #expect(Set(ids) == ["autograph/signer", "autograph/signer-ec", "autograph/signer-oauth"], "\(after)")
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada Lovelace"}"#).status == 200)
        #expect(try await server.post("/api/accept").json["phase"]?.stringValue == "capturingSignature")
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        let confirmed = try await server.post("/api/confirm")
        #expect(confirmed.json["phase"]?.stringValue == "editing", "\(confirmed.text)")
        let download = try await server.request("/api/download")
        let path = try WebFixtures.write(download.body, server.directory, "provider.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath)
        #expect(verdicts["Signature1"]?.hasPrefix("INTACT:TRUSTED") == true, "\(verdicts)")
        let reports = try SignatureOracle.pdfsig(path, trust: services.rootCertificatePath)
        #expect(reports.count == 1 && reports.allSatisfy { $0.valid && $0.trusted }, "\(reports)")
        // The provider signed one hash: one authorization, one signing call.
        let calls = provider.requests().map(\.path)
        #expect(calls.filter { $0.hasSuffix("signatures/signHash") }.count == 1)
    }

    @Test(
        "oauth2code: the preview's Sign goes to the provider with the prepared hash; coming back signs; confirming without it fails"
    )
    func perSignatureAuthorization() async throws {
        let services = try Certomancer.shared(wholeSeconds: true)
        let (provider, server) = try await Self.servers(services, listing: ["autograph/signer-oauth"])
        defer {
            provider.stop()
            Task { await server.stop() }
        }
        func visitProvider(_ path: String) async throws -> TestServer.Reply {
            try await Self.visitProvider(server, path)
        }
        let chosen = try await visitProvider("/api/provider-signing")
        #expect(chosen.status == 200 && chosen.text.contains("Certomancer Signer"), "\(chosen.text)")
        let state = try await server.request("/api/provider-signing").json
        #expect(state["authorization"]?.stringValue == "perSignature", "\(state)")
        // Nothing is prepared yet: nothing to authorize.
        #expect(try await server.post("/api/provider-signing/authorize").status == 409)

        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada Lovelace"}"#).status == 200)
        // Confirmed without the provider's authorization, the signature is not made.
        #expect(try await server.post("/api/accept").json["phase"]?.stringValue == "capturingSignature")
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        // The session reports the failure as events (processDidFail) and edits again, unsigned.
        let unauthorized = try await server.post("/api/confirm")
        #expect(unauthorized.json["phase"]?.stringValue == "editing", "\(unauthorized.text)")
        #expect(try await server.request("/api/validation").json["signatures"]?.arrayValue?.isEmpty == true)

        // Again (the handwriting was saved: one saved signature is used at once), then authorized.
        var phase = try await server.post("/api/accept").json["phase"]?.stringValue
        if phase == "capturingSignature" {
            phase = try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue
        }
        #expect(phase == "confirming")
        let signed = try await visitProvider("/api/provider-signing/authorize")
        #expect(signed.status == 200 && signed.text.contains("Signed"), "\(signed.text)")
        let signatures = try #require(try await server.request("/api/validation").json["signatures"]?.arrayValue)
        #expect(signatures.count == 1 && signatures[0].serialized().contains("Certomancer Signer"), "\(signatures)")
        let download = try await server.request("/api/download")
        let path = try WebFixtures.write(download.body, server.directory, "per-signature.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath)
        #expect(verdicts["Signature1"]?.hasPrefix("INTACT:TRUSTED") == true, "\(verdicts)")
        // The token was bound to that hash and used: the provider signed through the credential's token.
        #expect(provider.requests().contains { $0.path.hasSuffix("signatures/signHash") })
    }

    @Test(
        "An explicit credential, chosen in the viewer with its PIN and one-time password, signs; with a wrong PIN nothing is signed"
    )
    func explicitCredential() async throws {
        let services = try Certomancer.shared(wholeSeconds: true)
        let (provider, server) = try await Self.servers(services, listing: ["autograph/signer"])
        defer {
            provider.stop()
            Task { await server.stop() }
        }
        // Nothing to choose before the person signed in at the provider.
        let early = try await server.post("/api/provider-signing/credential", #"{"credential": "autograph/signer"}"#)
        #expect(early.signoCode == -127, "\(early.text)")

        let returned = try await Self.visitProvider(server, "/api/provider-signing")
        #expect(returned.status == 200 && returned.text.contains("Choose your certificate"), "\(returned.text)")
        let state = try await server.request("/api/provider-signing").json
        #expect(state["signer"] == .null, "\(state)")
        let listed = try #require(state["credentials"]?.arrayValue)
        #expect(listed.count == 1, "\(state)")
        #expect(listed.first?["authorization"]?.stringValue == "pin" && listed.first?["pin"]?.stringValue == "required")
        #expect(
            listed.first?["otp"]?.stringValue == "required"
                && listed.first?["signer"]?.stringValue == "Certomancer Signer")

        // A PIN the credential requires, missing; a body that is no choice; a credential not in the account.
        let noPIN = try await server.post("/api/provider-signing/credential", #"{"credential": "autograph/signer"}"#)
        #expect(noPIN.status == 400, "\(noPIN.text)")
        #expect(try await server.post("/api/provider-signing/credential", #"{"pin": 1234}"#).status == 400)
        // Hostile bodies: an id or a PIN past 256 bytes, a credential that is no string, a PIN that is
        // an object, a body that is no object.
        let long = String(repeating: "9", count: 257)
        for body in [
            #"{"credential": "\#(long)"}"#, #"{"credential": "autograph/signer", "pin": "\#(long)", "otp": "1"}"#,
            #"{"credential": ["autograph/signer"]}"#, #"{"credential": "autograph/signer", "pin": {"a": 1}}"#,
            "[1]", "\"autograph/signer\"",
        ] {
            let refused = try await server.post("/api/provider-signing/credential", body)
            #expect(refused.status == 400, "\(body.prefix(60)): \(refused.status) \(refused.text)")
            #expect(!refused.text.contains(long))
        }
        let other = try await server.post("/api/provider-signing/credential", #"{"credential": "autograph/signer-ec"}"#)
        #expect(other.signoCode == -127, "\(other.text)")

        func sign() async throws -> String? {
            #expect(
                try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada Lovelace"}"#).status == 200)
            var phase = try await server.post("/api/accept").json["phase"]?.stringValue
            if phase == "capturingSignature" {
                phase = try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue
            }
            #expect(phase == "confirming")
            return try await server.post("/api/confirm").json["phase"]?.stringValue
        }
        // A wrong PIN: chosen, but the provider refuses it when the signature is made.
        let wrong = try await server.post(
            "/api/provider-signing/credential",
            #"{"credential": "autograph/signer", "pin": "0000", "otp": "\#(CSCServer.otp)"}"#)
        #expect(wrong.status == 200 && wrong.json["authorization"]?.stringValue == "pin", "\(wrong.text)")
        #expect(!wrong.text.contains("0000"))
        #expect(try await sign() == "editing")
        #expect(try await server.request("/api/validation").json["signatures"]?.arrayValue?.isEmpty == true)

        let chosen = try await server.post(
            "/api/provider-signing/credential",
            #"{"credential": "autograph/signer", "pin": "\#(CSCServer.pin)", "otp": "\#(CSCServer.otp)"}"#)
        #expect(chosen.json["signer"]?.stringValue == "Certomancer Signer", "\(chosen.text)")
        #expect(!chosen.text.contains(CSCServer.pin) && !chosen.text.contains(CSCServer.otp))
        #expect(try await sign() == "editing")
        let download = try await server.request("/api/download")
        let path = try WebFixtures.write(download.body, server.directory, "explicit.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath)
        #expect(verdicts.values.contains { $0.hasPrefix("INTACT:TRUSTED") }, "\(verdicts)")

        // Once the signature is made, the account and the person's signer are forgotten: the next
        // signer on this document signs in again (the session reports the signature as an event).
        var forgotten = JSONValue.null
        for _ in 0..<50 {
            forgotten = try await server.request("/api/provider-signing").json
            if forgotten["signer"] == .null && forgotten["credentials"]?.arrayValue?.isEmpty == true { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(forgotten["signer"] == .null && forgotten["credentials"]?.arrayValue?.isEmpty == true, "\(forgotten)")

        // Another document opened: the account belonged to the session that signed in.
        #expect(try await server.request("POST", "/api/documents", body: WebFixtures.form()).status == 200)
        let fresh = try await server.request("/api/provider-signing").json
        #expect(fresh["credentials"]?.arrayValue?.isEmpty == true && fresh["signer"] == .null, "\(fresh)")
        let stale = try await server.post(
            "/api/provider-signing/credential",
            #"{"credential": "autograph/signer", "pin": "\#(CSCServer.pin)", "otp": "\#(CSCServer.otp)"}"#)
        #expect(stale.signoCode == -127, "\(stale.text)")
    }

    @Test("A provider that refuses (error=access_denied) or no provider at all: nothing is chosen")
    func refusals() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.request("/api/provider-signing").json["available"]?.boolValue == false)
        #expect(try await server.post("/api/provider-signing").status == 404)
        let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate"]
        let denied = try await server.request(
            "/provider-return?error=access_denied&state=s", auth: .none, headers: navigation)
        #expect(denied.status == 404)
    }

    @Test(
        "A hostile return: a provider's error text with markup is shown escaped; an oversized state or code is refused")
    func hostileReturn() async throws {
        // A provider nobody listens on: nothing here reaches it.
        let port = try LoopbackPort.free()
        let server = try await TestServer(
            provider: ProviderSigning(baseURL: "http://127.0.0.1:\(port)", clientID: "app", clientSecret: nil))
        defer { Task { await server.stop() } }
        let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate"]
        let script = "%3Cscript%3Ealert(1)%3C%2Fscript%3E"
        let marked = try await server.request(
            "/provider-return?error=\(script)&error_description=\(script)&state=s", auth: .none, headers: navigation)
        #expect(marked.status == 403 && !marked.text.contains("<script") && marked.text.contains("&lt;script&gt;"))
        let longState = String(repeating: "a", count: 5000)
        #expect(
            try await server.request("/provider-return?code=c&state=\(longState)", auth: .none, headers: navigation)
                .status == 400)
        let longCode = String(repeating: "c", count: 5000)
        #expect(
            try await server.request("/provider-return?code=\(longCode)&state=s", auth: .none, headers: navigation)
                .status == 400)
        // An unknown state with a plausible code reaches no provider and chooses nothing.
        let unknown = try await server.request("/provider-return?code=c&state=s", auth: .none, headers: navigation)
        #expect(unknown.status != 200 && !unknown.text.contains("refresh"))
    }
}

/// A GET that follows no redirect, for playing the browser at the provider's page.
enum CurlTransportGet {
    /// The `Location` the page answers (a 302 when the person consented).
    static func location(_ url: String) async throws -> String {
        let curl = try #require(Oracle.which("curl"))
        let result = try Oracle.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", url])
        let parts = result.output.split(separator: " ", maxSplits: 1).map(String.init)
        try #require(parts.count == 2 && parts[0] == "302", "the provider's page answered \(result.output)")
        return parts[1]
    }
}
