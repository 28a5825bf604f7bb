import PDFAuthoring
import PDFTestSupport
import Testing

@testable import PDFCore

@Suite("Reading damaged files: repaired with warnings, never a crash")
struct RecoveryTests {
    static let valid = TestDocuments.simple(pages: 2)

    /// `valid` with `replacement` in place of the first occurrence of `target`.
    static func damaged(_ target: String, _ replacement: String, in bytes: [UInt8] = valid) -> [UInt8] {
        let needle = Array(target.utf8)
        guard
            let start = (0...(bytes.count - needle.count)).first(where: {
                Array(bytes[$0..<($0 + needle.count)]) == needle
            })
        else { return bytes }
        return Array(bytes[..<start]) + Array(replacement.utf8) + Array(bytes[(start + needle.count)...])
    }

    @Test("a wrong startxref is repaired by rebuilding the index")
    func wrongStartxref() throws {
        let text = String(decoding: Self.valid, as: UTF8.self)
        let number = text.split(separator: "startxref\n")[1].split(separator: "\n")[0]
        let document = try PDFDocument(bytes: Self.damaged("startxref\n\(number)", "startxref\n17"))
        #expect(document.pageCount == 2)
        #expect(document.wasRecovered)
        #expect(document.warnings.contains { $0.code == .xrefRebuilt })
    }

    @Test("a file without startxref or cross-reference is rebuilt from its objects")
    func noXRef() throws {
        let text = String(decoding: Self.valid, as: UTF8.self)
        let cut = text.firstRange(of: "xref\n0 ")!.lowerBound
        let document = try PDFDocument(bytes: Array(text[..<cut].utf8))
        #expect(document.pageCount == 2)
        #expect(document.wasRecovered)
    }

    @Test("wrong offsets in the table are repaired object by object")
    func wrongOffsets() throws {
        // Shift every object by inserting bytes after the header: all offsets become wrong.
        let shifted = Self.damaged("%PDF-1.7\n", "%PDF-1.7\n% some inserted comment that moves every object\n")
        let document = try PDFDocument(bytes: shifted)
        #expect(document.pageCount == 2)
        #expect(!document.warnings.isEmpty)
    }

    @Test("junk before the header shifts offsets, as readers expect")
    func junkBeforeHeader() throws {
        let document = try PDFDocument(bytes: Array("garbage line\n".utf8) + Self.valid)
        #expect(document.headerOffset == 13)
        #expect(document.pageCount == 2)
    }

    @Test("a megabyte of %PDF- without a version before the header: searched once, then rebuilt from the objects")
    func manyFalseHeaders() throws {
        let junk = Array(String(repeating: "%PDF-x ", count: 160_000).utf8)
        let document = try PDFDocument(bytes: junk + Self.valid)
        #expect(document.pageCount == 2)
        // "%PDF-x" at the start is a header without a version: not one an update may extend.
        #expect(document.headerVersion.isEmpty)
        #expect(!document.startsWithHeader)
        // An update extends the same objects in a file that starts with its header.
        let normalized = try document.startingAtHeader()
        #expect(normalized.startsWithHeader && normalized.pageCount == 2)
    }

