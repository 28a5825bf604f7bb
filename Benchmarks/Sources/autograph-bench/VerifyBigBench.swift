import Glibc

/// Step `verify-big`: the 1 GB file signed as `sign-big` signs it (P-256, invisible field) and then
/// given one incremental update after the signature (`autograph metadata --set Title=…`: a new /Info
/// dictionary, which pyHanko's difference analysis rates LTA_UPDATES), validated by `autograph verify`,
/// `pyhanko sign validate` and `pdfsig` (``VerifyTools``), beside `sha256sum` of the same file. Each run
/// is a child of `bench-rusage`; one warm-up, then `runs` runs, the tools interleaved. pyHanko is first
/// run once alone with a long time limit: when that run takes more than a minute, it is its only run.
/// The updated file is kept (`Benchmarks/.build/big-1gb-updated.pdf`) and made again only when
/// missing or older than the 1 GB file.
struct VerifyBigBench {
    typealias Measurement = BigFileBench.Measurement

    struct Result {
        var path: String
        var size: Int
        var runs: Int
        /// How the file was made, or that it was reused.
        var preparation: String
        /// Per tool; absent when the tool cannot run.
        var measurements: [VerifyTools.Kind: Measurement]
        var hash: Measurement
        /// Per tool: the verdict of its first run.
        var verdicts: [VerifyTools.Kind: ToolVerdict] = [:]
        var autographJSON: JSONText = .null
        /// pyHanko was run once only (its first run took longer than ``VerifyBigBench/pyhankoRepeatSeconds``).
        var pyhankoOnce = false
        var problems: [VerifyTools.Kind: String]
        var trustNote: String
        /// The share of the file in the page cache before and after the timed runs.
        var cached: [Double?] = []
        /// `autograph-bench --open-only` on the file: open + page count, with its own memory breakdown.
        var openOnly: Measurement?

        var json: JSONText {
            var members: [(String, JSONText)] = [
                ("name", .string("1 GB, signed, one later revision")), ("path", .string(path)),
            ]
            for kind in VerifyTools.Kind.allCases { members.append((kind.key, verdicts[kind]?.json ?? .null)) }
            members.append(("autographJSON", autographJSON))
            return .object([
                ("set", .string("big-1gb-updated")), ("title", .string(preparation)), ("runs", .integer(runs)),
                ("files", .array([.object(members)])),
            ])
        }
    }

    var environment: BenchEnvironment
    var runs: Int
    /// pyHanko's first run: beyond this, it is not run again.
    static let pyhankoRepeatSeconds = 60.0
    /// pyHanko's first run's time limit.
    static let pyhankoTimeout = 3600

    func run(autograph: String) throws(BenchError) -> Result {
        let tools = try VerifyTools(environment: environment, autograph: autograph)
        let (path, preparation) = try prepare(autograph: autograph)
        var info = stat()
        _ = stat(path, &info)
        var result = Result(
            path: path, size: Int(info.st_size), runs: runs, preparation: preparation, measurements: [:],
            hash: Measurement(name: "sha256sum", note: "coreutils"), problems: tools.problems,
            trustNote: tools.trustNote)
        for kind in VerifyTools.Kind.allCases where tools.available(kind) {
            result.measurements[kind] = Measurement(name: kind.name)
        }
        result.cached.append(SignBigBench.pageCacheShare(path))

        if tools.available(.pyhanko) {
            Progress.update("  verify-big: pyhanko sign validate, first run (limit \(VerifyBigBench.pyhankoTimeout) s)")
            let run = try environment.launcher.run(
                tools.arguments(.pyhanko, path: path, password: nil), stdout: .capture, stderr: .capture,
                timeout: VerifyBigBench.pyhankoTimeout)
            result.verdicts[.pyhanko] = tools.verdict(.pyhanko, run)
            if run.timedOut || run.exitCode < 0 {
                result.measurements[.pyhanko]?.failure = run.timedOut ? "timed out" : "signal \(-run.exitCode)"
            } else if run.seconds > VerifyBigBench.pyhankoRepeatSeconds {
                result.pyhankoOnce = true
                result.measurements[.pyhanko]?.record(run)
                result.measurements[.pyhanko]?.note = "one run only: the first took over a minute"
            }
            Progress.finish("  verify-big: pyhanko sign validate, first run: \(Format.seconds(run.seconds))")
        }
        for attempt in 0...runs {
            let label = attempt == 0 ? "warm-up" : "run \(attempt)/\(runs)"
            for kind in VerifyTools.Kind.allCases where result.measurements[kind] != nil {
                // pyHanko's first run above was its warm-up.
                if kind == .pyhanko, result.pyhankoOnce || attempt == 0 { continue }
                Progress.update("  verify-big: \(label): \(kind.name)")
                let run = try measure(
                    &result.measurements[kind]!, tools.arguments(kind, path: path, password: nil), record: attempt > 0)
                if attempt == 0, let run { result.verdicts[kind] = tools.verdict(kind, run) }
            }
            Progress.update("  verify-big: \(label): sha256sum")
            _ = try measure(&result.hash, ["sha256sum", path], record: attempt > 0, acceptAnyExit: false)
        }
        result.cached.append(SignBigBench.pageCacheShare(path))
        Progress.finish(
            "  verify-big: "
                + (VerifyTools.Kind.allCases.compactMap { result.measurements[$0] } + [result.hash]).map {
                    "\($0.name) \(summary($0))"
                }.joined(separator: "; "))

        let json = try environment.launcher.run(
            [autograph, "verify", "--json", "--trust", tools.root, path], stdout: .capture, timeout: 600)
        result.autographJSON = json.timedOut ? .string("timed out") : .embedded(json.outputText)
        var openOnly = Measurement(name: "open + page count")
        let run = try environment.launcher.run(
            [environment.executable, "--open-only", path], stdout: .capture, timeout: 300)
        if run.succeeded {
            openOnly.record(run)
            openOnly.extra = run.outputText.split(separator: "\n").dropFirst().joined(separator: " ")
        } else {
            openOnly.failure = "exit code \(run.exitCode)"
        }
        result.openOnly = openOnly
        return result
    }

