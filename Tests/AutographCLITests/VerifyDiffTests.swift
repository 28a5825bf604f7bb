import AutographJSON
import Foundation
import PDFCore
import PDFRendering
import PDFTestSupport
import Testing

@testable import AutographCLI

/// `autograph verify --diff DIR`: the pages changed since each signature, as images and JSON.
@Suite("autograph verify --diff")
struct VerifyDiffTests {
    /// The signed sample with an ink note on page 2 after the signature (revision 2): the file's path.
    static func inkedAfterSigning(in directory: String) async throws -> String {
        let signed = try await SignedSample.write(in: directory)
        try Data("[[[100, 100], [150, 160], [200, 120]]]".utf8)
            .write(to: URL(fileURLWithPath: directory + "/strokes.json"))
        let inked = directory + "/inked.pdf"
        let result = await autograph(
            "ink", signed, "-o", inked, "--page", "2", "--strokes", directory + "/strokes.json", "--width", "2.5")
        try #require(result.code == .success, "\(result.errors)")
        return inked
    }

    static func json(_ path: String) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func files(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test("an ink note after signing: the page's PNGs and diff.json with a region around the note")
    func inkAfterSigning() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-diff-ink")
        let inked = try await Self.inkedAfterSigning(in: directory)
        let plain = await autograph("verify", inked, "--trust", SignedSample.root)
        let output = directory + "/diff"
        let result = await autograph("verify", inked, "--trust", SignedSample.root, "--diff", output)
        #expect(result.code == plain.code && result.output == plain.output, "\(result.errors)")
        #expect(
            result.errors
                == "signature 1 of 1, field 'Signature1': signs revision 1 (the last is 2); 1 of 3 pages changed since\n"
        )
        #expect(
            try Self.files(in: output) == [
                "diff.json", "sig1-page2-current.png", "sig1-page2-diff.png", "sig1-page2-signed.png",
            ])

        let entries = try #require(try Self.json(output + "/diff.json").arrayValue)
        try #require(entries.count == 1)
        #expect(entries[0]["signature"] == .int(1) && entries[0]["field"] == .string("Signature1"))
        #expect(entries[0]["revision"] == .int(1))
        let pages = try #require(entries[0]["pages"]?.arrayValue)
        try #require(pages.count == 1)
        let page = pages[0]
        // The second page: sig1-page2-… for people, "page": 1 in JSON (from 0).
        #expect(page["page"] == .int(1) && page["signedPage"] == .bool(true) && page["currentPage"] == .bool(true))
        let share = try #require(page["changedShare"]?.doubleValue)
        #expect(share > 0 && share < 0.01)
        #expect(
            page["images"]
                == .object([
                    ("signed", .string("sig1-page2-signed.png")), ("current", .string("sig1-page2-current.png")),
                    ("diff", .string("sig1-page2-diff.png")),
                ]))
        // The stroke's points span x 100 … 200 and y 100 … 160 in user space; the sample's pages are A4.
        let regions = try #require(page["regions"]?.arrayValue)
        let boxes = regions.compactMap { region -> (x: Double, y: Double, width: Double, height: Double)? in
            guard let x = region["x"]?.doubleValue, let y = region["y"]?.doubleValue,
                let width = region["width"]?.doubleValue, let height = region["height"]?.doubleValue
            else { return nil }
            return (x, y, width, height)
        }
        #expect(boxes.count == 1, "\(regions)")
        let box = try #require(boxes.first)
        #expect(box.x <= 100 && box.y <= 100 && box.x + box.width >= 200 && box.y + box.height >= 160, "\(box)")
        #expect(box.width * box.height < 0.05 * 595 * 842, "not the whole page: \(box)")

        // The images: the signed page is revision 1's, the current one today's, the picture marks the stroke.
        let signed = try SignedSample.png(output + "/sig1-page2-signed.png")
        let current = try SignedSample.png(output + "/sig1-page2-current.png")
        let picture = try SignedSample.png(output + "/sig1-page2-diff.png")
        #expect((signed.width, signed.height) == (595, 842) && (picture.width, picture.height) == (595, 842))
        let before = try PDFDocument(contentsOfFile: inked).document(asOfRevision: 1)
        #expect(signed.rgba == DocumentRenderer(document: before).render(pageAt: 1).image.rgba)
        #expect(signed.rgba != current.rgba)
        // The stroke passes through (150, 160): about 682 pixels from the top at 72 dpi, drawn red.
        #expect((676...688).contains { y in picture.pixel(150, y) == (230, 0, 0, 255) })
        #expect(picture.pixel(400, 400) == (255, 255, 255, 255))
    }

    @Test("one page rule: the note drawn with --page 2 is page 1 in verify --json and diff.json, page 2 in the text")
    func pagesCountFromZeroInJSON() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-diff-pages")
        let inked = try await Self.inkedAfterSigning(in: directory)
        let output = directory + "/diff"
        let result = await autograph("verify", inked, "--json", "--diff", output)
        let statuses = try #require(try JSONValue.parse(Array(result.output.utf8)).arrayValue)
        let changes = try #require(statuses.first?["changes"]?.arrayValue)
        let note = try #require(changes.first { $0["kind"]?.stringValue == "annotation" }, "\(changes)")
        #expect(note["page"] == .int(1), "\(note)")
        #expect(note["reason"]?.stringValue?.contains("page 2") == true, "\(note)")
        let pages = try #require(try Self.json(output + "/diff.json").arrayValue?.first?["pages"]?.arrayValue)
        #expect(pages.map { $0["page"] } == [.int(1)])
        #expect(await autograph("verify", inked).output.contains("page 2"))
    }

    @Test("a document signed in its last revision: nothing drawn, no page written")
    func untouched() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-diff-untouched")
        let signed = try await SignedSample.write(in: directory)
        let output = directory + "/diff"
        // One validation time for both runs: without a time-stamp the report gives the time of the
        // check, which a second boundary between the runs would change.
        let at = ISO8601DateFormatter().string(from: Date())
        let plain = await autograph("verify", signed, "--json", "--at", at)
        let result = await autograph("verify", signed, "--json", "--at", at, "--diff", output, "--diff-dpi", "150")
        #expect(result.code == plain.code && result.output == plain.output)
        #expect(result.errors.contains("revision 1 is the last; nothing to compare"), "\(result.errors)")
        #expect(try Self.files(in: output) == ["diff.json"])
        #expect(
            try Self.json(output + "/diff.json")
                == .array([
                    .object([
                        ("signature", .int(1)), ("field", .string("Signature1")), ("revision", .int(1)),
                        ("pages", .array([])),
                    ])
                ]))
    }

    @Test("a page added after signing is changed everywhere, with no signed image")
    func pageAdded() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-diff-added")
        let signed = try await SignedSample.write(in: directory)
        let document = try PDFDocument(contentsOfFile: signed)
        guard case .reference(let pagesReference)? = document.catalog?[.pages],
            var tree = document.resolve(.reference(pagesReference)).dictionaryValue
        else {
            Issue.record("the sample has no page tree")
            return
        }
        var update = IncrementalUpdate(base: document)
        let content = update.add(.stream(PDFStream(data: Array("0 0 1 rg 100 100 200 50 re f".utf8), compress: false)))
        let page = update.add(
            .dictionary([
                .type: .name(.page), .parent: .reference(pagesReference),
                .mediaBox: PDFRectangle(x0: 0, y0: 0, x1: 300, y1: 400).object, .contents: .reference(content),
            ]))
        tree[.kids] = .array((tree[.kids]?.arrayValue ?? []) + [.reference(page)])
        tree[.count] = .integer(document.pageCount + 1)
        update.replace(pagesReference, with: .dictionary(tree))
        let added = directory + "/added.pdf"
        try update.write(to: added)

        let output = directory + "/diff"
        let result = await autograph("verify", added, "--diff", output)
        #expect(result.code == .failure, "a page added after signing: modified, as without --diff")
        #expect(try Self.files(in: output) == ["diff.json", "sig1-page4-current.png", "sig1-page4-diff.png"])
        let pages = try #require(try Self.json(output + "/diff.json").arrayValue?.first?["pages"]?.arrayValue)
        try #require(pages.count == 1)
        #expect(pages[0]["page"] == .int(3) && pages[0]["signedPage"] == .bool(false))
        #expect(pages[0]["currentPage"] == .bool(true) && pages[0]["changedShare"] == .double(1))
        #expect(pages[0]["images"]?["signed"] == .null)
        #expect(
            pages[0]["regions"]
                == .array([.object([("x", .int(0)), ("y", .int(0)), ("width", .int(300)), ("height", .int(400))])]))
    }

    @Test("a file for DIR and a --diff-dpi out of range are usage errors; a missing DIR is made")
    func diffOptions() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-diff-options")
        let signed = try await SignedSample.write(in: directory)
        let file = directory + "/afile"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let refused = await autograph("verify", signed, "--diff", file)
        #expect(refused.code == .usage && refused.errors.contains("is a file"), "\(refused.errors)")
        #expect(refused.output.isEmpty)
        for dpi in ["0", "601", "x", "nan"] {
            #expect(await autograph("verify", signed, "--diff", directory + "/d", "--diff-dpi", dpi).code == .usage)
        }
        #expect(await autograph("verify", signed, "--diff-dpi", "100").code == .usage)
        let nested = directory + "/new/nested"
        _ = await autograph("verify", signed, "--diff", nested)
        #expect(FileManager.default.fileExists(atPath: nested + "/diff.json"))
    }
}
