import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The controls: updates the rules permit must keep a signature valid (with allowed changes),
/// so the attack tests cannot pass by finding fault with everything.
@Suite("Benign updates after a signature stay valid, as pyHanko sees them too")
struct BenignUpdateTests {
    static func signed(xref: PDFBuilder.XRefForm = .table) async throws -> [UInt8] {
        try await Attack.sign(AttackDocument.make(xref: xref).bytes)
    }

    @Test("an untouched signed document is valid with no changes", arguments: [PDFBuilder.XRefForm.table, .stream])
    func untouched(xref: PDFBuilder.XRefForm) async throws {
        let status = try Attack.expect(
            try await Self.signed(xref: xref), verdict: .valid, level: ModificationLevel.none)
        #expect(status.modifications?.changes.isEmpty == true)
    }

    @Test("a second signature in the empty field: signatures", arguments: [PDFBuilder.XRefForm.table, .stream])
    func secondSignature(xref: PDFBuilder.XRefForm) async throws {
        let twice = try await Attack.sign(try await Self.signed(xref: xref), field: "Signature2", signer: "signer-p256")
        try Attack.expect(
            twice, verdict: .validWithAllowedChanges, level: .signatures, changes: [.allowed(.signature, page: 0)])
        try Attack.expect(twice, field: "Signature2", verdict: .valid, level: ModificationLevel.none)
    }

    @Test("a second signature in a new invisible field: signatures")
    func secondSignatureNewField() async throws {
        let twice = try await Attack.sign(try await Self.signed(), field: "Countersignature")
        try Attack.expect(twice, verdict: .validWithAllowedChanges, level: .signatures)
    }

