import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// A source with anchors (`RevocationSource.fetchAnchors`, a service's `RevocationFetchPolicy`) is
/// asked only about certificates whose path leads to them by verified signatures: what any other
/// certificate names is an address its maker chose. The addresses here are a real listener on
/// loopback, reached by an unrestricted transport: only the anchors stop the requests.
@Suite("RevocationAnchorTests: statuses and issuers are fetched only for paths that lead to the anchors")
struct RevocationAnchorTests {
    /// A root and a signer it issued whose OCSP, CRL and caIssuers addresses are `base`'s.
    struct PKI {
        var root: Certificate
        var rootKey: PrivateKey
        var signer: Certificate
        var signerKey: PrivateKey

        init(_ name: String, urls base: String) throws {
            rootKey = try PrivateKey.generate(.p256)
            root = try CertificateBuilder(commonName: name + " Root", isCA: true).selfSigned(key: rootKey)
            signerKey = try PrivateKey.generate(.p256)
            var builder = CertificateBuilder(commonName: name + " Signer")
            builder.ocspURLs = [base + "/ocsp"]
            builder.crlDistributionPointURLs = [base + "/crl"]
            builder.caIssuersURLs = [base + "/issuer"]
            signer = try builder.issued(publicKeyOf: signerKey, by: root, issuerKey: rootKey)
        }

        /// A document signed by `signer`, its CMS carrying the signer's certificate and `chain`.
        func signedDocument(chain: [Certificate]) async throws -> PDFDocument {
            let signer = try LocalKeySigner(key: signerKey, certificate: signer, chain: chain)
            let documentSigner = DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()),
                request: SignatureRequest(placement: .invisible), signer: signer)
            return try PDFDocument(bytes: try await documentSigner.sign().bytes())
        }
    }

    static func source(anchors: [Certificate]?) -> OnlineRevocationSource {
        let transport = CurlTransport()
        return OnlineRevocationSource(
            ocsp: OCSPClient(transport: transport), crl: CRLClient(transport: transport), transport: transport,
            fetchAnchors: anchors)
    }

    @Test("a signer of another root: nothing fetched, not its OCSP, CRL or caIssuers; the problem is named")
    func foreignPath() async throws {
        let catcher = try RequestCatcher()
        defer { catcher.stop() }
        let ours = try PKI("Ours", urls: "http://127.0.0.1:9")
        let theirs = try PKI("Theirs", urls: catcher.base)
        // With the root in the CMS, the signer's status would be asked; without, the path would be
        // completed from the caIssuers address.
        let documents = [
            try await theirs.signedDocument(chain: [theirs.root]), try await theirs.signedDocument(chain: []),
        ]
        for document in documents {
            let (_, problems) = try await LongTermValidation(
                document: document, revocation: Self.source(anchors: [ours.root])
            ).addValidationMaterial()
            #expect(
                problems.contains { $0.contains("does not lead to the trust anchors") || $0.contains("is not known") },
                "\(problems)")
        }
        #expect(catcher.connections == 0, "\(catcher.requests)")

        // The same documents with a source without anchors: the catcher hears OCSP, CRL and caIssuers.
        for document in documents {
            _ = try await LongTermValidation(document: document, revocation: Self.source(anchors: nil))
                .addValidationMaterial()
        }
        let asked = Set(catcher.requests.map(\.target))
        #expect(asked == ["/ocsp", "/crl", "/issuer"], "\(catcher.requests)")
    }

    @Test("a signer of an anchored root: its OCSP responder and CRL are asked")
    func anchoredPath() async throws {
        let catcher = try RequestCatcher()
        defer { catcher.stop() }
        let ours = try PKI("Ours", urls: catcher.base)
        let document = try await ours.signedDocument(chain: [])
        // The root is the anchor: it completes the path without the caIssuers download.
        let (_, problems) = try await LongTermValidation(
            document: document, revocation: Self.source(anchors: [ours.root])
        ).addValidationMaterial()
        #expect(catcher.requests.map(\.description) == ["POST /ocsp", "GET /crl"], "\(catcher.requests)")
        #expect(!problems.contains { $0.contains("trust anchors") }, "\(problems)")
    }

    @Test("CertificateBuilder writes the OCSP, caIssuers and CRL addresses: openssl and Autograph read them back")
    func addressesWritten() throws {
        let pki = try PKI("Written", urls: "http://127.0.0.1:9")
        #expect(pki.signer.ocspURLs == ["http://127.0.0.1:9/ocsp"])
        #expect(pki.signer.caIssuersURLs == ["http://127.0.0.1:9/issuer"])
        #expect(pki.signer.crlDistributionPointURLs == ["http://127.0.0.1:9/crl"])
        let path = try TestPaths.temporaryDirectory("builder-urls") + "/signer.der"
        try Data(pki.signer.derBytes).write(to: URL(fileURLWithPath: path))
        let text = try Oracle.run(
            "openssl",
            ["x509", "-inform", "DER", "-in", path, "-noout", "-ext", "authorityInfoAccess,crlDistributionPoints"]
        ).output
        for line in [
            "OCSP - URI:http://127.0.0.1:9/ocsp", "CA Issuers - URI:http://127.0.0.1:9/issuer",
            "URI:http://127.0.0.1:9/crl",
        ] {
            #expect(text.contains(line), "\(text)")
        }
        var bad = CertificateBuilder(commonName: "Bad")
        bad.ocspURLs = ["http://a,b"]
        #expect(throws: SigningError.self) { try bad.selfSigned(key: pki.rootKey) }
    }

    @Test("a certificate with an anchor's name but not its key does not extend the anchored path")
    func forgedIssuer() throws {
        let ours = try PKI("Ours", urls: "http://127.0.0.1:9")
        // Another root with the same name (and another key), naming the catcher's addresses.
        let forgedKey = try PrivateKey.generate(.p256)
        var builder = CertificateBuilder(commonName: "Ours Root", isCA: true)
        builder.ocspURLs = ["http://127.0.0.1:9/forged"]
        let forged = try builder.selfSigned(key: forgedKey)
        #expect(forged.subjectDER == ours.root.subjectDER)
        // The forged root first in the pool: by name alone, it would be the issuer.
        let byName = CertificatePath.build(from: ours.signer, pool: [forged, ours.root])
        #expect(byName.last == forged)
        #expect(CertificatePath.anchored(byName, to: [ours.root]) == [false, false])
        let verified = CertificatePath.build(from: ours.signer, pool: [forged, ours.root], verifying: true)
        #expect(verified.last == ours.root)
        #expect(CertificatePath.anchored(verified, to: [ours.root]) == [true, true])
        // The signer itself as the anchor (a seal's certificate) does not vouch for the forged issuer.
        #expect(CertificatePath.anchored([ours.signer, forged], to: [ours.signer]) == [true, false])
        #expect(!ours.signer.isSigned(by: forged))
    }
}
