import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// The session keeps a document's certification and field locks: locked fields are read-only and
/// a change that breaks them is refused with -129, unless the host allows it explicitly.
@Suite("session: certifications and field locks")
struct SessionCertificationTests {
    /// The agreement form signed in `Signature1` by a request changed by `configure`.
    static func signedForm(_ configure: (inout SignatureRequest) -> Void) async throws -> [UInt8] {
        var request = SignatureRequest(fieldName: "Signature1")
        configure(&request)
        return try await DocumentSigner(
            document: try PDFDocument(bytes: SessionFixtures.form(signatures: ["Signature1", "Signature2"])),
            request: request, signer: try SessionFixtures.signer()
        ).sign().bytes()
    }

    @Test("P=1: every field read-only, a fill refused with -129 and nothing stored; allowed explicitly, it is stored")
    func certifiedNoChanges() async throws {
        let signed = try await Self.signedForm { $0.certification = .noChanges }
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: signed, documentID: "certified")
        #expect(await session.formFields().filter { $0.kind != "signature" }.allSatisfy(\.isReadOnly))
        let before = await session.document.fileSize
        do {
            try await session.setValue(.text("Ada"), forField: "name")
            Issue.record("the fill was not refused")
        } catch {
            #expect(error.code == .certificationViolated)
            #expect(error.signoCode == -129)
            #expect(error.message.contains("certification by 'Signature1'"))
        }
        #expect(await session.document.fileSize == before)

        var configuration = SignatureConfiguration()
        configuration.allowsBreakingCertification = true
        let forced = try await controller.open(
            pdf: signed, documentID: "forced", signatureConfiguration: configuration)
        try await forced.setValue(.text("Ada"), forField: "name")
        let statuses = SignatureValidator(document: await forced.document, trustRoots: []).validate()
        #expect(statuses.first?.verdict == .modified || statuses.first?.modifications?.level == .disallowed)
    }

    @Test("a lock makes its fields read-only and refuses them; other fields stay fillable")
    func lockedField() async throws {
        let signed = try await Self.signedForm { $0.lockFields = .include(["name"]) }
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: signed, documentID: "locked")
        let fields = await session.formFields()
        #expect(fields.first { $0.name == "name" }?.isReadOnly == true)
        #expect(fields.first { $0.name == "comment" }?.isReadOnly == false)
        await #expect(throws: SessionError.self) { try await session.setValue(.text("Ada"), forField: "name") }
        try await session.setValue(.text("fine"), forField: "comment")
        let status = try #require(SignatureValidator(document: await session.document, trustRoots: []).validate().first)
        #expect(status.modifications?.level == .formFilling)
    }
}
