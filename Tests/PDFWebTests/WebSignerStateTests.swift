import AutographJSON
import Foundation
import PDFSession
import PDFTestSupport
import Testing

@testable import PDFWeb

/// `GET /api/state`'s `signer`: the certificate a signature made now is made with, as openssl reads it.
@Suite(.enabled(if: Requirement.tool("openssl"), "openssl is not installed"))
struct WebSignerStateTests {
    /// The value of `CN=` in openssl's RFC 2253 line (`subject=…` or `issuer=…`).
    static func commonName(_ line: String) -> String? {
        line.split(separator: ",").first { $0.hasPrefix("CN=") || $0.contains("=CN=") }
            .map { String($0.split(separator: "=", maxSplits: 2).last ?? "") }
    }

    @Test("the signer's name, issuer and expiry are the certificate's; none for a host's signature")
    func signerIsTheCertificate() async throws {
        let fields = try Oracle.run(
            "openssl",
            [
                "x509", "-in", TestPaths.fixture("pki", "signer-p256.cert.pem"), "-noout", "-subject", "-issuer",
                "-enddate", "-nameopt",
                "RFC2253,-esc_msb",
            ]
        ).output.split(separator: "\n").map(String.init)
        let subject = try #require(fields.first { $0.hasPrefix("subject=") })
        let issuer = try #require(fields.first { $0.hasPrefix("issuer=") })
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let signer = try await server.request("/api/state").json["signer"]
        #expect(signer?["name"]?.stringValue == Self.commonName(String(subject.dropFirst(8))))
        #expect(signer?["issuer"]?.stringValue == Self.commonName(String(issuer.dropFirst(7))))
        #expect((signer?["notAfter"]?.intValue ?? 0) > 1_700_000_000)
        // A host's backend makes the CMS: nobody is known before it does.
        #expect(SessionJSON.signer(.deferred) == .null)
    }

    @Test("attributes.fieldLock: none, filled or all, with the API token; anything else is 400 naming it")
    func fieldLockConfiguration() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let wrong = try await server.request(
            "POST", "/api/configuration", json: #"{"attributes": {"fieldLock": "some"}}"#)
        #expect(wrong.status == 400)
        #expect(wrong.text.contains("attributes.fieldLock"))
        let set = try await server.request("POST", "/api/configuration", json: #"{"attributes": {"fieldLock": "all"}}"#)
        #expect(set.status == 200)
        #expect(try await server.request("/api/configuration").json["attributes"]?["fieldLock"] == .string("all"))
        // The person's browser cannot change what is signed in the host's name.
        let browser = try await server.request(
            "POST", "/api/configuration", auth: .cookie, json: #"{"attributes": {"fieldLock": "none"}}"#)
        #expect(browser.status == 403)
    }
}
