import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// PAdES B-LT and B-LTA against certomancer's OCSP responders, CRLs and time-stamp authority on
/// loopback, checked by pyHanko; pyHanko's own B-LT and B-LTA files read back by Autograph.
@Suite("Long-term signatures: B-LT, B-LTA, renewal, revocation from the DSS")
struct LongTermValidationTests {
    static func signed(_ services: Certomancer, signer label: String = "signer") async throws -> [UInt8] {
        let signer = try LocalKeySigner(
            keyPEM: TestPaths.fixture("certomancer", "keys/\(label).key.pem"),
            certificatePEM: try services.certificate(label), chainPEM: try services.certificate("intermediate"),
            allowExpired: true)
        var documentSigner = DocumentSigner(
            document: try PDFDocument(bytes: TestDocuments.simple()), request: SignatureRequest(placement: .invisible),
            signer: signer)
        documentSigner.timeStampAuthority = try HTTPTimeStampAuthority(url: services.tsaURL)
        return try await documentSigner.sign().bytes()
    }

    static func statuses(_ bytes: [UInt8], _ services: Certomancer) throws -> [SignatureStatus] {
        let root = Certificate.certificates(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: services.rootCertificatePath))))
        return SignatureValidator(document: try PDFDocument(bytes: bytes), trustRoots: root).validate()
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("ltv") + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("B-LT then B-LTA: a DSS with every path's status, then a document time-stamp; a renewal adds another")
    func levels() async throws {
        let services = try Certomancer.shared()
        let signed = try await Self.signed(services)
        let validation = LongTermValidation(
            document: try PDFDocument(bytes: signed), revocation: OnlineRevocationSource())
        let (longTerm, problems) = try await validation.addValidationMaterial()
        #expect(problems.isEmpty, "\(problems)")
        #expect(Array(longTerm.prefix(signed.count)) == signed)
        #expect(try Self.statuses(longTerm, services).first?.level == "B-LT")

        // The DSS as pyHanko reads it: the signer's and the authority's paths with OCSP answers.
        let path = try Self.write(longTerm, "b-lt.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let dss = try Oracle.run(
            "python3",
            [
                "-c",
                "import sys;from pyhanko.pdf_utils.reader import PdfFileReader;"
                    + "from pyhanko.sign.validation.dss import DocumentSecurityStore as D;"
                    + "d=D.read_dss(PdfFileReader(open(sys.argv[1],'rb')));"
                    + "print(len(list(d.load_certs())),len(d.ocsps),len(d.crls),len(d.vri_entries))",
                path,
            ])
        let counts = dss.output.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // Certificates: signer, intermediate, root, TSA, the delegated OCSP responder; OCSP: the signer,
        // the TSA and the intermediate (twice the same intermediate answer is one); one VRI entry.
        #expect(counts.count == 4 && counts[0] >= 4 && counts[1] >= 3 && counts[3] == 1, "\(dss.output) \(dss.errors)")

        let authority = try HTTPTimeStampAuthority(url: services.tsaURL)
        let archived = try await LongTermValidation(
            document: try PDFDocument(bytes: signed), revocation: OnlineRevocationSource()
        ).archive(with: authority).bytes
        let archivedPath = try Self.write(archived, "b-lta.pdf")
        let statuses = try Self.statuses(archived, services)
        let allValid = statuses.allSatisfy { $0.isValidAsShown }
        #expect(statuses.first?.level == "B-LTA" && allValid, "\(statuses.map { $0.problems })")
        let verdict = try SignatureOracle.pyhanko(archivedPath, trust: services.rootCertificatePath).values.first ?? ""
        #expect(
            verdict.hasPrefix("INTACT:TRUSTED") && verdict.contains("TIMESTAMP_TOKEN<INTACT:TRUSTED>")
                && verdict.contains("EXTENDED_WITH_LTA_UPDATES"), "\(verdict)")
        let stamps = try SignatureOracle.pyhankoDocumentTimestamps(archivedPath, trust: services.rootCertificatePath)
        #expect(stamps.count == 1 && stamps.values.allSatisfy { $0 == "True:True:True" }, "\(stamps)")

        // An archive renewal: fresh material for the last time-stamp, and a new one over it.
        let renewed = try await LongTermValidation(
            document: try PDFDocument(bytes: archived), revocation: OnlineRevocationSource()
        ).archive(with: authority)
        #expect(renewed.problems.isEmpty, "\(renewed.problems)")
        let renewedPath = try Self.write(renewed.bytes, "b-lta-renewed.pdf")
        let renewedStatuses = try Self.statuses(renewed.bytes, services)
        #expect(renewedStatuses.count == 3 && renewedStatuses.first?.level == "B-LTA")
        let renewedValid = renewedStatuses.allSatisfy { $0.isValidAsShown }
        #expect(renewedValid, "\(renewedStatuses.map { $0.problems })")
        let renewedStamps = try SignatureOracle.pyhankoDocumentTimestamps(
            renewedPath, trust: services.rootCertificatePath)
        let allStampsValid = renewedStamps.values.allSatisfy { $0 == "True:True:True" }
        #expect(renewedStamps.count == 2 && allStampsValid, "\(renewedStamps)")
        let renewedVerdicts = try SignatureOracle.pyhanko(renewedPath, trust: services.rootCertificatePath)
        let renewedVerdict = renewedVerdicts.values.first ?? ""
        #expect(renewedVerdict.contains("EXTENDED_WITH_LTA_UPDATES"), "\(renewedVerdict)")
    }

    @Test("pyHanko's own B-LT and B-LTA files: Autograph reads the same levels and verdicts")
    func pyhankoFiles() async throws {
        let services = try Certomancer.shared()
        let directory = try TestPaths.temporaryDirectory("ltv-pyhanko")
        let input = directory + "/in.pdf"
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: input))
        for (lta, level) in [(false, "B-LT"), (true, "B-LTA")] {
            let output = directory + "/\(level).pdf"
            let made = try SignatureOracle.runPyhanko(
                ["sign", "addsig", "--field", "PySig", "--use-pades"] + (lta ? ["--use-pades-lta"] : [])
                    + [
                        "--with-validation-info", "--timestamp-url", services.tsaURL, "--trust-replace", "--trust",
                        services.rootCertificatePath, "pemder", "--key",
                        TestPaths.fixture("certomancer", "keys/signer.key.pem"), "--cert",
                        try services.certificate("signer"), "--chain", try services.certificate("intermediate"),
                        "--no-pass", input, output,
                    ])
            #expect(made.status == 0, "\(made.errors)")
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
            let status = try #require(try Self.statuses(bytes, services).first { $0.fieldName == "PySig" })
            #expect(
                status.level == level && status.isValidAsShown, "\(level): \(status.level ?? "nil") \(status.problems)")
            let verdict = try SignatureOracle.pyhanko(output, trust: services.rootCertificatePath)["PySig"] ?? ""
            #expect(verdict.hasPrefix("INTACT:TRUSTED"), "\(verdict)")
        }
    }

    @Test("A signer revoked before the time-stamp: the DSS says so and the signature is not trusted, as pyHanko says")
    func revokedSigner() async throws {
        let services = try Certomancer.shared()
        let signed = try await Self.signed(services, signer: "signer-revoked")
        let (bytes, _) = try await LongTermValidation(
            document: try PDFDocument(bytes: signed), revocation: OnlineRevocationSource()
        ).addValidationMaterial()
        let status = try #require(try Self.statuses(bytes, services).first)
        #expect(!status.trust.isTrusted && status.verdict == .invalid)
        #expect(status.trustReason?.contains("revoked on 2026-06-01") == true, "\(status.trustReason ?? "")")
        let path = try Self.write(bytes, "revoked.pdf")
        let verdict = try SignatureOracle.pyhanko(path, trust: services.rootCertificatePath).values.first ?? ""
        #expect(verdict.contains("REVOKED"), "\(verdict)")
    }
}
