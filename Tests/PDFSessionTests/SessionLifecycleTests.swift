import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// Documents in progress across restarts, the deferred embed, read-only shows, and the seed error
/// codes from real bad input.
@Suite(.serialized) struct SessionLifecycleTests {
    @Test func editsSurviveARestartAndTheDocumentReopens() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: SessionFixtures.form(), documentID: "resume")
        try await session.setValue(.text("Persisted"), forField: "name")
        try await session.setCurrentPage(1)
        #expect(try await session.saveDocument())

        let (restarted, _) = try SessionFixtures.controller(directory)
        #expect(try restarted.documentInProgress("resume"))
        #expect(try !restarted.documentInProgress("other"))
        #expect(try restarted.documentsInProgress().map(\.documentID) == ["resume"])
        let reopened = try await restarted.reopen(documentID: "resume")
        let log = EventLog(reopened)
        #expect(await log.names(count: 1) == ["documentDidLoad"])
        #expect(await reopened.formFields().first { $0.name == "name" }?.value == "Persisted")
        #expect(await reopened.currentPageIndex == 1)
        try restarted.dispose(documentID: "resume")
        #expect(try !restarted.documentInProgress("resume"))
        await #expect(throws: SessionError.self) { try await restarted.reopen(documentID: "resume") }
    }

    @Test func aPreparedDocumentIsSignedLaterFromTheStoreAlone() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        var configuration = SignatureConfiguration()
        configuration.signing = .deferred
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "later", signatureConfiguration: configuration)
        let log = EventLog(session)
        try await session.acceptDocument()
        try await session.confirmSignature()
        guard
            case .documentPreparedForSignature(let digest, let reason)? = await log.first(
                "documentPreparedForSignature")
        else {
            Issue.record("no digest")
            return
        }
        #expect(digest.count == 32 && reason == "accepted")
        await session.close()

        // Another controller on the same store (as another process would): a CMS for another
        // digest is refused (-129), one larger than reserved too (-136), the right one is embedded.
        let (backend, _) = try SessionFixtures.controller(directory)
        let signer = try SessionFixtures.signer()
        let wrong = try await signer.cms(for: [UInt8](repeating: 1, count: 32), algorithm: .sha256)
        let refused = await #expect(throws: SessionError.self) {
            try await backend.embedSignature(documentID: "later", cms: wrong)
        }
        #expect(refused?.signoCode == -129)
        let huge = await #expect(throws: SessionError.self) {
            try await backend.embedSignature(documentID: "later", cms: [UInt8](repeating: 0x30, count: 40_000))
        }
        #expect(huge?.signoCode != nil)
        let cms = try await signer.cms(for: digest, algorithm: .sha256)
        let signed = try await backend.embedSignature(documentID: "later", cms: cms)
        _ = try SessionFlowTests.validate(signed, in: directory)
        #expect(try backend.documentsInProgress().first?.phase == .editing)
    }

    @Test func aShownDocumentIsReadOnlyAndErasedWhenClosed() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.show(pdf: SessionFixtures.form())
        #expect(session.isReadOnly)
        #expect(try controller.documentInProgress(session.documentID))
        await #expect(throws: SessionError.self) { try await session.acceptDocument() }
        await #expect(throws: SessionError.self) { try await session.refuseDocument() }
        await #expect(throws: SessionError.self) { try await session.setValue(.text("x"), forField: "name") }
        #expect(try controller.documentsInProgress().isEmpty)
        await session.close()
        #expect(try !controller.documentInProgress(session.documentID))
    }

    @Test func aShownDocumentIsErasedWhenItsSessionGoesAwayUnclosed() async throws {
        // WYSIWYS: "When the viewer returned by this method is destroyed (by the app or the OS),
        // the file is erased as well."
        let (controller, _) = try SessionFixtures.controller()
        var session: DocumentSession? = try await controller.show(pdf: SessionFixtures.form())
        let documentID = try #require(session?.documentID)
        #expect(try controller.documentInProgress(documentID))
        #expect(await session?.pageCount == 2)
        session = nil
        #expect(try !controller.documentInProgress(documentID))
    }

    /// `form` encrypted by qpdf (AES-256) with the user password `user secret`.
    static func locked(_ form: [UInt8], in directory: String) throws -> [UInt8] {
        let plain = try SessionFixtures.write(form, directory, "plain.pdf")
        let locked = directory + "/locked.pdf"
        try Oracle.qpdfEncrypt(plain, locked, user: "user secret", owner: "owner secret", ["256"])
        return Array(try Data(contentsOf: URL(fileURLWithPath: locked)))
    }

    @Test func anEncryptedDocumentOpensAndShowsWithItsPasswordAndReopensWithoutIt() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let locked = try Self.locked(SessionFixtures.form(), in: directory)
        // Without a password, or with a wrong one: −122, nothing stored.
        for password in [nil, "wrong"] as [String?] {
            let opened = await #expect(throws: SessionError.self) {
                try await controller.open(pdf: locked, documentID: "locked", password: password)
            }
            #expect(opened?.code == .passwordRequired && opened?.signoCode == -122)
            let shown = await #expect(throws: SessionError.self) {
                try await controller.show(pdf: locked, password: password)
            }
            #expect(shown?.code == .passwordRequired && shown?.signoCode == -122)
        }
        #expect(try controller.documentsInProgress().isEmpty)

        let shown = try await controller.show(pdf: locked, password: "owner secret")
        #expect(await shown.pageCount == 2 && shown.isReadOnly)
        await shown.close()

        let session = try await controller.open(pdf: locked, documentID: "locked", password: "user secret")
        try await session.setValue(.text("Grace"), forField: "name")
        await session.close()
        // The password is kept (encrypted) with the document: a restart reopens it without one.
        let (restarted, _) = try SessionFixtures.controller(directory)
        let reopened = try await restarted.reopen(documentID: "locked")
        #expect(await reopened.formFields().first { $0.name == "name" }?.value == "Grace")
        let path = try SessionFixtures.write(await reopened.documentBytes, directory, "filled.pdf")
        #expect(try Oracle.pypdfFieldValues(path, password: "user secret")["name"] == "Grace")
        #expect(try Oracle.qpdfCheck(path).status != 0, "still encrypted")
    }

    @Test func aReadOnlyFieldRefusesAnotherValueAndStoresNothing() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: TestForms.make(), documentID: "read-only")
        let before = await session.documentBytes
        let refused = await #expect(throws: SessionError.self) {
            try await session.setValue(.text("changed"), forField: "locked")
        }
        #expect(refused?.code == .form && refused?.signoCode == -129)
        #expect((refused?.underlying as? FormError)?.code == .readOnly)
        #expect(await session.documentBytes == before)
        #expect(await session.formFields().first { $0.name == "locked" }?.value == "fixed")
        // Setting the value it has is no error (an import of exported values), and writes nothing.
        try await session.setValue(.text("fixed"), forField: "locked")
        #expect(await session.documentBytes == before)
        await session.close()
    }

    @Test func badInputGivesTheSeedCodes() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let notPDF = await #expect(throws: SessionError.self) {
            try await controller.open(pdf: Array("hello".utf8), documentID: "bad")
        }
        #expect(notPDF?.signoCode == -120)
        // An encrypted document (qpdf): -122.
        let plain = try SessionFixtures.write(SessionFixtures.form(), directory, "plain.pdf")
        let locked = directory + "/locked.pdf"
        _ = try Oracle.run("qpdf", ["--encrypt", "user", "owner", "256", "--", plain, locked])
        let encrypted = await #expect(throws: SessionError.self) {
            try await controller.open(
                pdf: Array(try Data(contentsOf: URL(fileURLWithPath: locked))), documentID: "locked")
        }
        #expect(encrypted?.signoCode == -122)
        // A key of the wrong length, a wrong key, another user.
        for length in [0, 32, 63, 65] {
            let short = #expect(throws: SessionError.self) {
                try SessionFixtures.controller(directory, key: [UInt8](repeating: 7, count: length))
            }
            #expect(short?.code == .invalidStorageKey)
        }
        let wrong = #expect(throws: SessionError.self) {
            let (other, _) = try SessionFixtures.controller(directory, key: [UInt8](repeating: 8, count: 64))
            _ = try other.documentsInProgress()
        }
        #expect(wrong?.code == .wrongStorageKey)
        // /NeedAppearances refused on request: -137.
        var strict = SignatureConfiguration(signer: try SessionFixtures.signer())
        strict.refusesNeedAppearances = true
        let session = try await controller.open(
            pdf: TestForms.make(needAppearances: true), documentID: "need", signatureConfiguration: strict)
        let log = EventLog(session)
        try await session.acceptDocument()
        guard case .processDidFail(let failure)? = await log.first("processDidFail") else {
            Issue.record("no failure: \(await log.names(count: 3))")
            return
        }
        #expect(failure.signoCode == -137)
        #expect(await session.phase == .editing)
        // A reserved size too small for the CMS: -136.
        var tight = SignatureConfiguration(signer: try SessionFixtures.signer("signer-rsa2048.p12"))
        tight.attributes.estimatedSignatureSize = 600
        let small = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "small", signatureConfiguration: tight)
        let smallLog = EventLog(small)
        let before = await small.documentBytes
        try await small.acceptDocument()
        try await small.confirmSignature()
        guard case .signingProcessFailed(_, let code, _)? = await smallLog.first("signingProcessFailed") else {
            Issue.record("no failure")
            return
        }
        #expect(code == -136)
        #expect(await small.documentBytes == before)
    }
}
