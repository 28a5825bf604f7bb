import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// The order of events in each flow, cancelling at each decision, and the remaining seed codes a
/// session reaches from real bad input.
@Suite(.serialized) struct SessionEventOrderTests {
    static func open(_ pdf: [UInt8], _ id: String, configuration: SignatureConfiguration? = nil) async throws -> (
        DocumentSession, EventLog, SessionController
    ) {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: pdf, documentID: id,
            signatureConfiguration: configuration ?? SignatureConfiguration(signer: try SessionFixtures.signer()))
        return (session, EventLog(session), controller)
    }

    @Test func choosingAFieldThenSigning() async throws {
        let (session, log, _) = try await Self.open(SessionFixtures.form(signatures: ["A", "B"]), "order-select")
        try await session.acceptDocument()
        try await session.cancelSigning()
        try await session.acceptDocument()
        try await session.selectSignatureField("B")
        try await session.confirmSignature()
        #expect(
            await log.names(count: 9) == [
                "documentDidLoad", "selectSignatureFormField", "signingProcessCancelled", "selectSignatureFormField",
                "didSelectSignatureFormField", "onConfirmationRequired", "willPrepareDocument",
                "documentPreparedForSignature", "processDidFinish",
            ])
    }

    @Test func positioningAHandwrittenSignature() async throws {
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        let (session, log, _) = try await Self.open(
            SessionFixtures.form(signatures: []), "order-place", configuration: configuration)
        try await session.acceptDocument()
        try await session.cancelSignatureCapture()
        try await session.acceptDocument()
        try await session.captureSignature(SessionFixtures.scribble())
        try await session.signaturePositioned(pageIndex: 0, rect: PDFRectangle(x0: 300, y0: 100, x1: 500, y1: 170))
        try await session.confirmSignature()
        #expect(
            await log.names(count: 9) == [
                "documentDidLoad", "signatureCaptureRequired", "signingProcessCancelled", "signatureCaptureRequired",
                "signatureRequiresPositioning", "onConfirmationRequired", "willPrepareDocument",
                "documentPreparedForSignature", "processDidFinish",
            ])
    }

    @Test func refusingAndAnInvisibleAccept() async throws {
        let (refused, refusedLog, _) = try await Self.open(SessionFixtures.form(), "order-refuse")
        try await refused.refuseDocument()
        try await refused.confirmSignature()
        #expect(
            await refusedLog.names(count: 5) == [
                "documentDidLoad", "onConfirmationRequired", "willPrepareDocument", "documentPreparedForSignature",
                "processDidFinish",
            ])
        var invisible = SignatureConfiguration(signer: try SessionFixtures.signer())
        invisible.appearance.invisibleSignature = true
        let (session, log, _) = try await Self.open(SessionFixtures.form(), "order-invisible", configuration: invisible)
        try await session.acceptDocument()
        // Nothing visible changes: no preview.
        #expect(
            await log.names(count: 4) == [
                "documentDidLoad", "willPrepareDocument", "documentPreparedForSignature", "processDidFinish",
            ])
    }

    @Test func theSignButtonMovesToTheNextUnsignedField() async throws {
        let delegate = ScriptedDelegate()
        delegate.startAnswer = false
        var configuration = SignatureConfiguration()
        configuration.signing = .delegate
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["First", "Second", "Third"]), documentID: "steps",
            signatureConfiguration: configuration, delegate: delegate)
        for _ in 0..<4 { try await session.startSignature() }
        #expect(
            delegate.asked == [
                "willStartSigning First", "willStartSigning Second", "willStartSigning Third", "willStartSigning First",
            ])
    }

    @Test func moreSeedCodesFromBadInput() async throws {
        // -121: a document that opens but has no page.
        var builder = PDFBuilder()
        builder.info[PDFName("Title")] = .string(PDFString(text: "empty"))
        let (controller, directory) = try SessionFixtures.controller()
        let empty = await #expect(throws: SessionError.self) {
            try await controller.open(pdf: builder.build(), documentID: "empty")
        }
        #expect(empty?.signoCode == -121)
        // -128: a store that cannot be written.
        let unwritable = #expect(throws: SessionError.self) {
            try SessionController(
                username: "ada", storageKey: SessionFixtures.key, storePath: "/proc/autograph/store.sqlite")
        }
        #expect(unwritable?.signoCode == -128)
        // -131: a biometrics certificate that is not one.
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.biometricsCertificate = Array("not a certificate".utf8)
        configuration.appearance.handwrittenSignatureEnabled = true
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "bio", signatureConfiguration: configuration)
        let log = EventLog(session)
        try await session.acceptDocument()
        try await session.captureSignature(SessionFixtures.scribble())
        guard case .processDidFail(let error)? = await log.first("processDidFail") else {
            Issue.record("no failure")
            return
        }
        #expect(error.signoCode == -131)
        // With a real certificate the handwriting is stored encrypted in the signed revision.
        configuration.biometricsCertificate = try PEMFile.certificate(SessionFixtures.pki + "signer-p256.cert.pem")
        let stored = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "bio2", signatureConfiguration: configuration)
        let storedLog = EventLog(stored)
        try await stored.acceptDocument()
        try await stored.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await storedLog.first("processDidFinish") else {
            Issue.record("not signed")
            return
        }
        _ = try SessionFlowTests.validate(signed, in: directory)
        let key = try PrivateKey(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: SessionFixtures.pki + "signer-p256.key.pem"))),
            password: nil)
        let biometrics = try BiometricReader.read(try PDFDocument(bytes: signed), fieldName: "Signature1", key: key)
        let json = String(decoding: biometrics.json, as: UTF8.self)
        #expect(biometrics.field == "Signature1" && json.contains("strokes"))
        // -150: the app reports that the camera failed.
        await session.photoCaptureFailed(field: "name", reason: "no camera permission")
        guard case .photoCaptureFailed(_, let code, _)? = await log.first("photoCaptureFailed") else { return }
        #expect(code == -150)
    }
}

/// Reads a PEM certificate file as DER.
enum PEMFile {
    static func certificate(_ path: String) throws -> [UInt8] {
        let pem = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let certificate = try #require(Certificate.certificates(pem: pem).first, "no certificate in \(path)")
        return certificate.derBytes
    }
}