    /// The signed 1 GB file with one later revision: kept from an earlier run when it is newer than the
    /// 1 GB file, else made (the 1 GB file too, when missing).
    private func prepare(autograph: String) throws(BenchError) -> (String, String) {
        let big = environment.bigFile
        let updated = environment.buildPath("big-1gb-updated.pdf")
        var generated = ""
        if !BigFile.isComplete(big) {
            Progress.note("verify-big: generating \(big) (once; kept for later runs)")
            let start = monotonicSeconds()
            try BigFile.generate(at: big)
            generated = "the 1 GB file generated in \(Format.seconds(monotonicSeconds() - start)); "
        }
        var bigInfo = stat()
        var updatedInfo = stat()
        if stat(big, &bigInfo) == 0, stat(updated, &updatedInfo) == 0, updatedInfo.st_size > bigInfo.st_size,
            updatedInfo.st_mtim.tv_sec >= bigInfo.st_mtim.tv_sec
        {
            return (updated, "\(updated), made by an earlier run (delete it to make it again)")
        }
        var space = statvfs()
        if statvfs(environment.buildPath(""), &space) == 0,
            Int(space.f_bavail) * Int(space.f_frsize) < 2 * Int(bigInfo.st_size) + 100_000_000
        {
            throw BenchError(
                "verify-big needs \(Format.megabytes(bytes: 2 * Int(bigInfo.st_size))) free under Benchmarks/.build")
        }
        Progress.note("verify-big: signing the 1 GB file and appending one update (once; kept for later runs)")
        let start = monotonicSeconds()
        let signed = environment.buildPath("big-1gb-verify-signed.pdf")
        let sign = try environment.launcher.run(
            [
                autograph, "sign", big, "-o", signed, "--p12", SignSetup.p12(SignSetup.keys[0], environment),
                "--p12-password", SignSetup.password, "--invisible",
            ], stdout: .capture, stderr: .capture, timeout: 900)
        guard sign.exitCode == 0 || sign.exitCode == 3, !sign.timedOut else {
            unlink(signed)
            throw BenchError(
                "verify-big: autograph sign failed: exit code \(sign.exitCode): \(sign.outputText.suffix(200))")
        }
        let update = try environment.launcher.run(
            [autograph, "metadata", signed, "-o", updated, "--set", "Title=\(VerifyBigBench.title)"],
            stdout: .capture, stderr: .capture, timeout: 900)
        unlink(signed)
        guard update.exitCode == 0 || update.exitCode == 3, !update.timedOut else {
            unlink(updated)
            throw BenchError(
                "verify-big: autograph metadata failed: exit code \(update.exitCode): \(update.outputText.suffix(200))")
        }
        return (
            updated,
            "\(updated), made in this run: \(generated)autograph sign --invisible (P-256), then autograph metadata "
                + "--set Title=… (one incremental update after the signature), \(Format.seconds(monotonicSeconds() - start))"
        )
    }

