import Foundation
import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// A delegate answering as a test tells it to, recording what it was asked.
final class ScriptedDelegate: SessionDelegate, @unchecked Sendable {
    var startAnswer = true
    var confirmAnswer = true
    var readOnly: [String] = []
    var signer: (any Signer)?
    private(set) var asked: [String] = []
    private let lock = NSLock()

    private func record(_ question: String) {
        lock.lock()
        asked.append(question)
        lock.unlock()
    }

    func willStartSigning(field: String) async -> Bool {
        record("willStartSigning \(field)")
        return startAnswer
    }

    func signingProcessStarted(field: String) async -> [String] {
        record("signingProcessStarted \(field)")
        return readOnly
    }

    func willConfirmSigning(field: String) async -> Bool {
        record("willConfirmSigning \(field)")
        return confirmAnswer
    }

    func computeDigitalSignature(digest: [UInt8], algorithm: DigestAlgorithm) async -> [UInt8]? {
        record("computeDigitalSignature \(digest.count)")
        return try? await signer?.cms(for: digest, algorithm: algorithm)
    }
}

/// signo's flow (STSignoInfoDelegate): the "sign" button, decisions, read-only fields, the CMS from
/// the delegate; notes mode and photo fields.
@Suite(.serialized) struct SessionSignoTests {
    static func delegateConfiguration() -> SignatureConfiguration {
        var configuration = SignatureConfiguration()
        configuration.signing = .delegate
        return configuration
    }

