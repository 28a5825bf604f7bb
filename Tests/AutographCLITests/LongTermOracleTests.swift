import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

/// PAdES B-T, B-LT and B-LTA made by `autograph sign --level` against certomancer's PKI on loopback,
/// judged by the oracles: pyHanko (its verdict with every certificate's status required,
/// `pyhanko sign adesverify`, the AdES validation process of each level) and pdfsig. The B-LTA file
/// then validates from what it embeds alone, now and after its signer's certificate has expired, by
/// pyHanko's AdES LTA process and by `autograph verify --at`; files lacking the DSS or the document
/// time-stamp, or recording a revoked signer, do not.
@Suite("Long-term levels against the oracles: pyHanko's AdES processes, pdfsig, the B-LTA offline")
struct LongTermOracleTests {
    /// After the signer's certificate (2026-01-01 – 2028-12-31) has expired.
    static let expired = "2029-06-01T00:00:00Z"

    /// Signs a new sample document at `level` with `label`'s key, time-stamped by certomancer's TSA,
    /// and returns its path.
    static func sign(
        _ level: String, _ services: Certomancer, signer label: String = "signer", in directory: String
    ) async throws -> String {
        let input = directory + "/in.pdf"
        if !FileManager.default.fileExists(atPath: input) {
            #expect(await autograph("sample", "-o", input).code == .success)
        }
        let output = directory + "/\(label)-\(level).pdf"
        let sign = await autograph(
            "sign", input, "-o", output, "--key", TestPaths.fixture("certomancer", "keys/\(label).key.pem"), "--cert",
            try services.certificate(label), "--chain", try services.certificate("intermediate"), "--level", level,
            "--tsa", services.tsaURL)
        #expect(sign.code == .success, "\(level): \(sign.errors)")
        return output
    }

    @Test(
        "B-T, B-LT, B-LTA: pyHanko trusts each with every status required, adesverify agrees, the AdES process of the level passes, pdfsig trusts each"
    )
    func levels() async throws {
        // Whole-second times: pdfsig (NSS) refuses OCSP responses whose times carry microseconds, and
        // it asks the OCSP responders itself.
        let services = try Certomancer.shared(wholeSeconds: true)
        let root = services.rootCertificatePath
        let directory = try TestPaths.temporaryDirectory("ltv-oracles")
        let cases: [(level: String, updates: String, process: SignatureOracle.AdESProcess)] = [
            ("B-T", "UNTOUCHED", .withTime), ("B-LT", "EXTENDED_WITH_LTA_UPDATES", .withTime),
            ("B-LTA", "EXTENDED_WITH_LTA_UPDATES", .longTerm),
        ]
        for (level, updates, process) in cases {
            let path = try await Self.sign(level, services, in: directory)

            // pyHanko fetches every certificate's status and fails one it cannot have.
            let verdicts = try SignatureOracle.pyhankoRequiringRevocation(path, trust: root)
            let verdict = verdicts.values.first ?? ""
            #expect(
                verdicts.count == 1 && verdict.hasPrefix("INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,\(updates)"),
                "\(level): \(verdicts)")

            // adesverify runs pyHanko's AdES LTA process but prints pyHanko's own status, not the AdES
            // indication: the same line as sign validate, exit status 0.
            let adesverify = try SignatureOracle.pyhankoAdESVerify(path, trust: root)
            let adesVerdict = adesverify.verdicts.values.first ?? ""
            #expect(
                adesverify.status == 0 && adesverify.verdicts.count == 1
                    && adesVerdict.hasPrefix("INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,\(updates)"),
                "\(level): \(adesverify)")