    @Test(
        "a second signature written by pyHanko (its own update), in the empty field or a new visible one: signatures",
        .enabled(if: Requirement.pyHankoCLI, "pyHanko is not installed"),
        arguments: ["Signature2", "1/300,300,500,350/Counter"])
    func secondSignatureByPyHanko(field: String) async throws {
        let signed = try await Self.signed()
        let directory = try TestPaths.temporaryDirectory("pyhanko-sign")
        try Data(signed).write(to: URL(fileURLWithPath: directory + "/in.pdf"))
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: directory + "/pass"))
        let result = try SignatureOracle.runPyhanko([
            "sign", "addsig", "--field", field, "pkcs12", "--passfile", directory + "/pass", directory + "/in.pdf",
            directory + "/out.pdf", TestPaths.fixture("pki", "signer-p256.p12"),
        ])
        try #require(result.status == 0, "pyhanko: \(result.output)\(result.errors)")
        let twice = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/out.pdf")))
        // pyHanko also adds /Extensions, and (for some keys) XMP metadata: form filling at most.
        let status = try Attack.expect(twice, verdict: .validWithAllowedChanges, changes: [.allowed(.signature)])
        #expect(status.modifications.map { $0.level <= .formFilling } == true)
    }

    @Test(
        "a text field filled, with its appearance, by FormFiller: form filling (an embedded font named in /DR and /DA too)",
        arguments: ["Ada Lovelace", "Ελληνικά"])
    func fill(value: String) async throws {
        let signed = try await Self.signed()
        var filler = FormFiller(form: try #require(AcroForm(document: try PDFDocument(bytes: signed))))
        try filler.set("name", to: .text(value))
        let filled = try filler.documentBytes()
        try Attack.expect(
            filled, verdict: .validWithAllowedChanges, level: .formFilling, changes: [.allowed(.field, page: 0)])
    }

    @Test("a DSS added to the catalog: validation material (ltv)", arguments: [PDFBuilder.XRefForm.table, .stream])
    func dss(xref: PDFBuilder.XRefForm) async throws {
        let signed = try await Self.signed(xref: xref)
        try Attack.expect(try Self.addingDSS(to: signed), verdict: .validWithAllowedChanges, level: .ltv)
    }

    /// `signed` with a DSS holding the signer's certificates (ETSI EN 319 142-1 §5.4.2).
    static func addingDSS(to signed: [UInt8]) throws -> [UInt8] {
        let document = try PDFDocument(bytes: signed)
        var update = IncrementalUpdate(base: document)
        let signer = try Attack.signer()
        let certificates = ([signer.certificate] + signer.chain).map {
            PDFObject.reference(update.add(.stream(PDFStream(data: $0.derBytes, compress: true))))
        }
        let dss = update.add(.dictionary([PDFName("Certs"): .array(certificates)]))
        let root = try #require(document.trailer.reference(.root))
        var catalog = try #require(document.catalog)
        catalog[PDFName("DSS")] = .reference(dss)
        update.replace(root, with: .dictionary(catalog))
        return try update.documentBytes()
    }

    @Test("an ink annotation added to an uncertified document: annotations")
    func inkAnnotation() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        let inked = try Self.addingInk(to: signed, page: document.page)
        try Attack.expect(
            inked, verdict: .validWithAllowedChanges, level: .annotations, changes: [.allowed(.annotation, page: 0)],
            pyHanko: .says("OTHER", because: Attack.noAnnotationRule))
    }

    /// `signed` with an ink annotation (a stroke and its appearance) on `page`.
    static func addingInk(to signed: [UInt8], page: PDFReference) throws -> [UInt8] {
        let document = try PDFDocument(bytes: signed)
        var update = IncrementalUpdate(base: document)
        let appearance = update.add(AttackDocument.form("0 0 1 RG 2 w 10 10 m 90 90 l S"))
        let ink = update.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Ink"),
                PDFName("Rect"): PDFRectangle(x0: 300, y0: 300, x1: 400, y1: 400).object,
                PDFName("InkList"): [[310, 310, 390, 390]], .f: 4, PDFName("C"): [0, 0, 1],
                PDFName("P"): .reference(page), PDFName("AP"): .dictionary([.n: .reference(appearance)]),
            ]))
        var dictionary = try #require(document.object(page).dictionaryValue)
        let annots = document.resolve(dictionary[.annots] ?? .null).arrayValue ?? []
        if case .reference(let array)? = dictionary[.annots] {
            update.replace(array, with: .array(annots + [.reference(ink)]))
        } else {
            dictionary[.annots] = .array(annots + [.reference(ink)])
            update.replace(page, with: .dictionary(dictionary))
        }
        return try update.documentBytes()
    }

    @Test("/Info's title changed after a signature: metadata, permitted (form filling level)")
    func metadata() async throws {
        let signed = try await Self.signed()
        let document = try PDFDocument(bytes: signed)
        var update = IncrementalUpdate(base: document)
        var info = try #require(document.info)
        info[PDFName("Title")] = .string(PDFString(text: "Invoice (paid)"))
        update.replace(try #require(document.trailer.reference(.info)), with: .dictionary(info))
        try Attack.expect(
            try update.documentBytes(), verdict: .validWithAllowedChanges, level: .formFilling,
            changes: [.allowed(.metadata)], pyHanko: .says("LTA_UPDATES", because: Attack.metadataIsLTA))
    }

    @Test("an update that writes objects identical to the signed ones changes nothing")
    func identicalRewrite() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        for reference in [document.page, document.content, document.font, document.logo] {
            update.write(reference, update.object(reference))
        }
        try Attack.expect(update.bytes(), verdict: .valid, level: ModificationLevel.none)
    }

    // MARK: What the signer claimed

    @Test(
        "a signing time (/M) written by an unsigned update is never reported as the signer's",
        arguments: HandUpdate.XRef.allCases)
    func signingTimeFromUpdate(xref: HandUpdate.XRef) async throws {
        let signed = try await Self.signed()
        let status = try #require(try Attack.validate(signed).first)
        #expect(status.claimedSigningTime?.seconds == Attack.signingTime.seconds)
        let reference = try #require(status.signatureReference)
        var update = try HandUpdate(base: signed)
        var dictionary = try #require(update.object(reference).dictionaryValue)
        dictionary[PDFName("M")] = .string(PDFString(text: PDFDate(seconds: 1_900_000_000).pdfString))
        update.write(reference, .dictionary(dictionary))
        let changed = try Attack.expect(
            update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.signature)],
            pyHanko: .says(
                "INVALID",
                because: "pyHanko reads the rewritten signature dictionary, whose /Contents is no longer where the "
                    + "/ByteRange gap is (nonstandard coverage); we read the gap as signed and report the rewrite"))
        #expect(changed.claimedSigningTime?.seconds == Attack.signingTime.seconds)
        #expect(changed.problems.contains { $0.contains("rewritten after signing") })
    }

    @Test("a signing time (/M) signed as an indirect string, the string rewritten by an unsigned update")
    func indirectSigningTimeFromUpdate() async throws {
        // Before signing: a string object the signature dictionary's /M will name.
        var before = try HandUpdate(base: AttackDocument.make().bytes)
        let time = before.add(.string(PDFString(text: Attack.signingTime.pdfString)))
        let base = try PDFDocument(bytes: before.bytes())
        var request = SignatureRequest(fieldName: "Signature1", placement: .existingField)
        request.signingTime = Attack.signingTime
        let prepared = try SignaturePreparer(document: base, request: request)
            .prepare(contentsSize: 8192, signerName: "Signer")
        var file = base.withBytes { Array($0) } + prepared.update
        // /M (D:…) becomes /M n 0 R, padded to the same length, before the digest is taken.
        let literal = "(" + Attack.signingTime.pdfString + ")"
        let start = try #require(Attack.lastOffset(of: literal, in: file))
        let reference = Array(" \(time.number) 0 R".utf8)
        file.replaceSubrange(
            start..<(start + literal.utf8.count),
            with: reference + [UInt8](repeating: 0x20, count: literal.utf8.count - reference.count))
        let range = prepared.signature.byteRange
        let digest = try DigestAlgorithm.sha256.hash(
            Array(file[range[0]..<(range[0] + range[1])] + file[range[2]..<(range[2] + range[3])]))
        let cms = try await Attack.signer().cms(for: digest, algorithm: .sha256)
        let signed = try ValidationTests.embed(cms, in: file, at: prepared.signature)
        let status = try Attack.expect(signed, verdict: .valid, level: ModificationLevel.none)
        #expect(status.claimedSigningTime?.seconds == Attack.signingTime.seconds)
        // After signing: the string rewritten, the signature dictionary untouched.
        var update = try HandUpdate(base: signed)
        update.write(time, .string(PDFString(text: PDFDate(seconds: 1_900_000_000).pdfString)))
        let changed = try Attack.expect(update.bytes(), verdict: .modified)
        #expect(changed.modifications?.disallowedChanges.contains { $0.object == time.number } == true)
        #expect(changed.claimedSigningTime?.seconds == Attack.signingTime.seconds)
        #expect(changed.problems.contains { $0.contains("signing time (/M) was rewritten") })
    }
}
