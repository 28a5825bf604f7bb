import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// `LongTermValidation.write(to:archivingWith:)`: B-LT and B-LTA written to a file, each update
/// appended after the document streamed (ARCHITECTURE.md invariant 4), against certomancer on loopback.
@Suite("Long-term signatures written to a file, the document streamed")
struct LongTermWritingTests {
    @Test("B-LTA to a file: the signed document a prefix, the level B-LTA, every signature valid, pyHanko trusts it")
    func archive() async throws {
        let services = try Certomancer.shared()
        let signed = try await LongTermValidationTests.signed(services)
        let directory = try TestPaths.temporaryDirectory("ltv-write")
        let path = directory + "/b-lta.pdf"
        let validation = LongTermValidation(
            document: try PDFDocument(bytes: signed), revocation: OnlineRevocationSource())
        let problems = try await validation.write(
            to: path, archivingWith: try HTTPTimeStampAuthority(url: services.tsaURL))
        #expect(problems.isEmpty, "\(problems)")
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(written.prefix(signed.count)) == signed)
        let statuses = try LongTermValidationTests.statuses(written, services)
        #expect(statuses.count == 2 && statuses.first?.level == "B-LTA", "\(statuses.map(\.level))")
        #expect(statuses.allSatisfy { $0.isValidAsShown }, "\(statuses.map { $0.problems })")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let verdict = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath).values.first ?? ""
        #expect(verdict.hasPrefix("INTACT:TRUSTED") && verdict.contains("EXTENDED_WITH_LTA_UPDATES"), "\(verdict)")
        // Nothing is left beside the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["b-lta.pdf"])
    }

    @Test("B-LT of a file with junk before its header: written from the header, whose offsets the signature names")
    func junkBeforeHeader() async throws {
        let services = try Certomancer.shared()
        let signed = try await LongTermValidationTests.signed(services)
        let junk = Array("junk a mail gateway left\n".utf8)
        let path = try TestPaths.temporaryDirectory("ltv-write") + "/b-lt.pdf"
        let validation = LongTermValidation(
            document: try PDFDocument(bytes: junk + signed), revocation: OnlineRevocationSource())
        _ = try await validation.write(to: path, archivingWith: nil)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(written.prefix(signed.count)) == signed)
        let statuses = try LongTermValidationTests.statuses(written, services)
        #expect(statuses.count == 1 && statuses.first?.level == "B-LT", "\(statuses.map(\.level))")
        #expect(statuses.first?.isValidAsShown == true, "\(statuses.first?.problems ?? [])")
    }

    @Test("a signed update alone follows the base: base + update() is bytes(), and write(to:) writes the same")
    func updateAlone() async throws {
        let document = try PDFDocument(bytes: TestDocuments.simple())
        let signer = try LocalKeySigner(pkcs12: TestPaths.fixture("pki", "signer-p256.p12"), password: "secret")
        let signed = try await DocumentSigner(
            document: document, request: SignatureRequest(placement: .invisible), signer: signer
        ).sign()
        let base = signed.prepared.base.withBytes { Array($0) }
        #expect(try base + signed.update() == signed.bytes())
        let path = try TestPaths.temporaryDirectory("signed-update") + "/signed.pdf"
        try signed.write(to: path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try signed.bytes()))
    }
}
