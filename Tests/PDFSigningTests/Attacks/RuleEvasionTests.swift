import PDFAuthoring
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Variations an attacker tries against the rules themselves: a forbidden change dressed as a
/// permitted one (an object shared by the page and by metadata, a form's resources, a field's
/// appearance), appearances switched without a new appearance (/AS, hidden flags, /NeedAppearances,
/// optional content, the order of /Annots), and values or widgets moved between fields.
@Suite("Rule evasion: forbidden changes dressed as permitted ones")
struct RuleEvasionTests {
    // MARK: An object used in two places, changed under the rule of the harmless one

    @Test("the catalog's /Metadata pointed at the page's content stream, which is then rewritten")
    func metadataSharedWithContent() async throws {
        let document = AttackDocument.make()
        let parsed = try PDFDocument(bytes: document.bytes)
        let root = try #require(parsed.trailer.reference(.root))
        var catalog = try #require(parsed.catalog)
        catalog[.metadata] = .reference(document.content)
        // Before signing: the content stream is also the XMP metadata.
        var prepare = try HandUpdate(base: document.bytes)
        prepare.write(root, .dictionary(catalog))
        let signed = try await Attack.sign(prepare.bytes())
        var update = try HandUpdate(base: signed)
        update.write(document.content, ShadowAttackTests.evil)
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("the trailer's /Info pointed at the page's font, rewritten as document information")
    func infoIsTheFont() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        var font = try #require(update.object(document.font).dictionaryValue)
        font[PDFName("BaseFont")] = .name("Courier")
        font[PDFName("Title")] = .string(PDFString(text: "Invoice"))
        update.write(document.font, .dictionary(font))
        update.trailer[.info] = .reference(document.font)
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.font, page: 0)])
    }

    @Test("the form's default resources name the page's font, which is then redefined")
    func defaultResourcesClaimPageFont() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let parsed = update.document
        let root = try #require(parsed.trailer.reference(.root))
        var catalog = try #require(parsed.catalog)
        var form = try #require(parsed.resolve(catalog[.acroForm] ?? .null).dictionaryValue)
        form[PDFName("DR")] = .dictionary([PDFName("Font"): .dictionary([PDFName("F1"): .reference(document.font)])])
        catalog[.acroForm] = .dictionary(form)
        update.write(root, .dictionary(catalog))
        var font = try #require(update.object(document.font).dictionaryValue)
        font[PDFName("BaseFont")] = .name("Courier")
        update.write(document.font, .dictionary(font))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.font, page: 0)])
    }

    @Test("a field filled, its new appearance the page's content stream rewritten")
    func fillClaimsPageContent() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let name = document.fields["name"]!
        var field = try #require(update.object(name).dictionaryValue)
        field[.v] = .string(PDFString(text: "Ada"))
        field[PDFName("AP")] = .dictionary([.n: .reference(document.content)])
        update.write(name, .dictionary(field))
        update.write(document.content, ShadowAttackTests.evil)
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("a field filled, its new appearance the appearance of the square annotation, rewritten")
    func fillClaimsAnotherAppearance() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let note = try #require(update.object(document.note).dictionaryValue)
        let noteAppearance = try #require(note[PDFName("AP")]?.dictionaryValue?[.n]?.referenceValue)
        let name = document.fields["name"]!
        var field = try #require(update.object(name).dictionaryValue)
        field[.v] = .string(PDFString(text: "Ada"))
        field[PDFName("AP")] = .dictionary([.n: .reference(noteAppearance)])
        update.write(name, .dictionary(field))
        update.write(noteAppearance, AttackDocument.form("1 1 1 rg 0 0 100 100 re f"))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("a new annotation that is an existing appearance stream rewritten into an annotation")
    func annotationFromAnAppearance() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let note = try #require(update.object(document.note).dictionaryValue)
        let appearance = try #require(note[PDFName("AP")]?.dictionaryValue?[.n]?.referenceValue)
        update.write(
            appearance,
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Text"),
                PDFName("Rect"): PDFRectangle(x0: 10, y0: 10, x1: 30, y1: 30).object,
            ]))
        ShadowAttackTests.appendAnnotation(appearance, to: document.page, in: &update)
        try Attack.expect(
            update.bytes(), verdict: .modified,
            changes: [.allowed(.annotation, page: 0), .disallowed(.annotation, page: 0)])
    }

    @Test("the form's default resources redefine a font name the fields use (/Helv)")
    func defaultResourcesRedefined() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let parsed = update.document
        let root = try #require(parsed.trailer.reference(.root))
        var catalog = try #require(parsed.catalog)
        var form = try #require(parsed.resolve(catalog[.acroForm] ?? .null).dictionaryValue)
        var resources = try #require(form[PDFName("DR")]?.dictionaryValue)
        var fonts = try #require(resources[PDFName("Font")]?.dictionaryValue)
        fonts[PDFName("Helv")] = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), PDFName("BaseFont"): .name("Courier"),
        ])
        resources[PDFName("Font")] = .dictionary(fonts)
        form[PDFName("DR")] = .dictionary(resources)
        catalog[.acroForm] = .dictionary(form)
        update.write(root, .dictionary(catalog))
        try Attack.expect(
            update.bytes(), verdict: .modified, changes: [.disallowed(.form)],
            pyHanko: .says("LTA_UPDATES", because: Attack.acroFormKeysExempt))
    }

    // MARK: Appearances switched without a new appearance

    @Test("/NeedAppearances set after signing: viewers redraw a field whose appearance hid its value")
    func needAppearances() async throws {
        let document = AttackDocument.make()
        // Before signing: 'name' holds 1000000 but its appearance shows 100.
        var prepare = try HandUpdate(base: document.bytes)
        let name = document.fields["name"]!
        var field = try #require(prepare.object(name).dictionaryValue)
        field[.v] = .string(PDFString(text: "1000000"))
        let shown = prepare.add(AttackDocument.form("BT /Helv 11 Tf 2 6 Td (100) Tj ET"))
        field[PDFName("AP")] = .dictionary([.n: .reference(shown)])
        prepare.write(name, .dictionary(field))
        let signed = try await Attack.sign(prepare.bytes())
        var update = try HandUpdate(base: signed)
        let parsed = update.document
        let root = try #require(parsed.trailer.reference(.root))
        var catalog = try #require(parsed.catalog)
        var form = try #require(parsed.resolve(catalog[.acroForm] ?? .null).dictionaryValue)
        form[PDFName("NeedAppearances")] = true
        catalog[.acroForm] = .dictionary(form)
        update.write(root, .dictionary(catalog))
        try Attack.expect(
            update.bytes(), verdict: .modified, changes: [.disallowed(.form)],
            pyHanko: .says("LTA_UPDATES", because: Attack.acroFormKeysExempt))
    }

    @Test("an annotation's appearance state (/AS) switched to another planted appearance")
    func appearanceState() async throws {
        let document = AttackDocument.make()
        var prepare = try HandUpdate(base: document.bytes)
        let shown = prepare.add(AttackDocument.form("1 0 0 RG 5 5 90 90 re S"))
        let hidden = prepare.add(AttackDocument.form("1 1 1 rg 0 0 100 100 re f"))
        var note = try #require(prepare.object(document.note).dictionaryValue)
        note[PDFName("AP")] = .dictionary([
            .n: .dictionary([PDFName("A"): .reference(shown), PDFName("B"): .reference(hidden)])
        ])
        note[PDFName("AS")] = .name("A")
        prepare.write(document.note, .dictionary(note))
        let signed = try await Attack.sign(prepare.bytes())
        var update = try HandUpdate(base: signed)
        note[PDFName("AS")] = .name("B")
        update.write(document.note, .dictionary(note))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test("an annotation hidden when signed (/F 2) made visible")
    func hiddenAnnotationShown() async throws {
        let document = AttackDocument.make()
        var prepare = try HandUpdate(base: document.bytes)
        var note = try #require(prepare.object(document.note).dictionaryValue)
        note[.f] = 2
        prepare.write(document.note, .dictionary(note))
        let signed = try await Attack.sign(prepare.bytes())
        var update = try HandUpdate(base: signed)
        note[.f] = 4
        update.write(document.note, .dictionary(note))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
    }

    @Test(
        "the annotations of the page reordered (which is drawn on top): disallowed after P=2, allowed without certification",
        arguments: [true, false])
    func annotationsReordered(certified: Bool) async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: certified ? .formFilling : nil)
        var update = try HandUpdate(base: signed)
        var page = try #require(update.object(document.page).dictionaryValue)
        page[.annots] = .array((page[.annots]?.arrayValue ?? []).reversed())
        update.write(document.page, .dictionary(page))
        if certified {
            try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.annotation, page: 0)])
        } else {
            try Attack.expect(
                update.bytes(), verdict: .validWithAllowedChanges, level: .annotations,
                changes: [.allowed(.annotation, page: 0)], pyHanko: .says("OTHER", because: Attack.noAnnotationRule))
        }
    }

    @Test("optional content hidden when signed switched on (the catalog's /OCProperties)", arguments: [true, false])
    func optionalContentSwitchedOn(indirect: Bool) async throws {
        var builder = PDFBuilder()
        let group = builder.add(.dictionary([.type: .name("OCG"), .name: .string(PDFString(text: "Hidden"))]))
        builder.addPage(
            content: Array(
                "BT /F1 18 Tf 72 700 Td (Pay 100 EUR) Tj ET /OC /oc1 BDC BT /F1 18 Tf 72 650 Td (and 1000000 more) Tj ET EMC"
                    .utf8),
            resources: PDFBuilder.helveticaResources.merging([
                PDFName("Properties"): .dictionary([PDFName("oc1"): .reference(group)])
            ]))
        let configuration: PDFObject = .dictionary([PDFName("OFF"): [.reference(group)]])
        let properties: PDFObject = .dictionary([
            PDFName("OCGs"): [.reference(group)],
            PDFName("D"): indirect ? .reference(builder.add(configuration)) : configuration,
        ])
        builder.catalogEntries[PDFName("OCProperties")] = properties
        let signed = try await Attack.sign(builder.build())
        var update = try HandUpdate(base: signed)
        let on: PDFObject = .dictionary([PDFName("ON"): [.reference(group)]])
        if indirect,
            let reference = update.document.catalog?[PDFName("OCProperties")]?.dictionaryValue?[PDFName("D")]?
                .referenceValue
        {
            update.write(reference, on)
            try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.optionalContent)])
        } else {
            let root = try #require(update.document.trailer.reference(.root))
            var catalog = try #require(update.document.catalog)
            catalog[PDFName("OCProperties")] = .dictionary([PDFName("OCGs"): [.reference(group)], PDFName("D"): on])
            update.write(root, .dictionary(catalog))
            try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.catalog)])
        }
    }

    @Test("the certifying signature's own appearance replaced after signing")
    func signatureAppearanceReplaced() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        var update = try HandUpdate(base: signed)
        let appearance = update.add(AttackDocument.form("BT /Helv 12 Tf 5 40 Td (Signed: Mallory) Tj ET"))
        let reference = document.fields["Signature1"]!
        var widget = try #require(update.object(reference).dictionaryValue)
        widget[PDFName("AP")] = .dictionary([.n: .reference(appearance)])
        update.write(reference, .dictionary(widget))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.field, page: 0)])
    }

    // MARK: Values, widgets and signatures in the wrong place

    @Test("a widget of 'comment' moved under 'name' (its /Parent and the field's /Kids)")
    func widgetMovedBetweenFields() async throws {
        let signed = try await Attack.sign(TestForms.make(), field: "signature")
        let document = try PDFDocument(bytes: signed)
        let form = try #require(AcroForm(document: document))
        let color = try #require(form.field(named: "color"))
        let colorReference = try #require(color.reference)
        let kid = try #require(color.widgets.first?.reference)
        let city = try #require(form.field(named: "address.city"))
        let parent = try #require(city.ancestors.first)
        var update = try HandUpdate(base: signed)
        var widget = try #require(update.object(kid).dictionaryValue)
        widget[.parent] = .reference(parent)
        update.write(kid, .dictionary(widget))
        var address = try #require(update.object(parent).dictionaryValue)
        address[.kids] = .array((address[.kids]?.arrayValue ?? []) + [.reference(kid)])
        update.write(parent, .dictionary(address))
        var group = try #require(update.object(colorReference).dictionaryValue)
        group[.kids] = .array((group[.kids]?.arrayValue ?? []).filter { $0.referenceValue != kid })
        update.write(colorReference, .dictionary(group))
        try Attack.expect(
            update.bytes(), field: "signature", verdict: .modified, changes: [.disallowed(.field, page: 0)])
    }

    @Test(
        "a radio button's appearance state (/AS) switched without its value, after P=1 or under a lock of all fields",
        arguments: [true, false])
    func appearanceStateOfLockedField(certified: Bool) async throws {
        let signed = try await Attack.sign(
            TestForms.make(), field: "signature", certification: certified ? .noChanges : nil,
            lock: certified ? nil : .all)
        let document = try PDFDocument(bytes: signed)
        let color = try #require(AcroForm(document: document)?.field(named: "color"))
        let kid = try #require(color.widgets.first?.reference)
        var update = try HandUpdate(base: signed)
        var widget = try #require(update.object(kid).dictionaryValue)
        widget[PDFName("AS")] = .name("red")
        update.write(kid, .dictionary(widget))
        try Attack.expect(
            update.bytes(), field: "signature", verdict: .modified, changes: [.disallowed(.field, page: 0)])
    }

    @Test("a /V written into a widget of a radio group (not the field's value) is not silently accepted")
    func valueInWidget() async throws {
        let signed = try await Attack.sign(TestForms.make(), field: "signature", lock: .all)
        let document = try PDFDocument(bytes: signed)
        let color = try #require(AcroForm(document: document)?.field(named: "color"))
        let kid = try #require(color.widgets.first?.reference)
        var update = try HandUpdate(base: signed)
        var widget = try #require(update.object(kid).dictionaryValue)
        widget[.v] = .name("red")
        update.write(kid, .dictionary(widget))
        try Attack.expect(
            update.bytes(), field: "signature", verdict: .modified, changes: [.disallowed(.field, page: 0)])
    }

    @Test(
        "a document time-stamp that signs nothing, visible or not, after P=1",
        arguments: [true, false])
    func fakeTimestamp(visible: Bool) async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .noChanges)
        let fake: PDFDictionary = [
            .type: .name("DocTimeStamp"), .filter: .name("Adobe.PPKLite"), PDFName("SubFilter"): .name("ETSI.RFC3161"),
            .byteRange: [0, 10, 20, 30], .contents: .string(PDFString(bytes: [1, 2, 3], isHex: true)),
        ]
        let attacked = try SneakySignatureTests.addingSneakyField(
            to: signed, document: document, visible: visible, newValue: fake)
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.signature, page: 0)])
    }

    @Test("a visible new signature field whose /V is a signature dictionary that signs nothing, after P=2")
    func fakeSignatureValue() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, certification: .formFilling)
        let fake: PDFDictionary = [
            .type: .name(.sig), .filter: .name("Adobe.PPKLite"), PDFName("SubFilter"): .name("ETSI.CAdES.detached"),
            .byteRange: [0, 10, 20, 30], .contents: .string(PDFString(bytes: [1, 2, 3], isHex: true)),
        ]
        let attacked = try SneakySignatureTests.addingSneakyField(to: signed, document: document, newValue: fake)
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.signature, page: 0)])
    }
}
