import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import AutographCLI

/// Real documents of the corpus signed with `autograph sign`, checked by pyHanko, pdfsig and qpdf.
@Suite(
    "Corpus signing: pyHanko and pdfsig accept every signature; earlier ones stay intact",
    .enabled(if: Requirement.corpus, "the corpus is absent"))
struct SigningCorpusTests {
    static let root = TestPaths.fixture("pki", "root.cert.pem")

    struct Candidate {
        var file: CorpusFile
        var password: String?
        var earlierSignatures: Int
    }

    /// Files that open cleanly (qpdf --check exit 0, read without repairs): the unsigned ones and the signed ones.
    static func candidates() throws -> [Candidate] {
        let root = try #require(TestPaths.corpus)
        var result: [Candidate] = []
        for file in CorpusFile.all(in: root) {
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            guard try Oracle.qpdfCheck(file.path, password: password).status == 0,
                let document = try? PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: password)),
                document.pageCount > 0, !document.isDamaged
            else { continue }
            let signed =
                AcroForm(document: document)?.signatureFields.filter { $0.value == .signature(signed: true) }.count ?? 0
            result.append(Candidate(file: file, password: password, earlierSignatures: signed))
        }
        return result
    }

    @Test("sign unsigned and signed corpus files; every output validates")
    func signCorpus() async throws {
        let candidates = try Self.candidates()
        let unsigned = candidates.filter { $0.earlierSignatures == 0 }
        let signed = candidates.filter { $0.earlierSignatures > 0 }
        #expect(unsigned.count >= 30, "only \(unsigned.count) unsigned files open cleanly")
        let directory = try TestPaths.temporaryDirectory("corpus-sign")
        var signedCount = 0
        var encryptedCount = 0
        var lenient = 0
        var earlierChecked = 0
        var refusedCertified = 0
        for (index, candidate) in (unsigned + signed).enumerated() {
            let output = directory + "/signed-\(index).pdf"
            var arguments = [
                "sign", candidate.file.path, "-o", output, "--p12", TestPaths.fixture("pki", "signer-p256.p12"),
                "--p12-password", "secret", "--reason", "corpus test",
            ]
            if index % 2 == 0 {
                arguments += ["--page", "1", "--rect", "36,36,236,86"]
            } else {
                arguments += ["--invisible"]
            }
            if let password = candidate.password { arguments += ["--password", password] }
            let console = Console.captured()
            let code = await AutographCLI.run(arguments, console: console)
            guard code == .success || code == .successWithWarnings else {
                // A document certified with no changes permitted (DocMDP P=1) is not signed again.
                let document = try? PDFDocument(
                    contentsOfFile: candidate.file.path, options: ParseOptions(password: candidate.password))
                if console.errors.contains("(signo -129)"),
                    let document, CertificationCheck.restrictions(of: document).certification == .noChanges
                {
                    refusedCertified += 1
                    #expect(!FileManager.default.fileExists(atPath: output), "\(candidate.file.name): written")
                } else {
                    Issue.record("\(candidate.file.name): \(console.errors)")
                }
                continue
            }
            signedCount += 1
            if candidate.password != nil || (try? PDFDocument(contentsOfFile: candidate.file.path))?.encryption != nil {
                encryptedCount += 1
            }
            let original = try Data(contentsOf: URL(fileURLWithPath: candidate.file.path))
            let result = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(result.prefix(original.count) == original, "\(candidate.file.name): input is not a prefix")
            let check = try Oracle.qpdfCheck(output, password: candidate.password)
            #expect(check.status == 0, "\(candidate.file.name): qpdf \(check.output)")

            // pyHanko's strict mode refuses some inputs as they are (e.g. a generation 65536 in their
            // cross-reference table); for those the original is checked to fail it too, and the output
            // is read leniently.
            let strict = try SignatureOracle.pyhankoReadsStrictly(candidate.file.path, password: candidate.password)
            if !strict { lenient += 1 }
            let verdicts = try SignatureOracle.pyhanko(
                output, trust: Self.root, password: candidate.password, strict: strict)
            #expect(verdicts.count == candidate.earlierSignatures + 1, "\(candidate.file.name): pyHanko \(verdicts)")
            #expect(
                verdicts.values.contains { $0.hasPrefix("INTACT:TRUSTED") },
                "\(candidate.file.name): pyHanko \(verdicts)")
            // Earlier signatures keep the verdict they had before (intact stays intact).
            if candidate.earlierSignatures > 0 {
                let before = try SignatureOracle.pyhanko(
                    candidate.file.path, trust: Self.root, password: candidate.password, strict: strict)
                for (name, verdict) in before where verdict.hasPrefix("INTACT") {
                    #expect(
                        verdicts[name]?.hasPrefix("INTACT") == true,
                        "\(candidate.file.name) \(name): \(verdicts[name] ?? "gone")")
                }
                earlierChecked += before.count
            }
            let pdfsig = try SignatureOracle.pdfsig(output, trust: Self.root, password: candidate.password)
            #expect(pdfsig.contains { $0.valid && $0.trusted }, "\(candidate.file.name): pdfsig \(pdfsig)")
        }
        print(
            "corpus signing: signed \(signedCount) files (\(unsigned.count) unsigned, \(signed.count) already signed, "
                + "\(encryptedCount) encrypted; \(refusedCertified) certified P=1, refused); pyHanko and pdfsig accepted the new signatures; \(earlierChecked) earlier signatures kept their verdict; "
                + "pyHanko read \(lenient) leniently (their original bytes fail its strict mode, or are hybrid-reference files)"
        )
    }
}
