import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// `SignatureValidator.validate(revocation:)` against certomancer's OCSP responders, CRLs and
/// time-stamp authority on loopback: each revocation case of the PKI, where each status came from,
/// and pyHanko's verdict on the same file.
@Suite("Revocation checking: online, embedded, off; revoked signer and CA, stale CRL, responder down")
struct RevocationCheckingTests {
    /// A transport that sends every request through libcurl as at `time` (certomancer answers as then).
    struct FakeTimeTransport: HTTPTransport {
        let time: String
        func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
            var request = request
            request.headers.append((Certomancer.fakeTimeHeader, time))
            return try await CurlTransport().send(request)
        }
    }

    /// A document signed by `label` (issued by `issuer`), time-stamped by `authority` when given.
    static func signed(
        _ services: Certomancer, signer label: String, issuer: String = "intermediate",
        authority: (any TimeStampAuthority)? = nil
    ) async throws -> [UInt8] {
        let signer = try LocalKeySigner(
            keyPEM: TestPaths.fixture("certomancer", "keys/\(label).key.pem"),
            certificatePEM: try services.certificate(label), chainPEM: try services.certificate(issuer),
            allowExpired: true)
        var documentSigner = DocumentSigner(
            document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(placement: .invisible),
            signer: signer)
        documentSigner.timeStampAuthority = authority
        return try await documentSigner.sign().bytes()
    }

    static func validate(
        _ bytes: [UInt8], _ services: Certomancer, _ checking: RevocationChecking,
        source: (any RevocationSource)? = nil, at time: Int? = nil
    ) async throws -> SignatureStatus {
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: services.rootCertificatePath))))
        let validator = SignatureValidator(
            document: try PDFDocument(bytes: bytes), trustRoots: root, validationTime: time)
        return try #require(await validator.validate(revocation: checking, source: source).first)
    }

    static func pyhanko(_ bytes: [UInt8], _ services: Certomancer, _ name: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("revocation") + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath).values.first ?? ""
    }

    @Test(
        "A revoked signer without a time-stamp: online says revoked (pyHanko too); embedded has nothing; off asks nothing"
    )
    func revokedSigner() async throws {
        let services = try Certomancer.shared()
        let bytes = try await Self.signed(services, signer: "signer-revoked")
        let online = try await Self.validate(bytes, services, .online)
        #expect(online.verdict == .invalid && online.trustReason?.contains("revoked on 2026-06-01") == true)
        let entry = try #require(online.revocation.first)
        #expect(entry.status == .revoked(time: 1_780_272_000, reason: .keyCompromise) && entry.source == .online)
        #expect(online.revocation.count == 2 && online.revocation.allSatisfy { $0.path == .signer })
        #expect(online.timeStamp == nil && online.bestSignatureTime != nil)
        #expect(try Self.pyhanko(bytes, services, "revoked-b-b.pdf").contains("REVOKED"))

        // Nothing embedded: each certificate named without a status; the verdict is the path's alone.
        let embedded = try await Self.validate(bytes, services, .embedded)
        #expect(embedded.isValidAsShown && embedded.revocation.count == 2)
        #expect(embedded.revocation.allSatisfy { $0.status == nil && $0.problem != nil })
        let off = try await Self.validate(bytes, services, .off)
        #expect(off.isValidAsShown && off.revocation.isEmpty && off.revocationChecking == .off)
    }

    @Test("A signer whose CA was revoked before the time-stamp: untrusted online and from the DSS, as pyHanko says")
    func revokedIntermediate() async throws {
        let services = try Certomancer.shared()
        let authority = try HTTPTimeStampAuthority(url: services.tsaURL)
        let bytes = try await Self.signed(
            services, signer: "signer-under-revoked", issuer: "intermediate-revoked", authority: authority)
        let online = try await Self.validate(bytes, services, .online)
        #expect(online.timeStamp?.isValid == true && online.verdict == .invalid)
        let reason = online.trustReason ?? ""
        #expect(reason.contains("Revoked Intermediate CA") && reason.contains("before the time-stamp"), "\(reason)")
        // The signer's own status is good; its CA's is not; the authority's path is asked too.
        let signerPath = online.revocation.filter { $0.path == .signer }
        #expect(signerPath.map(\.status) == [.good, .revoked(time: 1_780_272_000, reason: .caCompromise)])
        #expect(online.revocation.contains { $0.path == .timeStampAuthority && $0.status == .good })
        #expect(try Self.pyhanko(bytes, services, "revoked-ca.pdf").contains("REVOKED"))

        let (longTerm, _) = try await LongTermValidation(
            document: try PDFDocument(bytes: bytes), revocation: OnlineRevocationSource()
        ).addValidationMaterial()
        let embedded = try await Self.validate(longTerm, services, .embedded)
        #expect(embedded.verdict == .invalid && embedded.revocation.allSatisfy { $0.source == .dss })
        #expect(embedded.trustReason?.contains("Revoked Intermediate CA") == true)
    }

    @Test("A signer revoked after its time-stamp still validates: the status is asked as of the time-stamp")
    func revokedAfterTimeStamp() async throws {
        let services = try Certomancer.shared()
        // The authority answers as on 2026-05-01, a month before the revocation.
        let authority = try HTTPTimeStampAuthority(
            url: services.tsaURL, transport: FakeTimeTransport(time: "2026-05-01T12:00:00+00:00"))
        let bytes = try await Self.signed(services, signer: "signer-revoked", authority: authority)
        let status = try await Self.validate(bytes, services, .online)
        #expect(status.timeStamp?.isValid == true && status.isValidAsShown, "\(status.problems)")
        #expect(status.bestSignatureTime == 1_777_636_800)
        let signer = try #require(status.revocation.first { $0.path == .signer })
        #expect(signer.status == .revoked(time: 1_780_272_000, reason: .keyCompromise) && signer.time == 1_777_636_800)
        // Without the time-stamp the same revocation distrusts it (revokedSigner above).
        // A known disagreement: `pyhanko sign validate` judges revocation as of now, time-stamp or not,
        // so it says REVOKED; ETSI EN 319 102-1 §5.5 (the time-stamp as proof that the signature
        // existed before the revocation) accepts the signature, as Autograph does.
        let verdict = try Self.pyhanko(bytes, services, "revoked-after.pdf")
        #expect(
            verdict.hasPrefix("INTACT:REVOKED") && verdict.contains("TIMESTAMP_TOKEN<INTACT:TRUSTED>"), "\(verdict)")
    }

    @Test("A stale CRL in the DSS proves nothing of the time-stamp's time: B-T, and online fills the gap")
    func staleCRL() async throws {
        let services = try Certomancer.shared()
        let authority = try HTTPTimeStampAuthority(url: services.tsaURL)
        let bytes = try await Self.signed(services, signer: "signer", authority: authority)
        // The intermediate's CRL of March (its nextUpdate long past), and nothing else about the signer.
        let march = "2026-03-01T12:00:00+00:00"
        let intermediate = try #require(
            Certificate.certificates(
                pem: Array(try Data(contentsOf: URL(fileURLWithPath: try services.certificate("intermediate"))))
            ).first)
        let stale = try await CRLClient(transport: FakeTimeTransport(time: march), now: { 1_772_366_400 })
            .fetch(services.crlURL(), issuer: intermediate)
        #expect((stale.nextUpdate ?? 0) < PDFDate.now().seconds)
        let status = try await Self.validate(bytes, services, .embedded)
        let contents = try #require(status.signerCertificate)
        let written = try DSSWriter(document: try PDFDocument(bytes: bytes)).update(
            adding: [
                (
                    contents: Array(contents.derBytes.prefix(8)),
                    material: ValidationMaterial(certificates: [intermediate.derBytes], crls: [stale.encoded])
                )
            ])
        let embedded = try await Self.validate(written, services, .embedded)
        let signer = try #require(embedded.revocation.first { $0.path == .signer })
        #expect(signer.status == nil && signer.problem?.contains("CRL") == true, "\(signer)")
        #expect(embedded.level == "B-T" && !embedded.validationMaterialComplete && embedded.isValidAsShown)

        let online = try await Self.validate(written, services, .online)
        let fetched = try #require(online.revocation.first { $0.path == .signer })
        #expect(fetched.status == .good && fetched.source == .online && online.isValidAsShown)
        #expect(try Self.pyhanko(written, services, "stale-crl.pdf").hasPrefix("INTACT:TRUSTED"))
    }

    @Test("Every status service down: online distrusts a path whose status cannot be had, as pyHanko's hard-fail")
    func servicesDown() async throws {
        let services = try Certomancer.shared()
        let bytes = try await Self.signed(services, signer: "signer")
        let down = CRLTests.Transport { _ throws(HTTPClientError) in
            throw HTTPClientError(.connectionFailed, "connection refused")
        }
        let source = OnlineRevocationSource(
            ocsp: OCSPClient(transport: down), crl: CRLClient(transport: down), transport: down)
        let status = try await Self.validate(bytes, services, .online, source: source)
        // Not revoked, only not confirmed: signed, the signer not trusted (pyHanko's INTACT:UNTRUSTED), not broken.
        #expect(status.verdict == .untrusted && status.trustReason?.contains("could not be had") == true)
        #expect(status.revocation.allSatisfy { $0.status == nil && $0.problem?.contains("connection refused") == true })
        // The signer and the intermediate, each asked once (OCSP, then its CRL).
        #expect(down.sent.count == 4, "\(down.sent.map(\.url))")
        let working = try await Self.validate(bytes, services, .online)
        #expect(working.isValidAsShown && working.revocation.allSatisfy { $0.status == .good })
    }

    @Test(
        "A hostile adbe-revocationInfoArchival (truncated, wrong tags, huge lengths, garbage items) throws or reads nothing"
    )
    func hostileArchival() {
        let hostile: [[UInt8]] = [
            [], [0x30], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x31, 0x00], [0x30, 0x02, 0xA0, 0x00],
            [0x30, 0x04, 0xA0, 0x02, 0x04, 0x00], [0x30, 0x06, 0xA1, 0x04, 0x30, 0x02, 0x05, 0x00],
            Array(repeating: 0x30, count: 4096),
        ]
        for bytes in hostile {
            // Either a DER error or items that no OCSP/CRL reader accepts: never a trap.
            if let (crls, responses) = try? RevocationMaterial.revocationInfoArchival(bytes) {
                #expect(crls.allSatisfy { (try? CertificateRevocationList(der: $0)) == nil })
                #expect(responses.allSatisfy { (try? OCSPResponse(der: $0)) == nil })
            }
        }
    }

    @Test("Revocation information inside the CMS (adbe-revocationInfoArchival, as pyHanko embeds it) is read")
    func statusesInTheCMS() async throws {
        let services = try Certomancer.shared()
        let directory = try TestPaths.temporaryDirectory("revocation-cms")
        let input = directory + "/in.pdf"
        let output = directory + "/out.pdf"
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: input))
        let made = try SignatureOracle.runPyhanko([
            "sign", "addsig", "--field", "PySig", "--with-validation-info", "--trust-replace", "--trust",
            services.rootCertificatePath, "pemder", "--key", TestPaths.fixture("certomancer", "keys/signer.key.pem"),
            "--cert", try services.certificate("signer"), "--chain", try services.certificate("intermediate"),
            "--no-pass", input, output,
        ])
        try #require(made.status == 0, "\(made.errors)")
        // Validated as of when pyHanko signed (its OCSP answers are current for 10 minutes), not as of
        // whenever a busy test process resumes this test.
        let signedAt = PDFDate.now().seconds
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        let status = try await Self.validate(bytes, services, .embedded, at: signedAt)
        #expect(status.subFilter == "adbe.pkcs7.detached" && status.isValidAsShown, "\(status.problems)")
        #expect(
            status.revocation.count == 2 && status.revocation.allSatisfy { $0.status == .good && $0.source == .cms })
    }
}
