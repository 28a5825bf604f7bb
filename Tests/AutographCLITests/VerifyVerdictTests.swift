import Foundation
import PDFTestSupport
import Testing

/// `autograph verify` run as scripts run it, a child process: its verdict word and exit code for a
/// signature made under the trust root (valid, 0), one whose signer is not under `--trust`
/// (untrusted, 4) and one whose signed bytes changed (invalid, 1), beside pyHanko's and pdfsig's
/// verdicts on the same files with the same trust anchor.
@Suite(
    "autograph verify: valid exits 0, signed but untrusted 4, invalid 1, as pyHanko and pdfsig tell them",
    .enabled(if: Requirement.builtProduct("autograph"), "autograph is not built next to the test binary"))
struct VerifyVerdictTests {
    static let root = TestPaths.fixture("pki", "root.cert.pem")
    static let otherRoot = TestPaths.fixture("pki", "other-root.cert.pem")

    /// Runs the built `autograph` with `arguments`.
    static func run(_ arguments: [String]) throws -> Oracle.Result {
        try Oracle.run(try #require(TestPaths.builtProduct("autograph")), arguments, timeout: 300)
    }

    /// `verify FILE --trust ROOT` (statuses from the document only: no network), as text and as JSON.
    static func verify(_ path: String, trust root: String) throws -> (status: Int32, text: String, verdicts: [String]) {
        let common = [path, "--trust", root, "--revocation", "embedded"]
        let text = try run(["verify"] + common)
        let json = try run(["verify"] + common + ["--json"])
        #expect(json.status == text.status, "\(json.errors)")
        let reports = (try? JSONSerialization.jsonObject(with: json.outputData) as? [[String: Any]]) ?? []
        return (text.status, text.output + text.errors, reports.compactMap { $0["verdict"] as? String })
    }

    /// pyHanko's verdict line and pdfsig's report on `path`, trusting `root` alone; nil (with a
    /// warning) when pyHanko, pdfsig or certutil is not installed.
    static func oracles(_ path: String, trust root: String) throws -> (pyhanko: String, pdfsig: String)? {
        guard
            Requirement.check(
                Requirement.pyHankoCLI && Requirement.tools("pdfsig", "certutil"),
                orWarn: "pyHanko, pdfsig or certutil is not installed; their verdicts are not compared")
        else { return nil }
        let pyhanko = try SignatureOracle.pyhanko(path, trust: root).values.first ?? ""
        let pdfsig = try Oracle.run("pdfsig", ["-nssdir", "sql:" + (try SignatureOracle.nssDatabase(root)), path])
        return (pyhanko, pdfsig.output)
    }

    @Test("one signed file judged against its root, another root, and with a signed byte changed")
    func verdictsAndExitCodes() throws {
        let directory = try TestPaths.temporaryDirectory("verify-verdicts")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unsigned = directory + "/sample.pdf"
        let signed = directory + "/signed.pdf"
        let changed = directory + "/changed.pdf"
        #expect(try Self.run(["sample", "-o", unsigned]).status == 0)
        let signing = try Self.run([
            "sign", unsigned, "-o", signed, "--p12", TestPaths.fixture("pki", "signer-p256.p12"), "--p12-password",
            "secret", "--invisible", "--reason", "Approved",
        ])
        try #require(signing.status == 0, "\(signing.errors)")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: signed)))
        let reason = try #require(Self.lastRange(of: Array("(Approved)".utf8), in: bytes))
        bytes.replaceSubrange(reason, with: Array("(Rejected)".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: changed))

        // Signed under the root given: valid, 0.
        let valid = try Self.verify(signed, trust: Self.root)
        #expect(valid.status == 0 && valid.verdicts == ["valid"], "\(valid.text)")
        #expect(valid.text.contains(": VALID") && valid.text.contains("Verdict: valid"), "\(valid.text)")

        // The same file, its signer not under the root given: signed, signer not trusted, 4.
        let untrusted = try Self.verify(signed, trust: Self.otherRoot)
        #expect(untrusted.status == 4 && untrusted.verdicts == ["untrusted"], "\(untrusted.text)")
        #expect(untrusted.text.contains(": SIGNED, SIGNER NOT TRUSTED"), "\(untrusted.text)")
        #expect(untrusted.text.contains("Verdict: untrusted (signed, signer not trusted)"), "\(untrusted.text)")
        #expect(!untrusted.text.contains("NOT VALID") && !untrusted.text.contains("invalid"), "\(untrusted.text)")

        // A signed byte changed: invalid, 1, whichever root is given.
        for root in [Self.root, Self.otherRoot] {
            let invalid = try Self.verify(changed, trust: root)
            #expect(invalid.status == 1 && invalid.verdicts == ["invalid"], "\(invalid.text)")
            #expect(
                invalid.text.contains(": NOT VALID") && invalid.text.contains("Verdict: invalid"), "\(invalid.text)")
        }
        // No signature at all: 1, as before.
        #expect(try Self.verify(unsigned, trust: Self.root).status == 1)

        guard let trusted = try Self.oracles(signed, trust: Self.root),
            let notTrusted = try Self.oracles(signed, trust: Self.otherRoot),
            let broken = try Self.oracles(changed, trust: Self.root)
        else { return }
        #expect(trusted.pyhanko.hasPrefix("INTACT:TRUSTED"), "\(trusted.pyhanko)")
        #expect(trusted.pdfsig.contains("Signature is Valid.") && trusted.pdfsig.contains("Certificate is Trusted."))
        #expect(notTrusted.pyhanko.hasPrefix("INTACT:UNTRUSTED"), "\(notTrusted.pyhanko)")
        #expect(notTrusted.pdfsig.contains("Signature is Valid."), "\(notTrusted.pdfsig)")
        #expect(notTrusted.pdfsig.contains("Certificate issuer isn't Trusted."), "\(notTrusted.pdfsig)")
        #expect(broken.pyhanko.hasPrefix("INVALID"), "\(broken.pyhanko)")
        #expect(broken.pdfsig.contains("Digest Mismatch."), "\(broken.pdfsig)")
    }

    @Test("verify --help documents the verdict words and the exit codes 0, 4, 1 and 2")
    func help() throws {
        let help = try Self.run(["verify", "--help"])
        #expect(help.status == 0)
        for word in [
            "untrusted (signed — signer not trusted", "4  every verdict is valid", "1  otherwise", "2  a usage",
        ] {
            #expect(help.output.contains(word), "\(word)")
        }
    }

    /// The last occurrence of `needle` in `haystack`.
    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }
}
