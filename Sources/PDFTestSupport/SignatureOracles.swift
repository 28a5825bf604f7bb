import AutographJSON
import Foundation
import PDFCore

/// pyHanko and poppler's pdfsig, the signature oracles (ARCHITECTURE.md).
public enum SignatureOracle {
    /// pyHanko's one-line verdict per signature (`Signature1:…:INTACT:TRUSTED,UNTOUCHED`), by field name.
    /// - Parameter strict: pyHanko's strict syntax mode (its default); turn it off only for files
    ///   whose original bytes already fail it (see ``pyhankoReadsStrictly(_:password:)``).
    public static func pyhanko(
        _ path: String, trust root: String?, password: String? = nil, strict: Bool = true
    ) throws -> [String: String] {
        let arguments =
            ["sign", "validate"] + (strict ? [] : ["--no-strict-syntax"])
            + (root.map { ["--trust-replace", "--trust", $0] } ?? []) + (password.map { ["--password", $0] } ?? []) + [
                path
            ]
        let result = try runPyhanko(arguments)
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2)
            guard parts.count == 3 else { continue }
            verdicts[String(parts[0])] = String(parts[2])
        }
        return verdicts
    }

    /// pyHanko's verdict on each document time-stamp (`/DocTimeStamp`), which `pyhanko sign validate`
    /// does not list: field name → `intact:valid:trusted` (each `True` or `False`), from
    /// `Tests/Scripts/pyhanko_doc_timestamps.py` with `root` as the only trust anchor.
    public static func pyhankoDocumentTimestamps(_ path: String, trust root: String) throws -> [String: String] {
        let script = TestPaths.repository + "/Tests/Scripts/pyhanko_doc_timestamps.py"
        let result = try Oracle.run("python3", [script, path, root], timeout: 120)
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 4)
            guard parts.count == 5 else { continue }
            verdicts[String(parts[0])] = parts[1...3].joined(separator: ":")
        }
        return verdicts
    }

    /// pyHanko's difference analysis per signed field, from `scripts/pyhanko-modlevel.py`: its
    /// `ModificationLevel` (`NONE`, `LTA_UPDATES`, `FORM_FILLING`, `ANNOTATIONS`, `OTHER` — also
    /// for a coverage short of the signed revision, as pyHanko's own verdict reads it), or
    /// `ERROR: …` when it cannot validate the signature; nil when pyHanko is not installed.
    public static func pyhankoModificationLevels(_ path: String, password: String? = nil) throws -> [String: String]? {
        guard (try? Oracle.run("python3", ["-c", "import pyhanko.sign.validation"]))?.status == 0 else { return nil }
        let script = TestPaths.repository + "/scripts/pyhanko-modlevel.py"
        let result = try Oracle.run(
            "python3", [script, path, "--no-strict-syntax"] + (password.map { ["--password", $0] } ?? []), timeout: 300)
        guard let line = result.output.split(separator: "\n").first,
            let signatures = try JSONValue.parse(Array(line.utf8))["signatures"]?.arrayValue
        else { return [:] }
        var levels: [String: String] = [:]
        for signature in signatures {
            guard let field = signature["field"]?.stringValue else { continue }
            if let error = signature["error"]?.stringValue {
                levels[field] = "ERROR: " + error
            } else if let coverage = signature["coverage"]?.stringValue,
                coverage != "ENTIRE_FILE" && coverage != "ENTIRE_REVISION"
            {
                levels[field] = "OTHER"
            } else {
                levels[field] = signature["modificationLevel"]?.stringValue ?? "OTHER"
            }
        }
        return levels
    }

    /// pyHanko's name for one of Autograph's modification levels (`verify --json`'s
    /// `modificationLevel`): signing and form filling are both `FORM_FILLING` there.
    public static func pyhankoLevel(_ level: String) -> String {
        switch level {
        case "none": "NONE"
        case "ltv": "LTA_UPDATES"
        case "signatures", "formFilling": "FORM_FILLING"
        case "annotations": "ANNOTATIONS"
        default: "OTHER"
        }
    }

    /// True when pyHanko reads `path` in its strict syntax mode, in which it also refuses to validate
    /// signatures in hybrid-reference files.
    public static func pyhankoReadsStrictly(_ path: String, password: String? = nil) throws -> Bool {
        let script = """
            import sys
            from pyhanko.pdf_utils.reader import PdfFileReader
            reader = PdfFileReader(open(sys.argv[1], "rb"), strict=True)
            if reader.encrypted: reader.decrypt(sys.argv[2])
            reader.root
            sys.exit(1 if reader.xrefs.hybrid_xrefs_present else 0)
            """
        return try Oracle.run("python3", ["-c", script, path, password ?? ""]).status == 0
    }

    /// Runs pyHanko's command-line tool (PyPI's pyhanko-cli): the `pyhanko` script when it is on the
    /// PATH, else its entry point through python3 (pip may put scripts where PATH does not look).
    public static func runPyhanko(_ arguments: [String]) throws -> Oracle.Result {
        if let command = Oracle.which("pyhanko") { return try Oracle.run(command, arguments, timeout: 300) }
        let launcher =
            "import sys; from pyhanko.__main__ import launch; sys.argv = ['pyhanko'] + sys.argv[1:]; launch()"
        return try Oracle.run("python3", ["-c", launcher] + arguments, timeout: 300)
    }

    /// pdfsig's report: for each signature in order, whether it says "Signature is Valid" and
    /// "Certificate is Trusted" (with `root` in a temporary NSS database).
    public static func pdfsig(_ path: String, trust root: String, password: String? = nil) throws -> [(
        valid: Bool, trusted: Bool
    )] {
        let database = try nssDatabase(root)
        let result = try Oracle.run(
            "pdfsig", (password.map { ["-upw", $0] } ?? []) + ["-nssdir", "sql:" + database, path], timeout: 300)
        var reports: [(valid: Bool, trusted: Bool)] = []
        // Empty signature fields are listed too ("not signed"): only signatures are reported.
        for block in result.output.components(separatedBy: "Signature #").dropFirst()
        where !block.contains("field is not signed") {
            reports.append((block.contains("Signature is Valid"), block.contains("Certificate is Trusted")))
        }
        return reports
    }

    nonisolated(unsafe) private static var databases: [String: String] = [:]
    private static let lock = NSLock()

    /// A temporary NSS database trusting `root`, made once per root.
    public static func nssDatabase(_ root: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = databases[root] { return known }
        let directory = try TestPaths.temporaryDirectory("nss")
        _ = try Oracle.run("certutil", ["-N", "-d", "sql:" + directory, "--empty-password"])
        let added = try Oracle.run(
            "certutil", ["-A", "-d", "sql:" + directory, "-n", "root", "-t", "CT,C,C", "-i", root])
        guard added.status == 0 else { throw Oracle.OracleFailure(message: "certutil failed: \(added.errors)") }
        databases[root] = directory
        return directory
    }
}
