import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// A signer that starts and then waits until its task is cancelled: the process "stops" while it
/// makes the CMS, and another controller on the same store plays the restarted process.
final class StalledSigner: Signer, @unchecked Sendable {
    let inner: LocalKeySigner
    private let lock = NSLock()
    private var calls = 0

    init(_ inner: LocalKeySigner) { self.inner = inner }

    var certificates: [Certificate] { inner.certificates }
    var estimatedSize: Int { inner.estimatedSize }
    var started: Bool { lock.withLock { calls > 0 } }

    func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        lock.withLock { calls += 1 }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
        throw SigningError(.cancelled, "stopped")
    }

    /// Waits (up to 10 s) until the signer was asked for a CMS.
    func waitUntilStarted() async throws {
        for _ in 0..<500 where !started { try await Task.sleep(for: .milliseconds(20)) }
        try #require(started, "the signer was never asked")
    }
}

/// A signature under way when the process stops is settled when the session starts again: never
/// left waiting for a CMS nobody makes, never signed for another signer than the one prepared.
@Suite(.serialized) struct SessionRecoveryTests {
    /// A document filled, signed once, filled again, then accepted for a second signature and
    /// confirmed with a signer that stalls: the stored state "awaits the signature" as a killed
    /// process leaves it. Returns the directory, the revision count before the second signature,
    /// the digest prepared and the task that hangs (cancel it when done).
    static func stalledSecondSignature(_ id: String) async throws -> (
        directory: String, revisionsBefore: Int, digest: [UInt8], stalled: Task<Void, Never>
    ) {
        let (controller, directory) = try SessionFixtures.controller()
        let form = SessionFixtures.form(signatures: ["First", "Second"])
        let first = try await controller.open(
            pdf: form, documentID: id, signatureConfiguration: SessionFlowTests.signing(SessionFixtures.signer()))
        try await first.setValue(.text("Ada Lovelace"), forField: "name")
        try await first.acceptDocument()
        try await first.selectSignatureField("First")
        try await first.confirmSignature()
        #expect(await first.phase == .editing)
        await first.close()

        let signer = StalledSigner(try SessionFixtures.signer())
        let session = try await controller.reopen(
            documentID: id, signatureConfiguration: SessionFlowTests.signing(signer))
        try await session.setValue(.text("second signer's note"), forField: "comment")
        let before = try controller.documentSummary(id).revisionCount
        try await session.acceptDocument()
        #expect(await session.phase == .confirming)
        let digest = try #require(try controller.documentSummary(id).digestToSign)
        let stalled = Task { _ = try? await session.confirmSignature() }
        try await signer.waitUntilStarted()
        #expect(await session.phase == .awaitingSignature)
        #expect(try controller.documentSummary(id).phase == .awaitingSignature)
        // While the signer works, the prepared revision cannot be pulled from under it.
        let refused = await #expect(throws: SessionError.self) { try await session.cancelSigning() }
        #expect(refused?.code == .invalidState)
        return (directory, before, digest, stalled)
    }

