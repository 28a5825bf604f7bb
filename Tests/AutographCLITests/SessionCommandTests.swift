import Foundation
import PDFCore
import PDFForms
import PDFSession
import PDFSigning
import PDFTestSupport
import Testing

/// `autograph demo` and `autograph session`, run as separate processes (the built tool), so the
/// store is shown to work across processes: a document prepared here is signed by another process.
@Suite(.serialized) struct SessionCommandTests {
    static let tool = TestPaths.repository + "/.build/debug/autograph"

    static func run(_ arguments: [String], environment key: String? = nil) throws -> Oracle.Result {
        try #require(FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first (swift build)")
        return try Oracle.run(tool, arguments, timeout: 300)
    }

    @Test func theDemoSignsVerifiablyAndReusesItsIdentityAndHandwriting() throws {
        let directory = try TestPaths.temporaryDirectory("demo")
        let first = try Self.run(["demo", "--out", directory])
        #expect(first.status == 0, "\(first.errors)")
        let events = first.output.split(separator: "\n").filter { $0.hasPrefix("event: ") }.map {
            String($0.dropFirst(7).prefix { $0 != " " })
        }
        #expect(
            events == [
                "documentDidLoad", "fieldChanged", "fieldChanged", "fieldChanged", "fieldChanged",
                "signatureCaptureRequired", "onConfirmationRequired", "willPrepareDocument",
                "documentPreparedForSignature", "processDidFinish",
            ])
        let signed = directory + "/signed.pdf"
        let root = directory + "/demo-root.pem"
        #expect(try SignatureOracle.pyhanko(signed, trust: root)["Signature"]?.hasPrefix("INTACT:TRUSTED") == true)
        // Without the demo root nothing trusts it.
        #expect(try SignatureOracle.pyhanko(signed, trust: nil)["Signature"]?.contains("UNTRUSTED") == true)
        let reports = try SignatureOracle.pdfsig(signed, trust: root)
        #expect(reports.count == 1 && reports[0].valid && reports[0].trusted)
        let values = try Oracle.pypdfFieldValues(signed)
        #expect(values["Name"] == "Ada Lovelace" && values["Country"] == "Switzerland" && values["Agree"] == "Yes")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/preview.png")).starts(with: [0x89, 0x50]))

        // The second run finds the identity and the handwriting in the store.
        let rootBefore = try Data(contentsOf: URL(fileURLWithPath: root))
        let second = try Self.run(["demo", "--out", directory])
        #expect(second.status == 0, "\(second.errors)")
        #expect(!second.output.contains("signatureCaptureRequired"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: root)) == rootBefore)
        #expect(try SignatureOracle.pyhanko(signed, trust: root)["Signature"]?.hasPrefix("INTACT:TRUSTED") == true)
    }

    @Test func anotherProcessEmbedsTheCMSByDocumentID() async throws {
        let directory = try TestPaths.temporaryDirectory("session-cli")
        let key = (0..<64).map { UInt8($0 * 3 % 256) }
        let keyFile = directory + "/key"
        try Data(key).write(to: URL(fileURLWithPath: keyFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let store = directory + "/store.sqlite"
        // This process: open, fill, accept, confirm; the digest waits for a CMS.
        let controller = try SessionController(username: "bob", storageKey: key, storePath: store)
        var configuration = SignatureConfiguration()
        configuration.signing = .deferred
        let session = try await controller.open(
            pdf: TestForms.make(), documentID: "contract-7", signatureConfiguration: configuration)
        try await session.setValue(.text("Bob"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        guard let digest = try controller.documentsInProgress().first?.digestToSign else {
            Issue.record("nothing waits for a signature")
            return
        }
        await session.close()
        let common = ["--store", store, "--user", "bob", "--key-file", keyFile]
        let listed = try Self.run(["session", "list"] + common)
        #expect(listed.output.contains("contract-7\tprepared, waiting for a CMS"))
        // A backend signs the digest; another process embeds it.
        let signer = try LocalKeySigner(pkcs12: TestPaths.fixture("pki", "signer-p256.p12"), password: "secret")
        let cms = try await signer.cms(for: digest, algorithm: .sha256)
        try Data(cms).write(to: URL(fileURLWithPath: directory + "/sig.p7s"))
        let output = directory + "/signed.pdf"
        let wrongUser = try Self.run(
            [
                "session", "embed", "contract-7", "--cms", directory + "/sig.p7s", "-o", output, "--store", store,
                "--user", "eve", "--key-file", keyFile,
            ])
        #expect(wrongUser.status == 1)
        let embedded = try Self.run(
            ["session", "embed", "contract-7", "--cms", directory + "/sig.p7s", "-o", output] + common)
        #expect(embedded.status == 0, "\(embedded.errors)")
        #expect(
            try SignatureOracle.pyhanko(output, trust: TestPaths.fixture("pki", "root.cert.pem"))["signature"]?
                .hasPrefix("INTACT:TRUSTED") == true)
        #expect(try Oracle.pypdfFieldValues(output)["name"] == "Bob")
        #expect(try Self.run(["session", "list"] + common).output.contains("contract-7\tediting\t2 revisions"))
        // A bad key file is a clear error.
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: keyFile))
        let badKey = try Self.run(["session", "list"] + common)
        #expect(badKey.status == 2 && badKey.errors.contains("64 bytes"))
        #expect(try Self.run(["session", "dispose", "contract-7", "--store", store, "--user", "bob"]).status == 2)
    }
}
