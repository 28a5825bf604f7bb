import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// A `/DSS` comes from the file: read within bounds, never trusted for more than it proves, and
/// never lost when Autograph adds to it.
@Suite struct DSSHostileTests {
    /// A signed document with a later `/DSS` of 10 000 references to one stream that is no DER.
    static func hostile() async throws -> [UInt8] {
        let signer = try LocalKeySigner(pkcs12: TestPaths.fixture("pki", "signer-p256.p12"), password: "secret")
        let signed = try await DocumentSigner(
            document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(placement: .invisible),
            signer: signer
        ).sign().bytes()
        let document = try PDFDocument(bytes: signed)
        var update = IncrementalUpdate(base: document)
        let garbage = PDFObject.reference(update.add(.stream(PDFStream(data: Array("not DER".utf8), compress: false))))
        let dss = update.add(
            .dictionary([
                .ocsps: .array(Array(repeating: garbage, count: 10_000)), .certs: .array([garbage]), .crls: .array([]),
            ]))
        let root = try #require(document.trailer.reference(.root))
        var catalog = try #require(document.object(root).dictionaryValue)
        catalog[.dss] = .reference(dss)
        update.replace(root, with: .dictionary(catalog))
        return try update.documentBytes()
    }

    @Test("A /DSS of 10 000 unreadable items: the signature keeps its verdict and level; nothing is lost on writing")
    func unreadableItems() async throws {
        let bytes = try await Self.hostile()
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "root.cert.pem")))))
        let status = try #require(
            SignatureValidator(document: try PDFDocument(bytes: bytes), trustRoots: root).validate().first)
        #expect(
            status.isValidAsShown && status.level == "B-B" && !status.validationMaterialComplete, "\(status.problems)")
        // Adding material keeps every item already there, read or not.
        let certificate = try #require(status.signerCertificate)
        let written = try DSSWriter(document: try PDFDocument(bytes: bytes)).update(
            adding: [(contents: [1, 2, 3], material: ValidationMaterial(certificates: [certificate.derBytes]))])
        let after = try PDFDocument(bytes: written)
        let dss = try #require(DSSContents.dictionary(of: after))
        #expect(after.resolve(dss[.ocsps] ?? .null).arrayValue?.count == 10_000)
        #expect(after.resolve(dss[.certs] ?? .null).arrayValue?.count == 2)
        #expect(after.resolve(dss[.vri] ?? .null).dictionaryValue?.count == 1)
    }

    @Test("DSSContents stops at its item and byte limits")
    func bounds() async throws {
        let document = try PDFDocument(bytes: try await Self.hostile())
        let dss = try #require(DSSContents.dictionary(of: document))
        var budget = DSSContents.maxBytes
        #expect(DSSContents.items(.ocsps, in: dss, of: document, budget: &budget).count == DSSContents.maxItems)
        var small = 20
        // Seven bytes an item: two fit in twenty, the third finds the budget too small.
        #expect(DSSContents.items(.ocsps, in: dss, of: document, budget: &small).count == 2)
    }
}
