import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Signed documents checked by pyHanko, pdfsig and qpdf.
@Suite("Signing with a local key, an external CMS and a raw signer")
struct SigningTests {
    static let root = TestPaths.fixture("pki", "root.cert.pem")

    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Signs `bytes`, writes the result, and checks it with every oracle: returns the file's path.
    @discardableResult
    /// `bytes` signed `count` times at once through one `signer`, each an invisible signature.
    static func signConcurrently(_ bytes: [UInt8], count: Int, signer: any Signer) async throws -> [[UInt8]] {
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await DocumentSigner(
                        document: try PDFDocument(bytes: bytes), request: SignatureRequest(placement: .invisible),
                        signer: signer
                    ).sign().bytes()
                }
            }
            var all: [[UInt8]] = []
            for try await result in group { all.append(result) }
            return all
        }
    }

    static func signAndCheck(
        _ bytes: [UInt8], signer: any Signer, request: SignatureRequest = SignatureRequest(placement: .invisible),
        fieldName: String? = nil
    ) async throws -> String {
        let document = try PDFDocument(bytes: bytes)
        let signed = try await DocumentSigner(document: document, request: request, signer: signer).sign()
        let output = try signed.bytes()
        #expect(Array(output.prefix(bytes.count)) == bytes, "the input is not a prefix")
        let path = try TestPaths.temporaryDirectory("signing") + "/signed.pdf"
        try Data(output).write(to: URL(fileURLWithPath: path))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let name = fieldName ?? signed.prepared.signature.fieldName
        let verdict = try SignatureOracle.pyhanko(path, trust: root)[name] ?? "missing"
        #expect(verdict.hasPrefix("INTACT:TRUSTED"), "pyHanko: \(verdict)")
        let pdfsig = try SignatureOracle.pdfsig(path, trust: root)
        #expect(pdfsig.last?.valid == true && pdfsig.last?.trusted == true, "pdfsig: \(pdfsig)")
        return path
    }

    @Test(
        "each key kind signs a document that pyHanko and pdfsig accept",
        arguments: [
            ("signer-rsa2048", SignatureScheme.rsaPKCS1v15, DigestAlgorithm.sha256),
            ("signer-rsa-pss", .rsaPSS, .sha256), ("signer-p256", .ecdsa, .sha256), ("signer-p384", .ecdsa, .sha384),
            ("signer-rsa2048", .rsaPKCS1v15, .sha512),
        ])
    func keyKinds(name: String, scheme: SignatureScheme, digest: DigestAlgorithm) async throws {
        let signer = try LocalKeySigner(pkcs12: Self.pki("\(name).p12"), password: "secret", scheme: scheme)
        var request = SignatureRequest(
            placement: .visible(page: 0, rect: PDFRectangle(x0: 72, y0: 72, x1: 272, y1: 132)))
        request.digestAlgorithm = digest
        request.reason = "Testing \(name)"
        try await Self.signAndCheck(TestDocuments.simple(), signer: signer, request: request)
    }

    @Test("key containers: legacy PKCS#12, PEM key with certificate and chain, encrypted PEM key")
    func keyContainers() async throws {
        let legacy = try LocalKeySigner(pkcs12: Self.pki("signer-p256.legacy.p12"), password: "secret")
        try await Self.signAndCheck(TestDocuments.simple(), signer: legacy)
        let pem = try LocalKeySigner(
            keyPEM: Self.pki("signer-rsa2048.key.enc.pem"), password: "secret",
            certificatePEM: Self.pki("signer-rsa2048.cert.pem"), chainPEM: Self.pki("signer-rsa2048.chain.pem"))
        try await Self.signAndCheck(TestDocuments.simple(), signer: pem)
    }

    @Test("an external backend (OpenSSL's CMS API) signs the digest; a CMS for other content is refused")
    func externalCMS() async throws {
        let certificate = try Self.read(Self.pki("signer-p256.cert.pem"))
        let key = try Self.read(Self.pki("signer-p256.key.pem"))
        let chain = try Self.read(Self.pki("signer-p256.chain.pem"))
        let signer = ExternalCMSSigner(certificates: Certificate.certificates(pem: certificate)) { digest, _ in
            try? OpenSSLBackend.cms(digest: digest, certificatePEM: certificate, keyPEM: key, chainPEM: chain)
        }
        try await Self.signAndCheck(TestDocuments.simple(), signer: signer)

        let wrong = ExternalCMSSigner { digest, _ in
            try? OpenSSLBackend.cms(
                digest: digest.map { $0 ^ 1 }, certificatePEM: certificate, keyPEM: key, chainPEM: chain)
        }
        await #expect(throws: SigningError(.signingFailed, "")) {
            _ = try await DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(), signer: wrong
            ).sign()
        }
        let cancelling = ExternalCMSSigner { _, _ in nil }
        await #expect(throws: SigningError(.cancelled, "")) {
            _ = try await DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(),
                signer: cancelling
            ).sign()
        }
    }

    @Test(
        "a remote raw signer (openssl pkeyutl as the HSM) signs the attributes' hash",
        arguments: ["signer-rsa2048", "signer-p384"])
    func rawSigner(name: String) async throws {
        let certificates =
            Certificate.certificates(pem: try Self.read(Self.pki("\(name).cert.pem")))
            + Certificate.certificates(pem: try Self.read(Self.pki("\(name).chain.pem")))
        let keyPath = Self.pki("\(name).key.pem")
        let scheme: SignatureScheme = name.contains("rsa") ? .rsaPKCS1v15 : .ecdsa
        let signer = try RawSignatureSigner(certificates: certificates, scheme: scheme) { hash, algorithm in
            guard let directory = try? TestPaths.temporaryDirectory("hsm") else { return nil }
            let input = directory + "/hash.bin"
            let output = directory + "/signature.bin"
            try? Data(hash).write(to: URL(fileURLWithPath: input))
            let result = try? Oracle.run(
                "openssl",
                [
                    "pkeyutl", "-sign", "-inkey", keyPath, "-in", input, "-out", output, "-pkeyopt",
                    "digest:\(algorithm.rawValue)",
                ])
            guard result?.status == 0 else { return nil }
            return try? Self.read(output)
        }
        var request = SignatureRequest()
        request.digestAlgorithm = name.contains("p384") ? .sha384 : .sha256
        try await Self.signAndCheck(TestDocuments.simple(), signer: signer, request: request)
    }

    @Test("a signature is added to a signed document; every earlier signature stays intact")
    func signTwice() async throws {
        let first = try LocalKeySigner(pkcs12: Self.pki("signer-rsa2048.p12"), password: "secret")
        let once = try Self.read(
            try await Self.signAndCheck(
                TestForms.make(), signer: first,
                request: SignatureRequest(fieldName: "signature", placement: .existingField)))
        let second = try LocalKeySigner(pkcs12: Self.pki("signer-p256.p12"), password: "secret")
        let twice = try await Self.signAndCheck(once, signer: second)
        let verdicts = try SignatureOracle.pyhanko(twice, trust: Self.root)
        #expect(verdicts.count == 2)
        #expect(verdicts.values.allSatisfy { $0.hasPrefix("INTACT:TRUSTED") }, "\(verdicts)")
    }

    @Test("an encrypted document is signed with its password; new objects are encrypted, /Contents is not")
    func encrypted() async throws {
        let directory = try TestPaths.temporaryDirectory("signing")
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: directory + "/plain.pdf"))
        try Oracle.qpdfEncrypt(
            directory + "/plain.pdf", directory + "/locked.pdf", user: "user", owner: "owner", ["256"])
        let document = try PDFDocument(
            contentsOfFile: directory + "/locked.pdf", options: ParseOptions(password: "user"))
        let signer = try LocalKeySigner(pkcs12: Self.pki("signer-p256.p12"), password: "secret")
        var request = SignatureRequest()
        request.reason = "Confidential reason"
        let signed = try await DocumentSigner(document: document, request: request, signer: signer).sign()
        let bytes = try signed.bytes()
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Confidential reason"))
        let path = directory + "/signed.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try Oracle.qpdfCheck(path, password: "user").status == 0)
        let pdfsig = try Oracle.run(
            "pdfsig", ["-upw", "user", "-nssdir", "sql:" + (try SignatureOracle.nssDatabase(Self.root)), path])
        #expect(pdfsig.output.contains("Signature is Valid"), "\(pdfsig.output)")
    }

    @Test("a prepared document is signed later by another process (autograph embed)")
    func deferredEmbed() async throws {
        let directory = try TestPaths.temporaryDirectory("signing")
        let document = try PDFDocument(bytes: TestDocuments.simple())
        let prepared = try SignaturePreparer(document: document, request: SignatureRequest()).prepare(
            contentsSize: 8192, signerName: nil)
        try prepared.write(to: directory + "/prepared.pdf")
        let signer = try LocalKeySigner(pkcs12: Self.pki("signer-p256.p12"), password: "secret")
        let cms = try await signer.cms(for: prepared.signature.digest, algorithm: .sha256)
        try Data(cms).write(to: URL(fileURLWithPath: directory + "/signature.p7s"))
        // The state travels as JSON; a second process embeds.
        let state = prepared.signature
        let stateJSON = """
            {"fieldName": "\(state.fieldName)", "byteRange": [\(state.byteRange.map(String.init).joined(separator: ","))],
             "contentsOffset": \(state.contentsOffset), "contentsHexLength": \(state.contentsHexLength),
             "digestAlgorithm": "sha256", "digest": "\(state.digestHex)", "fileSize": \(state.fileSize), "subFilter": "\(state.subFilter.rawValue)"}
            """
        try Data(stateJSON.utf8).write(to: URL(fileURLWithPath: directory + "/state.json"))
        let tool = TestPaths.repository + "/.build/debug/autograph"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first (swift build)")
        let result = try Oracle.run(
            tool,
            [
                "embed", directory + "/prepared.pdf", "--state", directory + "/state.json", "--cms",
                directory + "/signature.p7s", "-o", directory + "/signed.pdf",
            ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            try SignatureOracle.pyhanko(directory + "/signed.pdf", trust: Self.root)[state.fieldName]?.hasPrefix(
                "INTACT:TRUSTED") == true)
    }
}
