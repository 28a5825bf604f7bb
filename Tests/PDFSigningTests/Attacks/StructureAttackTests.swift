import Foundation
import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Tricks of the file structure (Mladenov et al. 2019; Mainka et al. 2021; Rohlmann et al. 2021):
/// cross-reference entries that free, re-generate or re-point objects, `/Prev` chains that loop or
/// skip, two sections in one revision, hybrid files whose table and stream disagree, and streams
/// typed as containers to slip past the comparison.
@Suite("File structure tricks in the update after a signature")
struct StructureAttackTests {
    static func signed(_ xref: HandUpdate.XRef = .table) async throws -> (AttackDocument, [UInt8]) {
        let document = AttackDocument.make(xref: xref == .table ? .table : .stream)
        return (document, try await Attack.sign(document.bytes))
    }

    @Test("the page's content stream freed while the page still draws it", arguments: HandUpdate.XRef.allCases)
    func freedInUse(xref: HandUpdate.XRef) async throws {
        let (document, signed) = try await Self.signed(xref)
        var update = try HandUpdate(base: signed)
        update.free(document.content.number)
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("an object nothing uses freed: bookkeeping")
    func freedUnused() async throws {
        let document = AttackDocument.make(shadows: true)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        update.free(try #require(document.shadowContent).number)
        try Attack.expect(
            update.bytes(), verdict: .valid, level: ModificationLevel.none,
            pyHanko: .says(
                "OTHER",
                because: "pyHanko's policy permits no object to be freed; ISO 32000-2 §7.5.4 does, and nothing "
                    + "shown changes when an object nothing uses is freed"))
    }

    @Test(
        "the content rewritten with generation 1 (the page still names generation 0)",
        arguments: HandUpdate.XRef.allCases)
    func generation(xref: HandUpdate.XRef) async throws {
        let (document, signed) = try await Self.signed(xref)
        var update = try HandUpdate(base: signed)
        update.write(PDFReference(document.content.number, 1), ShadowAttackTests.evil)
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("an update that only repeats the signed offsets changes nothing", arguments: HandUpdate.XRef.allCases)
    func sameOffsets(xref: HandUpdate.XRef) async throws {
        let (document, signed) = try await Self.signed(xref)
        var update = try HandUpdate(base: signed)
        let parsed = try PDFDocument(bytes: signed)
        for reference in [document.page, document.content, document.font] {
            guard case .inFile(let offset, let generation)? = parsed.index[reference.number] else { continue }
            update.point(reference.number, at: offset, generation: generation)
        }
        try Attack.expect(update.bytes(xref: xref), verdict: .valid, level: ModificationLevel.none)
    }

    @Test("the content pointed at bytes that are no object")
    func pointedAtGarbage() async throws {
        let (document, signed) = try await Self.signed()
        var update = try HandUpdate(base: signed)
        update.point(document.content.number, at: 3)
        // Our reader finds the object by scanning; others give up: the entry itself is the change.
        try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.structure)])
    }

