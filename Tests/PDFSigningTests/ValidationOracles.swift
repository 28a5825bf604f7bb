import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// pyHanko's and pdfsig's verdicts.
enum ValidationOracles {
    /// pyHanko's command-line tool, pdfsig and NSS's certutil (for pdfsig's trust roots).
    static var installed: Bool { Requirement.pyHankoCLI && Requirement.tools("pdfsig", "certutil") }

    /// pyHanko's one-line verdict per field (`INTACT:TRUSTED,UNTOUCHED`, `INVALID` …).
    static func pyhanko(_ path: String, trust root: String?, password: String?) throws -> [String: String] {
        var arguments = ["sign", "validate"]
        if let password { arguments += ["--password", password] }
        if let root { arguments += ["--trust-replace", "--trust", root] }
        let result = try SignatureOracle.runPyhanko(arguments + [path])
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].count == 64 else { continue }
            verdicts[String(parts[0])] = String(parts[2])
        }
        return verdicts
    }

    /// pdfsig's report per signed field: "Signature is Valid", "Certificate is Trusted".
    static func pdfsig(
        _ path: String, trust root: String?, password: String?
    ) throws -> [String: (valid: Bool, trusted: Bool)] {
        var arguments: [String] = []
        if let root { arguments += ["-nssdir", "sql:" + (try nssDatabase(trusting: root))] }
        if let password { arguments += ["-upw", password] }
        let result = try Oracle.run("pdfsig", arguments + [path], timeout: 300)
        return reports(result.output)
    }

    /// The blocks of pdfsig's output by field name; unsigned fields are left out.
    static func reports(_ output: String) -> [String: (valid: Bool, trusted: Bool)] {
        var reports: [String: (valid: Bool, trusted: Bool)] = [:]
        for block in output.components(separatedBy: "Signature #").dropFirst() {
            guard !block.contains("is not signed"),
                let line = block.split(separator: "\n").first(where: { $0.contains("Signature Field Name:") })
            else { continue }
            let name = line.components(separatedBy: "Signature Field Name: ").last ?? ""
            reports[name] = (block.contains("Signature is Valid"), block.contains("Certificate is Trusted"))
        }
        return reports
    }

    /// A new NSS database trusting `root` (`certutil -N`, then `-A -t CT,C,C`).
    static func nssDatabase(trusting root: String) throws -> String {
        let directory = try TestPaths.temporaryDirectory("nss")
        _ = try Oracle.run("certutil", ["-N", "-d", "sql:" + directory, "--empty-password"])
        let added = try Oracle.run(
            "certutil", ["-A", "-d", "sql:" + directory, "-n", "root", "-t", "CT,C,C", "-i", root])
        try #require(added.status == 0, "certutil failed: \(added.errors)")
        return directory
    }
}

/// A one-line summary of a status for test messages.
func describe(_ status: SignatureStatus) -> String {
    "\(status.fieldName): intact \(status.digestIntact), valid \(status.signatureValid), trusted "
        + "\(status.trust.isTrusted) (\(status.trustReason ?? "")), \(status.coverage), problems \(status.problems)"
}
