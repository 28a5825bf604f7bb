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
        let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"]
        let returned = try await server.request(back, auth: .none, headers: navigation)
        #expect(returned.status == 200 && returned.text.contains("Certomancer EC Signer"), "\(returned.text)")
        #expect(returned.text.contains("http-equiv=\"refresh\""))
        // The same return again, or a forged one, chooses nothing.
        #expect(try await server.request(back, auth: .none, headers: navigation).status != 200)
        let forged = try await server.request(
            "/provider-return?code=x&state=forged", auth: .none, headers: navigation)
        #expect(forged.status != 200 && !forged.text.contains("<script"))
        // The return is the only path that takes no credential.
        #expect(try await server.request("/api/provider-signing", auth: .none, headers: navigation).status == 403)

        let after = try await server.request("/api/provider-signing").json
        #expect(after["signer"]?.stringValue == "Certomancer EC Signer", "\(after)")
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
