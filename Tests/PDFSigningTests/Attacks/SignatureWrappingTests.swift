import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Signature wrapping (Mladenov et al., CCS 2019, §4.3): the signed bytes after `/Contents` are
/// moved to the end of the file and the attacker's objects put where they were, with a second
/// `/ByteRange` after `/Contents` (or the first rewritten) naming the moved bytes, so the digest
/// still matches. The gap between the ranges is then more than the `/Contents` string.
@Suite("Signature wrapping: the signed bytes moved and a new /ByteRange are never valid")
struct SignatureWrappingTests {
    /// The wrapped file: `signed` up to the end of `/Contents`, then `/ByteRange` (when `duplicate`)
    /// closing the dictionary, the attacker's content stream as object `content`, then the signed
    /// second range moved, and a cross-reference pointing at the moved objects and the new content.
    static func wrap(_ signed: [UInt8], content: PDFReference, duplicate: Bool) throws -> [UInt8] {
        let document = try PDFDocument(bytes: signed)
        let status = try #require(try Attack.validate(signed).first)
        let range = status.byteRange
        try #require(range.count == 4)
        let (a, b, c) = (range[1], range[2], range[3])
        var serializer = PDFSerializer()
        serializer.write(.stream(PDFStream(data: Array(AttackDocument.evilText.utf8), compress: false)))
        // The dictionary is closed after /Contents; the rest of its signed text follows later, moved.
        var injected: [UInt8] = []
        let movedStart = b + 600
        let rangeText = "/ByteRange [0 \(a) \(movedStart) \(c)]"
        injected += Array((duplicate ? rangeText : "").utf8) + Array(">>\nendobj\n".utf8)
        let contentOffset = b + injected.count
        injected += Array("\(content.number) 0 obj\n".utf8) + serializer.output + Array("\nendobj\n%".utf8)
        try #require(injected.count <= movedStart - b)
        injected += [UInt8](repeating: UInt8(ascii: " "), count: movedStart - b - injected.count - 1) + [0x0A]
        var file = Array(signed[0..<b]) + injected + Array(signed[b...])
        if !duplicate {
            // The first /ByteRange rewritten in place (the same width: the signed bytes change).
            let start = try #require(Attack.lastOffset(of: "/ByteRange", in: Array(file[0..<a])))
            let close = try #require(file[start...].firstIndex(of: UInt8(ascii: "]")))
            let text = Array("/ByteRange [0 \(a) \(movedStart) \(c)]".utf8)
            try #require(text.count <= close + 1 - start)
            file.replaceSubrange(
                start...close, with: text + [UInt8](repeating: 0x20, count: close + 1 - start - text.count))
        }
        // A cross-reference for the objects of the signing update, moved by the injection, and the new content.
        let shift = movedStart - b
        let signing = try #require(document.revisions.last)
        var entries: [Int: XRefEntry] = [content.number: .inFile(offset: contentOffset, generation: 0)]
        for section in signing.sections {
            for (number, entry) in zip(section.numbers, section.entries) where entries[number] == nil {
                guard case .inFile(let offset, let generation) = entry else { continue }
                entries[number] = .inFile(offset: offset >= b ? offset + shift : offset, generation: generation)
            }
        }
        var trailer = PDFDictionary()
        for key in [PDFName.root, .info, .id] { trailer[key] = document.trailer[key] }
        trailer[.size] = .integer(document.objectCount)
        trailer[.prev] = .integer(try #require(document.revisions.dropLast().last?.startxref))
        return file + HandUpdate.table(entries, trailer: trailer, at: file.count)
    }

    @Test(
        "the second range moved and a new /ByteRange after /Contents, or the first rewritten",
        arguments: [true, false])
    func wrapping(duplicate: Bool) async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        let wrapped = try Self.wrap(signed, content: document.content, duplicate: duplicate)
        let statuses = try Attack.validate(wrapped)
        #expect(statuses.count == 1)
        for status in statuses {
            #expect(status.verdict == .invalid, "\(Attack.describe(status))")
            try Attack.compare(wrapped, status: status, pyHanko: .agrees, sourceLocation: #_sourceLocation)
        }
    }
}