    @Test("a stream typed /ObjStm written over the page's content stream is compared like any object")
    func objectStreamOverContent() async throws {
        let (document, signed) = try await Self.signed(.stream)
        var update = try HandUpdate(base: signed)
        // An object stream whose objects part is content: 0 objects, then operators a reader draws.
        let data = Array("\(AttackDocument.evilText)".utf8)
        update.write(
            document.content,
            .stream(
                PDFStream(
                    dictionary: [.type: .name("ObjStm"), PDFName("N"): 0, PDFName("First"): 0], data: data,
                    compress: true)))
        try Attack.expect(
            update.bytes(xref: .stream), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("the update's cross-reference stream numbered as the page's content stream")
    func xrefStreamOverContent() async throws {
        let (document, signed) = try await Self.signed(.stream)
        let update = try HandUpdate(base: signed)
        let parsed = update.document
        var trailer = PDFDictionary()
        for key in [PDFName.root, .info, .id] { trailer[key] = parsed.trailer[key] }
        trailer[.size] = .integer(parsed.objectCount)
        trailer[.prev] = .integer(try #require(parsed.revisions.last?.startxref))
        let offset = update.position
        let stream = HandUpdate.xrefStream([:], number: document.content.number, offset: offset, dictionary: trailer)
        let attacked = signed + stream + Array("startxref\n\(offset)\n%%EOF\n".utf8)
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test(
        "/Prev pointing at the update's own section (a loop) ends, and is reported", arguments: HandUpdate.XRef.allCases
    )
    func prevLoop(xref: HandUpdate.XRef) async throws {
        let (document, signed) = try await Self.signed(xref)
        var update = try HandUpdate(base: signed)
        update.write(document.content, ShadowAttackTests.evil)
        update.prev = .some(update.position)
        let attacked = update.bytes(xref: xref)
        let statuses = try Attack.validate(attacked)
        for status in statuses {
            #expect(!status.isValidAsShown, "\(Attack.describe(status))")
            try Attack.compare(attacked, status: status, pyHanko: .agrees, sourceLocation: #_sourceLocation)
        }
    }

    @Test("/Prev pointing into the middle of the signed revision")
    func prevElsewhere() async throws {
        let (document, signed) = try await Self.signed()
        var update = try HandUpdate(base: signed)
        update.write(document.content, ShadowAttackTests.evil)
        update.prev = .some(100)
        let attacked = update.bytes()
        let statuses = try Attack.validate(attacked)
        for status in statuses {
            #expect(!status.isValidAsShown, "\(Attack.describe(status))")
            try Attack.compare(attacked, status: status, pyHanko: .agrees, sourceLocation: #_sourceLocation)
        }
    }

    @Test("two cross-reference sections and one %%EOF in the update")
    func twoSections() async throws {
        let (document, signed) = try await Self.signed()
        var first = try HandUpdate(base: signed)
        var info = try #require(first.document.info)
        info[PDFName("Producer")] = .string(PDFString(text: "x"))
        first.write(try #require(first.document.trailer.reference(.info)), .dictionary(info))
        var bytes = first.bytes()
        // Drop the first section's %%EOF, then append a second section.
        let eof = try #require(Attack.lastOffset(of: "%%EOF", in: bytes))
        bytes.removeSubrange(eof..<bytes.count)
        let startxref = try #require(Attack.lastOffset(of: "startxref", in: bytes))
        let sectionOffset = Int(
            String(decoding: bytes[(startxref + 9)...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        bytes.removeSubrange(startxref..<bytes.count)
        var serializer = PDFSerializer()
        serializer.write(ShadowAttackTests.evil)
        let contentOffset = bytes.count
        bytes += Array("\(document.content.number) 0 obj\n".utf8) + serializer.output + Array("\nendobj\n".utf8)
        var trailer = PDFDictionary()
        for key in [PDFName.root, .info, .id] { trailer[key] = first.document.trailer[key] }
        trailer[.size] = .integer(first.document.objectCount)
        trailer[.prev] = .integer(try #require(sectionOffset))
        bytes += HandUpdate.table(
            [document.content.number: .inFile(offset: contentOffset, generation: 0)], trailer: trailer, at: bytes.count)
        try Attack.expect(
            bytes, verdict: .modified, changes: [.disallowed(.structure), .disallowed(.pageContent, page: 0)])
    }

    @Test("a hybrid update whose table and cross-reference stream give the content two places")
    func hybridConflict() async throws {
        let (document, signed) = try await Self.signed()
        var update = try HandUpdate(base: signed)
        let parsed = update.document
        guard case .inFile(let signedOffset, _)? = parsed.index[document.content.number] else {
            Issue.record("the content is not in the file")
            return
        }
        // Readers that ignore /XRefStm see the signed content; the others the new one.
        update.point(document.content.number, at: signedOffset)
        let evilOffset = update.position
        update.appendRaw("\(document.content.number) 0 obj\n")
        var serializer = PDFSerializer()
        serializer.write(ShadowAttackTests.evil)
        update.appendRaw(serializer.output)
        update.appendRaw("\nendobj\n")
        update.streamOnlyEntries[document.content.number] = .inFile(offset: evilOffset, generation: 0)
        try Attack.expect(
            update.hybridBytes(), verdict: .modified, changes: [.disallowed(.structure)],
            pyHanko: .says("REJECTED", because: "pyHanko refuses to validate signatures in hybrid files"))
    }

    @Test("a cross-reference table that lists the content twice, in use then free")
    func duplicateEntries() async throws {
        let (document, signed) = try await Self.signed()
        let parsed = try PDFDocument(bytes: signed)
        guard case .inFile(let offset, _)? = parsed.index[document.content.number] else {
            Issue.record("the content is not in the file")
            return
        }
        let number = document.content.number
        var trailer = PDFDictionary()
        for key in [PDFName.root, .info, .id] { trailer[key] = parsed.trailer[key] }
        trailer[.size] = .integer(parsed.objectCount)
        trailer[.prev] = .integer(try #require(parsed.revisions.last?.startxref))
        var serializer = PDFSerializer()
        serializer.write(.dictionary(trailer))
        let table =
            "xref\n\(number) 1\n\(HandUpdate.pad(offset, 10)) 00000 n \n\(number) 1\n0000000000 00001 f \ntrailer\n"
        let xrefOffset = signed.count
        let attacked =
            signed + Array(table.utf8) + serializer.output + Array("\nstartxref\n\(xrefOffset)\n%%EOF\n".utf8)
        // Readers take either entry (ours the first, pyHanko the last: the content freed).
        try Attack.expect(attacked, verdict: .modified, changes: [.disallowed(.structure)])
    }
}
