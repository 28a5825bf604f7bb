import Foundation

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

    /// pyHanko's difference analysis per signed field: its `ModificationLevel` (`NONE`,
    /// `LTA_UPDATES`, `FORM_FILLING`, `ANNOTATIONS`, `OTHER`), or `ERROR: …` when it cannot
    /// validate the signature; nil when pyHanko is not installed. Trust is not checked.
    public static func pyhankoModificationLevels(_ path: String, password: String? = nil) throws -> [String: String]? {
        let script = """
            import sys, logging
            logging.disable(logging.CRITICAL)
            try:
                from pyhanko.pdf_utils.reader import PdfFileReader
                from pyhanko.sign.validation import validate_pdf_signature
                from pyhanko_certvalidator import ValidationContext
            except ImportError:
                sys.exit(3)
            reader = PdfFileReader(open(sys.argv[1], "rb"), strict=False)
            if reader.encrypted: reader.decrypt(sys.argv[2])
            for signature in reader.embedded_signatures:
                try:
                    status = validate_pdf_signature(signature, ValidationContext(allow_fetching=False))
                    level = status.modification_level.name if status.modification_level is not None else "NONE"
                    if status.coverage.name not in ("ENTIRE_FILE", "ENTIRE_REVISION"): level = "OTHER"
                    print(signature.field_name + "\t" + level)
                except Exception as error:
                    print(signature.field_name + "\tERROR: " + type(error).__name__ + " " + str(error)[:80])
            """
        let result = try Oracle.run("python3", ["-c", script, path, password ?? ""], timeout: 300)
        if result.status == 3 { return nil }
        var levels: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { levels[String(parts[0])] = String(parts[1]) }
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
