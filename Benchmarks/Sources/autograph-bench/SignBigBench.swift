import Glibc

/// Step `sign-big`: `autograph sign --invisible` of the generated 1 GB file beside `sha256sum` of it,
/// then `autograph verify` of the signed copy beside `pdfsig`, each run a child of `bench-rusage`
/// (wall time and peak RSS), runs of the two tools interleaved after one warm-up each. Every signed
/// copy is deleted after its run except the last, which is verified and then deleted. Last, one
/// instrumented run (`--sign-phases`) shows where the time and the memory go.
struct SignBigBench {
    typealias Measurement = BigFileBench.Measurement

    /// One phase of the instrumented run.
    struct Phase {
        var name: String
        var seconds: Double
        var peakKiB: Int
        var rssKiB: Int
        var anonymousKiB: Int
        var fileKiB: Int
    }

    struct Result {
        var path: String
        var size: Int
        var runs: Int
        var generationSeconds: Double?
        var sign: Measurement
        var hash: Measurement
        var verify: Measurement
        var pdfsig: Measurement
        /// `openssl dgst -sha256`: the SHA-256 of the library Autograph hashes with.
        var references: [Measurement]
        var phases: [Phase] = []
        var phasesFailure: String?
        var trustNote: String
        /// `autograph-bench --open-only` (open + page count) on the original, then on the copy
        /// `autograph sign` just wrote: the same structure, read from differently cached files.
        var openOnly: [Measurement] = []
        /// The share of the file in the page cache before and after the timed runs (`mincore`).
        var cached: [Double?] = []
    }

    var environment: BenchEnvironment
    var runs: Int