            // The AdES indication of the level's process (§5.5 with time for B-T and B-LT, §5.6.3 for
            // B-LTA), statuses fetched where the document has none.
            let ades = try SignatureOracle.pyhankoAdES(path, trust: root, process: process, offline: false)
            #expect(
                ades.results.count == 1 && ades.results.values.first?.passed == true,
                "\(level): \(ades.results) \(ades.log.suffix(3000))")

            // pdfsig: the signature valid, its certificate trusted. It lists the B-LTA's document
            // time-stamp but validates none ("Unable to validate this type of signature").
            let pdfsig = try SignatureOracle.pdfsig(path, trust: root)
            #expect(
                pdfsig.count == (level == "B-LTA" ? 2 : 1) && pdfsig.first?.valid == true
                    && pdfsig.first?.trusted == true, "\(level): pdfsig \(pdfsig)")
        }
    }

    @Test(
        "A B-LTA validates from what it embeds, now and after its signer's certificate expired (pyHanko's AdES LTA offline, verify --at); without its DSS or its document time-stamp, or with a revoked signer, it does not"
    )
    func offline() async throws {
        let services = try Certomancer.shared()
        let root = services.rootCertificatePath
        let directory = try TestPaths.temporaryDirectory("ltv-offline")
        let archived = try await Self.sign("B-LTA", services, in: directory)

        // Autograph: valid at 2029-06-01 with what the file embeds, its signer's path checked at the
        // signature time-stamp's time, every status from the DSS.
        let verify = await autograph(
            "verify", archived, "--trust", root, "--at", "2029-06-01", "--revocation", "embedded", "--json")
        #expect(verify.code == .success, "\(verify.errors)")
        let signatures = try #require(
            try JSONSerialization.jsonObject(with: Data(verify.output.utf8)) as? [[String: Any]])
        let signature = try #require(signatures.first)
        #expect(
            signatures.count == 2 && signature["level"] as? String == "B-LTA" && signature["valid"] as? Bool == true
                && signature["verdict"] as? String == "validWithAllowedChanges", "\(verify.output)")
        let statuses = signature["revocation"] as? [[String: Any]] ?? []
        #expect(
            signature["revocationChecking"] as? String == "embedded" && !statuses.isEmpty
                && statuses.allSatisfy { $0["status"] as? String == "good" && $0["source"] as? String == "dss" },
            "\(statuses)")
        #expect(
            signatures.last?["subFilter"] as? String == "ETSI.RFC3161"
                && signatures.last?["verdict"] as? String == "valid",
            "\(verify.output)")
        // D:20261202075046Z → 2026-12-02T07:50:46, as pyHanko writes the best signature time.
        let stampTime = try #require((signature["timeStamp"] as? [String: Any])?["time"] as? String)
        let digits = Array(stampTime.dropFirst(2).prefix(14))
        let iso =
            "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))T"
            + "\(String(digits[8..<10])):\(String(digits[10..<12])):\(String(digits[12..<14]))"

        // pyHanko's AdES LTA process with the document's material alone: passed now and after the
        // signer's certificate expired, the signature's existence proven at its time-stamp's time.
        for time in [nil, Self.expired] {
            let (results, log) = try SignatureOracle.pyhankoAdES(archived, trust: root, offline: true, at: time)
            let result = results.values.first
            #expect(
                results.count == 1 && result?.passed == true && result?.bestSignatureTime.hasPrefix(iso) == true,
                "at \(time ?? "now"): \(results) (time-stamp \(iso)) \(log.suffix(3000))")
        }

        // pyHanko 0.38 as it is answers NO_POE: its time slide asks for the status of the root, which
        // signs its own OCSP responses (Tests/Scripts/pyhanko_ades_lta.py says where).
        let asIs = try SignatureOracle.pyhankoAdES(archived, trust: root, offline: true, asIs: true)
        #expect(
            asIs.results.values.first?.indication == "INDETERMINATE:NO_POE"
                && asIs.log.contains("found for certificate Common Name: Autograph Certomancer Root CA"),
            "\(asIs.results) \(asIs.log.suffix(3000))")

        // What lacks the material does not pass offline: a B-T file (no DSS); the same with a document
        // time-stamp (a B-LTA without its DSS); a B-LT file (a DSS, no document time-stamp), which the
        // process with time passes now but, without a proof of its material's existence, neither
        // process after the signer's certificate expired; a signer revoked before its time-stamp, the
        // status in the DSS.
        let timestamped = try await Self.sign("B-T", services, in: directory)
        let stamped = directory + "/b-t-doc-ts.pdf"
        let stamp = await autograph("timestamp", timestamped, "-o", stamped, "--tsa", services.tsaURL)
        #expect(stamp.code == .success, "\(stamp.errors)")
        let longTerm = try await Self.sign("B-LT", services, in: directory)
        let revokedSigned = try await Self.sign("B-T", services, signer: "signer-revoked", in: directory)
        let revoked = directory + "/signer-revoked-B-LTA.pdf"
        let extend = await autograph("extend", revokedSigned, "-o", revoked, "--tsa", services.tsaURL)
        // extend writes the material of an existing signature however it turns out, naming the revocation.
        #expect(extend.code == .successWithWarnings && extend.errors.contains("was revoked on"), "\(extend.errors)")
        let chainFailure = "INDETERMINATE:CERTIFICATE_CHAIN_GENERAL_FAILURE"
        let expectations: [(path: String, process: SignatureOracle.AdESProcess, time: String?, indication: String)] = [
            (timestamped, .longTerm, nil, chainFailure), (timestamped, .longTerm, Self.expired, chainFailure),
            (stamped, .longTerm, nil, chainFailure), (stamped, .longTerm, Self.expired, chainFailure),
            (longTerm, .withTime, nil, "PASSED:OK"), (longTerm, .withTime, Self.expired, "INDETERMINATE:TRY_LATER"),
            (longTerm, .longTerm, Self.expired, "INDETERMINATE:NO_POE"),
            (revoked, .longTerm, nil, "INDETERMINATE:REVOKED_NO_POE"),
            (revoked, .longTerm, Self.expired, "INDETERMINATE:REVOKED_NO_POE"),
        ]
        for (path, process, time, indication) in expectations {
            let (results, log) = try SignatureOracle.pyhankoAdES(
                path, trust: root, process: process, offline: true, at: time)
            let name = "\(URL(fileURLWithPath: path).lastPathComponent) \(process.rawValue) at \(time ?? "now")"
            #expect(
                results.count == 1 && results.values.first?.indication == indication,
                "\(name): \(results) \(log.suffix(2000))")
        }
    }
}
