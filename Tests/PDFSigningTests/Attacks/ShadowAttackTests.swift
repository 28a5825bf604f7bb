import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Shadow attacks (Mainka et al., "Shadow Attacks: Hiding and Replacing Content in Signed PDFs",
/// NDSS 2021): the attacker prepares the document before it is signed — objects nothing uses, or
/// second bodies of used objects the cross-reference does not point at — and after signing an
/// update makes them show: hide (overlay removed or content swapped by a cross-reference entry),
/// replace (a font or an XObject redefined), hide-and-replace (the whole document swapped). With
/// cross-reference tables and streams (and object streams) alike.
@Suite("Shadow attacks: hide, replace, hide-and-replace, with xref tables and streams")
struct ShadowAttackTests {
    static let evil = PDFObject.stream(PDFStream(data: Array(AttackDocument.evilText.utf8), compress: true))

    static func form(_ xref: HandUpdate.XRef) -> PDFBuilder.XRefForm { xref == .table ? .table : .stream }

    /// `bytes` with second bodies of `objects` appended in an update that does not list them (the
    /// update rewrites `/Info` as it was, so it changes nothing); the offset of each body.
    static func plant(
        _ bytes: [UInt8], _ objects: [(PDFReference, PDFObject)], xref: HandUpdate.XRef
    ) throws -> (bytes: [UInt8], offsets: [Int: Int]) {
        var update = try HandUpdate(base: bytes)
        var offsets: [Int: Int] = [:]
        for (reference, object) in objects {
            offsets[reference.number] = update.position
            var serializer = PDFSerializer()
            serializer.write(object)
            update.appendRaw("\(reference.number) \(reference.generation) obj\n")
            update.appendRaw(serializer.output)
            update.appendRaw("\nendobj\n")
        }
        let info = try #require(update.document.trailer.reference(.info))
        update.write(info, update.object(info))
        return (update.bytes(xref: xref), offsets)
    }

    // MARK: Hide

    @Test(
        "hide: an update of only a cross-reference points the content at a second body planted before signing",
        arguments: HandUpdate.XRef.allCases)
    func hideByCrossReference(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref))
        let planted = try Self.plant(document.bytes, [(document.content, Self.evil)], xref: xref)
        let signed = try await Attack.sign(planted.bytes)
        try Attack.expect(signed, verdict: .valid, level: ModificationLevel.none)
        var update = try HandUpdate(base: signed)
        update.point(document.content.number, at: try #require(planted.offsets[document.content.number]))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test(
        "hide: the overlay (the logo XObject) swapped for an empty one by a cross-reference entry",
        arguments: HandUpdate.XRef.allCases)
    func hideOverlay(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref))
        let planted = try Self.plant(document.bytes, [(document.logo, AttackDocument.form(""))], xref: xref)
        let signed = try await Attack.sign(planted.bytes)
        var update = try HandUpdate(base: signed)
        update.point(document.logo.number, at: try #require(planted.offsets[document.logo.number]))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.xobject, page: 0)])
    }

    @Test("hide: the page's content array swapped for one that leaves the signed text out")
    func hideByContentArray() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        var page = try #require(update.object(document.page).dictionaryValue)
        page[.contents] = [.reference(try #require(document.shadowContent))]
        update.write(document.page, .dictionary(page))
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    // MARK: Replace

    @Test("replace: the font redefined (another base font)", arguments: HandUpdate.XRef.allCases)
    func replaceFont(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref))
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        var font = try #require(update.object(document.font).dictionaryValue)
        font[PDFName("BaseFont")] = .name("Courier")
        update.write(document.font, .dictionary(font))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.font, page: 0)])
    }

    @Test("replace: the font redefined inside an object stream of an xref-stream update")
    func replaceFontInObjectStream() async throws {
        let document = AttackDocument.make(xref: .stream)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        var font = try #require(update.object(document.font).dictionaryValue)
        font[PDFName("Encoding")] = .dictionary([
            .type: .name("Encoding"), PDFName("Differences"): [49, .name("nine"), .name("nine")],
        ])
        update.objectStream([(document.font, .dictionary(font))])
        try Attack.expect(update.bytes(xref: .stream), verdict: .modified, changes: [.disallowed(.font, page: 0)])
    }

    @Test("replace: the logo XObject redefined, written in an object stream", arguments: [true, false])
    func replaceLogo(inObjectStream: Bool) async throws {
        let document = AttackDocument.make(xref: .stream)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        if inObjectStream {
            // An object stream cannot hold a stream: the page's resources are pointed at a new logo instead.
            let logo = update.add(AttackDocument.form("1 0 0 rg 0 0 100 100 re f"))
            var page = try #require(update.object(document.page).dictionaryValue)
            var resources = try #require(page[.resources]?.dictionaryValue)
            resources[PDFName("XObject")] = .dictionary([PDFName("Logo"): .reference(logo)])
            page[.resources] = .dictionary(resources)
            update.objectStream([(document.page, .dictionary(page))])
            try Attack.expect(update.bytes(xref: .stream), verdict: .modified, changes: [.disallowed(.page, page: 0)])
        } else {
            update.write(document.logo, AttackDocument.form("1 0 0 rg 0 0 100 100 re f"))
            try Attack.expect(
                update.bytes(xref: .stream), verdict: .modified, changes: [.disallowed(.xobject, page: 0)])
        }
    }

    @Test(
        "replace: the font pointed at a shadow font planted before signing (a cross-reference entry only)",
        arguments: HandUpdate.XRef.allCases)
    func replaceFontByCrossReference(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref))
        let courier: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), PDFName("BaseFont"): .name("Courier"),
        ])
        let planted = try Self.plant(document.bytes, [(document.font, courier)], xref: xref)
        let signed = try await Attack.sign(planted.bytes)
        var update = try HandUpdate(base: signed)
        update.point(document.font.number, at: try #require(planted.offsets[document.font.number]))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.font, page: 0)])
    }

    // MARK: Hide-and-replace

    @Test(
        "hide-and-replace: the trailer's /Root names a whole other catalog planted before signing",
        arguments: HandUpdate.XRef.allCases)
    func replaceCatalog(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref), shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        update.trailer[.root] = .reference(try #require(document.shadowCatalog))
        let info = try #require(update.document.trailer.reference(.info))
        update.write(info, update.object(info))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.catalog)])
    }

    @Test("hide-and-replace: a new catalog without the form shows a document with no signature at all")
    func replaceCatalogWithoutForm() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let shadowReference = try #require(document.shadowCatalog)
        var catalog = try #require(update.object(shadowReference).dictionaryValue)
        catalog[.acroForm] = nil
        update.trailer[.root] = .reference(update.add(.dictionary(catalog)))
        let attacked = update.bytes()
        // Nothing claims to be signed any more: no signature to show as valid (pyHanko finds none either).
        #expect(try Attack.validate(attacked).isEmpty)
        if let verdicts = try PyHankoVerdict.verdicts(attacked) { #expect(verdicts.isEmpty, "\(verdicts)") }
    }

    @Test(
        "hide-and-replace: the catalog's number pointed at a second catalog body planted before signing",
        arguments: HandUpdate.XRef.allCases)
    func replaceCatalogByCrossReference(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref), shadows: true)
        let parsed = try PDFDocument(bytes: document.bytes)
        let root = try #require(parsed.trailer.reference(.root))
        let shadowReference = try #require(document.shadowCatalog)
        let shadowCatalog = try #require(parsed.object(shadowReference).dictionaryValue)
        var catalog = try #require(parsed.catalog)
        catalog[.pages] = shadowCatalog[.pages]
        let planted = try Self.plant(document.bytes, [(root, .dictionary(catalog))], xref: xref)
        let signed = try await Attack.sign(planted.bytes)
        var update = try HandUpdate(base: signed)
        update.point(root.number, at: try #require(planted.offsets[root.number]))
        let status = try Attack.expect(update.bytes(xref: xref), verdict: .modified)
        #expect(status.modifications?.disallowedChanges.contains { $0.kind == .page || $0.kind == .catalog } == true)
    }

    @Test("hide-and-replace: the page tree's /Kids swapped for the shadow page", arguments: HandUpdate.XRef.allCases)
    func replacePageTree(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: Self.form(xref), shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let shadowReference = try #require(document.shadowCatalog)
        let shadowCatalog = try #require(update.object(shadowReference).dictionaryValue)
        let shadowPages = try #require(update.document.resolve(shadowCatalog[.pages] ?? .null).dictionaryValue)
        let shadowPage = try #require(shadowPages[.kids]?.arrayValue?.first)
        let pages = try #require(update.document.catalog?[.pages]?.referenceValue)
        var tree = try #require(update.object(pages).dictionaryValue)
        tree[.kids] = [shadowPage, .reference(document.secondPage)]
        update.write(pages, .dictionary(tree))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.page, page: 0)])
    }

    // MARK: Objects nothing used, made visible through a permitted change

    @Test("a new annotation whose appearance is an object the signed revision did not use (shadow hide)")
    func annotationShowsShadowObject() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let stamp = update.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Stamp"),
                PDFName("Rect"): PDFRectangle(x0: 72, y0: 690, x1: 472, y1: 720).object,
                PDFName("AP"): .dictionary([.n: .reference(try #require(document.shadowLogo))]), .f: 4,
            ]))
        Self.appendAnnotation(stamp, to: document.page, in: &update)
        try Attack.expect(
            update.bytes(), verdict: .modified,
            changes: [.allowed(.annotation, page: 0), .disallowed(.hiddenObject, page: 0)])
    }

    @Test("a new annotation whose new appearance draws a shadow XObject through its resources")
    func annotationResourcesShowShadowObject() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let appearance = update.add(
            .stream(
                PDFStream(
                    dictionary: [
                        .type: .name("XObject"), .subtype: .name("Form"),
                        PDFName("BBox"): PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 100).object,
                        .resources: .dictionary([
                            PDFName("XObject"): .dictionary([
                                PDFName("X"): .reference(try #require(document.shadowLogo))
                            ])
                        ]),
                    ], data: Array("/X Do".utf8), compress: false)))
        let stamp = update.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Stamp"),
                PDFName("Rect"): PDFRectangle(x0: 72, y0: 690, x1: 472, y1: 720).object,
                PDFName("AP"): .dictionary([.n: .reference(appearance)]), .f: 4,
            ]))
        Self.appendAnnotation(stamp, to: document.page, in: &update)
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.hiddenObject, page: 0)])
    }

    @Test("an annotation planted before signing but not on the page, added to /Annots after")
    func shadowAnnotationAdded() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        Self.appendAnnotation(try #require(document.shadowNote), to: document.page, in: &update)
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.hiddenObject, page: 0)])
    }

    @Test("a field filled with an appearance that is an object the signed revision did not use")
    func fillShowsShadowObject() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let name = document.fields["name"]!
        var field = try #require(update.object(name).dictionaryValue)
        field[.v] = .string(PDFString(text: "Ada"))
        field[PDFName("AP")] = .dictionary([.n: .reference(try #require(document.shadowLogo))])
        update.write(name, .dictionary(field))
        try Attack.expect(
            update.bytes(), verdict: .modified,
            changes: [.allowed(.field, page: 0), .disallowed(.hiddenObject, page: 0)],
            pyHanko: .says(
                "FORM_FILLING",
                because: "pyHanko checks that a new appearance stream is used nowhere else, not that it is new: "
                    + "an object nothing used when the document was signed passes"))
    }

    /// Appends `annotation` to the page's `/Annots` (the array object when it is indirect).
    static func appendAnnotation(_ annotation: PDFReference, to page: PDFReference, in update: inout HandUpdate) {
        var dictionary = update.object(page).dictionaryValue ?? PDFDictionary()
        let items = update.document.resolve(dictionary[.annots] ?? .null).arrayValue ?? []
        if case .reference(let array)? = dictionary[.annots] {
            update.write(array, .array(items + [.reference(annotation)]))
        } else {
            dictionary[.annots] = .array(items + [.reference(annotation)])
            update.write(page, .dictionary(dictionary))
        }
    }
}
