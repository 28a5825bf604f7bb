import AutographJSON
import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import AutographCLI

/// `autograph verify` over the shared corpus: it never crashes, and on the signed files it agrees
/// with pyHanko and pdfsig wherever those two agree with each other. The corpus's trust roots are
/// unknown, so only integrity and the CMS signature are compared (pyHanko's `INTACT`, pdfsig's
/// "Signature is Valid"), not trust. Skipped when the corpus or an oracle is absent.
@Suite(
    "Corpus signatures: autograph verify agrees with pyHanko and pdfsig",
    .enabled(if: Requirement.corpus, "the corpus is absent"),
    .enabled(if: Requirement.pyHanko && Requirement.pyHankoCLI, "pyHanko is not installed"),
    .enabled(if: Requirement.tool("pdfsig"), "pdfsig is not installed"))
struct VerifyCorpusTests {
    /// One signature's verdicts.
    struct Comparison {
        var file: String
        var field: String
        var ours: Bool
        var unsupported: String?
        var pyhanko: String?
        var pdfsig: Bool?

        var pyhankoIntact: Bool? { pyhanko.map { $0.hasPrefix("INTACT") } }
        var label: String {
            "\(file) '\(field)': pyHanko \(pyhanko ?? "no verdict"), pdfsig "
                + (pdfsig.map { $0 ? "valid" : "not valid" } ?? "no verdict")
                + ", autograph \(ours ? "intact" : "not intact")"
        }
    }

