import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// Reopening after a restart a signed, completed document: it comes back signed and complete, as stored.
@Suite(.serialized) struct SessionResumeTests {
    @Test("a signed and completed document reopens finished, showing the signed bytes, and takes no more edits")
    func signedDocumentReopens() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "signed",
            signatureConfiguration: SessionFlowTests.signing(SessionFixtures.signer()))
        try await session.setValue(.text("Ada Lovelace"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        try await session.completeDocument()
        #expect(await session.phase == .finished(reason: "completed"))
        let signed = await session.documentBytes
        await session.close()

        // Another controller on the same store, as after a restart.
        let (restarted, _) = try SessionFixtures.controller(directory)
        #expect(try restarted.documentSummary("signed").phase == .finished(reason: "completed"))
        let reopened = try await restarted.reopen(
            documentID: "signed", signatureConfiguration: SessionFlowTests.signing(SessionFixtures.signer()))
        let log = EventLog(reopened)
        #expect(await log.names(count: 1) == ["documentDidLoad"])
        #expect(await reopened.phase == .finished(reason: "completed"))
        #expect(await reopened.documentBytes == signed)
        #expect(await reopened.formFields().first { $0.name == "name" }?.value == "Ada Lovelace")
        #expect(await reopened.signatureFields().first?.isSigned == true)
        await #expect(throws: SessionError.self) { try await reopened.setValue(.text("Eve"), forField: "name") }
        await #expect(throws: SessionError.self) { try await reopened.acceptDocument() }
        #expect(try await !reopened.saveDocument())
        #expect(try restarted.documentBytes(documentID: "signed") == signed)
        _ = try SessionFlowTests.validate(await reopened.documentBytes, in: directory)
        await reopened.close()
    }
}
