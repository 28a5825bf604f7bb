import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// The WYSIWYS flows end to end: a real store, real signatures, checked by pyHanko, pdfsig and pypdf.
@Suite(.serialized) struct SessionFlowTests {
    /// Signs through the session and checks the result with the oracles.
    static func validate(_ bytes: [UInt8], in directory: String, name: String = "signed.pdf") throws -> String {
        let path = try SessionFixtures.write(bytes, directory, name)
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let verdicts = try SignatureOracle.pyhanko(path, trust: SessionFixtures.root)
        #expect(!verdicts.isEmpty)
        for (field, verdict) in verdicts { #expect(verdict.hasPrefix("INTACT:TRUSTED"), "\(field): \(verdict)") }
        let reports = try SignatureOracle.pdfsig(path, trust: SessionFixtures.root)
        #expect(!reports.isEmpty && reports.allSatisfy(\.valid))
        return path
    }

    static func signing(_ signer: any Signer) -> SignatureConfiguration {
        SignatureConfiguration(signer: signer)
    }

    @Test func acceptingSignsTheBytesThePreviewShowed() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "one",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        try await session.setValue(.text("Ada Lovelace"), forField: "name")
        try await session.acceptDocument()
        #expect(await session.phase == .confirming)
        guard case .onConfirmationRequired(let preview)? = await log.first("onConfirmationRequired") else {
            Issue.record("no preview")
            return
        }
        #expect(preview.pageIndex == 1)
        #expect(preview.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        try await session.confirmSignature()
        #expect(
            await log.names(count: 6) == [
                "documentDidLoad", "fieldChanged", "onConfirmationRequired", "willPrepareDocument",
                "documentPreparedForSignature", "processDidFinish",
            ])
        guard case .processDidFinish(let reason, let signed)? = await log.first("processDidFinish") else { return }
        #expect(reason == "accepted")
        // The signed file is the previewed file with the CMS in the placeholder: same length, same bytes elsewhere.
        let prepared = preview.preparedDocument
        #expect(signed.count == prepared.count)
        let differing = zip(signed, prepared).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        let digits = Set(Array("0123456789ABCDEFabcdef".utf8))
        #expect(differing.allSatisfy { digits.contains(signed[$0]) && prepared[$0] == UInt8(ascii: "0") })
        let path = try Self.validate(signed, in: directory)
        #expect(try Oracle.pypdfFieldValues(path)["name"] == "Ada Lovelace")
        #expect(try controller.documentBytes(documentID: "one") == signed)
        // Signed, and editing again (another signer may sign); once completed, edits and saves have no effect.
        #expect(await session.phase == .editing)
        try await session.completeDocument()
        #expect(try await !session.saveDocument())
        await #expect(throws: SessionError.self) { try await session.setValue(.text("x"), forField: "name") }
    }

    @Test func requiredFieldsMustBeFilledFirst() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(required: ["name"]), documentID: "required",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        let refused = await #expect(throws: SessionError.self) { try await session.acceptDocument() }
        #expect(refused?.code == .requiredFieldsEmpty && refused?.signoCode == -129)
        guard case .missingRequiredFormField(let missing)? = await log.first("missingRequiredFormField") else {
            Issue.record("no missingRequiredFormField")
            return
        }
        #expect(missing.map(\.name) == ["name"])
        #expect(await session.phase == .editing)
        try await session.setValue(.text("Grace"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not finished")
            return
        }
        _ = try Self.validate(signed, in: directory)
    }

    @Test func severalEmptyFieldsLetThePersonChoose() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: ["Buyer", "Seller"]), documentID: "two",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        try await session.acceptDocument()
        guard case .selectSignatureFormField(let fields)? = await log.first("selectSignatureFormField") else {
            Issue.record("no selection asked")
            return
        }
        #expect(fields.map(\.name) == ["Buyer", "Seller"])
        #expect(fields.allSatisfy { $0.pageIndex == 1 && $0.rect != nil })
        let wrong = await #expect(throws: SessionError.self) { try await session.selectSignatureField("name") }
        #expect(wrong?.signoCode == -130)
        try await session.selectSignatureField("Seller")
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else { return }
        let path = try Self.validate(signed, in: directory)
        let verdicts = try SignatureOracle.pyhanko(path, trust: SessionFixtures.root)
        #expect(Array(verdicts.keys) == ["Seller"])
        #expect(await log.names(count: 7).contains("didSelectSignatureFormField"))
    }

    @Test func aDocumentWithoutFieldsHasItsSignaturePositioned() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: []), documentID: "place",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        let before = await session.documentBytes
        try await session.acceptDocument()
        guard
            case .signatureRequiresPositioning(let page, let proposed)? = await log.first(
                "signatureRequiresPositioning")
        else {
            Issue.record("no positioning")
            return
        }
        #expect(page == 0 && proposed.width > 0)
        // Cancelled: nothing changed.
        try await session.cancelSignaturePositioning()
        #expect(await session.documentBytes == before)
        #expect(await log.first("signingProcessCancelled") != nil)
        // Outside the page: refused.
        try await session.acceptDocument()
        await #expect(throws: SessionError.self) {
            try await session.signaturePositioned(pageIndex: 1, rect: PDFRectangle(x0: 500, y0: 10, x1: 700, y1: 60))
        }
        try await session.signaturePositioned(pageIndex: 1, rect: PDFRectangle(x0: 300, y0: 400, x1: 500, y1: 470))
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else { return }
        let path = try Self.validate(signed, in: directory)
        // The appearance is on page 2 where it was placed: MuPDF draws ink there.
        let rendered = try RenderedPage.render(path, page: 2)
        let box = rendered.pixelBox(x0: 300, y0: 400, x1: 500, y1: 470, pageHeight: 842)
        var ink = 0
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let pixel = rendered.pixel(x, y)
                if pixel.r + pixel.g + pixel.b < 600 { ink += 1 }
            }
        }
        #expect(ink > 50)
    }

    @Test func cancellingThePreviewRestoresTheDocument() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "undo",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        try await session.setValue(.text("Kept"), forField: "name")
        let before = await session.documentBytes
        try await session.acceptDocument()
        #expect(await session.documentBytes.count > before.count)
        try await session.cancelConfirmation()
        #expect(await session.documentBytes == before)
        #expect(try controller.documentBytes(documentID: "undo") == before)
        #expect(await session.phase == .editing)
    }

    @Test func handwritingIsCapturedOnceThenReused() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        var configuration = Self.signing(try SessionFixtures.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        let first = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "h1", signatureConfiguration: configuration)
        let log = EventLog(first)
        try await first.acceptDocument()
        #expect(await log.first("signatureCaptureRequired") != nil)
        // Too short to be a signature: -132, still waiting for a capture.
        let short = await #expect(throws: SessionError.self) {
            try await first.captureSignature([InkStroke([InkPoint(x: 0, y: 0), InkPoint(x: 1, y: 1)])])
        }
        #expect(short?.signoCode == -132)
        try await first.captureSignature(SessionFixtures.scribble())
        try await first.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else { return }
        _ = try Self.validate(signed, in: directory)
        #expect(try controller.savedSignatures().count == 1)

        // One saved: applied without asking.
        let second = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "h2", signatureConfiguration: configuration)
        let secondLog = EventLog(second)
        try await second.acceptDocument()
        #expect(await second.phase == .confirming)
        #expect(!(await secondLog.names(count: 3)).contains("signatureCaptureRequired"))
        try await second.cancelConfirmation()

        // Several saved: the person chooses.
        let other = try controller.addSavedSignature(SessionFixtures.scribble(count: 60))
        try await second.acceptDocument()
        guard
            case .savedSignatureSelectionRequired(let saved)? = await secondLog.first("savedSignatureSelectionRequired")
        else {
            Issue.record("no choice asked")
            return
        }
        #expect(saved.count == 2)
        try await second.chooseSavedSignature(id: other.id)
        try await second.confirmSignature()
        #expect(await secondLog.first("processDidFinish") != nil)
        try controller.deleteSavedSignature(id: other.id)
        #expect(try controller.savedSignatures().count == 1)
    }

    @Test func aTypedNameSignsInsteadOfADrawing() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        var configuration = Self.signing(try SessionFixtures.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "typed", signatureConfiguration: configuration)
        let log = EventLog(session)
        try await session.acceptDocument()
        #expect(await session.phase == .capturingSignature)
        let empty = await #expect(throws: SessionError.self) { try await session.typeSignature("   ") }
        #expect(empty?.code == .invalidArgument)
        try await session.typeSignature("  Grace Hopper ")
        #expect(await session.phase == .confirming)
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else { return }
        let path = try Self.validate(signed, in: directory)
        // The name is drawn in the signature's appearance (MuPDF reads it on page 2), and nothing was
        // saved among the person's handwritten signatures.
        #expect(try Oracle.mutoolText(path, page: 2).contains("Grace Hopper"))
        #expect(try controller.savedSignatures().isEmpty)
    }

    @Test func refusingWatermarksEveryPageAndSignsInvisibly() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "no",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        try await session.refuseDocument()
        // Every page carries the watermark: the preview lists them all.
        guard case .onConfirmationRequired(let preview)? = await log.first("onConfirmationRequired") else {
            Issue.record("no preview")
            return
        }
        #expect(preview.changedPages == [0, 1])
        try await session.confirmSignature()
        guard case .processDidFinish(let reason, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not finished")
            return
        }
        #expect(reason == "refused")
        let path = try Self.validate(signed, in: directory)
        for page in 1...2 { #expect(try Oracle.mutoolText(path, page: page).contains("REFUSED")) }
        // The seed's watermark defaults (WYSIWYS WYSWatermarkAppearance): no rotation, the date as
        // yyyy-MM-dd HH:mm:ss. pdftotext's box of the title is a level line, far wider than tall.
        #expect(try Oracle.mutoolText(path, page: 1).contains("2026-09-21 14:13:20"))
        let boxes = try Oracle.run("pdftotext", ["-f", "1", "-l", "1", "-bbox", path, "-"]).output
        let title = try #require(boxes.split(separator: "\n").first { $0.contains(">REFUSED<") })
        let numbers = title.split(separator: "\"").compactMap { Double($0) }
        try #require(numbers.count == 4, "\(title)")
        #expect(numbers[2] - numbers[0] > 3 * (numbers[3] - numbers[1]), "\(title)")
        let reasons = try Oracle.run(
            "python3",
            [
                "-c",
                "import pypdf,sys;r=pypdf.PdfReader(sys.argv[1]);print([f.get('/V',{}).get('/Reason') for f in r.get_fields().values() if f.get('/FT')=='/Sig'])",
                path,
            ])
        #expect(reasons.output.contains("refused"))
    }

    @Test func aSignatureThatChangesNoPageHasNoPreview() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: TestForms.agreement(signatures: [], invisibleSignatures: ["Hidden"]), documentID: "hidden",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let log = EventLog(session)
        try await session.acceptDocument()
        // WYSIWYS: no preview for a document the signature does not change visually.
        #expect(
            await log.names(count: 4) == [
                "documentDidLoad", "willPrepareDocument", "documentPreparedForSignature", "processDidFinish",
            ])
        #expect(await session.phase == .editing)
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else { return }
        let path = try Self.validate(signed, in: directory)
        #expect(try SignatureOracle.pyhanko(path, trust: SessionFixtures.root).keys.contains("Hidden"))
    }

    @Test func signatureFieldsCreatedBySignoCanBeSigned() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: []), documentID: "new",
            signatureConfiguration: Self.signing(SessionFixtures.signer()))
        let created = try await session.createSignatureField(
            name: "Witness", pageIndex: 0, rect: PDFRectangle(x0: 300, y0: 100, x1: 500, y1: 160))
        #expect(created.kind == "signature" && !created.isSigned)
        await #expect(throws: SessionError.self) {
            try await session.createSignatureField(
                name: "Witness", pageIndex: 0, rect: PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 10))
        }
        let log = EventLog(session)
        try await session.acceptDocument()
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else { return }
        let path = try Self.validate(signed, in: directory)
        #expect(try SignatureOracle.pyhanko(path, trust: SessionFixtures.root).keys.contains("Witness"))
    }
}