    @Test("verify runs on every corpus file; on signed files intact && valid agrees with pyHanko and pdfsig")
    func corpus() async throws {
        let root = try #require(TestPaths.corpus)
        let files = CorpusFile.all(in: root)
        var opened = 0
        var signedFiles = 0
        var comparisons: [Comparison] = []
        var signed: [(file: CorpusFile, password: String?, statuses: [JSONValue])] = []
        for file in files {
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            let console = Console.captured()
            let code = await AutographCLI.run(
                ["verify", file.path, "--json"] + (password.map { ["--password", $0] } ?? []), console: console)
            // Without --trust an intact signature is signed, its signer not trusted: 4.
            #expect(
                code == .success || code == .failure || code == .signerNotTrusted,
                "\(file.name): exit \(code) \(console.errors)")
            guard let document = try? PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: password))
            else { continue }
            opened += 1
            let signedFields = AcroForm(document: document)?.signatureFields.filter {
                $0.value == .signature(signed: true)
            }
            guard let signedFields, !signedFields.isEmpty else { continue }
            signedFiles += 1

            let json = try JSONValue.parse(Array(console.output.utf8))
            let statuses = try #require(json.arrayValue, "\(file.name): \(console.output)")
            #expect(!statuses.isEmpty, "\(file.name): signed fields but no status")
            signed.append((file, password, statuses))
            for status in statuses {
                for key in [
                    "field", "signer", "intact", "valid", "trusted", "trustReason", "coverage", "revision",
                    "laterRevisions", "subFilter", "digestAlgorithm", "problems",
                ] {
                    #expect(status[key] != nil, "\(file.name): no key \(key)")
                }
            }
            let pyhanko = try Self.pyhanko(file.path, password: password)
            let pdfsig = try Self.pdfsig(file.path, password: password)
            for status in statuses {
                let field = status["field"]?.stringValue ?? ""
                comparisons.append(
                    Comparison(
                        file: file.name, field: field,
                        ours: status["intact"] == .bool(true) && status["valid"] == .bool(true),
                        unsupported: status["unsupported"]?.stringValue, pyhanko: pyhanko[field],
                        pdfsig: pdfsig[field]))
            }
        }

        try Self.compareModificationLevels(signed)
        try Self.compareTimeStamps(signed)

        var agreements = 0
        var unsupported: [Comparison] = []
        var disagreements: [Comparison] = []
        for comparison in comparisons {
            guard let pyhanko = comparison.pyhankoIntact, let pdfsig = comparison.pdfsig, pyhanko == pdfsig else {
                disagreements.append(comparison)
                continue
            }
            if comparison.unsupported != nil {
                unsupported.append(comparison)
                continue
            }
            #expect(comparison.ours == pyhanko, "autograph verify disagrees with both oracles: \(comparison.label)")
            if comparison.ours == pyhanko { agreements += 1 }
        }
        print(
            "verify corpus: \(files.count) files, \(opened) open, \(signedFiles) signed, "
                + "\(comparisons.count) signatures, "
                + "\(agreements) agree with pyHanko and pdfsig, \(unsupported.count) unsupported here, "
                + "\(disagreements.count) where pyHanko and pdfsig disagree or give no verdict"
                + (disagreements.isEmpty ? "" : ": " + disagreements.map(\.label).joined(separator: "; "))
                + (unsupported.isEmpty
                    ? ""
                    : "; unsupported: "
                        + unsupported.map { "\($0.label) (\($0.unsupported ?? ""))" }.joined(separator: "; ")))
    }

    /// Files where Autograph's modification level is expected to differ from pyHanko's, and why.
    static let knownLevelDisagreements: [String: String] = [:]

    /// On every signed corpus file pyHanko reads, each signature's modification level agrees with
    /// pyHanko's difference analysis (signing and form filling are one level there).
    static func compareModificationLevels(
        _ signed: [(file: CorpusFile, password: String?, statuses: [JSONValue])]
    ) throws {
        var compared = 0
        var agreed = 0
        var skipped: [String] = []
        for (file, password, statuses) in signed {
            let theirs = try #require(
                try SignatureOracle.pyhankoModificationLevels(file.path, password: password), "pyHanko is not installed"
            )
            for status in statuses {
                let field = status["field"]?.stringValue ?? ""
                guard let their = theirs[field], !their.hasPrefix("ERROR") else {
                    skipped.append("\(file.name) '\(field)': \(theirs[field] ?? "not listed by pyHanko")")
                    continue
                }
                let ours = SignatureOracle.pyhankoLevel(status["modificationLevel"]?.stringValue ?? "disallowed")
                compared += 1
                if ours == their || knownLevelDisagreements[file.name] != nil {
                    agreed += 1
                } else {
                    Issue.record("\(file.name) '\(field)': modification level \(ours), pyHanko \(their)")
                }
            }
        }
        print(
            "verify corpus: modification level agrees with pyHanko on \(agreed) of \(compared) signatures"
                + (skipped.isEmpty ? "" : "; not compared: " + skipped.joined(separator: "; ")))
    }

    /// pyHanko's verdict per field, without trust roots (`INTACT:UNTRUSTED,…` or `INVALID`).
    /// Signatures whose time-stamp Autograph is expected to read differently from pyHanko, and why.
    static let knownTimeStampDisagreements: [String: String] = [:]

    /// On every signed corpus file, each signature's time-stamp (its time to the second, and whether
    /// the token is sound) and the `/DSS` agree with pyHanko's reading
    /// (`Tests/Scripts/pyhanko_signature_times.py`); the PAdES level each one reaches is printed.
    static func compareTimeStamps(_ signed: [(file: CorpusFile, password: String?, statuses: [JSONValue])]) throws {
        let script = TestPaths.repository + "/Tests/Scripts/pyhanko_signature_times.py"
        var stamped = 0
        var agreements = 0
        var levels: [String: Int] = [:]
        var dssFiles = 0
        var disagreements: [String] = []
        for (file, password, statuses) in signed {
            let result = try Oracle.run("python3", [script, file.path] + (password.map { [$0] } ?? [""]), timeout: 300)
            var theirs: [String: (time: String, sound: String)] = [:]
            var dss = false
            for line in result.output.split(separator: "\n") {
                let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                if parts.first == "DSS" {
                    dss = parts.count > 1 && parts[1] != "-"
                } else if parts.count == 5, parts[1] != "error" {
                    // 2019-04-18T17:18:16.229000+00:00 → D:20190418171816Z (seconds, as Autograph prints).
                    let digits = parts[2].prefix(19).filter(\.isNumber)
                    theirs[parts[0]] = (
                        parts[2] == "-" ? "-" : "D:\(digits)Z",
                        parts[3] == "-" ? "-" : String(parts[3] == "True" && parts[4] == "True")
                    )
                }
            }
            let ourDSS = statuses.contains { $0["level"]?.stringValue.map { $0.hasPrefix("B-LT") } == true }
            if dss { dssFiles += 1 }
            if ourDSS && !dss { disagreements.append("\(file.name): Autograph reads a /DSS that pyHanko does not") }
            for status in statuses {
                let field = status["field"]?.stringValue ?? ""
                let stamp = status["timeStamp"].flatMap { $0 == .null ? nil : $0 }
                let ours = (
                    stamp?["time"]?.stringValue ?? "-",
                    stamp.map { String($0["intact"] == .bool(true)) } ?? "-"
                )
                levels[status["level"]?.stringValue ?? "none", default: 0] += 1
                if stamp != nil { stamped += 1 }
                guard let their = theirs[field] else { continue }
                let key = "\(file.name) '\(field)'"
                if ours == their {
                    agreements += 1
                } else if knownTimeStampDisagreements[key] == nil {
                    disagreements.append(
                        "\(key): time-stamp \(ours.0) sound \(ours.1), pyHanko \(their.time) sound \(their.sound)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
        print(
            "verify corpus time-stamps: \(stamped) signatures carry one (document time-stamps included), "
                + "\(agreements) signatures read as pyHanko reads them, \(dssFiles) files with a /DSS; levels "
                + levels.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    static func pyhanko(_ path: String, password: String?) throws -> [String: String] {
        let arguments = ["sign", "validate"] + (password.map { ["--password", $0] } ?? []) + [path]
        let result = try SignatureOracle.runPyhanko(arguments)
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].count == 64 else { continue }
            verdicts[String(parts[0])] = String(parts[2])
        }
        return verdicts
    }

    /// Whether pdfsig says "Signature is Valid", per signed field.
    static func pdfsig(_ path: String, password: String?) throws -> [String: Bool] {
        let result = try Oracle.run("pdfsig", (password.map { ["-upw", $0] } ?? []) + [path], timeout: 300)
        var valid: [String: Bool] = [:]
        for block in result.output.components(separatedBy: "Signature #").dropFirst() {
            guard !block.contains("is not signed"),
                let line = block.split(separator: "\n").first(where: { $0.contains("Signature Field Name:") })
            else { continue }
            valid[line.components(separatedBy: "Signature Field Name: ").last ?? ""] = block.contains(
                "Signature is Valid")
        }
        return valid
    }
}
