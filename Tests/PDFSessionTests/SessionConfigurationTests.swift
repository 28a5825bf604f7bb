import Foundation
import PDFCore
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// WYSIWYS's configuration defaults and settings, read back from what the session proposes and from
/// the signed file (pypdf reads the signature dictionary).
@Suite struct SessionConfigurationTests {
    /// `/Name` and `/Location` of each signature dictionary in `path`, by field name.
    static func signatureAttributes(_ path: String) throws -> String {
        let script = """
            import pypdf, sys
            reader = pypdf.PdfReader(sys.argv[1])
            for field in reader.trailer['/Root']['/AcroForm']['/Fields']:
                field = field.get_object()
                value = field.get('/V')
                if value is None: continue
                value = value.get_object()
                if '/ByteRange' in value:
                    print(field['/T'], '|', value.get('/Name'), '|', value.get('/Location'))
            """
        return try Oracle.run("python3", ["-c", script, path]).output
    }

    /// Signs a fieldless form by placing the proposed rectangle; returns the proposal and the signed file.
    static func placeAndSign(_ configuration: SignatureConfiguration, username: String = "ada", id: String)
        async throws -> (proposed: PDFRectangle, path: String)
    {
        let (controller, directory) = try SessionFixtures.controller(username: username)
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: []), documentID: id, signatureConfiguration: configuration)
        let log = EventLog(session)
        try await session.acceptDocument()
        guard
            case .signatureRequiresPositioning(let page, let proposed)? = await log.first(
                "signatureRequiresPositioning")
        else {
            Issue.record("no positioning asked: \(await log.events.map(EventLog.name))")
            return (.zero, "")
        }
        try await session.signaturePositioned(pageIndex: page, rect: proposed)
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not signed: \(await log.events.map(EventLog.name))")
            return (proposed, "")
        }
        return (proposed, try SessionFlowTests.validate(signed, in: directory))
    }

    @Test("the proposed size is 200 × 70 unless configured; /Name is the username unless signatureName is set")
    func proposedSizeAndSignatureAttributes() async throws {
        let defaults = try await Self.placeAndSign(
            SignatureConfiguration(signer: try SessionFixtures.signer()), username: "grace", id: "defaults")
        #expect(abs(defaults.proposed.width - 200) < 0.01 && abs(defaults.proposed.height - 70) < 0.01)
        let plain = try Self.signatureAttributes(defaults.path)
        #expect(plain.contains("| grace |") && plain.contains("| None"), "\(plain)")

        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.appearance.proposedWidth = 240
        configuration.appearance.proposedHeight = 90
        configuration.attributes.signatureName = "Ada Lovelace"
        configuration.attributes.signatureLocation = "Basel"
        let set = try await Self.placeAndSign(configuration, id: "configured")
        #expect(abs(set.proposed.width - 240) < 0.01 && abs(set.proposed.height - 90) < 0.01)
        let attributes = try Self.signatureAttributes(set.path)
        #expect(attributes.contains("| Ada Lovelace | Basel"), "\(attributes)")
    }

    @Test("saving notes with notes mode off is notesModeDidFinishWithFailure −150; −146 is timestampFailed")
    func notesFailureAndTimestampCode() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(pdf: SessionFixtures.form(), documentID: "notes-off")
        let log = EventLog(session)
        await session.saveAndFinishNotesMode()
        guard case .notesModeDidFinishWithFailure(let code)? = await log.first("notesModeDidFinishWithFailure") else {
            Issue.record("no failure: \(await log.events.map(EventLog.name))")
            return
        }
        #expect(code == -150)
        #expect(SigningError(.timestampFailed, "the time-stamp authority refused").signoCode == -146)
    }
}
