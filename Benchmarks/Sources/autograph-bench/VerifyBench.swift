import Glibc

/// Steps `verify-corpus` and `verify`: one process per signed document and tool, `autograph verify`
/// beside `pyhanko sign validate` (difference analysis on) and `pdfsig` (see ``VerifyTools`` for their
/// command lines), every file once per round, the three tools one after the other on each file. Over
/// the corpus files of the `signed` class (`verify-corpus`) and over the signed outputs of
/// `sign-process` (`verify`: both tools' outputs, both keys). Each tool's verdict on each file comes from
/// the output of its first round; then, untimed, `autograph verify --json` and
/// `scripts/pyhanko-modlevel.py` record the same files structurally for the verdicts file.
struct VerifyBench {
    /// A file to validate.
    struct Target {
        /// What the details call it ("P-256, pyHanko: qpdf/minimal.pdf").
        var name: String
        var path: String
        /// nil or "": none (every tool tries the empty one).
        var password: String? = nil
    }

    struct Result {
        /// "the corpus files of the signed class".
        var title: String
        /// The set's key in the verdicts file.
        var key: String
        var files: [Target]
        var rounds: Int
        /// Per tool (``VerifyTools/Kind`` order); nil when the tool cannot run.
        var tools: [ProcessBench.Tool?]
        var problems: [VerifyTools.Kind: String]
        var trustNote: String
        /// Per file, per tool: the verdict of the first round.
        var verdicts: [[ToolVerdict?]]
        /// Per file: `autograph verify --json` and the line of `pyhanko-modlevel.py` (untimed).
        var autographJSON: [JSONText] = []
        var pyhankoAPI: [JSONText] = []
        var structuredNote: String?

        func tool(_ kind: VerifyTools.Kind) -> ProcessBench.Tool? { tools[kind.rawValue] }

        /// The files on which no available tool timed out or was killed.
        var measured: [Int] {
            files.indices.filter { index in tools.allSatisfy { $0?.abnormal[index] == nil } }
        }

        /// The median over rounds of the tool's total over ``measured``.
        func total(_ kind: VerifyTools.Kind) -> Double? {
            guard let tool = tool(kind), !measured.isEmpty else { return nil }
            return median((0..<rounds).map { round in measured.reduce(0) { $0 + tool.seconds[$1][round] } })
        }

        /// autograph verify's total over `kind`'s.
        func ratio(to kind: VerifyTools.Kind) -> Double? {
            guard let ours = total(.autograph), let peer = total(kind), peer > 0 else { return nil }
            return ours / peer
        }

        /// Files on which the available tools do not all accept, or all refuse, every signature.
        var disagreements: [Int] {
            files.indices.filter { index in
                Set(verdicts[index].compactMap { $0?.timedOut == false ? $0?.allAccepted : nil }).count > 1
            }
        }

        var json: JSONText {
            .object([
                ("set", .string(key)), ("title", .string(title)), ("rounds", .integer(rounds)),
                (
                    "files",
                    .array(
                        files.indices.map { index in
                            var members: [(String, JSONText)] = [
                                ("name", .string(files[index].name)), ("path", .string(files[index].path)),
                            ]
                            for kind in VerifyTools.Kind.allCases {
                                members.append((kind.key, verdicts[index][kind.rawValue]?.json ?? .null))
                            }
                            members.append(
                                ("autographJSON", index < autographJSON.count ? autographJSON[index] : .null))
                            members.append(("pyhankoModlevel", index < pyhankoAPI.count ? pyhankoAPI[index] : .null))
                            return .object(members)
                        })
                ),
            ])
        }
    }

    var environment: BenchEnvironment
    var rounds: Int

