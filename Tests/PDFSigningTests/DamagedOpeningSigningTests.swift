import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Files qpdf opens though they break the syntax (no header and no `startxref`, a direct `/Root`,
/// kilobytes of junk before the header of an encrypted file, a wrong `/Encrypt /Length`): each
/// opens with qpdf's page count, and signing it gives a file qpdf checks clean and pyHanko and our
/// validator call intact and valid.
@Suite("Damaged files qpdf opens: opened with its page count, signed validly")
struct DamagedOpeningSigningTests {
    static let root = ValidationTests.pki("root.cert.pem")

    enum Case: String, CaseIterable, CustomStringConvertible {
        case bareObjects, directRoot, junkBeforeEncryptedHeader, junkBeforeObjectStreams, wrongAESLength,
            wrongRC4Length
        var description: String { rawValue }
    }

    /// `bytes` with the first occurrence of `target` replaced.
    static func replacing(_ target: String, with replacement: String, in bytes: [UInt8]) throws -> [UInt8] {
        let needle = Array(target.utf8)
        let start = try #require(
            (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) },
            "\(target) not found")
        return Array(bytes[..<start]) + Array(replacement.utf8) + Array(bytes[(start + needle.count)...])
    }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The damaged file of `kind`, written in `directory`; the second value is the password qpdf needs.
    static func make(_ kind: Case, in directory: String) throws -> String {
        let plain = TestDocuments.simple(pages: 3, compress: false)
        let text = String(decoding: plain, as: Unicode.ASCII.self)
        let path = directory + "/\(kind).pdf"
        var bytes: [UInt8]
        switch kind {
        case .bareObjects:
            // No header, no cross-reference table and no startxref: objects and a trailer.
            let objects = try #require(text.range(of: "1 0 obj")).lowerBound
            let table = try #require(text.range(of: "\nxref\n")).lowerBound
            let trailer = try #require(text.range(of: "trailer")).lowerBound
            let startxref = try #require(text.range(of: "startxref")).lowerBound
            bytes = Array(("\n" + text[objects..<table] + "\n" + text[trailer..<startxref]).utf8)
        case .directRoot:
            // The trailer holds the catalog itself; the catalog object stays, unreferenced.
            let match = try #require(text.firstMatch(of: /\/Root (\d+) 0 R/))
            let number = String(match.1)
            let object = try #require(text.firstMatch(of: try Regex("\\n\(number) 0 obj\\s*(<<.*?>>)\\s*endobj")))
            let catalog = try #require(object.output[1].substring)
            bytes = try replacing("/Root \(number) 0 R", with: "/Root " + catalog, in: plain)
        case .junkBeforeEncryptedHeader, .junkBeforeObjectStreams, .wrongAESLength, .wrongRC4Length:
            let source = directory + "/\(kind)-plain.pdf"
            let encrypted = directory + "/\(kind)-encrypted.pdf"
            try Data(plain).write(to: URL(fileURLWithPath: source))
            if kind == .junkBeforeObjectStreams {
                // Object streams and a cross-reference stream, which encryption keeps.
                _ = try Oracle.run("qpdf", ["--object-streams=generate", "--replace-input", source])
            }
            let arguments: [String] =
                switch kind {
                case .junkBeforeObjectStreams: ["256"]
                case .wrongRC4Length: ["128", "--use-aes=n", "--allow-weak-crypto"]
                default: ["128", "--use-aes=y"]
                }
            try Oracle.qpdfEncrypt(source, encrypted, user: "", owner: "owner", arguments)
            bytes = try read(encrypted)
            switch kind {
            case .wrongAESLength, .wrongRC4Length:
                // The same number of bytes: only the length is wrong, not the offsets.
                bytes = try replacing("/Length 128", with: "/Length  40", in: bytes)
            default:
                // Several kilobytes of junk; the offsets stay relative to the header.
                bytes = (0..<6000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) } + bytes
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "opens with qpdf's page count; the signed file is intact and valid for qpdf, pyHanko and us",
        arguments: Case.allCases)
    func openAndSign(_ kind: Case) async throws {
        let directory = try TestPaths.temporaryDirectory("damaged-opening")
        let path = try Self.make(kind, in: directory)
        let document = try PDFDocument(contentsOfFile: path)
        #expect(document.pageCount == 3)
        // qpdf trusts /Length, so it cannot open an RC4 file whose length is wrong; and its rebuild
        // does not look into object streams, which junk before the header makes it need.
        if kind != .wrongRC4Length && kind != .junkBeforeObjectStreams {
            #expect(try Oracle.qpdfPageCount(path) == document.pageCount)
        }
        switch kind {
        case .wrongAESLength, .wrongRC4Length:
            #expect(document.warnings.contains { $0.code == .encryption && $0.message.contains("/Length 40") })
        case .junkBeforeEncryptedHeader, .junkBeforeObjectStreams:
            #expect(document.headerOffset == 6000)
            #expect(document.encryption != nil)
        default: break
        }

        let signed = try await ValidationTests.sign(try Self.read(path))
        #expect(Array(signed.prefix(5)) == Array("%PDF-".utf8))
        let output = directory + "/\(kind)-signed.pdf"
        try Data(signed).write(to: URL(fileURLWithPath: output))
        let check = try Oracle.qpdfCheck(output)
        #expect(check.status == 0, "\(check.output)")
        #expect(try Oracle.qpdfPageCount(output) == 3)
        let verdicts = try SignatureOracle.pyhanko(output, trust: Self.root)
        #expect(verdicts.count == 1)
        #expect(verdicts.values.allSatisfy { $0.contains("INTACT:TRUSTED") }, "\(verdicts)")
        let statuses = try ValidationTests.validate(signed)
        #expect(statuses.count == 1)
        #expect(statuses.allSatisfy { $0.isValid }, "\(statuses.map(\.problems))")
    }

    @Test("bare objects without any trailer open from their catalog (qpdf gives up there)")
    func bareObjectsWithoutTrailer() throws {
        let text = String(decoding: TestDocuments.simple(pages: 2, compress: false), as: Unicode.ASCII.self)
        let objects = try #require(text.range(of: "1 0 obj")).lowerBound
        let table = try #require(text.range(of: "\nxref\n")).lowerBound
        let document = try PDFDocument(bytes: Array(text[objects..<table].utf8))
        #expect(document.pageCount == 2)
        #expect(document.warnings.contains { $0.code == .headerMissing })
    }

    @Test("a wrong password still fails on a file whose /Length is wrong, after every key length is tried")
    func wrongPasswordWithWrongLength() throws {
        let directory = try TestPaths.temporaryDirectory("damaged-opening")
        let source = directory + "/plain.pdf"
        let encrypted = directory + "/locked.pdf"
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: source))
        try Oracle.qpdfEncrypt(
            source, encrypted, user: "user", owner: "owner", ["128", "--use-aes=n", "--allow-weak-crypto"])
        let bytes = try Self.replacing("/Length 128", with: "/Length  40", in: try Self.read(encrypted))
        #expect(throws: PDFError.self) { try PDFDocument(bytes: bytes, options: ParseOptions(password: "nope")) }
        let opened = try PDFDocument(bytes: bytes, options: ParseOptions(password: "user"))
        #expect(opened.encryption?.keyLength == 128)
    }
}
