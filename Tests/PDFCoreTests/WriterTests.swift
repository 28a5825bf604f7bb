import PDFAuthoring
import PDFTestSupport
import Testing

@testable import PDFCore

@Suite("Writing: incremental updates and full rewrites, checked by qpdf")
struct WriterTests {
    static func check(_ bytes: [UInt8], password: String? = nil) throws -> (path: String, check: Oracle.Result) {
        let path = try TestPaths.temporaryDirectory("writer") + "/out.pdf"
        try writeFile(path, bytes)
        return (path, try Oracle.qpdfCheck(path, password: password))
    }

    @Test(
        "an incremental update keeps the original bytes and its cross-reference form",
        arguments: [PDFBuilder.XRefForm.table, .stream])
    func incrementalKeepsBytes(form: PDFBuilder.XRefForm) throws {
        let original = TestDocuments.simple(pages: 2, xref: form)
        let base = try PDFDocument(bytes: original)
        var update = IncrementalUpdate(base: base)
        update.setDocumentInformation([("Title", "Nouveau titre"), ("Author", "Ada")])
        let updated = try update.documentBytes()
        #expect(Array(updated.prefix(original.count)) == original)
        let (path, check) = try Self.check(updated)
        #expect(check.status == 0, "\(check.output)")
        #expect(try Oracle.qpdfInfoValue(path, key: "Title") == "u:Nouveau titre")
        #expect(try Oracle.qpdfInfoValue(path, key: "Author") == "u:Ada")

        let reopened = try PDFDocument(bytes: updated)
        #expect(reopened.revisions.count == 2)
        #expect(reopened.revisions[1].form == (form == .table ? .table : .stream))
        #expect(reopened.revisions[1].trailer.int(.prev) == base.revisions[0].startxref)
        let oldID = base.trailer.array(.id)!
        let newID = reopened.trailer.array(.id)!
        #expect(newID[0] == oldID[0])
        #expect(newID[1] != oldID[1])
    }

    @Test("deterministic IDs make the same update byte for byte")
    func deterministicUpdate() throws {
        let base = try PDFDocument(bytes: TestDocuments.simple())
        func make() throws -> [UInt8] {
            var update = IncrementalUpdate(base: base, options: WriteOptions(deterministicID: true))
            update.setDocumentInformation([("Title", "Same")])
            return try update.serialized()
        }
        #expect(try make() == make())
    }

    @Test("new objects in an update of an encrypted document are encrypted with its key", arguments: ["128", "256"])
    func encryptedUpdate(keyLength: String) throws {
        let directory = try TestPaths.temporaryDirectory("writer")
        try writeFile(directory + "/plain.pdf", TestDocuments.simple())
        let encrypted = directory + "/encrypted.pdf"
        try Oracle.qpdfEncrypt(
            directory + "/plain.pdf", encrypted, user: "user", owner: "owner",
            keyLength == "128" ? [keyLength, "--use-aes=y"] : [keyLength])
        let base = try PDFDocument(contentsOfFile: encrypted, options: ParseOptions(password: "user"))
        var update = IncrementalUpdate(base: base)
        update.setDocumentInformation([("Title", "Encrypted update")])
        let bytes = try update.documentBytes()
        // The plain title must not appear in the file: it is encrypted.
        #expect(String(decoding: bytes, as: UTF8.self).contains("Encrypted update") == false)
        let (path, check) = try Self.check(bytes, password: "user")
        #expect(check.status == 0, "\(check.output)")
        #expect(try Oracle.qpdfInfoValue(path, key: "Title", password: "user") == "u:Encrypted update")
    }

