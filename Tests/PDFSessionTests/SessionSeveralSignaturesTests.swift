import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// A delegate that signs each digest with the next identity of its list: one signer per signature.
final class TakingTurnsDelegate: SessionDelegate, @unchecked Sendable {
    private let signers: [any Signer]
    private var next = 0
    private let lock = NSLock()

    init(_ signers: [any Signer]) { self.signers = signers }

    func computeDigitalSignature(digest: [UInt8], algorithm: DigestAlgorithm) async -> [UInt8]? {
        let signer: (any Signer)? = lock.withLock {
            defer { next += 1 }
            return next < signers.count ? signers[next] : nil
        }
        return try? await signer?.cms(for: digest, algorithm: algorithm)
    }
}

/// Several signatures in one session: each signature leaves the session editing, one revision
/// longer, until the host completes the document.
@Suite(.serialized) struct SessionSeveralSignaturesTests {
    static let identities = ["signer-p256.p12", "signer-rsa2048.p12", "signer-rsa-pss.p12"]

    @Test("the sign button signs three fields in turn, by three signers; each signature stays valid")
    func threeSignersInTurn() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let delegate = TakingTurnsDelegate(try Self.identities.map { try SessionFixtures.signer($0) })
        var configuration = SignatureConfiguration()
        configuration.signing = .delegate
        // Each signer confirms a preview of what they sign (the web viewer's setting).
        configuration.previewsSignoSignatures = true
        let fields = ["First", "Second", "Third"]
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: fields), documentID: "three",
            signatureConfiguration: configuration, delegate: delegate)
        let log = EventLog(session)
        _ = await log.first("documentDidLoad")
        var revisions = await session.revisionCount
        var signedFiles: [[UInt8]] = []
        for (turn, expected) in fields.enumerated() {
            let before = await log.events.count
            try await session.startSignature()
            #expect(await session.phase == .capturingSignature)
            try await session.captureSignature(SessionFixtures.scribble(count: 40 + turn))
            #expect(await session.phase == .confirming)
            try await session.confirmSignature()
            // Signed, and editing again: the next field can be signed.
            #expect(await session.phase == .editing)
            #expect(await session.revisionCount == revisions + 1)
            revisions = await session.revisionCount
            let names = await log.names(count: before + 6).dropFirst(before)
            #expect(
                Array(names) == [
                    "signatureCaptureRequired", "onConfirmationRequired", "willPrepareDocument",
                    "documentPreparedForSignature", "signingProcessConfirmed", "processDidFinish",
                ], "turn \(turn)")
            let events = await log.events.dropFirst(before)
            guard case .signatureCaptureRequired(let field, _)? = events.first,
                case .processDidFinish(let reason, let signed)? = events.last
            else {
                Issue.record("turn \(turn): \(names)")
                return
            }
            #expect(field == expected && reason == "accepted")
            signedFiles.append(signed)
        }
        // Every field is signed: the sign button has nothing left.
        let none = await #expect(throws: SessionError.self) { try await session.startSignature() }
        #expect(none?.signoCode == -130)
        // Each signed file is the one before it plus one revision.
        for (earlier, later) in zip(signedFiles, signedFiles.dropFirst()) {
            #expect(later.count > earlier.count && Array(later.prefix(earlier.count)) == earlier)
        }
        let last = try #require(signedFiles.last)
        let path = try SessionFlowTests.validate(last, in: directory, name: "three.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: SessionFixtures.root)
        #expect(Set(verdicts.keys) == Set(fields))
        let reports = try SignatureOracle.pdfsig(path, trust: SessionFixtures.root)
        #expect(reports.count == 3 && reports.allSatisfy(\.valid))
        let signers = Set(
            try SignatureValidator(document: PDFDocument(bytes: last), trustRoots: []).validate().compactMap(
                \.signerCertificate?.subject))
        #expect(signers.count == 3, "\(signers)")

        // The host completes the document: no more edits or saves.
        try await session.completeDocument()
        #expect(await session.phase == .finished(reason: "completed"))
        #expect(await log.first("documentCompleted") != nil)
        #expect(try await !session.saveDocument())
        await #expect(throws: SessionError.self) { try await session.setValue(.text("x"), forField: "name") }
        await #expect(throws: SessionError.self) { try await session.completeDocument() }
        #expect(try controller.documentBytes(documentID: "three") == last)
    }

    @Test("a second person accepts after the first: the remaining field, then the document is complete")
    func twoAcceptsInOneSession() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["Buyer", "Seller"]), documentID: "two-accepts",
            signatureConfiguration: SessionFlowTests.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        try await session.acceptDocument()
        try await session.selectSignatureField("Buyer")
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        // One empty field left: no choice is asked.
        try await session.acceptDocument()
        #expect(await session.phase == .confirming)
        try await session.confirmSignature()
        _ = await log.names(count: 11)
        let finishes = await log.events.filter { EventLog.name($0) == "processDidFinish" }
        guard finishes.count == 2, case .processDidFinish(_, let signed) = finishes[1] else {
            Issue.record("\(await log.names(count: 0))")
            return
        }
        let path = try SessionFlowTests.validate(signed, in: directory, name: "two.pdf")
        #expect(Set(try SignatureOracle.pyhanko(path, trust: SessionFixtures.root).keys) == ["Buyer", "Seller"])
        // A refusal after a signature completes the document at once.
        try await session.refuseDocument()
        try await session.confirmSignature()
        #expect(await session.phase == .finished(reason: "refused"))
    }
}