    @Test func theSignButtonStepsThroughFieldsAndTheDelegateSigns() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let delegate = ScriptedDelegate()
        delegate.signer = try SessionFixtures.signer()
        delegate.readOnly = ["name"]
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["First", "Second"]), documentID: "signo",
            signatureConfiguration: Self.delegateConfiguration(), delegate: delegate)
        let log = EventLog(session)
        try await session.setValue(.text("Alan"), forField: "name")
        try await session.startSignature()
        guard case .signatureCaptureRequired(let field, _)? = await log.first("signatureCaptureRequired") else {
            Issue.record("no capture asked")
            return
        }
        #expect(field == "First")
        try await session.captureSignature(SessionFixtures.scribble())
        // As in signo, willConfirmSigning was the confirmation: no preview step a port never calls.
        guard case .signingProcessConfirmed(let confirmed)? = await log.first("signingProcessConfirmed"),
            case .processDidFinish(_, let signed)? = await log.first("processDidFinish")
        else {
            Issue.record("not signed: \(await log.names(count: 8))")
            return
        }
        #expect(confirmed == "First")
        let names = await log.events.map(EventLog.name)
        #expect(!names.contains("onConfirmationRequired") && names.contains("willPrepareDocument"), "\(names)")
        #expect(
            delegate.asked == [
                "willStartSigning First", "signingProcessStarted First", "willConfirmSigning First",
                "computeDigitalSignature 32",
            ])
        let path = try SessionFlowTests.validate(signed, in: directory)
        // The field the delegate named is read-only in the signed revision.
        let flags = try Oracle.run(
            "python3",
            ["-c", "import pypdf,sys;print(pypdf.PdfReader(sys.argv[1]).get_fields()['name'].get('/Ff',0))", path])
        #expect(Int(flags.output.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 & 1 == 1 } == true)
    }

    @Test("a signo port that only implements computeDigitalSignature signs without setting signing = .delegate")
    func theDefaultModeAsksADelegateForTheCMS() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let delegate = ScriptedDelegate()
        delegate.signer = try SessionFixtures.signer()
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["First"]), documentID: "port", delegate: delegate)
        let log = EventLog(session)
        try await session.startSignature()
        try await session.captureSignature(SessionFixtures.scribble())
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not signed: \(await log.names(count: 6))")
            return
        }
        #expect(delegate.asked.contains("computeDigitalSignature 32"))
        _ = try SessionFlowTests.validate(signed, in: directory)
        // Without a CMS from the delegate (nil), the deferred mode waits for embedSignature.
        let waiting = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["First"]), documentID: "waits", delegate: ScriptedDelegate())
        try await waiting.startSignature()
        try await waiting.captureSignature(SessionFixtures.scribble())
        #expect(await waiting.phase == .awaitingSignature)
    }

    @Test func declinedDecisionsCancelWithoutChangingTheDocument() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let delegate = ScriptedDelegate()
        delegate.startAnswer = false
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["First", "Second"]), documentID: "declined",
            signatureConfiguration: Self.delegateConfiguration(), delegate: delegate)
        let log = EventLog(session)
        let before = await session.documentBytes
        try await session.startSignature(field: "Second")
        #expect(await log.first("signingProcessCancelled") != nil)
        delegate.startAnswer = true
        delegate.confirmAnswer = false
        delegate.readOnly = ["name"]
        try await session.startSignature(field: "Second")
        try await session.captureSignature(SessionFixtures.scribble())
        #expect(await session.documentBytes == before)
        #expect(await session.phase == .editing)
        // Without a CMS from the delegate the signing is cancelled and the document restored.
        delegate.confirmAnswer = true
        try await session.startSignature(field: "Second")
        try await session.captureSignature(SessionFixtures.scribble())
        #expect(await session.documentBytes == before)
        guard case .processDidFail(let error)? = await log.first("processDidFail") else {
            Issue.record("no failure reported")
            return
        }
        #expect(error.code == .cancelled && error.signoCode == -129)
        let unknown = await #expect(throws: SessionError.self) { try await session.startSignature(field: "Nope") }
        #expect(unknown?.signoCode == -130)
        #expect(await log.first("signingProcessFailed") != nil)
    }

    @Test func notesAreSavedOrCancelledAndRefusedForPDFA1() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: SessionFixtures.form(), documentID: "notes")
        let log = EventLog(session)
        let before = await session.documentBytes
        await session.startNotesMode(style: .init(width: 3, color: .rgb(1, 0, 0)))
        #expect(await log.first("notesModeDidStart") != nil)
        await #expect(throws: SessionError.self) { try await session.setValue(.text("x"), forField: "name") }
        try await session.addNote(SessionFixtures.scribble(), pageIndex: 0)
        try await session.addNote(SessionFixtures.scribble(count: 20), pageIndex: 1)
        #expect(await session.undoNote())
        #expect(await session.redoNote())
        await session.cancelNotesMode()
        #expect(await session.documentBytes == before)

        await session.startNotesMode()
        try await session.changeNotesStyle(.init(width: 5, color: .rgb(0, 0, 1)))
        try await session.addNote(SessionFixtures.scribble(), pageIndex: 0)
        await session.saveAndFinishNotesMode()
        guard case .notesModeDidFinish(let saved)? = await log.first("notesModeDidFinish") else {
            Issue.record("no finish event")
            return
        }
        #expect(saved)
        let path = try SessionFixtures.write(await session.documentBytes, directory, "notes.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let inks = try Oracle.run(
            "python3",
            [
                "-c",
                "import pypdf,sys;r=pypdf.PdfReader(sys.argv[1]);print(sum(1 for p in r.pages for a in (p.get('/Annots') or []) if a.get_object()['/Subtype']=='/Ink'))",
                path,
            ])
        #expect(inks.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1")

        let archived = try await controller.open(pdf: SessionFixtures.form(pdfA1: true), documentID: "pdfa")
        let archivedLog = EventLog(archived)
        await archived.startNotesMode()
        guard case .notesModeDidFailToStart(let code)? = await archivedLog.first("notesModeDidFailToStart") else {
            Issue.record("PDF/A-1 notes not refused")
            return
        }
        #expect(code < 0)
    }

    @Test func photoFieldsTakeImagesAndReportFailures() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: SessionFixtures.form(photo: "portrait"), documentID: "photo")
        let log = EventLog(session)
        await #expect(throws: SessionError.self) {
            try await session.setPhotoFieldNames(["Signature1"], maxWidth: 300, maxHeight: 300)
        }
        try await session.setPhotoFieldNames(["portrait"], maxWidth: 300, maxHeight: 300)
        // A viewer already showing the document learns of them.
        guard case .photoFieldsDeclared(let declared)? = await log.first("photoFieldsDeclared") else {
            Issue.record("no photoFieldsDeclared")
            return
        }
        #expect(declared == ["portrait"])
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("images", "photo.jpg"))))
        try await session.placePhoto(jpeg, inField: "portrait")
        #expect(await log.first("photoPlaced") != nil)
        await #expect(throws: SessionError.self) { try await session.placePhoto([1, 2, 3], inField: "portrait") }
        guard case .photoCaptureFailed(let field, let code, _)? = await log.first("photoCaptureFailed") else {
            Issue.record("no failure event")
            return
        }
        #expect(field == "portrait" && code < 0)
        let path = try SessionFixtures.write(await session.documentBytes, directory, "photo.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let images = try Oracle.run("pdfimages", ["-list", path])
        #expect(images.output.split(separator: "\n").count >= 3)
    }
}