    func run(_ files: [Target], title: String, key: String, autograph: String) throws(BenchError) -> Result {
        let tools = try VerifyTools(environment: environment, autograph: autograph)
        var runs = VerifyTools.Kind.allCases.map { kind in
            ProcessBench.Tool(name: kind.name, seconds: Array(repeating: [], count: files.count))
        }
        var verdicts: [[ToolVerdict?]] = Array(
            repeating: Array(repeating: nil, count: VerifyTools.Kind.allCases.count), count: files.count)
        CorpusFile.warm(files.map { CorpusFile(name: $0.name, path: $0.path, password: nil, size: 0) })
        let launcher = environment.launcher
        for round in 0..<rounds {
            for (index, file) in files.enumerated() {
                for kind in VerifyTools.Kind.allCases where tools.available(kind) {
                    // A file a tool timed out on is not run again by it.
                    if round > 0, runs[kind.rawValue].abnormal[index] == "timed out" {
                        runs[kind.rawValue].seconds[index].append(runs[kind.rawValue].seconds[index].last ?? 0)
                        continue
                    }
                    let run = try launcher.run(
                        tools.arguments(kind, path: file.path, password: file.password), stdout: .capture,
                        stderr: .capture, timeout: 300)
                    runs[kind.rawValue].seconds[index].append(run.seconds)
                    runs[kind.rawValue].exitCodes[run.exitCode, default: 0] += 1
                    if run.timedOut {
                        runs[kind.rawValue].timeouts += 1
                        runs[kind.rawValue].abnormal[index] = "timed out"
                    } else if run.exitCode < 0 {
                        runs[kind.rawValue].abnormal[index] = "signal \(-run.exitCode)"
                    }
                    if round == 0 { verdicts[index][kind.rawValue] = tools.verdict(kind, run) }
                }
                if index % 10 == 9 || index == files.count - 1 {
                    Progress.update("  \(key), round \(round + 1)/\(rounds): \(index + 1)/\(files.count) files")
                }
            }
            Progress.finish(
                "  \(key), round \(round + 1)/\(rounds): "
                    + VerifyTools.Kind.allCases.filter { tools.available($0) }.map {
                        "\($0.name) \(Format.seconds(runs[$0.rawValue].roundTotals.last ?? 0))"
                    }.joined(separator: ", "))
        }
        var result = Result(
            title: title, key: key, files: files, rounds: rounds,
            tools: VerifyTools.Kind.allCases.map { tools.available($0) ? runs[$0.rawValue] : nil },
            problems: tools.problems, trustNote: tools.trustNote, verdicts: verdicts)
        Progress.update("  \(key): autograph verify --json and pyhanko-modlevel.py on each file (not timed)")
        try structured(&result, tools: tools)
        Progress.finish("  \(key): verdicts recorded")
        return result
    }

    /// `autograph verify --json` on each file and `scripts/pyhanko-modlevel.py` over them all (one
    /// process per password), not timed: what the verdicts file records besides the timed runs' words.
    private func structured(_ result: inout Result, tools: VerifyTools) throws(BenchError) {
        let launcher = environment.launcher
        for file in result.files {
            let run = try launcher.run(
                [tools.autograph, "verify", "--json", "--trust", tools.root]
                    + (file.password.flatMap { $0.isEmpty ? nil : ["--password=\($0)"] } ?? []) + [file.path],
                stdout: .capture, timeout: 300)
            result.autographJSON.append(run.timedOut ? .string("timed out") : .embedded(run.outputText))
        }
        result.pyhankoAPI = Array(repeating: .null, count: result.files.count)
        guard tools.available(.pyhanko) else {
            result.structuredNote = "pyhanko-modlevel.py not run: \(tools.problems[.pyhanko] ?? "")"
            return
        }
        let script = environment.pyhankoModlevelScript
        let groups = Dictionary(grouping: result.files.indices) { result.files[$0].password ?? "" }
        for (password, indices) in groups.sorted(by: { $0.key < $1.key }) {
            let run = try launcher.run(
                [environment.python, script, "--trust", tools.root]
                    + (password.isEmpty ? [] : ["--password", password])
                    + indices.map { result.files[$0].path }, stdout: .capture, timeout: 600 + 60 * indices.count)
            let lines = run.outputText.split(separator: "\n").filter { $0.hasPrefix("{") }
            for (position, index) in indices.enumerated() where position < lines.count {
                result.pyhankoAPI[index] = .raw(String(lines[position]))
            }
            if lines.count < indices.count {
                result.structuredNote =
                    "pyhanko-modlevel.py reported on \(lines.count) of \(indices.count) files "
                    + "(\(run.timedOut ? "timed out" : "exit code \(run.exitCode)"))"
            }
        }
    }

