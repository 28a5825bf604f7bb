import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The incremental saving attack (Mladenov et al., "1 Trillion Dollar Refund", CCS 2019, §4.1):
/// content appended after a signature, as a proper update or as bytes some readers repair.
@Suite("Incremental saving attack: content added after a signature is found, however it is appended")
struct IncrementalSavingAttackTests {
    /// The evil content stream.
    static let evil = PDFObject.stream(PDFStream(data: Array(AttackDocument.evilText.utf8), compress: true))

    @Test("a new content stream and the page pointing at it", arguments: HandUpdate.XRef.allCases)
    func newContent(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: xref == .table ? .table : .stream)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let content = update.add(Self.evil)
        var page = try #require(update.object(document.page).dictionaryValue)
        page[.contents] = .reference(content)
        update.write(document.page, .dictionary(page))
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("the signed content stream rewritten in place", arguments: HandUpdate.XRef.allCases)
    func contentRewritten(xref: HandUpdate.XRef) async throws {
        let document = AttackDocument.make(xref: xref == .table ? .table : .stream)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        update.write(document.content, Self.evil)
        try Attack.expect(update.bytes(xref: xref), verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
    }

    @Test("content on the second page, beside an allowed fill, is still found on page 2")
    func secondPage() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let second = try #require(update.object(document.secondPage).dictionaryValue)
        update.write(try #require(second[.contents]?.referenceValue), Self.evil)
        var name = try #require(update.object(document.fields["name"]!).dictionaryValue)
        name[.v] = .string(PDFString(text: "Mallory"))
        update.write(document.fields["name"]!, .dictionary(name))
        try Attack.expect(
            update.bytes(), verdict: .modified,
            changes: [.disallowed(.pageContent, page: 1), .allowed(.field, page: 0)])
    }

    @Test("objects appended after %%EOF without a cross-reference or trailer (readers that repair show them)")
    func withoutCrossReference() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var serializer = PDFSerializer()
        serializer.write(Self.evil)
        let appended =
            signed + Array("\(document.content.number) 0 obj\n".utf8) + serializer.output + Array("\nendobj\n".utf8)
        try Attack.expect(
            appended, verdict: .modified, changes: [.disallowed(.trailingBytes)],
            pyHanko: .says("NONE", because: Attack.trailingBytesIgnored))
    }

    @Test("objects and a trailer whose startxref names the signed cross-reference again")
    func trailerWithoutTable() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        let parsed = try PDFDocument(bytes: signed)
        let startxref = try #require(parsed.revisions.last?.startxref)
        var serializer = PDFSerializer()
        serializer.write(Self.evil)
        var trailer = PDFSerializer()
        trailer.write(.dictionary(parsed.trailer))
        let appended =
            signed + Array("\(document.content.number) 0 obj\n".utf8) + serializer.output
            + Array("\nendobj\ntrailer\n".utf8) + trailer.output + Array("\nstartxref\n\(startxref)\n%%EOF\n".utf8)
        try Attack.expect(
            appended, verdict: .modified, changes: [.disallowed(.trailingBytes)],
            pyHanko: .says("NONE", because: Attack.trailingBytesIgnored))
    }

    @Test("a complete update without /Prev, its table listing every object (the signed revision orphaned)")
    func updateWithoutPrev() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        update.write(document.content, Self.evil)
        let parsed = try PDFDocument(bytes: signed)
        for number in 1..<parsed.objectCount where number != document.content.number {
            if case .inFile(let offset, let generation)? = parsed.index[number] {
                update.point(number, at: offset, generation: generation)
            }
        }
        update.free(0, generation: 65535)
        update.prev = .some(nil)
        // The signed revision is no revision of the file as read: the signature covers no revision.
        let status = try Attack.expect(update.bytes(), verdict: .invalid)
        #expect(status.coverage < .entireRevision)
    }

    @Test("after two signatures, an attack in the third update concerns both")
    func afterTwoSignatures() async throws {
        let document = AttackDocument.make()
        let twice = try await Attack.sign(try await Attack.sign(document.bytes), field: "Signature2")
        var update = try HandUpdate(base: twice)
        update.write(document.content, Self.evil)
        let attacked = update.bytes()
        for field in ["Signature1", "Signature2"] {
            let status = try Attack.expect(
                attacked, field: field, verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
            #expect(status.modifications?.disallowedChanges.allSatisfy { $0.revision == 3 } == true)
        }
    }

    @Test("an attack between two signatures concerns the first, not the second, which signed it as it was")
    func betweenSignatures() async throws {
        let document = AttackDocument.make()
        var update = try HandUpdate(base: try await Attack.sign(document.bytes))
        update.write(document.content, Self.evil)
        let twice = try await Attack.sign(update.bytes(), field: "Signature2")
        try Attack.expect(twice, verdict: .modified, changes: [.disallowed(.pageContent, page: 0)])
        try Attack.expect(twice, field: "Signature2", verdict: .valid, level: ModificationLevel.none)
    }
}
