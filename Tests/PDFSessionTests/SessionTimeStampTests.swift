import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// A time-stamp authority in the configuration makes every signature of the session B-T (a real
/// authority on loopback: certomancer's Animator).
@Suite struct SessionTimeStampTests {
    static func configuration(_ services: Certomancer, tsa url: String) throws -> SignatureConfiguration {
        let signer = try LocalKeySigner(
            keyPEM: TestPaths.fixture("certomancer", "keys/signer.key.pem"),
            certificatePEM: try services.certificate("signer"), chainPEM: try services.certificate("intermediate"))
        var configuration = SignatureConfiguration(signer: signer)
        configuration.timeStampAuthority = try HTTPTimeStampAuthority(url: url)
        return configuration
    }

    @Test("Accepting signs B-T: the token is there, Autograph and pyHanko validate it")
    func everySignatureIsStamped() async throws {
        let services = try Certomancer.shared()
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "b-t",
            signatureConfiguration: try Self.configuration(services, tsa: services.tsaURL))
        try await session.setValue(.text("Ada Lovelace"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        let path = try SessionFixtures.write(await session.documentBytes, directory, "b-t.pdf")
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: services.rootCertificatePath))))
        let statuses = SignatureValidator(
            document: try PDFDocument(bytes: await session.documentBytes), trustRoots: root
        )
        .validate()
        let signed = try #require(statuses.first { $0.signatureValid })
        #expect(signed.level == "B-T" && signed.isValid, "\(signed.problems)")
        let verdicts = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath)
        #expect(verdicts.values.contains { $0.contains("TIMESTAMP_TOKEN<INTACT:TRUSTED>") }, "\(verdicts)")

        // Completed, the document is made to last: B-LTA, two more revisions, nothing missing.
        let revisions = try PDFDocument(bytes: await session.documentBytes).revisions.count
        let missing = try await session.completeDocument()
        #expect(missing.isEmpty, "\(missing)")
        let completed = await session.documentBytes
        #expect(try PDFDocument(bytes: completed).revisions.count == revisions + 2)
        let final = SignatureValidator(document: try PDFDocument(bytes: completed), trustRoots: root).validate()
        #expect(final.first { $0.signatureValid }?.level == "B-LTA", "\(final.map { $0.problems })")
        let completedPath = try SessionFixtures.write(completed, directory, "b-lta.pdf")
        let completedVerdicts = try SignatureOracle.pyhanko(completedPath, trust: services.rootCertificatePath)
        #expect(
            completedVerdicts.values.contains { $0.contains("EXTENDED_WITH_LTA_UPDATES") }, "\(completedVerdicts)")
    }

    @Test("An authority that cannot stamp fails the signature with −146 and leaves the document as it was")
    func aFailingAuthority() async throws {
        let services = try Certomancer.shared()
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "no-eku",
            signatureConfiguration: try Self.configuration(services, tsa: services.tsaNoEKUURL))
        let log = EventLog(session)
        try await session.setValue(.text("Ada Lovelace"), forField: "name")
        let before = await session.documentBytes
        try await session.acceptDocument()
        try await session.confirmSignature()
        guard case .processDidFail(let error)? = await log.first("processDidFail") else {
            Issue.record("no processDidFail")
            return
        }
        #expect(error.signoCode == -146, "\(error)")
        #expect(await session.phase == .editing)
        #expect(await session.documentBytes == before)
    }
}
