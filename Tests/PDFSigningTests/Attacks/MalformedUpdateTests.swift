import Foundation
import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Malformed updates after a signature: damaged byte by byte, cut anywhere, nested without end,
/// looping, or made of random objects. The validator must return statuses (never crash or hang)
/// with bounded work, and never call the evil content valid.
@Suite("Malformed updates after a signature: statuses, never a crash or a hang")
struct MalformedUpdateTests {
    /// A signed document and an attack update after it (content, font and an annotation written).
    static func attacked(_ xref: HandUpdate.XRef) async throws -> (signed: [UInt8], attacked: [UInt8]) {
        let document = AttackDocument.make(xref: xref == .table ? .table : .stream)
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        update.write(document.content, ShadowAttackTests.evil)
        var font = try #require(update.object(document.font).dictionaryValue)
        font[PDFName("BaseFont")] = .name("Courier")
        if xref == .stream {
            update.objectStream([(document.font, .dictionary(font))])
        } else {
            update.write(document.font, .dictionary(font))
        }
        let stamp = update.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Stamp"),
                PDFName("Rect"): PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 10).object,
            ]))
        ShadowAttackTests.appendAnnotation(stamp, to: document.page, in: &update)
        return (signed, update.bytes(xref: xref))
    }

    /// Validates `bytes` when they open; the statuses, or nil.
    static func validate(_ bytes: [UInt8], roots: [Certificate]) -> [SignatureStatus]? {
        guard let document = try? PDFDocument(bytes: bytes) else { return nil }
        return SignatureValidator(document: document, trustRoots: roots).validate()
    }

    static func roots() throws -> [Certificate] {
        Certificate.certificates(pem: Array(try Data(contentsOf: URL(fileURLWithPath: Attack.root))))
    }

    @Test(
        "every byte of the attack update damaged, and every cut of it: never valid as shown",
        arguments: HandUpdate.XRef.allCases)
    func damageSweep(xref: HandUpdate.XRef) async throws {
        let (signed, attacked) = try await Self.attacked(xref)
        let roots = try Self.roots()
        let start = ContinuousClock.now
        var validated = 0
        for position in stride(from: signed.count, to: attacked.count, by: 5) {
            for replacement in "0(]<".utf8 where attacked[position] != replacement {
                var copy = attacked
                copy[position] = replacement
                guard let statuses = Self.validate(copy, roots: roots) else { continue }
                validated += 1
                for status in statuses where status.fieldName == "Signature1" {
                    // A damaged byte can make the update unreadable, never the evil content allowed.
                    #expect(!status.isValidAsShown, "byte \(position): \(Attack.describe(status))")
                    if status.isValidAsShown,
                        let directory = ProcessInfo.processInfo.environment["AUTOGRAPH_ATTACK_DUMP"]
                    {
                        try Data(copy).write(to: URL(fileURLWithPath: "\(directory)/damaged-\(xref)-\(position).pdf"))
                    }
                }
            }
        }
        for length in stride(from: signed.count, to: attacked.count, by: 3) {
            if let statuses = Self.validate(Array(attacked.prefix(length)), roots: roots) {
                validated += 1
                for status in statuses where status.fieldName == "Signature1" && length > signed.count {
                    #expect(!status.isValidAsShown, "cut at \(length): \(Attack.describe(status))")
                }
            }
        }
        #expect(validated > 0)
        print("damage sweep (\(xref)): \(validated) files validated in \(ContinuousClock.now - start)")
    }

    @Test("objects nested 100 000 deep, a page tree whose /Kids loop, an /Annots of 100 000 entries")
    func hostileShapes() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        var update = try HandUpdate(base: signed)
        let deep = update.reserve()
        update.writeRaw(
            deep,
            Array(String(repeating: "[", count: 100_000).utf8) + Array(String(repeating: "]", count: 100_000).utf8))
        let pages = try #require(update.document.catalog?[.pages]?.referenceValue)
        var tree = try #require(update.object(pages).dictionaryValue)
        tree[.kids] = [.reference(document.page), .reference(pages), .reference(document.secondPage)]
        update.write(pages, .dictionary(tree))
        var page = try #require(update.object(document.page).dictionaryValue)
        page[.annots] = .array(Array(repeating: .reference(deep), count: 100_000) + [.reference(document.note)])
        page[PDFName("Deep")] = .reference(deep)
        update.write(document.page, .dictionary(page))
        let start = ContinuousClock.now
        let statuses = try Attack.validate(update.bytes())
        // A guard against a walk without end, not a speed target.
        #expect(ContinuousClock.now - start < .seconds(180))
        for status in statuses where status.fieldName == "Signature1" {
            #expect(status.verdict == .modified, "\(Attack.describe(status))")
        }
    }

    @Test("updates of random objects at random numbers (seeded): statuses, and no change unreported")
    func randomUpdates() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        let roots = try Self.roots()
        let size = try PDFDocument(bytes: signed).objectCount
        var random = SplitMix64(state: 0x5EED_A77A_C4)
        func object(_ depth: Int) -> PDFObject {
            switch random.next() % (depth > 2 ? 4 : 7) {
            case 0: return .integer(Int(random.next() % 1000))
            case 1:
                return .name(
                    PDFName(["Type", "Annots", "Contents", "V", "AP", "Kids", "Font"].randomElement(using: &random)!))
            case 2: return .reference(PDFReference(Int(random.next() % UInt64(size + 3)), 0))
            case 3: return .string(PDFString(text: "x"))
            case 4: return .array((0..<Int(random.next() % 4)).map { _ in object(depth + 1) })
            case 5:
                var dictionary = PDFDictionary()
                for key in ["Type", "Subtype", "Annots", "Contents", "V", "AP", "N", "Kids", "Fields", "Rect"]
                where random.next() % 3 == 0 {
                    dictionary[PDFName(key)] = object(depth + 1)
                }
                return .dictionary(dictionary)
            default: return .stream(PDFStream(data: Array("0 g".utf8), compress: random.next() % 2 == 0))
            }
        }
        for round in 0..<60 {
            var update = try HandUpdate(base: signed)
            var written: [Int] = []
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let number = 1 + Int(random.next() % UInt64(size + 2))
                written.append(number)
                update.write(PDFReference(number, 0), object(0))
            }
            let xref: HandUpdate.XRef = round % 2 == 0 ? .table : .stream
            guard let statuses = Self.validate(update.bytes(xref: xref), roots: roots) else { continue }
            let before = try PDFDocument(bytes: signed)
            let after = try PDFDocument(bytes: update.bytes(xref: xref))
            let visible = written.contains { number in
                let reference = PDFReference(number, 0)
                return !ObjectComparison.same(before.object(reference), in: before, after.object(reference), in: after)
                    && RevisionComparison.reference(number, in: before) != nil
            }
            for status in statuses where status.fieldName == "Signature1" && visible {
                // Something the signed revision had was rewritten: it is reported, allowed or not.
                #expect(status.modifications?.changes.isEmpty == false, "round \(round): \(Attack.describe(status))")
            }
        }
    }
}
