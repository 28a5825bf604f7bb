import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Signature time-stamps (PAdES B-T) and document time-stamps from a real RFC 3161 authority on
/// loopback (certomancer's Animator), checked by OpenSSL (`openssl ts -verify`) and pyHanko.
@Suite("RFC 3161 time-stamps from certomancer: B-T signatures and document time-stamps")
struct TimeStampServiceTests {
    static func services() throws -> Certomancer { try Certomancer.shared() }

    /// The certomancer PKI's signer: its key, its certificate and the intermediate.
    static func signer(_ services: Certomancer) throws -> LocalKeySigner {
        try LocalKeySigner(
            keyPEM: TestPaths.fixture("certomancer", "keys/signer.key.pem"),
            certificatePEM: try services.certificate("signer"), chainPEM: try services.certificate("intermediate"))
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("timestamps") + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func validate(_ bytes: [UInt8], _ services: Certomancer) throws -> [SignatureStatus] {
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: services.rootCertificatePath))))
        return SignatureValidator(document: try PDFDocument(bytes: bytes), trustRoots: root).validate()
    }

    @Test("B-T: the authority stamps the signature value; OpenSSL verifies the token, pyHanko and pdfsig the signature")
    func signatureTimeStamp() async throws {
        // Whole-second times: pdfsig (NSS) refuses OCSP answers whose times carry microseconds.
        let services = try Certomancer.shared(wholeSeconds: true)
        let original = TestDocuments.simple()
        var signer = DocumentSigner(
            document: try PDFDocument(bytes: original), request: SignatureRequest(placement: .invisible),
            signer: try Self.signer(services))
        signer.timeStampAuthority = try HTTPTimeStampAuthority(url: services.tsaURL)
        let before = PDFDate.now().seconds
        let signed = try await signer.sign()
        let bytes = try signed.bytes()
        #expect(Array(bytes.prefix(original.count)) == original)
        let path = try Self.write(bytes, "b-t.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)

        // The token, taken out of the CMS, verified by OpenSSL over the signature value's SHA-256.
        let signerInfo = try #require(try CMSSignedData(der: signed.cms).signerInfos.first)
        let token = try #require(signerInfo.timeStampToken)
        let tokenPath = try Self.write(token, "token.der")
        let digest = try DigestAlgorithm.sha256.hash(signerInfo.signature).map { String(format: "%02x", $0) }.joined()
        let verified = try Oracle.run(
            "openssl",
            [
                "ts", "-verify", "-token_in", "-in", tokenPath, "-digest", digest, "-CAfile",
                services.rootCertificatePath,
                "-untrusted", try services.certificate("intermediate"),
            ])
        #expect(
            verified.status == 0 && verified.output.contains("Verification: OK"),
            "\(verified.output) \(verified.errors)")

        // pyHanko: the signature and its time-stamp token, both intact and trusted.
        let verdicts = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath)
        let verdict = try #require(verdicts[signed.prepared.signature.fieldName])
        #expect(
            verdict.hasPrefix("INTACT:TRUSTED") && verdict.contains("TIMESTAMP_TOKEN<INTACT:TRUSTED>"), "\(verdict)")

        // pdfsig: the signature valid, its certificate trusted (NSS asks the OCSP responder).
        let pdfsig = try SignatureOracle.pdfsig(path, trust: services.rootCertificatePath)
        #expect(pdfsig.last?.valid == true && pdfsig.last?.trusted == true, "pdfsig: \(pdfsig)")

        // Autograph's validator: B-T, the authority named, the time now.
        let status = try #require(try Self.validate(bytes, services).first)
        #expect(status.isValid && status.level == "B-T", "\(status.problems)")
        let stamp = try #require(status.timeStamp)
        #expect(stamp.isValid && stamp.authority?.contains("TSA") == true, "\(stamp)")
        #expect(stamp.time >= before - 5 && stamp.time <= PDFDate.now().seconds + 5)
    }

    @Test("A document time-stamp over a B-T signature: its own update, valid for pyHanko and Autograph")
    func documentTimeStamp() async throws {
        let services = try Self.services()
        let authority = try HTTPTimeStampAuthority(url: services.tsaURL)
        var signer = DocumentSigner(
            document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(placement: .invisible),
            signer: try Self.signer(services))
        signer.timeStampAuthority = authority
        let signed = try await signer.sign().bytes()
        let stamped = try await DocumentTimestamper(document: try PDFDocument(bytes: signed), authority: authority)
            .timestamp()
        let bytes = try stamped.bytes()
        #expect(Array(bytes.prefix(signed.count)) == signed)
        let path = try Self.write(bytes, "doc-ts.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        // pyHanko: the time-stamp intact, valid and trusted; the signature before it extended by an
        // LTA update only.
        let field = stamped.prepared.signature.fieldName
        let stamps = try SignatureOracle.pyhankoDocumentTimestamps(path, trust: services.rootCertificatePath)
        #expect(stamps == [field: "True:True:True"], "\(stamps)")
        let verdicts = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath)
        #expect(verdicts.count == 1, "\(verdicts)")
        #expect(verdicts.values.first?.contains("EXTENDED_WITH_LTA_UPDATES") == true, "\(verdicts)")
        let statuses = try Self.validate(bytes, services)
        #expect(statuses.count == 2)
        let document = try #require(statuses.first { $0.fieldName == field })
        #expect(
            document.subFilter == "ETSI.RFC3161" && document.isValid && document.level == nil, "\(document.problems)")
        let signature = try #require(statuses.first { $0.fieldName != field })
        // The signature stays B-T; the document time-stamp is an allowed later update.
        #expect(signature.level == "B-T" && signature.isValidAsShown, "\(signature.problems) \(signature.verdict)")
    }

    @Test(
        "An authority that cannot stamp is −146 and nothing is signed: no timeStamping usage, nobody listening, no such URL"
    )
    func failures() async throws {
        let services = try Self.services()
        let document = try PDFDocument(bytes: TestDocuments.simple())
        for url in [services.tsaNoEKUURL, "http://127.0.0.1:1/tsa", services.url("tsa/nothing-here")] {
            var signer = DocumentSigner(
                document: document, request: SignatureRequest(placement: .invisible), signer: try Self.signer(services))
            signer.timeStampAuthority = try HTTPTimeStampAuthority(url: url)
            let error = await #expect(throws: SigningError.self) { _ = try await signer.sign() }
            #expect(error?.code == .timestampFailed && error?.signoCode == -146, "\(url): \(error?.message ?? "")")
        }
        let noEKU = await #expect(throws: SigningError.self) {
            _ = try await DocumentTimestamper(
                document: document, authority: try HTTPTimeStampAuthority(url: services.tsaNoEKUURL)
            ).timestamp()
        }
        #expect(noEKU?.message.contains("extended key usage") == true, "\(noEKU?.message ?? "")")
        let scheme = #expect(throws: SigningError.self) { try HTTPTimeStampAuthority(url: "file:///etc/passwd") }
        #expect(scheme?.code == .invalidArgument)
    }
}
