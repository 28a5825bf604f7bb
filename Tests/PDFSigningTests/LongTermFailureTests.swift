import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFSigning

/// What goes wrong on the way to a lasting signature: an OCSP responder down (the CRL stands in),
/// no status at all (named, the level stays B-T), an authority answering with another request's token.
@Suite("Long-term signatures when a service fails")
struct LongTermFailureTests {
    /// A transport every request of which fails as a responder that is down.
    static let down = CRLTests.Transport { _ throws(HTTPClientError) in
        throw HTTPClientError(.connectionFailed, "connection refused")
    }

    @Test("An OCSP responder that is down: each certificate's CRL stands in; B-LT, and pyHanko trusts it")
    func crlFallback() async throws {
        let services = try Certomancer.shared()
        let signed = try await LongTermValidationTests.signed(services)
        let source = OnlineRevocationSource(
            ocsp: OCSPClient(transport: Self.down), crl: CRLClient(), transport: CurlTransport())
        let (bytes, problems) = try await LongTermValidation(
            document: try PDFDocument(bytes: signed), revocation: source
        )
        .addValidationMaterial()
        #expect(problems.isEmpty, "\(problems)")
        #expect(!Self.down.sent.isEmpty)
        let status = try #require(try LongTermValidationTests.statuses(bytes, services).first)
        #expect(status.level == "B-LT" && status.isValidAsShown, "\(status.problems)")
        let path = try LongTermValidationTests.write(bytes, "crl-only.pdf")
        let dss = try Oracle.run(
            "python3",
            [
                "-c",
                "import sys;from pyhanko.pdf_utils.reader import PdfFileReader;"
                    + "from pyhanko.sign.validation.dss import DocumentSecurityStore as D;"
                    + "d=D.read_dss(PdfFileReader(open(sys.argv[1],'rb')));print(len(d.ocsps),len(d.crls))",
                path,
            ])
        #expect(dss.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0 2", "\(dss.output) \(dss.errors)")
        let verdict = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath).values.first ?? ""
        #expect(verdict.hasPrefix("INTACT:TRUSTED"), "\(verdict)")
    }

    @Test("No status to be had (responder down, CRL stale): each certificate is named, and the level stays B-T")
    func noStatus() async throws {
        let services = try Certomancer.shared()
        let signed = try await LongTermValidationTests.signed(services)
        // A clock a year ahead: every CRL fetched is past its nextUpdate.
        let late = CRLClient(transport: CurlTransport(), now: { PDFDate.now().seconds + 365 * 86_400 })
        let source = OnlineRevocationSource(
            ocsp: OCSPClient(transport: Self.down), crl: late, transport: CurlTransport())
        let (bytes, problems) = try await LongTermValidation(
            document: try PDFDocument(bytes: signed), revocation: source
        )
        .addValidationMaterial()
        // The signer, the authority and the intermediate (on both paths, asked once).
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.allSatisfy { $0.contains("no status") && $0.contains("CRL") }, "\(problems)")
        let status = try #require(try LongTermValidationTests.statuses(bytes, services).first)
        #expect(status.level == "B-T", "\(status.level ?? "nil")")
    }

    @Test("An authority that answers with the token of another request (another nonce) is −146")
    func replayedToken() async throws {
        let services = try Certomancer.shared()
        let first = Mutex<[UInt8]?>(nil)
        let replaying = CRLTests.Transport { request throws(HTTPClientError) in
            if let kept = first.withLock({ $0 }) { return HTTPClientResponse(status: 200, body: kept) }
            throw HTTPClientError(.unavailable, "no answer kept yet")
        }
        // The first answer is a real one, kept; the second request gets it again.
        let real = try await CurlTransport().send(
            HTTPClientRequest(
                .post, services.tsaURL, headers: [("Content-Type", "application/timestamp-query")],
                body: try TimeStampRequest(hashing: [1, 2, 3]).encoded))
        first.withLock { $0 = real.body }
        let authority = try HTTPTimeStampAuthority(url: services.tsaURL, transport: replaying)
        let error = await #expect(throws: SigningError.self) {
            _ = try await authority.timeStamp(try TimeStampRequest(hashing: [1, 2, 3]))
        }
        #expect(error?.signoCode == -146 && error?.message.contains("nonce") == true, "\(error?.message ?? "")")
    }
}
