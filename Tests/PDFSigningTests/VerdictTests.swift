import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The verdict tells a broken signature (`invalid`) from an intact one whose signer is not trusted
/// (`untrusted`), as pyHanko (`INVALID` against `INTACT:UNTRUSTED`) and pdfsig ("Digest Mismatch"
/// against "Signature is Valid" with an untrusted certificate) tell them, on the same files.
@Suite("Verdicts: valid, signed but signer not trusted, invalid — as pyHanko and pdfsig say")
struct VerdictTests {
    static let root = ValidationTests.root
    static let otherRoot = ValidationTests.otherRoot

    /// pyHanko's verdict line and pdfsig's report on `bytes`, each trusting `root` alone; nil (with a
    /// warning) when pyHanko, pdfsig or certutil is not installed.
    static func oracles(_ bytes: [UInt8], trust root: String, name: String) throws -> (pyhanko: String, pdfsig: String)?
    {
        guard
            Requirement.check(
                ValidationOracles.installed,
                orWarn: "pyHanko, pdfsig or certutil is not installed; their verdicts are not compared")
        else { return nil }
        let path = try ValidationTests.write(bytes, name)
        let pyhanko = try SignatureOracle.pyhanko(path, trust: root).values.first ?? ""
        let pdfsig = try Oracle.run("pdfsig", ["-nssdir", "sql:" + (try SignatureOracle.nssDatabase(root)), path])
        return (pyhanko, pdfsig.output)
    }

    /// A one-page document signed by signer-p256, whose path leads to the test PKI's root.
    static func signed() async throws -> [UInt8] {
        try await ValidationTests.sign(TestDocuments.simple(), signer: try ValidationTests.signer("signer-p256"))
    }

    @Test("signed under the trust root: valid and intact; pyHanko INTACT:TRUSTED, pdfsig trusted")
    func trusted() async throws {
        let signed = try await Self.signed()
        let status = try #require(try ValidationTests.validate(signed, trust: Self.root).first)
        #expect(status.verdict == .valid && status.isIntact && status.isValid && status.isValidAsShown)
        #expect(status.verdict.rawValue == "valid")  // the word of verify --json and the web API
        guard let oracles = try Self.oracles(signed, trust: Self.root, name: "trusted.pdf") else { return }
        let (pyhanko, pdfsig) = oracles
        #expect(pyhanko.hasPrefix("INTACT:TRUSTED"), "\(pyhanko)")
        #expect(pdfsig.contains("Signature is Valid.") && pdfsig.contains("Certificate is Trusted."), "\(pdfsig)")
    }

    @Test("signed by a certificate not under the trust root: untrusted, never invalid; INTACT:UNTRUSTED for pyHanko")
    func untrusted() async throws {
        let signed = try await Self.signed()
        let status = try #require(try ValidationTests.validate(signed, trust: Self.otherRoot).first)
        #expect(status.verdict == .untrusted, "\(describe(status))")
        #expect(status.isIntact && !status.isValid && !status.isValidAsShown && !status.signerRevoked)
        #expect(status.verdict.rawValue == "untrusted")  // the word of verify --json and the web API
        #expect(status.summary.contains("but the signer is not trusted"), "\(status.summary)")
        #expect(!status.summary.contains("NOT valid"), "\(status.summary)")
        // No trust root at all: the same.
        let noRoots = try #require(
            SignatureValidator(document: try PDFDocument(bytes: signed), trustRoots: []).validate().first)
        #expect(noRoots.verdict == .untrusted && noRoots.trustReason?.contains("no trust roots") == true)
        guard let oracles = try Self.oracles(signed, trust: Self.otherRoot, name: "untrusted.pdf")
        else { return }
        let (pyhanko, pdfsig) = oracles
        #expect(pyhanko.hasPrefix("INTACT:UNTRUSTED"), "\(pyhanko)")
        #expect(pdfsig.contains("Signature is Valid.") && !pdfsig.contains("Certificate is Trusted."), "\(pdfsig)")
        #expect(pdfsig.contains("Certificate issuer isn't Trusted."), "\(pdfsig)")
    }

    @Test("a signed byte changed: invalid, whoever is trusted; pyHanko INVALID, pdfsig Digest Mismatch")
    func changedBytes() async throws {
        var signed = try await Self.signed()
        let reason = try #require(ValidationTests.lastRange(of: Array("Approved".utf8), in: signed))
        signed.replaceSubrange(reason, with: Array("Rejected".utf8))
        for root in [Self.root, Self.otherRoot] {
            let status = try #require(try ValidationTests.validate(signed, trust: root).first)
            #expect(status.verdict == .invalid && !status.isIntact, "\(describe(status))")
            #expect(status.verdict.rawValue == "invalid")  // the word of verify --json and the web API
            #expect(status.summary.contains("NOT valid") && status.summary.contains("the signed bytes changed"))
        }
        guard let oracles = try Self.oracles(signed, trust: Self.root, name: "changed.pdf") else { return }
        let (pyhanko, pdfsig) = oracles
        #expect(pyhanko.hasPrefix("INVALID"), "\(pyhanko)")
        #expect(pdfsig.contains("Digest Mismatch.") && !pdfsig.contains("Signature is Valid."), "\(pdfsig)")
    }

    @Test("an expired signer without a time-stamp is untrusted now (intact), and valid when it was in force")
    func expired() async throws {
        let signed = try await ValidationTests.sign(
            TestDocuments.simple(), signer: try ValidationTests.signer("signer-expired", allowExpired: true))
        let status = try #require(try ValidationTests.validate(signed).first)
        #expect(status.verdict == .untrusted && status.trustReason?.contains("expired") == true, "\(describe(status))")
        let then = try #require(try ValidationTests.validate(signed, at: 1_590_969_600).first)  // 2020-06-01
        #expect(then.verdict == .valid)
    }

    @Test("untrusted and changed later as permitted stays untrusted; changed as nothing permits is modified")
    func untrustedAndChanged() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes)
        // A second signature, trusted or not, is a permitted change for the first.
        let twice = try await Attack.sign(signed, field: "Signature2")
        let first = try #require(try ValidationTests.validate(twice, trust: Self.otherRoot).first)
        #expect(first.modifications?.level == .signatures)
        #expect(first.verdict == .untrusted, "\(describe(first))")
        #expect(first.summary.contains("changed since only as allowed"), "\(first.summary)")
        // The page's content replaced by an unsigned update: what the document shows is not what was signed.
        var update = try HandUpdate(base: signed)
        update.write(document.content, IncrementalSavingAttackTests.evil)
        let modified = try #require(try ValidationTests.validate(try update.bytes(), trust: Self.otherRoot).first)
        #expect(modified.isIntact && modified.verdict == .modified, "\(describe(modified))")
        #expect(modified.summary.contains("the signer is not trusted either"), "\(modified.summary)")
    }
}
