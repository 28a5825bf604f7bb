import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The sneaky signature attack (Rohlmann et al., S&P 2021, §V-B): after a certification, a new
/// signature field whose widget shows anything — left unsigned, so it is no signature at all, only
/// an appearance over the certified content. Disallowed after P=1 and P=2; after P=3, a visible
/// widget is permitted like an annotation.
@Suite("Sneaky signature attack: a visible unsigned signature field after certification")
struct SneakySignatureTests {
    /// `signed` with a new signature field `name`, unsigned, whose widget on the first page shows
    /// "0 EUR" over the amount (or nothing, with a zero rectangle, when `visible` is false).
    static func addingSneakyField(
        to signed: [UInt8], document: AttackDocument, name: String = "Sneaky", visible: Bool = true,
        value: PDFObject? = nil, newValue: PDFDictionary? = nil
    ) throws -> [UInt8] {
        var update = try HandUpdate(base: signed)
        let value = newValue.map { PDFObject.reference(update.add(.dictionary($0))) } ?? value
        let appearance = update.add(
            AttackDocument.form("1 1 1 rg 0 0 100 100 re f BT /Helv 12 Tf 5 40 Td (0 EUR) Tj ET"))
        var widget: PDFDictionary = [
            .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
            PDFName("T"): .string(PDFString(text: name)),
            PDFName("Rect"):
                (visible ? PDFRectangle(x0: 72, y0: 690, x1: 400, y1: 720) : PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0))
                .object,
            PDFName("P"): .reference(document.page), .f: 4, PDFName("AP"): .dictionary([.n: .reference(appearance)]),
        ]
        if let value { widget[.v] = value }
        let field = update.add(.dictionary(widget))
        ShadowAttackTests.appendAnnotation(field, to: document.page, in: &update)
        let parsed = update.document
        let root = try #require(parsed.trailer.reference(.root))
        var catalog = try #require(parsed.catalog)
        switch catalog[.acroForm] {
        case .reference(let formReference)?:
            var form = try #require(parsed.object(formReference).dictionaryValue)
            form[.fields] = .array((parsed.resolve(form[.fields] ?? .null).arrayValue ?? []) + [.reference(field)])
            update.write(formReference, .dictionary(form))
        default:
            var form = try #require(parsed.resolve(catalog[.acroForm] ?? .null).dictionaryValue)
            form[.fields] = .array((parsed.resolve(form[.fields] ?? .null).arrayValue ?? []) + [.reference(field)])
            catalog[.acroForm] = .dictionary(form)
            update.write(root, .dictionary(catalog))
        }
        return update.bytes()
    }

    @Test(
        "a visible unsigned signature field after P=1 or P=2 is disallowed",
        arguments: [SignatureRequest.Certification.noChanges, .formFilling])
    func sneaky(certification: SignatureRequest.Certification) async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: certification)
        let attacked = try Self.addingSneakyField(to: signed, document: document)
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.signature, page: 0)])
    }

    @Test("a visible unsigned signature field after P=3 is permitted like an annotation")
    func sneakyAfterP3() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFillingAndAnnotations)
        let attacked = try Self.addingSneakyField(to: signed, document: document)
        try Attack.expect(
            attacked, verdict: .validWithAllowedChanges, level: .annotations, changes: [.allowed(.signature, page: 0)],
            pyHanko: .says("OTHER", because: Attack.noSignatureFieldAfterCertification))
    }

    @Test("an invisible empty signature field after P=2 is permitted (it is a place to sign)")
    func invisibleAfterP2() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let attacked = try Self.addingSneakyField(to: signed, document: document, visible: false)
        try Attack.expect(attacked, verdict: .validWithAllowedChanges, level: .signatures)
    }

    @Test("a visible unsigned signature field after P=1, then a second unsigned update: still disallowed")
    func sneakyThenMore() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .noChanges)
        let once = try Self.addingSneakyField(to: signed, document: document, name: "Sneaky1")
        let twice = try Self.addingSneakyField(to: once, document: document, name: "Sneaky2")
        let status = try Attack.expect(twice, verdict: .modified)
        #expect(Set(status.modifications?.disallowedChanges.map(\.revision) ?? []) == [2, 3])
    }

    @Test("a new signature field signed (visibly) after P=2 is signing, permitted by ISO 32000-2")
    func signedAfterP2() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let twice = try await Attack.sign(
            signed, field: "Approval",
            placement: .visible(page: 0, rect: PDFRectangle(x0: 72, y0: 690, x1: 400, y1: 720)))
        try Attack.expect(
            twice, verdict: .validWithAllowedChanges, level: .signatures,
            pyHanko: .says("OTHER", because: Attack.noSignatureFieldAfterCertification))
    }

    @Test("a new signature field after P=1 is disallowed even when signed")
    func signedAfterP1() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .noChanges)
        let twice = try await Attack.sign(signed, field: "Signature2")
        try Attack.expect(twice, verdict: .modified, changes: [.disallowed(.signature, page: 0)])
    }

    @Test("a sneaky field whose /V is the certification's own signature dictionary (a reused signature)")
    func reusedSignatureDictionary() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let reference = try #require(try Attack.validate(signed).first?.signatureReference)
        let attacked = try Self.addingSneakyField(to: signed, document: document, value: .reference(reference))
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.signature, page: 0)])
    }

    @Test("the certification's CMS and byte range copied into a new signature field (it verifies, for revision 1)")
    func copiedSignature() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let parsed = try PDFDocument(bytes: signed)
        let reference = try #require(try Attack.validate(signed).first?.signatureReference)
        var copy = try #require(parsed.object(reference).dictionaryValue)
        copy[PDFName("Reference")] = nil
        let attacked = try Self.addingSneakyField(to: signed, document: document, newValue: copy)
        let status = try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.signature, page: 0)])
        #expect(status.modifications?.changes.contains { $0.reason.contains("signs another revision") } == true)
    }

    @Test("the empty signature field of the certified revision given an appearance, unsigned, after P=2")
    func emptyFieldGivenAppearance() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        var update = try HandUpdate(base: signed)
        let appearance = update.add(
            AttackDocument.form("1 1 1 rg 0 0 100 100 re f BT /Helv 12 Tf 5 40 Td (0 EUR) Tj ET"))
        let reference = document.fields["Signature2"]!
        var widget = try #require(update.object(reference).dictionaryValue)
        widget[PDFName("AP")] = .dictionary([.n: .reference(appearance)])
        update.write(reference, .dictionary(widget))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.field, page: 0)])
    }
}
