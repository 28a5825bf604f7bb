import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// Required fields hold on every way a signature that accepts the document starts — accept, the
/// sign button, a signature field, a host's decisions — refused with `requiredFieldsEmpty` (-129)
/// before anything is asked or written; filled, the same paths sign, and pypdf reads the values.
@Suite(.serialized) struct SessionRequiredFieldsTests {
    /// The form of `TestForms.make()` (a field of each kind) with `/Ff` bit 2 set on `required`:
    /// the text `name`, the check box `agree`, the radio group `color`, the combo box `country`, and
    /// the unsigned signature field `signature` (which is what is signed, so never "missing").
    static func form(required: Set<String> = ["name", "agree", "color", "country", "signature"]) throws -> [UInt8] {
        try TestForms.make(required: required)
    }

    /// The values that fill the four required fields.
    static let values: [(name: String, value: FormInput)] = [
        ("name", .text("Ada Lovelace")), ("agree", .bool(true)), ("color", .text("green")),
        ("country", .text("Germany")),
    ]

    static func open(
        _ pdf: [UInt8], id: String, delegate: (any SessionDelegate)? = nil
    ) async throws -> (DocumentSession, SessionController, String) {
        let (controller, directory) = try SessionFixtures.controller()
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.appearance.handwrittenSignatureEnabled = false
        configuration.previewsSignoSignatures = true
        let session = try await controller.open(
            pdf: pdf, documentID: id, signatureConfiguration: configuration, delegate: delegate)
        return (session, controller, directory)
    }

    /// The names of the `n`th `missingRequiredFormField` (from 1), waiting up to 10 s for it unless
    /// `waiting` is false.
    static func missing(_ log: EventLog, _ n: Int, waiting: Bool = true) async -> [String]? {
        for _ in 0..<(waiting ? 1000 : 1) {
            let all = await log.events.compactMap { event -> [String]? in
                if case .missingRequiredFormField(let fields) = event { return fields.map(\.name) }
                return nil
            }
            if all.count >= n { return all[n - 1] }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// The ways a signature that accepts the document starts.
    enum Start: String, CaseIterable, Sendable {
        case accept, signButton, signatureField
        func run(_ session: DocumentSession) async throws {
            switch self {
            case .accept: try await session.acceptDocument()
            case .signButton: try await session.startSignature()
            case .signatureField: try await session.startSignature(field: "signature")
            }
        }
    }

    @Test(
        "every start is refused while required fields are empty, naming them; nothing is asked or written",
        arguments: Start.allCases)
    func everyStartIsRefused(start: Start) async throws {
        let delegate = ScriptedDelegate()
        let (session, _, _) = try await Self.open(try Self.form(), id: "required-\(start)", delegate: delegate)
        let log = EventLog(session)
        let revisions = await session.revisionCount
        // Filled one by one: each start is refused, naming exactly the fields still empty.
        for filled in 0...Self.values.count - 1 {
            let refused = await #expect(throws: SessionError.self) { try await start.run(session) }
            #expect(refused?.code == .requiredFieldsEmpty && refused?.signoCode == -129, "\(start) \(filled)")
            guard let missing = await Self.missing(log, filled + 1) else {
                Issue.record("\(start): no missingRequiredFormField")
                return
            }
            // The signature field, required too, is what is signed: never among them.
            #expect(missing == Self.values.dropFirst(filled).map(\.name), "\(start) \(filled)")
            #expect(await session.phase == .editing)
            try await session.setValue(Self.values[filled].value, forField: Self.values[filled].name)
        }
        // The host was never asked whether to start, and nothing but the fills was written.
        #expect(delegate.asked.isEmpty, "\(delegate.asked)")
        #expect(await session.revisionCount == revisions + Self.values.count)
    }

    @Test(
        "filled, every start signs; pypdf reads the values in the signed file, the check box on",
        arguments: Start.allCases)
    func filledSigns(start: Start) async throws {
        let (session, _, directory) = try await Self.open(try Self.form(), id: "filled-\(start)")
        let log = EventLog(session)
        try await session.setValues(Self.values)
        try await start.run(session)
        if await session.phase == .capturingSignature { try await session.typeSignature("Ada Lovelace") }
        #expect(await session.phase == .confirming)
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("\(start): not signed")
            return
        }
        let path = try SessionFlowTests.validate(signed, in: directory, name: "required-\(start).pdf")
        let values = try Oracle.pypdfFieldValues(path)
        #expect(values["agree"] == "Yes" && values["name"] == "Ada Lovelace", "\(values)")
        #expect(values["color"] == "green" && values["country"] == "Germany", "\(values)")
        #expect(await Self.missing(log, 1, waiting: false) == nil)
    }

    @Test("the fields change while the host decides: the workflow checks them again as they are then")
    func checkedAgainAfterTheHostAnswers() async throws {
        let delegate = UntickingDelegate()
        let (session, _, _) = try await Self.open(try Self.form(required: ["agree"]), id: "recheck", delegate: delegate)
        try await session.setValue(.bool(true), forField: "agree")
        delegate.session = session
        let refused = await #expect(throws: SessionError.self) { try await session.startSignature(field: "signature") }
        #expect(refused?.code == .requiredFieldsEmpty)
        #expect(delegate.asked == ["willStartSigning signature", "signingProcessStarted signature"])
        #expect(await session.phase == .editing)
    }

    @Test("a refusal needs no field filled: it signs that the document was not accepted")
    func refusalIsNotChecked() async throws {
        let (session, _, _) = try await Self.open(try Self.form(), id: "refuse")
        try await session.refuseDocument()
        #expect(await session.phase == .confirming)
    }
}

/// A host that unticks the check box `agree` while it decides whether the signature starts.
final class UntickingDelegate: SessionDelegate, @unchecked Sendable {
    var session: DocumentSession?
    private(set) var asked: [String] = []

    func willStartSigning(field: String) async -> Bool {
        asked.append("willStartSigning \(field)")
        try? await session?.setValue(.bool(false), forField: "agree")
        return true
    }

    func signingProcessStarted(field: String) async -> [String] {
        asked.append("signingProcessStarted \(field)")
        return []
    }
}