    @Test("confirmed but not made, the same signer configured: the preview waits again, then signs")
    func confirmedSignatureWaitsAgain() async throws {
        let (directory, before, digest, stalled) = try await Self.stalledSecondSignature("again")
        defer { stalled.cancel() }
        let (restarted, _) = try SessionFixtures.controller(directory)
        let session = try await restarted.reopen(
            documentID: "again", signatureConfiguration: SessionFlowTests.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        #expect(await log.names(count: 2) == ["documentDidLoad", "signingInterrupted"])
        #expect(await session.phase == .confirming)
        #expect(await session.signingRecovery == .confirmAgain)
        // The same prepared bytes: the same digest, a preview drawn from them again.
        #expect(try restarted.documentSummary("again").digestToSign == digest)
        let preview = try await session.confirmationPreview()
        #expect(preview.digest == digest && preview.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        #expect(await session.signingRecovery == nil)
        #expect(try restarted.documentSummary("again").revisionCount == before + 1)
        let fields = await session.formFields()
        #expect(fields.first { $0.name == "comment" }?.value == "second signer's note")
        #expect(fields.filter { $0.kind == "signature" }.allSatisfy { $0.isSigned })
        let path = try SessionFlowTests.validate(await session.documentBytes, in: directory)
        #expect(try SignatureOracle.pyhanko(path, trust: SessionFixtures.root).count == 2)
        await session.close()
    }

    @Test("prepared for one signer, restarted with another: discarded, the edits and the first signature kept")
    func anotherSignerDiscards() async throws {
        let (directory, before, _, stalled) = try await Self.stalledSecondSignature("other")
        defer { stalled.cancel() }
        let (restarted, _) = try SessionFixtures.controller(directory)
        let session = try await restarted.reopen(
            documentID: "other",
            signatureConfiguration: SessionFlowTests.signing(SessionFixtures.signer("signer-p384.p12")))
        #expect(await session.phase == .editing)
        guard case .discarded(let reason)? = await session.signingRecovery else {
            Issue.record("not discarded: \(String(describing: await session.signingRecovery))")
            return
        }
        #expect(reason.contains("another signer"))
        // Opening wrote nothing: the store holds the prepared signature until the first write.
        #expect(try restarted.documentSummary("other").revisionCount == before + 1)
        #expect(await session.documentBytes.count < (try restarted.documentBytes(documentID: "other").count))
        let fields = await session.formFields()
        #expect(fields.first { $0.name == "comment" }?.value == "second signer's note")
        #expect(fields.first { $0.name == "First" }?.isSigned == true)
        #expect(fields.first { $0.name == "Second" }?.isSigned == false)
        // Signing goes on with the signer configured now; its first write drops the old preparation.
        try await session.acceptDocument()
        #expect(await session.signingRecovery == nil)
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        #expect(try restarted.documentSummary("other").revisionCount == before + 1)
        #expect(try restarted.documentSummary("other").digestToSign == nil)
        _ = try SessionFlowTests.validate(await session.documentBytes, in: directory)
        await session.close()
    }

    @Test("opening a document to look at it writes nothing: the session waiting for the confirmation signs on")
    func lookingChangesNothing() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let configuration = SessionFlowTests.signing(try SessionFixtures.signer())
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "watched", signatureConfiguration: configuration)
        try await session.setValue(.text("Ada"), forField: "name")
        try await session.acceptDocument()
        #expect(await session.phase == .confirming)
        let stored = try controller.documentBytes(documentID: "watched")
        // Another process opens it with another configuration (deferred signing: another signer).
        let (other, _) = try SessionFixtures.controller(directory)
        let look = try await other.reopen(documentID: "watched")
        guard case .discarded? = await look.signingRecovery else {
            Issue.record("the look sees a discarded signature: \(String(describing: await look.signingRecovery))")
            return
        }
        await look.close()
        #expect(try controller.documentBytes(documentID: "watched") == stored)
        // The signing session is not disturbed.
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        _ = try SessionFlowTests.validate(await session.documentBytes, in: directory)
        await session.close()
    }

    @Test(
        "the host's CMS (deferred signing) is still awaited after a restart; cancelling then removes the prepared revision"
    )
    func deferredStillAwaits() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: SessionFixtures.form(), documentID: "deferred")
        try await session.setValue(.text("Ada"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        #expect(await session.phase == .awaitingSignature)
        let digest = try #require(try controller.documentSummary("deferred").digestToSign)
        await session.close()

        let (restarted, _) = try SessionFixtures.controller(directory)
        let reopened = try await restarted.reopen(documentID: "deferred")
        #expect(await reopened.phase == .awaitingSignature)
        #expect(await reopened.signingRecovery == .awaitingCMS)
        #expect(try restarted.documentSummary("deferred").digestToSign == digest)
        try await reopened.cancelSigning()
        #expect(await reopened.phase == .editing)
        #expect(try restarted.documentSummary("deferred").revisionCount == 1)
        #expect(await reopened.formFields().first { $0.name == "name" }?.value == "Ada")
        await reopened.close()

        // A CMS for the digest is still taken by a restarted process as it was before.
        let again = try await restarted.reopen(documentID: "deferred")
        try await again.acceptDocument()
        try await again.confirmSignature()
        let awaited = try #require(try restarted.documentSummary("deferred").digestToSign)
        await again.close()
        let cms = try await SessionFixtures.signer().cms(for: awaited, algorithm: .sha256)
        let (third, _) = try SessionFixtures.controller(directory)
        let signed = try await third.embedSignature(documentID: "deferred", cms: cms)
        _ = try SessionFlowTests.validate(signed, in: directory)
    }

    @Test("stopped while the prepared revision was stored but before the preview: discarded, nothing of it left")
    func stoppedWhilePreparing() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let configuration = SessionFlowTests.signing(try SessionFixtures.signer())
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "preparing", signatureConfiguration: configuration)
        try await session.setValue(.text("Ada"), forField: "name")
        try await session.acceptDocument()
        #expect(await session.phase == .confirming)
        await session.close()
        // The state a kill leaves between storing the prepared revision and the phase after it.
        let stored = try controller.store.load(documentID: "preparing")
        let text = String(decoding: stored.state, as: UTF8.self)
        let rewound = text.replacingOccurrences(of: #""phase":{"confirming":{}}"#, with: #""phase":{"preparing":{}}"#)
        try #require(rewound != text, "the stored state names its phase differently: \(text.prefix(300))")
        _ = try controller.store.save(documentID: "preparing", state: Array(rewound.utf8), expecting: stored.version)
        #expect(try controller.documentSummary("preparing").revisionCount == 2)

        let (restarted, _) = try SessionFixtures.controller(directory)
        let reopened = try await restarted.reopen(documentID: "preparing", signatureConfiguration: configuration)
        #expect(await reopened.phase == .editing)
        guard case .discarded? = await reopened.signingRecovery else {
            Issue.record("not discarded: \(String(describing: await reopened.signingRecovery))")
            return
        }
        #expect(await reopened.signatureFields().allSatisfy { !$0.isSigned })
        // The first write (a field edit) stores the discarding, with the edit.
        #expect(try restarted.documentSummary("preparing").revisionCount == 2)
        try await reopened.setValue(.text("Ada L."), forField: "name")
        #expect(try restarted.documentSummary("preparing").revisionCount == 2)
        #expect(try restarted.documentSummary("preparing").digestToSign == nil)
        #expect(await reopened.signingRecovery == nil)
        try await reopened.acceptDocument()
        try await reopened.confirmSignature()
        _ = try SessionFlowTests.validate(await reopened.documentBytes, in: directory)
        await reopened.close()
    }
}
