import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Universal signature forgery (Mladenov et al., CCS 2019, §4.2): a signature dictionary whose
/// values are missing, null or malformed, so that a careless validator skips the check and
/// reports the signature as valid. Here the forged dictionary fills the empty field `Signature1`
/// of a document nobody signed; its CMS, when there is one, is a real one copied from another
/// document signed by the test signer.
@Suite("Universal signature forgery: a signature dictionary without usable values is never valid")
struct UniversalSignatureForgeryTests {
    /// The ways the paper's forgeries leave out or break `/Contents` and `/ByteRange`.
    enum Forgery: String, CaseIterable, CustomTestStringConvertible {
        case noContents, contentsNull, contentsEmpty, contentsNotString, contentsIndirect
        case noByteRange, byteRangeNull, byteRangeEmpty, byteRangeZeros, byteRangeNotCovering, byteRangeOther
        case copiedSignature

        var testDescription: String { rawValue }
    }

    /// A real CMS (and its byte range) from a signature of another document by the test signer.
    static func realSignature() async throws -> (cms: [UInt8], byteRange: [Int]) {
        let signed = try await Attack.sign(TestDocuments.simple())
        let document = try PDFDocument(bytes: signed)
        let status = try #require(try Attack.validate(signed).first)
        let reference = try #require(status.signatureReference)
        let dictionary = try #require(document.object(reference).dictionaryValue)
        let contents = try #require(dictionary[.contents]?.stringValue?.bytes)
        return (contents, status.byteRange)
    }

    @Test("the forged dictionary in an empty signature field gives an invalid signature", arguments: Forgery.allCases)
    func forgery(_ forgery: Forgery) async throws {
        let document = AttackDocument.make()
        let (cms, byteRange) = try await Self.realSignature()
        var update = try HandUpdate(base: document.bytes)
        var signature: PDFDictionary = [
            .type: .name(.sig), .filter: .name("Adobe.PPKLite"), PDFName("SubFilter"): .name("ETSI.CAdES.detached"),
            PDFName("M"): .string(PDFString(text: Attack.signingTime.pdfString)),
        ]
        let size = document.bytes.count
        let contents: PDFObject = .string(PDFString(bytes: cms, isHex: true))
        switch forgery {
        case .noContents, .contentsNull, .contentsEmpty, .contentsNotString, .contentsIndirect:
            signature[.byteRange] = [0, 10, 20, .integer(size - 20)]
            switch forgery {
            // A null written as an object: a direct null is no entry at all.
            case .contentsNull: signature[.contents] = .reference(update.add(.null))
            case .contentsEmpty: signature[.contents] = .string(PDFString(bytes: [], isHex: true))
            case .contentsNotString: signature[.contents] = .integer(0)
            case .contentsIndirect: signature[.contents] = .reference(update.add(contents))
            default: break
            }
        case .noByteRange: signature[.contents] = contents
        case .byteRangeNull, .byteRangeEmpty, .byteRangeZeros, .byteRangeNotCovering, .byteRangeOther:
            signature[.contents] = contents
            switch forgery {
            case .byteRangeNull: signature[.byteRange] = .reference(update.add(.null))
            case .byteRangeEmpty: signature[.byteRange] = []
            case .byteRangeZeros: signature[.byteRange] = [0, 0, 0, 0]
            case .byteRangeNotCovering: signature[.byteRange] = [0, 100, 200, 100]
            default: signature[.byteRange] = .array(byteRange.map { .integer($0) })
            }
        case .copiedSignature:
            // The real CMS and a byte range over the forged file's own two halves.
            signature[.contents] = contents
            signature[.byteRange] = [0, .integer(size / 2), .integer(size / 2 + 10), .integer(size / 2 - 10)]
        }
        let reference = update.add(.dictionary(signature))
        let field = document.fields["Signature1"]!
        var widget = try #require(update.object(field).dictionaryValue)
        widget[.v] = .reference(reference)
        update.write(field, .dictionary(widget))
        let forged = update.bytes()
        let statuses = try Attack.validate(forged)
        let status = try #require(statuses.first { $0.fieldName == "Signature1" })
        #expect(!status.isValid && status.verdict == .invalid, "\(Attack.describe(status))")
        #expect(!status.problems.isEmpty)
        try Attack.compare(forged, status: status, pyHanko: .agrees, sourceLocation: #_sourceLocation)
    }
}
