import Foundation
import PDFCore
import PDFTestSupport
import PKCS11
import Testing

@testable import PDFSigning

/// Signing with keys in a SoftHSM2 token (`SoftHSM`): each key kind of the test PKI, checked by
/// pyHanko and pdfsig; the errors of a wrong PIN, a missing key, token or certificate; signatures
/// made in parallel.
@Suite(
    "PKCS#11: keys in a SoftHSM2 token sign what pyHanko and pdfsig accept",
    .enabled(if: SoftHSM.isInstalled, "SoftHSM2 is not installed (scripts/install-deps test)"))
struct PKCS11Tests {
    static func signer(
        _ label: String, scheme: SignatureScheme? = nil, pin: String? = SoftHSM.pin, token: String = "autograph"
    ) throws -> PKCS11Signer {
        _ = try SoftHSM.shared()
        let name = SoftHSM.keys.first { $0.label == label }?.name ?? "signer-rsa2048"
        let chain = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "\(name).chain.pem")))))
        return try PKCS11Signer(
            module: SoftHSM.module, tokenLabel: token, keyLabel: label, pin: pin, chain: chain, scheme: scheme)
    }

    @Test(
        "RSA-2048, RSA-PSS, ECDSA P-256 and P-384 keys sign in the token; pyHanko and pdfsig accept each",
        arguments: [("rsa2048", SignatureScheme.rsaPKCS1v15), ("rsa-pss", .rsaPSS), ("p256", .ecdsa), ("p384", .ecdsa)])
    func keyKinds(label: String, scheme: SignatureScheme) async throws {
        let signer = try Self.signer(label, scheme: scheme == .rsaPSS ? .rsaPSS : nil)
        #expect(signer.scheme == scheme && signer.tokenDescription.contains("'autograph'"))
        let path = try await SigningTests.signAndCheck(try TestDocuments.simple(), signer: signer)
        let status = try #require(
            SignatureValidator(
                document: try PDFDocument(contentsOfFile: path),
                trustRoots: Certificate.certificates(
                    pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "root.cert.pem")))))
            ).validate().first)
        #expect(status.isValidAsShown, "\(status.problems)")
    }

    @Test(
        "A wrong or missing PIN is −125 (the token logged in or not), no such key −127, a key without certificate −147, no such token or module −123"
    )
    func mistakes() throws {
        func code(_ make: () throws -> PKCS11Signer) -> Int? {
            do {
                _ = try make()
                return nil
            } catch let error as SigningError {
                return error.signoCode
            } catch {
                return 0
            }
        }
        _ = try SoftHSM.shared()
        #expect(code { try Self.signer("rsa2048", pin: "0000") } == -125)
        #expect(code { try Self.signer("nothing-here") } == -127)
        #expect(code { try Self.signer("no-certificate") } == -147)
        #expect(code { try Self.signer("rsa2048", token: "no-such-token") } == -123)
        #expect(code { try Self.signer("rsa2048", token: "other") } == -127)
        #expect(code { try PKCS11Signer(module: "/nonexistent/module.so", pin: nil) } == -123)
        // The token is logged in for the process by now: a wrong PIN still fails, and no PIN too.
        #expect(code { try Self.signer("rsa2048", pin: "0000") } == -125)
        #expect(code { try Self.signer("rsa2048", pin: nil) } == -125)
    }

    @Test(
        "pyHanko's own PKCS#11 signer, on the same token, signs what Autograph accepts", arguments: ["rsa2048", "p256"])
    func pyhankoSigner(label: String) async throws {
        let store = try SoftHSM.shared()
        let directory = try TestPaths.temporaryDirectory("pkcs11-pyhanko")
        let input = directory + "/in.pdf"
        let output = directory + "/out.pdf"
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: input))
        let made = try store.signWithPyhanko(label: label, input: input, output: output)
        try #require(made.status == 0, "\(made.output) \(made.errors) (store \(store.directory))")
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "root.cert.pem")))))
        let status = try #require(
            SignatureValidator(document: try PDFDocument(contentsOfFile: output), trustRoots: root).validate().first {
                $0.fieldName == "PySig"
            })
        #expect(status.isValidAsShown && status.level == "B-B", "\(status.problems)")
    }

    @Test(
        "A token that does not hash: CKM_RSA_PKCS over our DigestInfo gives the very signature CKM_SHA256_RSA_PKCS does"
    )
    func rawRSAFallback() throws {
        _ = try SoftHSM.shared()
        let token = try PKCS11Token(module: try PKCS11Module.load(SoftHSM.module), label: "autograph", serial: nil)
        try token.login(pin: SoftHSM.pin)
        let key = try #require(try token.objects(.privateKey, label: "rsa2048").first)
        let data = Array("the signed attributes".utf8)
        let hashed = try token.sign(data, key: key, mechanism: .rsaPKCS(hashBits: 256))
        let info = PKCS11Signer.digestInfo(try DigestAlgorithm.sha256.hash(data), .sha256)
        // PKCS#1 v1.5 is deterministic: the same key over the same DigestInfo signs the same bytes.
        #expect(try token.sign(info, key: key, mechanism: .rsaPKCSRaw) == hashed && hashed.count == 256)
    }

    @Test(
        "A token's failures map to the seed's codes: removed −123, PIN wrong or locked −125, key gone −127, else −129",
        arguments: [
            (UInt(0xE0), -123), (0x32, -123), (0xB3, -123), (0xA0, -125), (0xA4, -125), (0x82, -127), (0x60, -127),
            (0x05, -129),
        ])
    func errorCodes(returnValue: UInt, code: Int) {
        // SoftHSM cannot lock a PIN or lose a token without breaking its module for the whole process:
        // the return values real tokens give, mapped one by one.
        let error = PKCS11Signer.signingError(PKCS11Error("C_Sign", returnValue))
        #expect(error.signoCode == code, "\(error.message)")
    }

    @Test("Eight signatures at once through one signer, each on a session of its own, all valid")
    func parallel() async throws {
        let signer = try Self.signer("p256")
        let bytes = try TestDocuments.simple()
        let results = try await SigningTests.signConcurrently(bytes, count: 8, signer: signer)
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "root.cert.pem")))))
        #expect(results.count == 8)
        for result in results {
            let status = try #require(
                SignatureValidator(document: try PDFDocument(bytes: result), trustRoots: root).validate().first)
            #expect(status.isValidAsShown, "\(status.problems)")
        }
    }
}
