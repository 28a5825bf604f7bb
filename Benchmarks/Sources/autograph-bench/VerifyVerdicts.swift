import Glibc

/// `Benchmarks/.build/verify-verdicts.json`: what each validator said about each file of the verify
/// steps that ran, for later comparison (with the modification analysis of `autograph verify`, or
/// between runs). One object:
///
///     {"generated": "2026-12-01T17:00:00Z", "tools": {"pyhanko": "pyHanko, version …", …},
///      "commands": {"autograph": "autograph verify --trust ROOT FILE", …},
///      "sets": [{"set": "corpus-signed", "title": …, "rounds": 3, "files": [
///        {"name": …, "path": …,
///         "autograph": VERDICT, "pyhanko": VERDICT, "pdfsig": VERDICT,
///         "autographJSON": [… `autograph verify --json` …],
///         "pyhankoModlevel": {… the line of scripts/pyhanko-modlevel.py …}}, …]}, …]}
///
/// where VERDICT, from the tool's first timed run, is `{"exitCode", "timedOut", "seconds",
/// "allAccepted", "message", "signatures": [{"field", "verdict", "accepted", …}]}` (pyHanko's
/// signatures add "modifications", its pretty-printed sentence, "modificationLevel" read from it,
/// "docmdpOk" and "trusted"; autograph's "trusted", "coverage" and "intact"; pdfsig's "certificate" and
/// "totalDocumentSigned"). The 1 GB set has no "pyhankoModlevel" (it would take another pyHanko run).
struct VerifyVerdicts {
    var environment: BenchEnvironment

    func write(_ results: SigningSteps.Results, to path: String) throws(BenchError) {
        var sets: [JSONText] = []
        if let result = results.verifyCorpus { sets.append(result.json) }
        if let result = results.verify { sets.append(result.json) }
        if let result = results.verifyBig { sets.append(result.json) }
        let document = JSONText.object([
            ("generated", .string(VerifyVerdicts.now())),
            (
                "tools",
                .object([
                    ("autograph", .optional(environment.autograph)),
                    ("pyhanko", .optional(version([environment.python, "-m", "pyhanko", "--version"]))),
                    ("pdfsig", .optional(version([environment.pdfsig, "-v"]))),
                ])
            ),
            (
                "commands",
                .object([
                    ("autograph", .string("autograph verify --trust ROOT [--password=P] FILE")),
                    (
                        "pyhanko",
                        .string(
                            "python3 -m pyhanko sign validate --trust ROOT --trust-replace --no-revocation-check "
                                + "--pretty-print [--password P] FILE")
                    ),
                    ("pdfsig", .string("pdfsig -nssdir sql:DB [-upw P] FILE")),
                    ("autographJSON", .string("autograph verify --json --trust ROOT [--password=P] FILE")),
                    ("pyhankoModlevel", .string("scripts/pyhanko-modlevel.py --trust ROOT [--password P] FILE...")),
                    ("root", .string(SignSetup.root(environment))),
                ])
            ),
            ("sets", .array(sets)),
        ])
        try CorpusProtocol.write(document.text() + "\n", to: path)
    }

    /// The first line a tool prints for its version, or nil.
    private func version(_ arguments: [String]) -> String? {
        guard Launcher.isAvailable(arguments[0]),
            let run = try? environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 60),
            run.succeeded
        else { return nil }
        return run.outputText.split(separator: "\n").first.map(String.init)
    }

    /// The time now, UTC, ISO 8601 ("2026-12-01T17:00:00Z").
    static func now() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