    func run(autograph: String) throws(BenchError) -> Result {
        let path = environment.bigFile
        var generationSeconds: Double? = nil
        if !BigFile.isComplete(path) {
            Progress.note("sign-big: generating \(path) (once; kept for later runs)")
            let start = monotonicSeconds()
            try BigFile.generate(at: path)
            generationSeconds = monotonicSeconds() - start
        }
        var info = stat()
        _ = stat(path, &info)
        let size = Int(info.st_size)
        var space = statvfs()
        if statvfs(environment.buildPath(""), &space) == 0,
            Int(space.f_bavail) * Int(space.f_frsize) < 2 * size + 100_000_000
        {
            throw BenchError("sign-big needs \(Format.megabytes(bytes: 2 * size)) free under Benchmarks/.build")
        }

        let signed = environment.buildPath("big-1gb-signed.pdf")
        let p12 = SignSetup.p12(SignSetup.keys[0], environment)
        let signArguments = [
            autograph, "sign", path, "-o", signed, "--p12", p12, "--p12-password", SignSetup.password, "--invisible",
        ]
        var sign = Measurement(name: "autograph sign", note: "P-256, invisible field, written to disk with fsync")
        var hash = Measurement(name: "sha256sum", note: "coreutils")
        var openssl = Measurement(name: "openssl dgst -sha256", note: "OpenSSL's SHA-256, which Autograph uses")
        let cachedBefore = SignBigBench.pageCacheShare(path)
        let haveOpenSSL = Launcher.isAvailable("openssl")
        if !haveOpenSSL { openssl.failure = "openssl not found" }
        for attempt in 0...runs {
            let label = attempt == 0 ? "warm-up" : "run \(attempt)/\(runs)"
            Progress.update("  sign-big: \(label): autograph sign")
            try measure(&sign, signArguments, record: attempt > 0, accept: [0, 3])
            if attempt < runs || sign.failure != nil { remove(signed) }
            Progress.update("  sign-big: \(label): sha256sum")
            try measure(&hash, ["sha256sum", path], record: attempt > 0)
            if haveOpenSSL {
                try measure(&openssl, ["openssl", "dgst", "-sha256", path], record: attempt > 0)
            }
        }
        let cachedAfter = SignBigBench.pageCacheShare(path)
        Progress.finish(
            "  sign-big: autograph sign \(summary(sign)); sha256sum \(summary(hash)); openssl \(summary(openssl))")

        let (database, trustNote) = try VerifyBench.nssDatabase(environment)
        var verify = Measurement(name: "autograph verify", note: "--trust root.cert.pem")
        var pdfsig = Measurement(
            name: "pdfsig", note: database == nil ? "no trust database" : "-nssdir (trusts the root)")
        if sign.failure != nil {
            verify.failure = "no signed copy"
            pdfsig.failure = "no signed copy"
        } else {
            let pdfsigArguments =
                [environment.pdfsig] + (database.map { ["-nssdir", "sql:" + $0] } ?? []) + [signed]
            let havePdfsig = Launcher.isAvailable(environment.pdfsig)
            if !havePdfsig { pdfsig.failure = "\(environment.pdfsig) not found" }
            for attempt in 0...runs {
                let label = attempt == 0 ? "warm-up" : "run \(attempt)/\(runs)"
                Progress.update("  sign-big: \(label): autograph verify")
                try measure(
                    &verify, [autograph, "verify", "--trust", SignSetup.root(environment), signed], record: attempt > 0)
                if havePdfsig {
                    Progress.update("  sign-big: \(label): pdfsig")
                    try measure(
                        &pdfsig, pdfsigArguments, record: attempt > 0,
                        check: { $0.contains("Signature is Valid") ? nil : "pdfsig does not say 'Signature is Valid'" })
                }
            }
            Progress.finish("  sign-big: autograph verify \(summary(verify)); pdfsig \(summary(pdfsig))")
        }
        var openOnly: [Measurement] = []
        for (name, file) in [("the original", path), ("the signed copy just written", signed)] where sign.failure == nil
        {
            var measurement = Measurement(name: "open + page count, \(name)")
            let run = try environment.launcher.run(
                [environment.executable, "--open-only", file], stdout: .capture, timeout: 300)
            if run.succeeded {
                measurement.seconds = [run.seconds]
                measurement.peakKiB = [run.peakRSSKiB]
                measurement.extra = run.outputText.split(separator: "\n").dropFirst().joined(separator: " ")
            } else {
                measurement.failure = "exit code \(run.exitCode)"
            }
            openOnly.append(measurement)
        }
        remove(signed)

        var result = Result(
            path: path, size: size, runs: runs, generationSeconds: generationSeconds, sign: sign, hash: hash,
            verify: verify, pdfsig: pdfsig, references: [openssl], trustNote: trustNote, openOnly: openOnly,
            cached: [cachedBefore, cachedAfter])
        Progress.update("  sign-big: one instrumented signature (--sign-phases)")
        let phased = environment.buildPath("big-1gb-phases.pdf")
        let run = try environment.launcher.run(
            [environment.executable, "--sign-phases", path, p12, SignSetup.password, phased], stdout: .capture,
            stderr: .capture, timeout: 600)
        remove(phased)
        for line in run.outputText.split(separator: "\n") {
            let columns = line.split(separator: "\t").map(String.init)
            let sizes = columns.dropFirst(3).compactMap { Int($0) }
            guard columns.count == 7, columns[0] == "P", let seconds = Double(columns[2]), sizes.count == 4 else {
                continue
            }
            result.phases.append(
                Phase(
                    name: columns[1], seconds: seconds, peakKiB: sizes[0], rssKiB: sizes[1], anonymousKiB: sizes[2],
                    fileKiB: sizes[3]))
        }
        if !run.succeeded {
            result.phasesFailure = "exit code \(run.exitCode): \(run.outputText.split(separator: "\n").last ?? "")"
        }
        Progress.finish("  sign-big: instrumented run done")
        return result
    }

