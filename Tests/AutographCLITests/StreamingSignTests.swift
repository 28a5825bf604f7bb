import Foundation
import PDFSigning
import PDFTestSupport
import Testing

/// ARCHITECTURE.md invariant 4 held by the built `autograph`: signing a 1 GiB document
/// (``LargeDocument``), and preparing, embedding, signing at B-LTA, extending and time-stamping one of
/// 512 MiB (the time to write a few gigabytes spared: a copy of it alone passes the limit), each run
/// in a child process whose private writable memory is limited to 256 MiB (`prlimit --data`, RLIMIT_DATA: heap and anonymous
/// mappings, the Swift runtime's included). A small document's sign needs less than 32 MiB of it
/// (measured with prlimit: 16 MiB is too little, 32 MiB enough), and the same commands on a small
/// document run first under the same limit, so the limit leaves room for the program and for nothing
/// like a copy of the document. The address space (RLIMIT_AS) is not limited instead: the input's
/// read-only mapping counts in it, at the file's size, however little of it is resident.
///
/// Every output is checked by `qpdf --check` and by `autograph verify`, itself run under the limit.
@Suite(
    "Documents of 512 MiB and 1 GiB signed, prepared, embedded, extended and time-stamped within 256 MiB of memory",
    .serialized,
    .enabled(if: Requirement.builtProduct("autograph"), "autograph is not built next to the test binary"),
    .enabled(if: Requirement.tool("prlimit"), "prlimit (util-linux) is not installed"))
struct StreamingSignTests {
    /// The limit on the children's private writable memory.
    static let dataLimit = 256 << 20
    /// The large document's stream in the signing test: four times the limit.
    static let gigabyte = 1 << 30
    /// The large document's stream in the other tests: twice the limit.
    static let halfGigabyte = 1 << 29

    /// Runs the built `autograph` with `arguments` in a child process under ``dataLimit``.
    static func limited(_ arguments: [String]) throws -> Oracle.Result {
        let autograph = try #require(TestPaths.builtProduct("autograph"))
        return try Oracle.run("prlimit", ["--data=\(dataLimit)", "--", autograph] + arguments, timeout: 300)
    }

