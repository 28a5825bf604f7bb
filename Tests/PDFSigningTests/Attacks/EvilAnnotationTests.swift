import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The evil annotation attack (Rohlmann et al., "Breaking the Specification: PDF Certification",
/// S&P 2021, §V-A): an annotation over the certified content. ISO 32000-2 permits annotations only
/// after a certification with P=3 (or none); after P=1 and P=2 they are disallowed.
@Suite("Evil annotation attack: annotations after a certification P=1 or P=2 are disallowed, after P=3 allowed")
struct EvilAnnotationTests {
    /// A FreeText annotation over the amount, with its appearance, added to the first page.
    static func addingFreeText(to signed: [UInt8], page: PDFReference, subtype: String = "FreeText") throws -> [UInt8] {
        var update = try HandUpdate(base: signed)
        let appearance = update.add(
            AttackDocument.form("1 1 1 rg 0 0 100 100 re f BT /Helv 12 Tf 5 40 Td (0 EUR) Tj ET"))
        let annotation = update.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name(PDFName(subtype)),
                PDFName("Rect"): PDFRectangle(x0: 72, y0: 690, x1: 400, y1: 720).object, .f: 4,
                PDFName("Contents"): .string(PDFString(text: "0 EUR")), PDFName("P"): .reference(page),
                PDFName("DA"): .string(PDFString(text: "/Helv 12 Tf 0 g")),
                PDFName("AP"): .dictionary([.n: .reference(appearance)]),
            ]))
        ShadowAttackTests.appendAnnotation(annotation, to: page, in: &update)
        return update.bytes()
    }

    @Test(
        "a FreeText or Stamp annotation after a certification P=1 or P=2 is disallowed",
        arguments: [SignatureRequest.Certification.noChanges, .formFilling], ["FreeText", "Stamp"])
    func evilAnnotation(certification: SignatureRequest.Certification, subtype: String) async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: certification)
        let attacked = try Self.addingFreeText(to: signed, page: document.page, subtype: subtype)
        let status = try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
        #expect(status.modifications?.certification?.rawValue == certification.rawValue)
    }

    @Test("an annotation after a certification P=3 is allowed (annotations), as ISO 32000-2 says")
    func annotationAfterP3() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFillingAndAnnotations)
        let attacked = try Self.addingFreeText(to: signed, page: document.page)
        try Attack.expect(
            attacked, verdict: .validWithAllowedChanges, level: .annotations, changes: [.allowed(.annotation, page: 0)],
            pyHanko: .says("OTHER", because: Attack.noAnnotationRule))
    }

    @Test("an annotation on a page whose /Annots is an indirect array, after P=2")
    func indirectAnnots() async throws {
        let document = AttackDocument.make(indirectAnnots: true)
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let attacked = try Self.addingFreeText(to: signed, page: document.page)
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("a widget annotation that belongs to no field, after P=2, is an annotation (disallowed)")
    func orphanWidget() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let attacked = try Self.addingFreeText(to: signed, page: document.page, subtype: "Widget")
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("an existing annotation removed after P=2 is disallowed")
    func removedAfterP2() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        var update = try HandUpdate(base: signed)
        var page = try #require(update.object(document.page).dictionaryValue)
        page[.annots] = .array((page[.annots]?.arrayValue ?? []).filter { $0.referenceValue != document.note })
        update.write(document.page, .dictionary(page))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("the appearance of an existing annotation replaced, even without certification, is disallowed")
    func appearanceReplaced() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let appearance = update.add(AttackDocument.form("1 1 1 rg 0 0 100 100 re f"))
        var note = try #require(update.object(document.note).dictionaryValue)
        note[PDFName("AP")] = .dictionary([.n: .reference(appearance)])
        update.write(document.note, .dictionary(note))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("the appearance stream of an existing annotation rewritten in place is disallowed")
    func appearanceStreamRewritten() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let note = try #require(update.object(document.note).dictionaryValue)
        let appearance = try #require(note[PDFName("AP")]?.dictionaryValue?[.n]?.referenceValue)
        update.write(appearance, AttackDocument.form("1 1 1 rg 0 0 100 100 re f"))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("an existing annotation moved after P=3 is an allowed annotation change")
    func movedAfterP3() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFillingAndAnnotations)
        var update = try HandUpdate(base: signed)
        var note = try #require(update.object(document.note).dictionaryValue)
        note[PDFName("Rect")] = PDFRectangle(x0: 72, y0: 690, x1: 172, y1: 790).object
        update.write(document.note, .dictionary(note))
        try Attack.expect(
            update.bytes(), verdict: .validWithAllowedChanges, level: .annotations,
            changes: [.allowed(.annotation, page: 0)], pyHanko: .says("OTHER", because: Attack.noAnnotationRule))
    }
}