    /// Runs `arguments` once; records its time and peak RSS when `record`. A failure is kept, once.
    private func measure(
        _ measurement: inout Measurement, _ arguments: [String], record: Bool, accept: Set<Int32> = [0],
        check: (String) -> String? = { _ in nil }
    ) throws(BenchError) {
        guard measurement.failure == nil else { return }
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 600)
        if run.timedOut || !accept.contains(run.exitCode) {
            let how = run.timedOut ? "timed out" : "exit code \(run.exitCode)"
            measurement.failure = "\(how): \(run.outputText.split(separator: "\n").last ?? "")"
            return
        }
        if let problem = check(run.outputText) {
            measurement.failure = problem
            return
        }
        guard record else { return }
        measurement.seconds.append(run.seconds)
        measurement.peakKiB.append(run.peakRSSKiB)
        measurement.userSeconds.append(run.userSeconds)
        measurement.systemSeconds.append(run.systemSeconds)
        measurement.majorFaults.append(run.majorFaults)
    }

    private func summary(_ measurement: Measurement) -> String {
        if let failure = measurement.failure { return "failed: \(failure)" }
        return
            "\(Format.seconds(measurement.medianSeconds ?? 0)), \(Format.megabytes(kib: measurement.maxPeakKiB ?? 0))"
    }

    /// The share of `path`'s pages in the page cache (`mincore` on a mapping that is never touched).
    static func pageCacheShare(_ path: String) -> Double? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            return nil
        }
        defer { munmap(address, size) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: (size + pageSize - 1) / pageSize)
        guard mincore(address, size, &vector) == 0 else { return nil }
        return Double(vector.filter { $0 & 1 != 0 }.count) / Double(vector.count)
    }

    /// Deletes `path` and any temporary file a killed `autograph sign` left beside it.
    private func remove(_ path: String) {
        unlink(path)
        let directory = BenchEnvironment.directory(of: path)
        let prefix = String(path.dropFirst(directory.count + 1)) + ".autograph-"
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        var leftovers: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix) { leftovers.append(name) }
        }
        for name in leftovers { unlink("\(directory)/\(name)") }
    }
}

extension SignBigBench.Result {
    func details() -> [String] {
        var lines = [
            "Sign 1 GB: \(path) (\(Format.megabytes(bytes: size))); each tool in a child process, 1 warm-up + "
                + "\(runs) runs, interleaved: median wall time, max peak RSS"
        ]
        if let generationSeconds { lines.append("  generated in this run in \(Format.seconds(generationSeconds))") }
        let shares = cached.map { $0.map { Format.fixed(100 * $0, 1) + " %" } ?? "unknown" }
        if shares.count == 2 {
            lines.append("  the file's pages in the page cache: \(shares[0]) before the runs, \(shares[1]) after")
        }
        for measurement in [sign, hash] + references + [verify, pdfsig] {
            var text = "  \(Format.padRight(measurement.name, 22))"
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
            lines.append(text)
        }
        lines.append("  \(trustNote)")
        if !openOnly.isEmpty {
            lines.append(
                "  peak RSS of opening and walking the page tree only (autograph-bench --open-only, one run each):")
        }
        for measurement in openOnly {
            let figure =
                measurement.failure.map { "failed: " + $0 }
                ?? "\(Format.megabytes(kib: measurement.maxPeakKiB ?? 0)); "
                + (measurement.memoryBreakdown ?? measurement.extra)
            lines.append("    \(Format.padRight(measurement.name, 46)) \(figure)")
        }
        if !phases.isEmpty || phasesFailure != nil {
            lines.append(
                "  where autograph sign's time and memory go (one instrumented run of the same calls, "
                    + "autograph-bench --sign-phases; peak = that phase's own peak RSS):")
        }
        for phase in phases {
            lines.append(
                "    \(Format.padRight(phase.name, 40)) \(Format.padLeft(Format.seconds(phase.seconds), 9))"
                    + "  peak \(Format.padLeft(Format.megabytes(kib: phase.peakKiB), 9))"
                    + "  resident after \(Format.padLeft(Format.megabytes(kib: phase.rssKiB), 9)) ("
                    + "\(Format.megabytes(kib: phase.fileKiB)) file-backed, \(Format.megabytes(kib: phase.anonymousKiB)) anonymous)"
            )
        }
        if let phasesFailure { lines.append("    the instrumented run failed: \(phasesFailure)") }
        return lines
    }
}