    /// Expects a run to have succeeded (0, or 3 for warnings when `warnings` allows them).
    static func expectSuccess(
        _ result: Oracle.Result, _ what: String, warnings: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            result.status == 0 || (warnings && result.status == 3),
            "\(what) under a \(dataLimit >> 20) MiB data limit: exit \(result.status), \(result.errors.prefix(600))",
            sourceLocation: sourceLocation)
    }

    /// A small and a large document in a new directory, removed by `body`'s end.
    static func withDocuments(
        _ label: String, streamBytes: Int, _ body: (String, String, String) async throws -> Void
    ) async throws {
        let directory = try TestPaths.temporaryDirectory(label)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let small = directory + "/small.pdf"
        let large = directory + "/large.pdf"
        try LargeDocument.write(to: small, streamBytes: 1000)
        try LargeDocument.write(to: large, streamBytes: streamBytes)
        try await body(directory, small, large)
    }

    /// `qpdf --check` and `autograph verify --json` (under the limit) on `path`: the signatures' reports.
    static func check(_ path: String, trust root: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [[String: Any]]
    {
        let qpdf = try Oracle.qpdfCheck(path)
        #expect(qpdf.status == 0, "qpdf --check \(path): \(qpdf.output)\(qpdf.errors)", sourceLocation: sourceLocation)
        let verify = try limited(["verify", path, "--trust", root, "--json"])
        expectSuccess(verify, "verify", sourceLocation: sourceLocation)
        return (try? JSONSerialization.jsonObject(with: verify.outputData) as? [[String: Any]]) ?? []
    }

    @Test("sign --p12 (B-B) of a 1 GB document: the whole file signed, valid for autograph verify and qpdf")
    func signPKCS12() async throws {
        try await Self.withDocuments("stream-sign", streamBytes: Self.gigabyte) { directory, small, large in
            let root = TestPaths.fixture("pki", "root.cert.pem")
            let signing = [
                "--p12", TestPaths.fixture("pki", "signer-p256.p12"), "--p12-password", "secret", "--invisible",
            ]
            Self.expectSuccess(
                try Self.limited(["sign", small, "-o", directory + "/small-signed.pdf"] + signing), "sign small")
            let output = directory + "/signed.pdf"
            Self.expectSuccess(try Self.limited(["sign", large, "-o", output] + signing), "sign 1 GB")
            let reports = try Self.check(output, trust: root)
            #expect(reports.count == 1 && reports.first?["verdict"] as? String == "valid", "\(reports)")
            let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0
            #expect(size > Self.gigabyte, "the signed file has \(size) bytes")
        }
    }

    @Test("prepare, then embed a CMS made elsewhere, of a 512 MiB document: valid for autograph verify and qpdf")
    func prepareAndEmbed() async throws {
        try await Self.withDocuments("stream-embed", streamBytes: Self.halfGigabyte) { directory, small, large in
            let signer = try LocalKeySigner(pkcs12: TestPaths.fixture("pki", "signer-p256.p12"), password: "secret")
            for (name, input) in [("small", small), ("large", large)] {
                let prepared = directory + "/\(name)-prepared.pdf"
                let state = directory + "/\(name)-state.json"
                let prepare = try Self.limited(
                    ["prepare", input, "-o", prepared, "--state", state, "--invisible", "--size", "8192"])
                Self.expectSuccess(prepare, "prepare \(name)")
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state)))
                let digest = try #require(Hex.decode((json as? [String: Any])?["digest"] as? String ?? ""))
                let cms = try await signer.cms(for: digest, algorithm: .sha256)
                try Data(cms).write(to: URL(fileURLWithPath: directory + "/\(name).p7s"))
                let output = directory + "/\(name)-signed.pdf"
                let embed = try Self.limited(
                    ["embed", prepared, "--state", state, "--cms", directory + "/\(name).p7s", "-o", output])
                Self.expectSuccess(embed, "embed \(name)")
                try FileManager.default.removeItem(atPath: prepared)
                let reports = try Self.check(output, trust: TestPaths.fixture("pki", "root.cert.pem"))
                #expect(reports.first?["verdict"] as? String == "valid", "\(name): \(reports)")
                try FileManager.default.removeItem(atPath: output)
            }
        }
    }

    @Test(
        "sign --level B-LTA, extend, then timestamp, of a 512 MiB document, against certomancer: B-LTA, every signature valid"
    )
    func longTerm() async throws {
        let services = try Certomancer.shared()
        try await Self.withDocuments("stream-ltv", streamBytes: Self.halfGigabyte) { directory, small, large in
            let signing = [
                "--key", TestPaths.fixture("certomancer", "keys/signer.key.pem"), "--cert",
                try services.certificate("signer"), "--chain", try services.certificate("intermediate"), "--invisible",
                "--tsa", services.tsaURL,
            ]
            for (name, input) in [("small", small), ("large", large)] {
                let archived = directory + "/\(name)-b-lta.pdf"
                Self.expectSuccess(
                    try Self.limited(["sign", input, "-o", archived, "--level", "B-LTA"] + signing),
                    "sign B-LTA \(name)")
                let extended = directory + "/\(name)-extended.pdf"
                Self.expectSuccess(try Self.limited(["extend", archived, "-o", extended]), "extend \(name)")
                try FileManager.default.removeItem(atPath: archived)
                let stamped = directory + "/\(name)-stamped.pdf"
                Self.expectSuccess(
                    try Self.limited(["timestamp", extended, "-o", stamped, "--tsa", services.tsaURL]),
                    "timestamp \(name)")
                try FileManager.default.removeItem(atPath: extended)
                let reports = try Self.check(stamped, trust: services.rootCertificatePath)
                // The signature, the document time-stamp of B-LTA and that of `timestamp`.
                #expect(reports.count == 3, "\(name): \(reports.count) signatures")
                #expect(reports.first?["level"] as? String == "B-LTA", "\(name): \(reports.first ?? [:])")
                #expect(
                    reports.allSatisfy { ($0["verdict"] as? String)?.hasPrefix("valid") == true },
                    "\(name): \(reports.map { $0["verdict"] ?? "?" })")
                try FileManager.default.removeItem(atPath: stamped)
            }
        }
    }
}
