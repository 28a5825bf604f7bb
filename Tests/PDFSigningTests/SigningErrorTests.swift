import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Each signoAPI error code of signing, produced from real bad input.
@Suite("Signing errors carry the seed codes")
struct SigningErrorTests {
    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }

    static func expect(_ code: SigningError.Code, signo: Int, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(code)")
        } catch let error as SigningError {
            #expect(error.code == code, "\(error)")
            #expect(error.signoCode == signo)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(
        "key containers: missing -123, unreadable -124, wrong password -125, no key -127, key not matching -133, bad certificate -134, no certificate for the key -147"
    )
    func containers() async throws {
        await Self.expect(.keyContainerNotFound, signo: -123) {
            _ = try LocalKeySigner(pkcs12: "/nonexistent/identity.p12", password: "secret")
        }
        let garbage = try TestPaths.temporaryDirectory("errors") + "/garbage.p12"
        try Data("this is not a PKCS#12 file".utf8).write(to: URL(fileURLWithPath: garbage))
        await Self.expect(.keyContainerUnreadable, signo: -124) {
            _ = try LocalKeySigner(pkcs12: garbage, password: "secret")
        }
        await Self.expect(.wrongKeyContainerPassword, signo: -125) {
            _ = try LocalKeySigner(pkcs12: Self.pki("signer-p256.p12"), password: "wrong")
        }
        await Self.expect(.wrongKeyContainerPassword, signo: -125) {
            _ = try LocalKeySigner(
                keyPEM: Self.pki("signer-p256.key.enc.pem"), password: "wrong",
                certificatePEM: Self.pki("signer-p256.cert.pem"))
        }
        await Self.expect(.noPrivateKey, signo: -127) {
            _ = try LocalKeySigner(pkcs12: Self.pki("no-key.p12"), password: "secret")
        }
        await Self.expect(.privateKeyNotFound, signo: -133) {
            _ = try LocalKeySigner(
                keyPEM: Self.pki("signer-p256.key.pem"), certificatePEM: Self.pki("signer-p384.cert.pem"))
        }
        let badCertificate = try TestPaths.temporaryDirectory("errors") + "/cert.pem"
        try Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8).write(
            to: URL(fileURLWithPath: badCertificate))
        await Self.expect(.certificateUnreadable, signo: -134) {
            _ = try LocalKeySigner(keyPEM: Self.pki("signer-p256.key.pem"), certificatePEM: badCertificate)
        }
        await Self.expect(.certificateNotFound, signo: -147) {
            _ = try LocalKeySigner(pkcs12: Self.pki("mismatched.p12"), password: "secret")
        }
    }

    @Test("an expired certificate is refused with -138 unless allowed")
    func expired() async throws {
        await Self.expect(.certificateExpired, signo: -138) {
            _ = try LocalKeySigner(pkcs12: Self.pki("signer-expired.p12"), password: "secret")
        }
        _ = try LocalKeySigner(pkcs12: Self.pki("signer-expired.p12"), password: "secret", allowExpired: true)
    }

    @Test("a fixed size too small for the CMS is -136 and nothing is written")
    func tooSmall() async throws {
        let signer = try LocalKeySigner(pkcs12: Self.pki("signer-rsa2048.p12"), password: "secret")
        var request = SignatureRequest()
        request.contentsSize = 256
        let path = try TestPaths.temporaryDirectory("errors") + "/signed.pdf"
        await Self.expect(.signatureTooLarge, signo: -136) {
            try await DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()), request: request, signer: signer
            )
            .sign(writingTo: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a too small estimate is corrected by preparing again (adaptive sizing)")
    func adaptive() async throws {
        let local = try LocalKeySigner(pkcs12: Self.pki("signer-rsa2048.p12"), password: "secret")
        let signer = ExternalCMSSigner(estimatedSize: 64) { digest, algorithm in
            try? await local.cms(for: digest, algorithm: algorithm)
        }
        let signed = try await DocumentSigner(
            document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(), signer: signer
        ).sign()
        #expect(signed.prepared.signature.capacity >= signed.cms.count)
    }

    @Test("an unknown field with no place, or a field that is not a signature field, is -130")
    func fieldNames() async throws {
        let signer = try LocalKeySigner(pkcs12: Self.pki("signer-p256.p12"), password: "secret")
        for request in [
            SignatureRequest(fieldName: "unknown", placement: .existingField),
            SignatureRequest(fieldName: "name", placement: .existingField),
        ] {
            await Self.expect(.invalidFieldName, signo: -130) {
                _ = try await DocumentSigner(
                    document: try PDFDocument(bytes: TestForms.make()), request: request, signer: signer
                ).sign()
            }
        }
    }

    @Test("a password-protected document without its password is -122")
    func password() async throws {
        let directory = try TestPaths.temporaryDirectory("errors")
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: directory + "/plain.pdf"))
        try Oracle.qpdfEncrypt(
            directory + "/plain.pdf", directory + "/locked.pdf", user: "user", owner: "owner", ["256"])
        await Self.expect(.passwordRequired, signo: -122) {
            do {
                _ = try PDFDocument(contentsOfFile: directory + "/locked.pdf")
            } catch {
                throw SigningError(error as! PDFError)
            }
        }
    }
}
