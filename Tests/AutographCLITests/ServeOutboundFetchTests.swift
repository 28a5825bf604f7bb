import Foundation
import PDFCore
import PDFSession
import PDFSigning
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// `autograph serve --tsa URL` completing a document someone uploaded (PAdES B-LTA): the OCSP,
/// CRL and caIssuers addresses its certificates name are the uploader's choice, so the server
/// fetches nothing for a certificate that does not lead to its anchors (`--trust`, the seal's
/// chain), and nothing from loopback or private addresses unless `--allow-fetch-to` says so. The
/// addresses are a real listener on loopback that records every request; the time-stamp authority
/// is certomancer's, the operator's own endpoint.
@Suite("ServeOutboundFetchTests: a server completing an uploaded document makes no request for the uploader")
struct ServeOutboundFetchTests {
    /// A root and a signer it issued whose OCSP, CRL and caIssuers addresses are `base`'s.
    struct PKI {
        var root: Certificate
        var signer: LocalKeySigner

        init(urls base: String) throws {
            let rootKey = try PrivateKey.generate(.p256)
            root = try CertificateBuilder(commonName: "Uploader Root", isCA: true).selfSigned(key: rootKey)
            let key = try PrivateKey.generate(.p256)
            var builder = CertificateBuilder(commonName: "Uploader")
            builder.ocspURLs = [base + "/ocsp"]
            builder.crlDistributionPointURLs = [base + "/crl"]
            builder.caIssuersURLs = [base + "/issuer"]
            let certificate = try builder.issued(publicKeyOf: key, by: root, issuerKey: rootKey)
            signer = try LocalKeySigner(key: key, certificate: certificate, chain: [root])
        }

        /// A document signed by the signer (its CMS carrying the root).
        func signedDocument() async throws -> [UInt8] {
            let documentSigner = DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()),
                request: SignatureRequest(placement: .invisible), signer: signer)
            return try await documentSigner.sign().bytes()
        }
    }

    /// Serves as `autograph serve --tsa … <options>` would, uploads `document` through the HTTP API,
    /// completes it, and returns the HTTP status of the completion and the revisions added.
    static func uploadAndComplete(_ document: [UInt8], options: [String]) async throws -> (status: Int, added: Int) {
        let services = try Certomancer.shared()
        let directory = try TestPaths.temporaryDirectory("serve-fetch")
        let parsed = try ServeCommand.spec.parse(["--store", directory + "/store", "--tsa", services.tsaURL] + options)
        let (_, backend) = try await ServeCommand.prepare(parsed, console: .captured())
        let server = WebServer(backend: backend)
        let port = try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let input = directory + "/upload.pdf"
        try Data(document).write(to: URL(fileURLWithPath: input))
        let upload = try await call(port, server.token, "/api/documents", ["--data-binary", "@" + input], directory)
        #expect(upload == 200)
        let before = try PDFDocument(bytes: await backend.session?.documentBytes ?? []).revisions.count
        let status = try await call(port, server.token, "/api/complete", ["--data-binary", "{}"], directory)
        let after = try PDFDocument(bytes: await backend.session?.documentBytes ?? []).revisions.count
        await backend.close()
        return (status, after - before)
    }

    /// A POST to the server with curl (off Swift's pool: the server answers on it); the status.
    static func call(_ port: Int, _ token: String, _ path: String, _ body: [String], _ directory: String)
        async throws -> Int
    {
        let arguments =
            [
                "-s", "-X", "POST", "-o", directory + "/answer", "-w", "%{http_code}", "--max-time", "120",
                "-H", "Authorization: Bearer " + token, "-H", "X-Autograph: 1",
            ] + body + ["http://127.0.0.1:\(port)" + path]
        let result: Oracle.Result = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try Oracle.run("curl", arguments, timeout: 150) }) }.start()
        }
        return Int(result.output) ?? 0
    }

    @Test("serve --tsa completes an uploaded document (B-LTA) and its certificate's addresses hear nothing")
    func nothingForTheUploader() async throws {
        let catcher = try RequestCatcher()
        defer { catcher.stop() }
        let document = try await PKI(urls: catcher.base).signedDocument()
        let (status, added) = try await Self.uploadAndComplete(document, options: [])
        #expect(status == 200)
        // The validation material, then the document time-stamp: completed all the same.
        #expect(added == 2)
        #expect(catcher.connections == 0, "\(catcher.requests)")
    }

    @Test(
        "only a certificate that leads to --trust, at an address --allow-fetch-to allows, is asked",
        arguments: [(trusted: false, allowed: true), (trusted: true, allowed: false), (trusted: true, allowed: true)])
    func anchorsAndDestinations(trusted: Bool, allowed: Bool) async throws {
        let catcher = try RequestCatcher()
        defer { catcher.stop() }
        let pki = try PKI(urls: catcher.base)
        let root = try TestPaths.temporaryDirectory("serve-fetch-root") + "/root.der"
        try Data(pki.root.derBytes).write(to: URL(fileURLWithPath: root))
        let options =
            (trusted ? ["--trust", root] : []) + (allowed ? ["--allow-fetch-to", "127.0.0.1:\(catcher.port)"] : [])
        let (status, added) = try await Self.uploadAndComplete(try await pki.signedDocument(), options: options)
        #expect(status == 200 && added == 2)
        if trusted && allowed {
            // The responder answers 404: the CRL is asked next; the root completes the path.
            #expect(catcher.requests.map(\.description) == ["POST /ocsp", "GET /crl"], "\(catcher.requests)")
        } else {
            #expect(catcher.connections == 0, "\(catcher.requests)")
        }
    }

    @Test("--allow-fetch-to refuses what is not HOST[:PORT] or CIDR")
    func usage() throws {
        for value in ["127.1", "2130706433", "host:99999", "10.0.0.0/40", "http://x"] {
            let parsed = try ServeCommand.spec.parse(["--allow-fetch-to", value])
            #expect(throws: UsageError.self, "\(value)") { try ServeCommand.fetchPolicy(parsed) }
        }
        let parsed = try ServeCommand.spec.parse(["--allow-fetch-to", "ocsp.internal", "--allow-fetch-to", "fd00::/8"])
        #expect(try ServeCommand.fetchPolicy(parsed).allowedDestinations == ["ocsp.internal", "fd00::/8"])
    }

    @Test("a person's own verify --revocation online and extend still fetch what the document names, loopback too")
    func ownCommandsFetch() async throws {
        let catcher = try RequestCatcher()
        defer { catcher.stop() }
        let pki = try PKI(urls: catcher.base)
        let directory = try TestPaths.temporaryDirectory("own-fetch")
        try Data(try await pki.signedDocument()).write(to: URL(fileURLWithPath: directory + "/in.pdf"))
        try Data(pki.root.derBytes).write(to: URL(fileURLWithPath: directory + "/root.der"))
        // Online, the statuses of a trusted path are asked.
        _ = await autograph(
            "verify", directory + "/in.pdf", "--trust", directory + "/root.der", "--revocation", "online")
        let verified = catcher.requests.count
        #expect(verified > 0, "\(catcher.requests)")
        _ = await autograph("extend", directory + "/in.pdf", "-o", directory + "/out.pdf")
        #expect(catcher.requests.count > verified, "\(catcher.requests)")
    }
}
