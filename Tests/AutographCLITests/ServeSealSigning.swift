import AutographJSON
import Foundation
import PDFAuthoring
import PDFCore
import PDFSession
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// Signs a document through a service that `ServeCommand.prepare` configured with a seal (a
/// PKCS#11 token's key or a CSC credential): the service opens the sample document, the signer
/// accepts and confirms, and `autograph verify` judges the bytes the session holds.
enum ServeSealSigning {
    struct Verdict: CustomStringConvertible {
        var signerName: String
        var trusted: Bool
        var report: String
        var description: String { report }
    }

    static func sign(
        _ backend: WebBackend, in directory: String, trust: String = TestPaths.fixture("pki", "root.cert.pem"),
        revocation: String? = nil
    ) async throws -> Verdict {
        let input = directory + "/serve-in.pdf"
        _ = await autograph("sample", "-o", input)
        let session = try await backend.open(pdf: Array(try Data(contentsOf: URL(fileURLWithPath: input))))
        try await session.acceptDocument()
        // The service's workflow as a person in the viewer walks it: draw, place, confirm.
        for _ in 0..<6 {
            switch await session.phase {
            case .selectingField(let candidates): try await session.selectSignatureField(candidates[0])
            case .capturingSignature:
                // A wave of 12 points, long enough for the capture's minimum.
                let wave = (0..<12).map { InkPoint(x: Double($0) * 10, y: $0 % 2 == 0 ? 0 : 15) }
                try await session.captureSignature([InkStroke(wave)])
            case .choosingSavedSignature(let ids): try await session.chooseSavedSignature(id: ids[0])
            case .positioning:
                try await session.signaturePositioned(
                    pageIndex: 0, rect: PDFRectangle(x: 72, y: 72, width: 180, height: 60))
            case .confirming: try await session.confirmSignature()
            default: break
            }
        }
        let output = directory + "/serve-signed.pdf"
        try Data(await session.documentBytes).write(to: URL(fileURLWithPath: output))
        let verify = await autograph(
            ["verify", output, "--trust", trust, "--json"] + (revocation.map { ["--revocation", $0] } ?? []))
        let reports = try JSONValue.parse(Array(verify.output.utf8)).arrayValue ?? []
        let signer = reports.first?["signer"]?["subject"]?.stringValue ?? ""
        return Verdict(
            signerName: signer.components(separatedBy: "CN=").last?.components(separatedBy: ",").first ?? "",
            trusted: verify.code == .success && reports.count == 1, report: verify.output + verify.errors)
    }
}