    @Test("an update over a damaged file lists every object and leaves the damage behind")
    func repairingUpdate() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>")
        raw.object(4, "<< /Length 999 >>\nstream\n0 0 m 10 10 l S\nendstream")
        raw.append("xref\n0 5\n0000000000 65535 f \n0000000009 00000 n \n")  // a table cut short
        raw.append("trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n12345\n%%EOF\n")
        let base = try PDFDocument(bytes: raw.bytes)
        base.resolveAllObjects()
        #expect(base.isDamaged)
        var update = IncrementalUpdate(base: base)
        update.setDocumentInformation([("Title", "Repaired")])
        let bytes = try update.documentBytes()
        #expect(Array(bytes.prefix(raw.bytes.count)) == raw.bytes)
        let (path, check) = try Self.check(bytes)
        #expect(check.status == 0, "\(check.output)")
        #expect(try Oracle.qpdfPageCount(path) == 1)
        let reopened = try PDFDocument(bytes: bytes)
        #expect(reopened.warnings.isEmpty)
        #expect(reopened.revisions.last?.trailer[.prev] == nil)
    }

    @Test("a full rewrite renumbers, drops unreachable objects, and passes qpdf --check", arguments: [false, true])
    func rewrite(objectStreams: Bool) throws {
        var builder = PDFBuilder()
        builder.add(.dictionary([PDFName("Unreachable"): true]))
        builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Rewritten) Tj ET".utf8))
        let base = try PDFDocument(bytes: builder.build())
        var options = DocumentWriter.Options(objectStreams: objectStreams)
        options.write.deterministicID = true
        let bytes = try DocumentWriter(document: base, options: options).serialized()
        let (path, check) = try Self.check(bytes)
        #expect(check.status == 0, "\(check.output)")
        #expect(try Oracle.qpdfPageCount(path) == 1)
        let reopened = try PDFDocument(bytes: bytes)
        #expect(reopened.objectReferences.count < base.objectReferences.count + (objectStreams ? 2 : 0))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Unreachable"))
        #expect(reopened.revisions[0].form == (objectStreams ? .stream : .table))
        // Deterministic: the same input gives the same bytes.
        #expect(try DocumentWriter(document: base, options: options).serialized() == bytes)
    }

    @Test("a rewrite keeps encryption, or removes it with decrypt", arguments: [false, true])
    func rewriteEncrypted(decrypt: Bool) throws {
        let directory = try TestPaths.temporaryDirectory("writer")
        try writeFile(directory + "/plain.pdf", TestDocuments.simple(pages: 3))
        let encrypted = directory + "/encrypted.pdf"
        try Oracle.qpdfEncrypt(directory + "/plain.pdf", encrypted, user: "user", owner: "owner", ["256"])
        let base = try PDFDocument(contentsOfFile: encrypted, options: ParseOptions(password: "user"))
        let bytes = try DocumentWriter(document: base, options: .init(objectStreams: true, decrypt: decrypt))
            .serialized()
        let (path, check) = try Self.check(bytes, password: decrypt ? nil : "user")
        #expect(check.status == 0, "\(check.output)")
        #expect(try Oracle.qpdfPageCount(path, password: decrypt ? nil : "user") == 3)
        let reopened = try PDFDocument(bytes: bytes, options: ParseOptions(password: decrypt ? nil : "user"))
        #expect((reopened.encryption != nil) == !decrypt)
        let content = reopened.resolve(reopened.pages[2].dictionary[.contents] ?? .null).streamValue
        #expect(String(decoding: try content?.decodedData() ?? [], as: UTF8.self).contains("(Page 3)"))
    }

    @Test("names, strings and reals are written so that they read back the same")
    func serializerRoundTrip() throws {
        let values: [PDFObject] = [
            .name(PDFName("A B#(x)")), .name(PDFName(bytes: [0x82, 0x6C])),
            .string(PDFString(bytes: [0, 40, 41, 92, 10, 200])),
            .string(PDFString(bytes: [1, 2, 255], isHex: true)), .real(PDFReal(0.000001)), .real(PDFReal(-12.5)),
            .real(PDFReal(1e20)), .integer(-7), .boolean(false), .null,
        ]
        for value in values {
            let bytes = PDFSerializer.bytes(of: .array([value]))
            let parsed = try bytes.withUnsafeBytes { buffer in
                var parser = ObjectParser(buffer)
                return try parser.parseObject()
            }
            #expect(parsed == .array([value]), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
