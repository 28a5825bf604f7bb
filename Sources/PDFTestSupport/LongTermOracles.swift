import Foundation

/// pyHanko's validation of long-term signatures (PAdES B-T, B-LT, B-LTA): its command line with every
/// certificate's status required, `pyhanko sign adesverify`, and its AdES validation processes
/// (ETSI EN 319 102-1) through `Tests/Scripts/pyhanko_ades_lta.py`, online or with only what a
/// document embeds.
extension SignatureOracle {
    /// An AdES validation process of ETSI EN 319 102-1, as pyHanko implements it.
    public enum AdESProcess: String, Sendable {
        /// §5.5, signatures with time (`ades_with_time_validation`): for B-T and B-LT, with the DSS's
        /// content as validation material.
        case withTime = "with-time"
        /// §5.6.3, signatures providing long-term availability and integrity of validation material
        /// (`ades_lta_validation`): the document time-stamps are the evidence record.
        case longTerm = "lta"
    }

    /// One signature's AdES result: `PASSED:OK`, `INDETERMINATE:NO_POE`, `INDETERMINATE:REVOKED_NO_POE` …
    /// and the best signature time pyHanko found (ISO 8601, `-` for none).
    public struct AdESResult: Sendable, CustomStringConvertible {
        public var indication: String
        public var bestSignatureTime: String
        public var passed: Bool { indication == "PASSED:OK" }
        public var description: String { "\(indication) (best signature time \(bestSignatureTime))" }
    }

    /// pyHanko's AdES indication for each signature of `path` (field name → result), with `root` the
    /// only trust anchor and every certificate's status required; `log` is what pyHanko wrote on
    /// stderr (its reasons).
    /// - Parameters:
    ///   - offline: only what the document embeds (its DSS, the certificates in its CMS), nothing fetched.
    ///   - time: validate as at this ISO 8601 time (`2029-06-01T00:00:00Z`); pyHanko's clock reads it too.
    ///   - asIs: pyHanko 0.38 without the script's two additions (a time-stamping unit's embedded status
    ///     counts however old; no status asked about the trust anchor as an OCSP responder), which
    ///     answers NO_POE for every B-LTA against certomancer's PKI (the script says why).
    public static func pyhankoAdES(
        _ path: String, trust root: String, process: AdESProcess = .longTerm, offline: Bool, at time: String? = nil,
        asIs: Bool = false
    ) throws -> (results: [String: AdESResult], log: String) {
        let script = TestPaths.repository + "/Tests/Scripts/pyhanko_ades_lta.py"
        let arguments =
            [script, path, root, "--process", process.rawValue] + (offline ? ["--offline"] : [])
            + (time.map { ["--at", $0] } ?? []) + (asIs ? ["--as-is"] : [])
        let run = try Oracle.run("python3", arguments, timeout: 300)
        guard run.status == 0 else {
            throw Oracle.OracleFailure(message: "pyhanko_ades_lta.py exited \(run.status): \(run.errors)")
        }
        var results: [String: AdESResult] = [:]
        for line in run.output.split(separator: "\n") {
            // FIELD:INDICATION:SUBINDICATION:TIME, the time having colons of its own
            let parts = line.split(separator: ":", maxSplits: 3)
            guard parts.count == 4 else { continue }
            results[String(parts[0])] = AdESResult(
                indication: parts[1] + ":" + parts[2], bestSignatureTime: String(parts[3]))
        }
        return (results, run.errors)
    }

    /// `pyhanko sign validate --force-revinfo`: pyHanko's verdict per field (`INTACT:TRUSTED,…`) when it
    /// fetches every certificate's status and fails a certificate whose status it cannot have (the
    /// default, hard-fail, passes a certificate that names no responder and no CRL).
    public static func pyhankoRequiringRevocation(_ path: String, trust root: String) throws -> [String: String] {
        let result = try runPyhanko(
            ["sign", "validate", "--force-revinfo", "--trust-replace", "--trust", root, path])
        return verdicts(result.output)
    }

    /// `pyhanko sign adesverify`, which runs pyHanko's AdES LTA process with revocation required and
    /// fetched, but prints pyHanko's own status of each signature (`INTACT:TRUSTED,…`, the same line as
    /// `sign validate`), not the AdES indication (``pyhankoAdES(_:trust:process:offline:at:asIs:)`` has
    /// that); its exit status is 1 when a signature's status is not valid.
    public static func pyhankoAdESVerify(_ path: String, trust root: String) throws -> (
        status: Int32, verdicts: [String: String]
    ) {
        let result = try runPyhanko(["sign", "adesverify", "--trust-replace", "--trust", root, path])
        return (result.status, verdicts(result.output))
    }

    /// `FIELD:FINGERPRINT:VERDICT` lines → field name → verdict.
    private static func verdicts(_ output: String) -> [String: String] {
        var verdicts: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2)
            guard parts.count == 3 else { continue }
            verdicts[String(parts[0])] = String(parts[2])
        }
        return verdicts
    }
}