    /// An NSS database in `Benchmarks/.build/bench-nssdb` that trusts the test root, made once with
    /// `certutil`; nil (pdfsig then checks no trust) when certutil is missing or fails.
    static func nssDatabase(_ environment: BenchEnvironment) throws(BenchError) -> (String?, String) {
        let directory = environment.buildPath("bench-nssdb")
        if access(directory + "/cert9.db", R_OK) == 0 {
            return (directory, "pdfsig trusts the test root through the NSS database \(directory)")
        }
        guard Launcher.isAvailable("certutil") else {
            return (nil, "certutil not found (libnss3-tools): pdfsig checks no trust, autograph verify does")
        }
        mkdir(directory, 0o755)
        let created = try environment.launcher.run(
            ["certutil", "-N", "-d", "sql:" + directory, "--empty-password"], stdout: .capture, stderr: .capture)
        let added = try environment.launcher.run(
            [
                "certutil", "-A", "-d", "sql:" + directory, "-n", "autograph-test-root", "-t", "CT,C,C", "-i",
                SignSetup.root(environment),
            ], stdout: .capture, stderr: .capture)
        guard created.succeeded, added.succeeded else {
            return (
                nil, "certutil failed (\(added.outputText.prefix(80))): pdfsig checks no trust, autograph verify does"
            )
        }
        return (directory, "pdfsig trusts the test root through the NSS database \(directory)")
    }
}

extension VerifyBench.Result {
    func details() -> [String] {
        var lines = [
            "Verify, one process per file: autograph verify vs pyhanko sign validate vs pdfsig (\(files.count) files: "
                + "\(title); \(rounds) round\(rounds == 1 ? "" : "s"), median)"
        ]
        for kind in VerifyTools.Kind.allCases {
            guard let tool = tool(kind) else {
                lines.append("  \(Format.padRight(kind.name, 18)) not measured: \(problems[kind] ?? "")")
                continue
            }
            let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
            let perFile = measured.map { tool.fileSeconds($0) }
            lines.append(
                "  \(Format.padRight(tool.name, 18)) \(Format.padLeft(total(kind).map(Format.seconds) ?? "n/a", 10))"
                    + "  per file (median): \(Format.milliseconds(median(perFile) ?? 0)); "
                    + codes.joined(separator: ", ") + (tool.timeouts > 0 ? "; \(tool.timeouts) timed out" : ""))
        }
        if measured.count < files.count {
            lines.append("  totals over the \(measured.count) files no tool timed out on or crashed on")
        }
        lines.append("  \(trustNote); pyHanko trusts only the same root (--trust-replace)")
        var counts: [String] = []
        for kind in VerifyTools.Kind.allCases where tool(kind) != nil {
            let accepted = files.indices.filter { verdicts[$0][kind.rawValue]?.allAccepted == true }.count
            counts.append("\(kind.name) \(accepted)")
        }
        lines.append(
            "  verdicts (round 1), files whose every signature the tool accepts (trusted included), of \(files.count): "
                + counts.joined(separator: ", "))
        if files.count <= 20 {
            for index in files.indices {
                lines.append("    \(files[index].name):")
                for kind in VerifyTools.Kind.allCases {
                    guard let verdict = verdicts[index][kind.rawValue] else { continue }
                    lines.append("      \(Format.padRight(kind.name, 17)) \(verdict.short)")
                }
            }
        }
        let differing = disagreements
        for index in differing.prefix(10) {
            lines.append(
                "    differ: \(files[index].name): "
                    + VerifyTools.Kind.allCases.compactMap { kind in
                        verdicts[index][kind.rawValue].map { "\(kind.name) \($0.short)" }
                    }.joined(separator: "; "))
        }
        if differing.count > 10 { lines.append("    … and \(differing.count - 10) more") }
        if let structuredNote { lines.append("  \(structuredNote)") }
        return lines
    }
}
