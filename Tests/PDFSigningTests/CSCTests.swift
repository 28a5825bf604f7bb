import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFSigning

/// Remote signing through the CSC API v1 against certomancer-csc-dummy, a third-party server
/// (`CSCServer.dummy`): the credentials, RSA, RSA-PSS and ECDSA signatures that pyHanko and pdfsig
/// accept, a SAD that is bound to its hashes, the server down, what travels, batching, and pyHanko's
/// own CSC signer against the same server.
@Suite(
    "CSC v1: remote signing with certomancer-csc-dummy",
    .enabled(if: CSCServer.isDummyInstalled, "certomancer-csc-dummy is not installed (scripts/install-deps test)"))
struct CSCTests {
    /// Sends through libcurl and keeps every request's URL and body.
    final class CountingTransport: HTTPTransport {
        let sent = Mutex<[(url: String, body: [UInt8])]>([])
        func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
            sent.withLock { $0.append((request.url, request.body)) }
            return try await CurlTransport().send(request)
        }
        var bytes: Int { sent.withLock { $0.reduce(0) { $0 + $1.body.count } } }
        var count: Int { sent.withLock { $0.count } }
    }

    static func services() throws -> Certomancer { try Certomancer.shared(wholeSeconds: true) }

    static func root(_ services: Certomancer) throws -> [Certificate] {
        Certificate.certificates(pem: Array(try Data(contentsOf: URL(fileURLWithPath: services.rootCertificatePath))))
    }

    /// Signs `bytes` with `signer` and checks the result with our validator, pyHanko and pdfsig.
    @discardableResult
    static func signAndCheck(
        _ bytes: [UInt8], signer: any Signer, services: Certomancer, name: String
    ) async throws -> [UInt8] {
        let signed = try await DocumentSigner(
            document: try PDFDocument(bytes: bytes), request: SignatureRequest(placement: .invisible), signer: signer
        ).sign().bytes()
        let status = try #require(
            SignatureValidator(document: try PDFDocument(bytes: signed), trustRoots: try root(services)).validate()
                .first)
        #expect(status.isValidAsShown, "\(status.problems)")
        let path = try TestPaths.temporaryDirectory("csc") + "/\(name).pdf"
        try Data(signed).write(to: URL(fileURLWithPath: path))
        let verdict = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath).values.first ?? ""
        #expect(verdict.hasPrefix("INTACT:TRUSTED"), "pyHanko: \(verdict)")
        let pdfsig = try SignatureOracle.pdfsig(path, trust: services.rootCertificatePath)
        #expect(pdfsig.last?.valid == true && pdfsig.last?.trusted == true, "pdfsig: \(pdfsig)")
        return signed
    }

    static func code(_ body: () async throws -> Void) async -> Int? {
        do {
            try await body()
            return nil
        } catch let error as SigningError {
            return error.signoCode
        } catch {
            return 0
        }
    }

    @Test("The version is discovered (v1), the credentials listed, a credential's chain, key and SCAL read")
    func credentials() async throws {
        let services = try Self.services()
        let server = try await CSCServer.dummy(services: services)
        defer { server.stop() }
        let client = try await CSCClient(baseURL: server.baseURL + "/")
        #expect(client.version == .v1 && client.info.specs == "1.0.4.0" && client.info.authTypes == ["external"])
        let identifiers = try await client.credentialIDs()
        #expect(identifiers.contains("autograph/signer") && identifiers.contains("autograph/signer-ec"))
        let credential = try await client.credential("autograph/signer")
        #expect(credential.certificates.count == 3 && credential.certificate.subject.contains("Certomancer Signer"))
        #expect(credential.scal == 2 && credential.authMode == "implicit" && credential.keyLength == 2048)
        #expect(credential.algorithms.contains("1.2.840.113549.1.1.11"))
        // The chain ends with the Animator's own root: the same PKI.
        #expect(credential.certificates.last == (try Self.root(services)).first)
        let ec = try await client.credential("autograph/signer-ec")
        guard case .ec = ec.certificate.publicKeyKind else {
            Issue.record("signer-ec's key is \(ec.certificate.publicKeyKind)")
            return
        }
        #expect(ec.keyLength == 384)
    }

    @Test(
        "RSA PKCS#1 v1.5, RSA-PSS and ECDSA P-384 credentials sign documents that pyHanko and pdfsig accept",
        arguments: [
            ("autograph/signer", SignatureScheme.rsaPKCS1v15), ("autograph/signer", .rsaPSS),
            ("autograph/signer-ec", .ecdsa),
        ])
    func signs(credential: String, scheme: SignatureScheme) async throws {
        let services = try Self.services()
        let server = try await CSCServer.dummy(services: services)
        defer { server.stop() }
        let client = try await CSCClient(baseURL: server.baseURL)
        let signer = try await CSCSigner(
            client: client, credentialID: credential, scheme: scheme == .rsaPSS ? .rsaPSS : nil)
        #expect(signer.scheme == scheme)
        try await Self.signAndCheck(
            try TestDocuments.simple(), signer: signer, services: services, name: "\(scheme.rawValue)")
        // One signature: info, credentials/info, authorize, signHash.
        #expect(client.requestCount == 3, "discovery not counted: \(client.requestCount)")
        #expect(
            server.requests().map(\.path).suffix(2) == ["/csc/v1/credentials/authorize", "/csc/v1/signatures/signHash"])
    }

    @Test("A SAD authorizes its own hashes only (−129 for another); an unknown credential is −127")
    func sadBoundToHashes() async throws {
        let server = try await CSCServer.dummy(services: try Self.services())
        defer { server.stop() }
        let client = try await CSCClient(baseURL: server.baseURL)
        let credential = try await client.credential("autograph/signer")
        let authorized = try DigestAlgorithm.sha256.hash(Array("authorized".utf8))
        let other = try DigestAlgorithm.sha256.hash(Array("something else".utf8))
        let sad = try await client.authorize(credential, hashes: [authorized], algorithm: .sha256)
        let signatures = try await client.signHashes(
            [authorized], credential: credential, algorithm: .sha256, scheme: .rsaPKCS1v15, sad: sad)
        #expect(
            credential.certificate.verify(
                signature: signatures[0], digest: authorized, digestAlgorithm: .sha256, scheme: .rsaPKCS1v15))
        #expect(
            await Self.code {
                _ = try await client.signHashes(
                    [other], credential: credential, algorithm: .sha256, scheme: .rsaPKCS1v15, sad: sad)
            } == -129)
        #expect(await Self.code { _ = try await client.credential("autograph/no-such-certificate") } == -127)
        #expect(await Self.code { _ = try await CSCSigner(client: client, credentialID: "autograph/nothing") } == -127)
    }

    @Test("The server down: connecting is −123, and so is signing once it went away; nothing is written")
    func serverDown() async throws {
        let port = try LoopbackPort.free()
        #expect(await Self.code { _ = try await CSCClient(baseURL: "http://127.0.0.1:\(port)") } == -123)
        #expect(await Self.code { _ = try await CSCClient(baseURL: "file:///etc/passwd") } != nil)
        let server = try await CSCServer.dummy(services: try Self.services())
        let client = try await CSCClient(baseURL: server.baseURL)
        let signer = try await CSCSigner(client: client, credentialID: "autograph/signer")
        server.stop()
        try await Task.sleep(for: .seconds(1.5))
        let code = await Self.code {
            _ = try await DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()),
                request: SignatureRequest(placement: .invisible), signer: signer
            ).sign()
        }
        #expect(code == -123)
    }

    @Test(
        "Only hashes travel: what is sent per signature does not grow with the document (counted by client and server)"
    )
    func onlyHashesTravel() async throws {
        let services = try Self.services()
        let server = try await CSCServer.dummy(services: services)
        defer { server.stop() }
        let small = TestDocuments.simple()
        let large = TestDocuments.simple(pages: 3000, compress: false)
        #expect(large.count > 100 * small.count)
        var perSignature: [Int] = []
        for document in [small, large] {
            let transport = CountingTransport()
            let client = try await CSCClient(baseURL: server.baseURL, transport: transport)
            let signer = try await CSCSigner(client: client, credentialID: "autograph/signer-ec")
            let before = transport.bytes
            let signed = try await Self.signAndCheck(document, signer: signer, services: services, name: "travel")
            perSignature.append(transport.bytes - before)
            let documentDigest = try DigestAlgorithm.sha256.hash(document)
            for (_, body) in transport.sent.withLock({ $0 }) {
                #expect(body.count < 1024)
                #expect(!String(decoding: body, as: UTF8.self).contains(Data(documentDigest).base64EncodedString()))
            }
            #expect(signed.count > document.count)
        }
        // The two signatures' requests differ only by the SAD's and hash's encodings: a few bytes.
        #expect(abs(perSignature[0] - perSignature[1]) < 64 && perSignature.allSatisfy { $0 < 600 }, "\(perSignature)")
        // The server received what the client counted: the bodies of authorize and signHash.
        let logged = server.requests().filter { $0.path.hasSuffix("authorize") || $0.path.hasSuffix("signHash") }
        #expect(logged.count == 4 && logged.reduce(0) { $0 + $1.bytes } == perSignature.reduce(0, +))
    }

    @Test("Six documents signed at once through one signer go in fewer authorizations and signing calls than six")
    func batching() async throws {
        let services = try Self.services()
        let server = try await CSCServer.dummy(services: services)
        defer { server.stop() }
        let client = try await CSCClient(baseURL: server.baseURL)
        let signer = try await CSCSigner(client: client, credentialID: "autograph/signer")
        let before = client.requestCount
        let bytes = try TestDocuments.simple()
        let results = try await SigningTests.signConcurrently(bytes, count: 6, signer: signer)
        let calls = client.requestCount - before
        // The first hash goes alone; those made meanwhile wait and go together (4 requests when measured
        // on an idle machine; how many join a call depends on the machine's load, so only fewer pairs than
        // signatures is asserted).
        #expect(calls % 2 == 0 && calls < 12, "\(calls) requests for 6 signatures")
        for result in results {
            let status = try #require(
                SignatureValidator(document: try PDFDocument(bytes: result), trustRoots: try Self.root(services))
                    .validate().first)
            #expect(status.isValidAsShown, "\(status.problems)")
        }
        let batchSizes = server.requests().filter { $0.path.hasSuffix("signHash") }.count
        #expect(batchSizes == calls / 2)
    }

    @Test(
        "pyHanko's own CSC signer, on the same server, signs what Autograph accepts",
        arguments: ["signer", "signer-ec"])
    func pyhankoSigner(label: String) async throws {
        let services = try Self.services()
        let server = try await CSCServer.dummy(services: services)
        defer { server.stop() }
        let directory = try TestPaths.temporaryDirectory("csc-pyhanko")
        let input = directory + "/in.pdf"
        let output = directory + "/out.pdf"
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: input))
        let python = try #require(Oracle.which("python3"))
        let made = try Oracle.run(
            python,
            [
                TestPaths.repository + "/Tests/Scripts/pyhanko_csc_sign.py", server.baseURL, "autograph/\(label)",
                input,
                output,
            ], timeout: 120)
        try #require(made.status == 0, "\(made.output) \(made.errors)")
        let status = try #require(
            SignatureValidator(document: try PDFDocument(contentsOfFile: output), trustRoots: try Self.root(services))
                .validate().first)
        #expect(status.isValidAsShown && status.level == "B-B", "\(status.problems)")
    }
}