    @Test("a stream with a wrong /Length is read up to endstream")
    func wrongLength() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>")
        raw.object(4, "<< /Length 9999 >>\nstream\nBT ET\nendstream")
        raw.xrefTable(size: 5, trailer: "<< /Size 5 /Root 1 0 R >>")
        let document = try PDFDocument(bytes: raw.bytes)
        let stream = try #require(document.object(PDFReference(4)).streamValue)
        #expect(try stream.decodedData() == Array("BT ET".utf8))
        #expect(document.damagedObjects.contains(PDFReference(4)))
    }

    @Test("strict mode turns repairs into errors")
    func strict() throws {
        var options = ParseOptions()
        options.strict = true
        #expect(throws: PDFError(.damaged, "")) {
            try PDFDocument(bytes: Self.damaged("startxref\n", "startxref\n1"), options: options)
        }
    }

    @Test("bytes that are not a PDF are refused with notAPDF (signo -120)")
    func notAPDF() throws {
        do {
            _ = try PDFDocument(bytes: Array("hello, world".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notAPDF)
            #expect(error.signoCode == -120)
        }
        #expect(throws: PDFError(.fileUnreadable, "")) { try PDFDocument(contentsOfFile: "/nonexistent/file.pdf") }
    }

    @Test("a decompression bomb stops at the decoded size limit")
    func decompressionBomb() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        raw.stream(3, dictionary: "/Filter /FlateDecode", data: Flate.compress([UInt8](repeating: 0, count: 64 << 20)))
        raw.xrefTable(size: 4, trailer: "<< /Size 4 /Root 1 0 R >>")
        var options = ParseOptions()
        options.maxDecodedStreamSize = 1 << 20
        let document = try PDFDocument(bytes: raw.bytes, options: options)
        let stream = try #require(document.object(PDFReference(3)).streamValue)
        #expect(throws: PDFError(.limitExceeded, "")) { try stream.decodedData() }
    }

    @Test("deep nesting is an error for that object, not a stack overflow")
    func deepNesting() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R /Deep 3 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        raw.object(3, String(repeating: "[", count: 100_000))
        raw.xrefTable(size: 4, trailer: "<< /Size 4 /Root 1 0 R >>")
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.object(PDFReference(3)) == .null)
    }

    @Test("a stream whose /Filter names itself does not recurse forever (found by the fuzzer)")
    func selfReferencingFilter() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R /S 3 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        raw.stream(3, dictionary: "/Filter 3 0 R /DecodeParms 3 0 R", data: Array("abc".utf8))
        raw.xrefTable(size: 4, trailer: "<< /Size 4 /Root 1 0 R >>")
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.object(PDFReference(3)).streamValue != nil)
    }

    @Test("a huge declared object count does not allocate for it")
    func hugeSize() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        let offset = raw.position
        raw.append(
            "xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \n999999999 1\n0000000000 00000 f \n"
        )
        raw.append("trailer\n<< /Size 2000000000 /Root 1 0 R >>\nstartxref\n\(offset)\n%%EOF\n")
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.pageCount == 0)
    }

    @Test(
        "every prefix of a valid file opens or throws (truncation sweep)",
        arguments: [PDFBuilder.XRefForm.table, .stream])
    func truncationSweep(form: PDFBuilder.XRefForm) throws {
        let bytes = TestDocuments.simple(pages: 2, xref: form)
        // Every object the pages need ends with the catalog (the builder writes it after the pages).
        let text = String(decoding: bytes, as: UTF8.self)
        let catalog = try #require(text.firstRange(of: "/Catalog"))
        let complete = try #require(text[catalog.upperBound...].firstRange(of: "endobj")).upperBound.utf16Offset(
            in: text)
        for length in 0...bytes.count {
            let document = try? PDFDocument(bytes: bytes[0..<length])
            if let document {
                for reference in document.objectReferences {
                    if let stream = document.object(reference).streamValue { _ = try? stream.decodedData() }
                }
            }
            if length >= complete {
                #expect(document?.pageCount == 2, "prefix of \(length) bytes")
            }
        }
    }

    @Test(
        "every prefix of real files opens or throws", .enabled(if: Requirement.corpus, "the corpus is absent"),
        arguments: ["pyhanko/minimal.pdf", "qpdf/object-types.pdf", "pdfjs/issue8088.pdf"])
    func corpusTruncationSweep(name: String) throws {
        let corpus = try #require(TestPaths.corpus)
        let document = try PDFDocument(contentsOfFile: "\(corpus)/\(name)")
        let bytes = document.withBytes { Array($0) }
        let step = max(1, bytes.count / 1500)
        for length in stride(from: 0, through: bytes.count, by: step) {
            if let truncated = try? PDFDocument(bytes: bytes[0..<length]) {
                _ = truncated.pageCount
                _ = truncated.resolveAllObjects()
            }
        }
    }
}
