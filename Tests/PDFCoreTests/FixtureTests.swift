import PDFTestSupport
import Testing

@testable import PDFCore

/// The committed fixtures (Tests/Fixtures/pdf, made by scripts/make-fixtures) read as expected.
@Suite("Fixtures")
struct FixtureTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var name: String
        var password: String? = nil
        var forms: [XRefSection.Form]
        var revisions: Int = 1
        var encryption: String? = nil
        var damaged = false
        var description: String { name }
    }

    static let expectations: [Expectation] = [
        Expectation(name: "sample-table.pdf", forms: [.table]),
        Expectation(name: "sample-xref-stream.pdf", forms: [.stream]),
        Expectation(name: "sample-object-streams.pdf", forms: [.stream]),
        Expectation(name: "sample-incremental.pdf", forms: [.table, .table], revisions: 2),
        Expectation(name: "sample-linearized.pdf", forms: [.table]),
        Expectation(name: "encrypted-rc4-40.pdf", password: "user", forms: [.table], encryption: "RC4"),
        Expectation(name: "encrypted-aes-128.pdf", password: "owner", forms: [.table], encryption: "AES-128"),
        Expectation(name: "encrypted-aes-256-empty-user.pdf", forms: [.table], encryption: "AES-256"),
        Expectation(name: "damaged-startxref.pdf", forms: [.recovered], damaged: true),
        Expectation(name: "damaged-no-xref.pdf", forms: [.recovered], damaged: true),
    ]

    @Test(
        "each fixture opens with its three pages, form of cross-reference, revisions and encryption",
        arguments: expectations)
    func fixture(_ expected: Expectation) throws {
        let path = TestPaths.fixture("pdf", expected.name)
        let document = try PDFDocument(contentsOfFile: path, options: ParseOptions(password: expected.password))
        #expect(document.pageCount == 3)
        #expect(document.revisions.map(\.form) == expected.forms)
        #expect(document.revisions.count == expected.revisions)
        #expect(document.encryption?.streamMethod == expected.encryption)
        #expect(document.isDamaged == expected.damaged, "\(document.warnings)")
        #expect(document.revisions.last?.endOffset == document.fileSize)
        let page = document.pages[2]
        let content = try #require(document.resolve(page.dictionary[.contents] ?? .null).streamValue)
        #expect(String(decoding: try content.decodedData(), as: UTF8.self).contains("page 3 of 3"))
    }
}
