import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// A session whose signatures come from a key in a PKCS#11 token (a company seal in an HSM;
/// SoftHSM2 here).
@Suite(
    "A session signs with a key in a PKCS#11 token",
    .enabled(if: SoftHSM.isInstalled, "SoftHSM2 is not installed (scripts/install-deps test)"))
struct SessionPKCS11Tests {
    @Test("Accepting signs with the token's key: the signer is the token's certificate, pyHanko agrees")
    func sealInAToken() async throws {
        _ = try SoftHSM.shared()
        let chain = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "signer-p384.chain.pem")))))
        let seal = try PKCS11Signer(
            module: SoftHSM.module, tokenLabel: "autograph", keyLabel: "p384", pin: SoftHSM.pin, chain: chain)
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "pkcs11",
            signatureConfiguration: SignatureConfiguration(signer: seal))
        try await session.setValue(.text("Ada Lovelace"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        let bytes = await session.documentBytes
        let root = TestPaths.fixture("pki", "root.cert.pem")
        let roots = Certificate.certificates(pem: Array(try Data(contentsOf: URL(fileURLWithPath: root))))
        let status = try #require(
            SignatureValidator(document: try PDFDocument(bytes: bytes), trustRoots: roots).validate().first {
                $0.signatureValid
            })
        #expect(status.isValid && status.signerCertificate == seal.certificates.first, "\(status.problems)")
        let path = try SessionFixtures.write(bytes, directory, "sealed.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: root)
        #expect(verdicts.values.contains { $0.hasPrefix("INTACT:TRUSTED") }, "\(verdicts)")
    }
}
