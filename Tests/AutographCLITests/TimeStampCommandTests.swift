import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

/// `autograph sign --level B-T --tsa`, `autograph timestamp` and what `verify` says of them, against
/// certomancer's time-stamp authority on loopback; checked by pyHanko.
@Suite("time-stamps on the command line")
struct TimeStampCommandTests {
    @Test("sign --level B-T, then timestamp: verify reports the level and the time-stamp; pyHanko agrees")
    func signAndStamp() async throws {
        let services = try Certomancer.shared()
        let directory = try TestPaths.temporaryDirectory("cli-tsa")
        let (input, signed, stamped) = (directory + "/in.pdf", directory + "/b-t.pdf", directory + "/b-t-ts.pdf")
        _ = await autograph("sample", "-o", input)
        let key = TestPaths.fixture("certomancer", "keys/signer.key.pem")
        let certificate = try services.certificate("signer")
        let chain = try services.certificate("intermediate")
        let sign = await autograph(
            "sign", input, "-o", signed, "--key", key, "--cert", certificate, "--chain", chain, "--level", "B-T",
            "--tsa", services.tsaURL)
        #expect(sign.code == .success, "\(sign.errors)")
        let stamp = await autograph("timestamp", signed, "-o", stamped, "--tsa", services.tsaURL)
        #expect(
            stamp.code == .success && stamp.output.contains("time-stamped by CN=Autograph Certomancer TSA"), "\(stamp)")
        let verify = await autograph("verify", stamped, "--trust", services.rootCertificatePath, "--json")
        #expect(verify.code == .success, "\(verify.errors)")
        let signatures = try #require(
            try JSONSerialization.jsonObject(with: Data(verify.output.utf8)) as? [[String: Any]])
        #expect(signatures.count == 2)
        let first = try #require(signatures.first)
        #expect(first["level"] as? String == "B-T" && first["verdict"] as? String == "validWithAllowedChanges")
        let stampReport = try #require(first["timeStamp"] as? [String: Any])
        #expect(stampReport["intact"] as? Bool == true && stampReport["trusted"] as? Bool == true)
        #expect(
            signatures.last?["subFilter"] as? String == "ETSI.RFC3161"
                && signatures.last?["verdict"] as? String == "valid")
        let text = await autograph("verify", stamped, "--trust", services.rootCertificatePath)
        #expect(text.output.contains("PAdES level:    B-T") && text.output.contains("Time-stamp:"), "\(text.output)")
        let verdicts = try SignatureOracle.pyhanko(stamped, trust: services.rootCertificatePath)
        #expect(
            verdicts.count == 1 && verdicts.values.first?.contains("TIMESTAMP_TOKEN<INTACT:TRUSTED>") == true,
            "\(verdicts)")
    }

    @Test("sign --level B-LTA, and extend a B-T file to B-LT then B-LTA: verify reports each level")
    func longTerm() async throws {
        let services = try Certomancer.shared()
        let directory = try TestPaths.temporaryDirectory("cli-ltv")
        let input = directory + "/in.pdf"
        _ = await autograph("sample", "-o", input)
        let signing = [
            "sign", input, "--key", TestPaths.fixture("certomancer", "keys/signer.key.pem"), "--cert",
            try services.certificate("signer"), "--chain", try services.certificate("intermediate"), "--tsa",
            services.tsaURL,
        ]
        func level(_ path: String) async throws -> String? {
            let verify = await autograph("verify", path, "--trust", services.rootCertificatePath, "--json")
            let list = try JSONSerialization.jsonObject(with: Data(verify.output.utf8)) as? [[String: Any]]
            return list?.first?["level"] as? String
        }
        let archived = directory + "/b-lta.pdf"
        let sign = await AutographCLI.run(signing + ["-o", archived, "--level", "B-LTA"], console: .captured())
        #expect(sign == .success)
        #expect(try await level(archived) == "B-LTA")
        let timestamped = directory + "/b-t.pdf"
        _ = await AutographCLI.run(signing + ["-o", timestamped], console: .captured())
        #expect(try await level(timestamped) == "B-T")
        let longTerm = directory + "/b-lt.pdf"
        let extend = await autograph("extend", timestamped, "-o", longTerm)
        #expect(extend.code == .success && extend.errors.isEmpty, "\(extend)")
        #expect(try await level(longTerm) == "B-LT")
        let renewed = directory + "/renewed.pdf"
        #expect(await autograph("extend", longTerm, "-o", renewed, "--tsa", services.tsaURL).code == .success)
        #expect(try await level(renewed) == "B-LTA")
        // After the signer's certificate has expired (2028-12-31): the B-LTA file still validates with
        // what it embeds, checked at its time-stamp's time; the B-T file, without material, does not.
        let later = await autograph(
            "verify", renewed, "--trust", services.rootCertificatePath, "--revocation", "embedded", "--at", "2029-06-01"
        )
        #expect(later.code == .success && later.output.contains("PAdES level:    B-LTA"), "\(later.output)")
        #expect(later.output.contains("(the time-stamp's)") && later.output.contains("good (dss)"), "\(later.output)")
        let expired = await autograph(
            "verify", timestamped, "--trust", services.rootCertificatePath, "--at", "2029-06-01T00:00:00Z")
        // Intact, its signer's certificate expired: signed, the signer not trusted (exit 4), not broken.
        #expect(expired.code == .signerNotTrusted && expired.output.contains("expired"), "\(expired.output)")
        for hostile in [
            "next year", "99999999999999999999-01-01", "2030-13-01", "2030-06-01T25:00:00Z", "2030-06-01T12:00:00",
        ] {
            #expect(await autograph("verify", renewed, "--at", hostile).code == .usage, "\(hostile)")
        }
        // --at validates with what the document embeds; --revocation takes three words.
        #expect(await autograph("verify", renewed, "--at", "2029-06-01", "--revocation", "online").code == .usage)
        #expect(await autograph("verify", renewed, "--revocation", "sometimes").code == .usage)
        let unsigned = await autograph("extend", input, "-o", directory + "/nothing.pdf")
        #expect(unsigned.code == .failure && unsigned.errors.contains("no signature"), "\(unsigned.errors)")
    }

    @Test("--level and --tsa misused are usage errors; an authority that fails is −146 and writes nothing")
    func mistakes() async throws {
        let services = try Certomancer.shared()
        let directory = try TestPaths.temporaryDirectory("cli-tsa")
        let input = directory + "/in.pdf"
        _ = await autograph("sample", "-o", input)
        let signing = [
            "sign", input, "--key", TestPaths.fixture("certomancer", "keys/signer.key.pem"), "--cert",
            try services.certificate("signer"),
        ]
        for extra in [
            ["--level", "B-T"], ["--level", "B-B", "--tsa", services.tsaURL], ["--level", "B-X"],
            ["--tsa-user", "ada"], ["--tsa", services.tsaURL, "--tsa-password-file", "/nonexistent"],
        ] {
            let result = await AutographCLI.run(signing + ["-o", directory + "/out.pdf"] + extra, console: .captured())
            #expect(result == .usage, "\(extra)")
        }
        let output = directory + "/refused.pdf"
        let refused = await autograph(
            "sign", input, "-o", output, "--key", TestPaths.fixture("certomancer", "keys/signer.key.pem"), "--cert",
            try services.certificate("signer"), "--tsa", services.tsaNoEKUURL)
        #expect(refused.code == .failure && refused.errors.contains("-146"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let missing = await autograph("timestamp", input, "-o", output)
        #expect(missing.code == .usage)
        // A revoked signer is not made long-term: −129, nothing written (pyHanko refuses it too).
        let revoked = await autograph(
            "sign", input, "-o", output, "--key", TestPaths.fixture("certomancer", "keys/signer-revoked.key.pem"),
            "--cert", try services.certificate("signer-revoked"), "--chain", try services.certificate("intermediate"),
            "--tsa", services.tsaURL, "--level", "B-LT")
        #expect(revoked.code == .failure && revoked.errors.contains("-129"), "\(revoked.errors)")
        #expect(revoked.errors.contains("was revoked on 2026-06-01"), "\(revoked.errors)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