    /// The title the later revision sets.
    static let title = "Autograph bench: one revision after the signature"

    /// Runs `arguments` once, unless the measurement already failed; records its time and peak RSS when
    /// `record`. A verdict is a result whatever the exit code, unless `acceptAnyExit` is false; a time-out
    /// or a signal is a failure.
    private func measure(
        _ measurement: inout Measurement, _ arguments: [String], record: Bool, acceptAnyExit: Bool = true
    ) throws(BenchError) -> ChildRun? {
        guard measurement.failure == nil else { return nil }
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 900)
        if run.timedOut || run.exitCode < 0 || (!acceptAnyExit && run.exitCode != 0) {
            let how =
                run.timedOut ? "timed out" : run.exitCode < 0 ? "signal \(-run.exitCode)" : "exit code \(run.exitCode)"
            measurement.failure = "\(how): \(run.outputText.split(separator: "\n").last ?? "")"
            return run
        }
        if record { measurement.record(run) }
        return run
    }

    private func summary(_ measurement: Measurement) -> String {
        if let failure = measurement.failure { return "failed: \(failure)" }
        return
            "\(Format.seconds(measurement.medianSeconds ?? 0)), \(Format.megabytes(kib: measurement.maxPeakKiB ?? 0))"
    }
}

extension BigFileBench.Measurement {
    /// Adds `run`'s wall time, peak RSS, CPU time and major faults.
    mutating func record(_ run: ChildRun) {
        seconds.append(run.seconds)
        peakKiB.append(run.peakRSSKiB)
        userSeconds.append(run.userSeconds)
        systemSeconds.append(run.systemSeconds)
        majorFaults.append(run.majorFaults)
    }
}

extension VerifyBigBench.Result {
    func details() -> [String] {
        var lines = [
            "Verify 1 GB with one later revision: \(Format.megabytes(bytes: size)); each tool in a child process, "
                + "1 warm-up + \(runs) runs, interleaved: median wall time, max peak RSS",
            "  file: \(preparation)",
        ]
        let shares = cached.map { $0.map { Format.fixed(100 * $0, 1) + " %" } ?? "unknown" }
        if shares.count == 2 {
            lines.append("  the file's pages in the page cache: \(shares[0]) before the runs, \(shares[1]) after")
        }
        for kind in VerifyTools.Kind.allCases {
            guard let measurement = measurements[kind] else {
                lines.append("  \(Format.padRight(kind.name, 18)) not measured: \(problems[kind] ?? "")")
                continue
            }
            lines.append(VerifyBigBench.Result.line(measurement))
        }
        lines.append(VerifyBigBench.Result.line(hash))
        lines.append("  \(trustNote); pyHanko trusts only the same root (--trust-replace)")
        lines.append("  verdicts (first run):")
        for kind in VerifyTools.Kind.allCases {
            guard let verdict = verdicts[kind] else { continue }
            lines.append("    \(Format.padRight(kind.name, 17)) \(verdict.short)")
        }
        if let openOnly {
            let figure =
                openOnly.failure.map { "failed: " + $0 }
                ?? "\(Format.milliseconds(openOnly.medianSeconds ?? 0)), \(Format.megabytes(kib: openOnly.maxPeakKiB ?? 0)); "
                + (openOnly.memoryBreakdown ?? openOnly.extra)
            lines.append("  open + page count of the same file (autograph-bench --open-only, one run): \(figure)")
        }
        return lines
    }

    static func line(_ measurement: BigFileBench.Measurement) -> String {
        var text = "  \(Format.padRight(measurement.name, 18))"
        if let failure = measurement.failure {
            text += " failed: \(failure)"
        } else {
            text += " \(Format.padLeft(Format.seconds(measurement.medianSeconds ?? 0), 9))"
            text += " \(Format.padLeft(Format.megabytes(kib: measurement.maxPeakKiB ?? 0), 9))"
            text += "  CPU (median) user \(Format.fixed(median(measurement.userSeconds) ?? 0, 2)) s, "
            text += "system \(Format.fixed(median(measurement.systemSeconds) ?? 0, 2)) s, "
            text += "major faults \(measurement.majorFaults.map(String.init).joined(separator: "/"))"
            text += "; runs: " + measurement.seconds.map { Format.fixed($0, 2) }.joined(separator: ", ") + " s"
        }
        if !measurement.note.isEmpty { text += "  (\(measurement.note))" }
        return text
    }
}
