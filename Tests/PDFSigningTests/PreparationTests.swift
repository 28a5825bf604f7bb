import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

@Suite("Preparing a signature: the field, the placeholder, the byte range and the digest")
struct PreparationTests {
    static func prepare(
        _ bytes: [UInt8], _ request: SignatureRequest, size: Int = 8192
    ) throws -> (PreparedDocument, [UInt8]) {
        let document = try PDFDocument(bytes: bytes)
        var preparer = SignaturePreparer(document: document, request: request)
        preparer.writeOptions.deterministicID = true
        let prepared = try preparer.prepare(contentsSize: size, signerName: "Test Signer")
        return (prepared, document.withBytes { Array($0) } + prepared.update)
    }

    @Test(
        "the byte range covers everything but the /Contents value, and the digest is theirs",
        arguments: [DigestAlgorithm.sha256, .sha384, .sha512])
    func byteRangeAndDigest(algorithm: DigestAlgorithm) throws {
        var request = SignatureRequest(placement: .invisible)
        request.digestAlgorithm = algorithm
        let original = TestDocuments.simple(pages: 2)
        let (prepared, file) = try Self.prepare(original, request, size: 4096)
        let signature = prepared.signature
        #expect(Array(file.prefix(original.count)) == original)
        #expect(signature.byteRange[0] == 0)
        #expect(signature.byteRange[1] == signature.contentsOffset)
        #expect(file[signature.byteRange[1]] == UInt8(ascii: "<"))
        #expect(file[signature.byteRange[2] - 1] == UInt8(ascii: ">"))
        #expect(signature.byteRange[2] + signature.byteRange[3] == file.count)
        #expect(signature.contentsHexLength == 8192)
        // An independent digest of the two ranges (Python's hashlib).
        let path = try TestPaths.temporaryDirectory("prepare") + "/prepared.pdf"
        try Data(file).write(to: URL(fileURLWithPath: path))
        let range = signature.byteRange.map(String.init).joined(separator: ",")
        let script = """
            import hashlib, sys
            data = open(sys.argv[1], "rb").read()
            a, b, c, d = map(int, sys.argv[2].split(","))
            h = hashlib.new(sys.argv[3]); h.update(data[a:a + b]); h.update(data[c:c + d]); print(h.hexdigest())
            """
        let digest = try Oracle.run("python3", ["-c", script, path, range, algorithm.rawValue]).output
        #expect(digest.trimmingCharacters(in: .whitespacesAndNewlines) == signature.digestHex)
        #expect(try Oracle.qpdfCheck(path).status == 0)
        // The /ByteRange written in the file is the one reported.
        let text = String(decoding: file, as: UTF8.self)
        #expect(
            text.contains("/ByteRange[0 \(signature.byteRange[1]) \(signature.byteRange[2]) \(signature.byteRange[3])"))
    }

    @Test("a visible signature adds a field with a widget on the page and an appearance showing the signer")
    func visible() throws {
        var request = SignatureRequest(
            fieldName: "Approval", placement: .visible(page: 1, rect: PDFRectangle(x0: 100, y0: 100, x1: 300, y1: 160)))
        request.reason = "I approve"
        let (_, file) = try Self.prepare(TestDocuments.simple(pages: 2), request)
        let document = try PDFDocument(bytes: file)
        let form = try #require(AcroForm(document: document))
        let field = try #require(form.field(named: "Approval"))
        #expect(field.kind == .signature)
        #expect(field.widgets.first?.pageIndex == 1)
        #expect(field.widgets.first?.rect == PDFRectangle(x0: 100, y0: 100, x1: 300, y1: 160))
        #expect(document.resolve(form.dictionary[PDFName("SigFlags")] ?? .null).intValue == 3)
        let path = try TestPaths.temporaryDirectory("prepare") + "/visible.pdf"
        try Data(file).write(to: URL(fileURLWithPath: path))
        let shown = try Oracle.mutoolText(path)
        // The default appearance: the signer's name, the date and the reason.
        #expect(shown.contains("Test Signer"))
        #expect(shown.contains("Date: "))
        #expect(shown.contains("Reason: I approve"))
    }

    @Test("an existing empty signature field is used")
    func existingField() throws {
        let (_, file) = try Self.prepare(
            TestForms.make(), SignatureRequest(fieldName: "signature", placement: .existingField))
        let form = try #require(AcroForm(document: try PDFDocument(bytes: file)))
        #expect(form.signatureFields.count == 1)
        #expect(form.field(named: "signature")?.value == .signature(signed: true))
    }

    @Test(
        "field names that cannot be signed are refused with -130",
        arguments: [
            SignatureRequest(fieldName: "name", placement: .existingField),
            SignatureRequest(fieldName: "nowhere", placement: .existingField),
            SignatureRequest(fieldName: "name", placement: .invisible),
        ])
    func badFieldNames(request: SignatureRequest) throws {
        do {
            _ = try Self.prepare(TestForms.make(), request)
            Issue.record("accepted \(request.fieldName ?? "")")
        } catch let error as SigningError {
            #expect(error.code == .invalidFieldName)
            #expect(error.signoCode == -130)
        }
    }

    @Test("new fields get unique names")
    func uniqueNames() throws {
        let (_, first) = try Self.prepare(TestDocuments.simple(), SignatureRequest(placement: .invisible))
        let (_, second) = try Self.prepare(first, SignatureRequest(placement: .invisible))
        let form = try #require(AcroForm(document: try PDFDocument(bytes: second)))
        #expect(form.signatureFields.map(\.name) == ["Signature1", "Signature2"])
    }

    @Test("certification, field locks and read-only fields are written in the signed revision")
    func certificationAndLocks() throws {
        var request = SignatureRequest(fieldName: "signature", placement: .existingField)
        request.certification = .formFilling
        request.lockFields = .include(["name"])
        request.readOnlyFields = ["name", "agree"]
        let (_, file) = try Self.prepare(TestForms.make(), request)
        let document = try PDFDocument(bytes: file)
        let permissionsObject = document.resolve(document.catalog?[.perms] ?? .null)
        let permissions = try #require(permissionsObject.dictionaryValue)
        let signatureObject = document.resolve(permissions[PDFName("DocMDP")] ?? .null)
        let signature = try #require(signatureObject.dictionaryValue)
        let referenceObject = document.resolve(signature[PDFName("Reference")] ?? .null)
        let reference = try #require(referenceObject.arrayValue)
        #expect(reference.count == 2)
        let form = try #require(AcroForm(document: document))
        #expect(form.field(named: "name")?.isReadOnly == true)
        #expect(form.field(named: "agree")?.isReadOnly == true)
        #expect(form.field(named: "signature")?.dictionary[PDFName("Lock")] != nil)
    }

    @Test("embedding refuses a CMS larger than the placeholder with -136 and writes nothing")
    func tooLarge() throws {
        let (prepared, _) = try Self.prepare(TestDocuments.simple(), SignatureRequest(placement: .invisible), size: 16)
        let path = try TestPaths.temporaryDirectory("prepare") + "/signed.pdf"
        do {
            try prepared.write(embedding: [UInt8](repeating: 1, count: 17), to: path)
            Issue.record("a CMS too large was embedded")
        } catch {
            #expect(error.code == .signatureTooLarge)
            #expect(error.signoCode == -136)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the prepared state survives JSON")
    func codable() throws {
        let (prepared, _) = try Self.prepare(TestDocuments.simple(), SignatureRequest(placement: .invisible))
        let data = try JSONEncoder().encode(prepared.signature)
        #expect(try JSONDecoder().decode(PreparedSignature.self, from: data) == prepared.signature)
    }
}
