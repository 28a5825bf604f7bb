import Foundation
import PDFRendering
import PDFTestSupport
import Testing

@testable import AutographCLI

/// The sample signed in `Signature1` by the test PKI: two revisions, the signed one last.
enum SignedSample {
    static let root = AnnotationCommandTests.pki("root.cert.pem")

    /// Writes `sample.pdf` and `signed.pdf` (revisions 0 and 1) into `directory`: the signed file's path.
    static func write(in directory: String) async throws -> String {
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        let signed = directory + "/signed.pdf"
        let result = await autograph(
            "sign", directory + "/sample.pdf", "-o", signed, "--field", "Signature1", "--p12",
            AnnotationCommandTests.pki("signer-p256.p12"), "--p12-password", "secret")
        try #require(result.code == .success, "\(result.errors)")
        return signed
    }

    /// The pixels of a PNG file.
    static func png(_ path: String) throws -> RenderedImage {
        try #require(RenderedImage(pngData: Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
    }
}

/// `autograph render --revision N`: the document as it was at a revision.
@Suite("autograph render --revision")
struct RenderRevisionTests {
    @Test("render --revision 0 of a two-revision file draws the original file's pixels; 1 draws today's")
    func renderRevision() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-render-revision")
        let signed = try await SignedSample.write(in: directory)
        let sample = directory + "/sample.pdf"
        for page in ["1", "3"] {
            let original = directory + "/original-\(page).png"
            let revision0 = directory + "/revision0-\(page).png"
            let revision1 = directory + "/revision1-\(page).png"
            let today = directory + "/today-\(page).png"
            #expect(await autograph("render", sample, "-o", original, "--page", page).code == .success)
            let result = await autograph("render", signed, "-o", revision0, "--page", page, "--revision", "0")
            #expect(result.code == .success, "\(result.errors)")
            #expect(await autograph("render", signed, "-o", revision1, "--page", page, "--revision=1").code == .success)
            #expect(await autograph("render", signed, "-o", today, "--page", page).code == .success)
            #expect(try SignedSample.png(revision0).rgba == SignedSample.png(original).rgba, "page \(page)")
            #expect(try SignedSample.png(revision1).rgba == SignedSample.png(today).rgba, "page \(page)")
        }
        // The signature's appearance is on page 3: revision 0 does not show it.
        #expect(
            try SignedSample.png(directory + "/revision0-3.png").rgba
                != SignedSample.png(directory + "/revision1-3.png").rgba)
    }

    @Test(
        "a --revision that names no revision is a usage error naming how many there are",
        arguments: ["-1", "2", "99", "x", "1e300", "", "0.5", "99999999999999999999"])
    func badRevision(_ value: String) async throws {
        let directory = try TestPaths.temporaryDirectory("cli-render-bad-revision")
        let signed = try await SignedSample.write(in: directory)
        let result = await autograph("render", signed, "-o", directory + "/x.png", "--revision", value)
        #expect(result.code == .usage, "\(value): \(result.errors)")
        #expect(result.errors.contains("the document has 2 revisions (0 to 1)"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.png"))
    }
}
