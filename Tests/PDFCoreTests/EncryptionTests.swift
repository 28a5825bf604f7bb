import PDFAuthoring
import PDFTestSupport
import Testing

@testable import PDFCore

/// Files encrypted by qpdf (Debian's) at test time, read back by us.
@Suite("Standard security handler, against files qpdf encrypts")
struct EncryptionTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var qpdfArguments: [String]
        var user: String
        var owner: String
        var revision: Int
        var method: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "RC4 40-bit (R2)", qpdfArguments: ["40", "--allow-weak-crypto"], user: "user", owner: "owner",
            revision: 2, method: "RC4"),
        Case(
            name: "RC4 128-bit (R3)", qpdfArguments: ["128", "--use-aes=n", "--allow-weak-crypto"], user: "user",
            owner: "owner", revision: 3, method: "RC4"),
        Case(
            name: "RC4 128-bit crypt filters (R4)",
            qpdfArguments: ["128", "--use-aes=n", "--force-V4", "--allow-weak-crypto"], user: "user", owner: "owner",
            revision: 4, method: "RC4"),
        Case(
            name: "AES-128 (R4)", qpdfArguments: ["128", "--use-aes=y"], user: "user", owner: "owner", revision: 4,
            method: "AES-128"),
        Case(
            name: "AES-128 with clear metadata", qpdfArguments: ["128", "--use-aes=y", "--cleartext-metadata"],
            user: "user", owner: "owner", revision: 4, method: "AES-128"),
        Case(
            name: "AES-256 (R5, deprecated)", qpdfArguments: ["256", "--force-R5"], user: "user", owner: "owner",
            revision: 5, method: "AES-256"),
        Case(
            name: "AES-256 (R6)", qpdfArguments: ["256"], user: "user", owner: "owner", revision: 6, method: "AES-256"),
        Case(
            name: "AES-256 with clear metadata", qpdfArguments: ["256", "--cleartext-metadata"], user: "user",
            owner: "owner", revision: 6, method: "AES-256"),
        Case(
            name: "AES-256, empty user password", qpdfArguments: ["256"], user: "", owner: "owner", revision: 6,
            method: "AES-256"),
        Case(
            name: "AES-128, empty user password", qpdfArguments: ["128", "--use-aes=y"], user: "", owner: "owner",
            revision: 4, method: "AES-128"),
        Case(
            name: "AES-256, 60-byte passwords", qpdfArguments: ["256"], user: String(repeating: "u", count: 60),
            owner: String(repeating: "o", count: 60), revision: 6, method: "AES-256"),
        Case(
            name: "AES-256, non-ASCII passwords", qpdfArguments: ["256"], user: "pässwörd", owner: "Ωwner", revision: 6,
            method: "AES-256"),
    ]

    /// A plain document with text, an Info title and an XMP metadata stream.
    static func plainDocument() -> [UInt8] {
        var builder = PDFBuilder()
        builder.info[PDFName("Title")] = .string(PDFString(text: "Secret title"))
        let xmp =
            "<?xpacket begin=\"\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><dc:title>Secret</dc:title></x:xmpmeta><?xpacket end=\"w\"?>"
        let metadata = builder.add(
            .stream(
                PDFStream(
                    dictionary: [.type: .name(.metadata), .subtype: .name("XML")], data: Array(xmp.utf8),
                    compress: false)))
        builder.catalogEntries[.metadata] = .reference(metadata)
        builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Confidential page text) Tj ET".utf8))
        return builder.build()
    }

    static func encrypt(_ encryption: Case) throws -> String {
        let directory = try TestPaths.temporaryDirectory("encryption")
        let input = directory + "/plain.pdf"
        let output = directory + "/encrypted.pdf"
        try writeFile(input, plainDocument())
        try Oracle.qpdfEncrypt(input, output, user: encryption.user, owner: encryption.owner, encryption.qpdfArguments)
        return output
    }

    @Test("opens with the user password and decrypts strings, streams and metadata", arguments: cases)
    func userPassword(_ encryption: Case) throws {
        let path = try Self.encrypt(encryption)
        let document = try PDFDocument(contentsOfFile: path, options: ParseOptions(password: encryption.user))
        let info = try #require(document.encryption)
        #expect(info.revision == encryption.revision)
        #expect(info.streamMethod == encryption.method)
        #expect(!info.openedWithOwnerPassword || encryption.user == encryption.owner)
        #expect(document.info?.string(PDFName("Title"))?.text == "Secret title")
        let contentObject = document.resolve(document.pages[0].dictionary[.contents] ?? .null)
        let content = try #require(contentObject.streamValue)
        #expect(String(decoding: try content.decodedData(), as: UTF8.self).contains("(Confidential page text)"))
        let metadataObject = document.resolve(document.catalog?[.metadata] ?? .null)
        let metadata = try #require(metadataObject.streamValue)
        #expect(String(decoding: try metadata.decodedData(), as: UTF8.self).contains("<dc:title>Secret</dc:title>"))
        #expect(document.warnings.isEmpty)
    }

    @Test("opens with the owner password", arguments: cases)
    func ownerPassword(_ encryption: Case) throws {
        let path = try Self.encrypt(encryption)
        let document = try PDFDocument(contentsOfFile: path, options: ParseOptions(password: encryption.owner))
        #expect(document.encryption?.openedWithOwnerPassword == true)
        #expect(document.info?.string(PDFName("Title"))?.text == "Secret title")
    }

    @Test("a wrong password is wrongPassword, a missing one passwordRequired, both signo -122", arguments: cases)
    func wrongPassword(_ encryption: Case) throws {
        let path = try Self.encrypt(encryption)
        do {
            _ = try PDFDocument(contentsOfFile: path, options: ParseOptions(password: "not the password"))
            Issue.record("a wrong password opened the document")
        } catch {
            #expect(error.code == .wrongPassword)
            #expect(error.signoCode == -122)
        }
        if !encryption.user.isEmpty {
            do {
                _ = try PDFDocument(contentsOfFile: path)
                Issue.record("no password opened the document")
            } catch {
                #expect(error.code == .passwordRequired)
                #expect(error.signoCode == -122)
            }
        }
    }

    @Test("a public-key security handler is a clear unsupported error")
    func publicKeyHandler() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        raw.object(3, "<< /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /R 4 >>")
        raw.xrefTable(size: 4, trailer: "<< /Size 4 /Root 1 0 R /Encrypt 3 0 R /ID [<00><00>] >>")
        #expect(throws: PDFError(.unsupported, "")) { try PDFDocument(bytes: raw.bytes) }
    }

    @Test(
        "SASLprep applies to revision 6 passwords (pdf.js's saslprep-r6.pdf)",
        .enabled(if: Requirement.corpus, "the corpus is absent"))
    func saslprepCorpus() throws {
        let corpus = try #require(TestPaths.corpus)
        // pdf.js opens this file with the password "S\u{00AA}SL\u{00AD}prep", whose SASLprep form is "SaSLprep".
        let document = try PDFDocument(
            contentsOfFile: "\(corpus)/pdfjs/saslprep-r6.pdf",
            options: ParseOptions(password: "S\u{00AA}SL\u{00AD}prep"))
        #expect(document.encryption?.revision == 6)
        #expect(document.pageCount == 1)
    }

    @Test(
        "hostile AES objects read as empty or cut to whole blocks, never trapping: a key of the wrong size, no IV, a ragged tail",
        arguments: [0, 5, 10, 16, 24, 32, 33])
    func hostileAESObjects(keyLength: Int) throws {
        var random = SplitMix64(state: UInt64(keyLength) + 0xAE5)
        let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &random) }
        let cipher = ObjectCipher(method: .aes, key: key)
        for length in [0, 1, 15, 16, 17, 31, 32, 47, 1000] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let plain = cipher.decrypt(data)
            // At most the whole blocks after the IV; nothing when the key cannot be an AES key.
            #expect(plain.count <= max(0, (length - 16) / 16 * 16))
            if ![16, 24, 32].contains(keyLength) { #expect(plain.isEmpty) }
        }
        if [16, 24, 32].contains(keyLength) {
            let iv = [UInt8](repeating: 7, count: 16)
            let sealed = try cipher.encrypt(Array("a string".utf8), iv: iv)
            #expect(cipher.decrypt(sealed) == Array("a string".utf8))
        } else {
            #expect(throws: PDFError.self) { try cipher.encrypt([1, 2, 3], iv: [UInt8](repeating: 0, count: 16)) }
        }
    }
}
