import Foundation
import PDFTestSupport
import Testing

@testable import PDFSigning

/// pyHanko's verdict on a signature with its difference analysis (`Tests/Scripts/pyhanko_verdict.py`),
/// reduced to one word that can be compared with ours.
struct PyHankoVerdict: Sendable, CustomStringConvertible {
    /// `NONE`, `LTA_UPDATES`, `FORM_FILLING`, `ANNOTATIONS` (its modification level, permitted),
    /// `OTHER` (a SuspiciousModification, level OTHER, or a level the certification does not permit:
    /// `docmdp_ok` false), `INVALID` (not intact, not valid, not trusted, or not covering its
    /// revision) or `REJECTED` (it could not validate the signature at all, or not read the file).
    var word: String
    /// What pyHanko said, for messages.
    var details: String

    var description: String { "\(word) (\(details))" }

    /// Our verdict in the same words: `INVALID` unless the signature is valid, else the level
    /// (signatures and form filling are both pyHanko's FORM_FILLING, disallowed is OTHER).
    static func word(for status: SignatureStatus) -> String {
        guard status.isValid, let report = status.modifications else { return "INVALID" }
        switch report.level {
        case .none: return "NONE"
        case .ltv: return "LTA_UPDATES"
        case .signatures, .formFilling: return "FORM_FILLING"
        case .annotations: return "ANNOTATIONS"
        case .disallowed: return "OTHER"
        }
    }

    /// Whether pyHanko's word agrees with ours: the same word, or a rejection where we find a
    /// disallowed change or an invalid signature. pyHanko puts every later revision at LTA_UPDATES
    /// at least (`policies.py`: a revision that explains everything is LTA_UPDATES), where we say
    /// NONE for an update that changes nothing shown.
    func agrees(with ours: String) -> Bool {
        word == ours || (word == "REJECTED" && (ours == "OTHER" || ours == "INVALID"))
            || (word == "LTA_UPDATES" && ours == "NONE")
    }

    /// pyHanko's verdicts on every signature of `bytes`, by field name; nil when pyHanko is not
    /// installed (a warning on the running test then says its verdict is not compared).
    static func verdicts(
        _ bytes: [UInt8], trust root: String = Attack.root, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: PyHankoVerdict]? {
        guard
            Requirement.check(
                Requirement.pyHanko, orWarn: "pyHanko is not installed; its verdict is not compared",
                sourceLocation: sourceLocation)
        else { return nil }
        let path = try TestPaths.temporaryDirectory("pyhanko-verdict") + "/attack.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let script = TestPaths.repository + "/Tests/Scripts/pyhanko_verdict.py"
        let result = try Oracle.run("python3", [script, path, root], timeout: 300)
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
            throw ScriptFailure(message: "pyhanko_verdict.py failed: \(result.output)\(result.errors)")
        }
        if let error = object["error"] as? String {
            return ["*": PyHankoVerdict(word: "REJECTED", details: error)]
        }
        var verdicts: [String: PyHankoVerdict] = [:]
        for entry in object["signatures"] as? [[String: Any]] ?? [] {
            guard let field = entry["field"] as? String else { continue }
            verdicts[field] = verdict(entry)
        }
        return verdicts
    }

    private static func verdict(_ entry: [String: Any]) -> PyHankoVerdict {
        if let error = entry["error"] as? String { return PyHankoVerdict(word: "REJECTED", details: error) }
        let intact = entry["intact"] as? Bool ?? false
        let valid = entry["valid"] as? Bool ?? false
        let level = entry["modification_level"] as? String
        let suspicious = entry["suspicious"] as? String
        let details =
            "intact \(intact), valid \(valid), trusted \(entry["trusted"] as? Bool ?? false), level \(level ?? "none"), "
            + "docmdp_ok \(entry["docmdp_ok"].map { "\($0)" } ?? "nil"), "
            + "bottom_line \(entry["bottom_line"] as? Bool ?? false)"
            + (suspicious.map { ", suspicious: \($0)" } ?? "")
        let coverage = entry["coverage"] as? String
        let trusted = entry["trusted"] as? Bool ?? false
        // Not covering its revision is our invalid (pyHanko: "Nonstandard signature coverage level").
        if !intact || !valid || !trusted || !(coverage == "ENTIRE_FILE" || coverage == "ENTIRE_REVISION") {
            return PyHankoVerdict(word: "INVALID", details: details + ", coverage \(coverage ?? "none")")
        }
        // A change its policy rejects, or one above what the certification permits (docmdp_ok false).
        if suspicious != nil || entry["docmdp_ok"] as? Bool == false {
            return PyHankoVerdict(word: "OTHER", details: details)
        }
        return PyHankoVerdict(word: level ?? "NONE", details: details)
    }
}

/// The verdict script failed (its output was not JSON).
struct ScriptFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
