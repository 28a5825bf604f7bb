/// The rows of the signing steps in the final table.
extension Summary {
    static let signTarget = 0.10
    static let signBigTimeTarget = 1.5
    static let signBigMegabytesTarget = 32.0
    static let verifyTarget = 1.0
    static let verifyPyhankoTarget = 0.10
    static let verifyBigTimeTarget = 2.0
    static let verifyBigMegabytesTarget = 64.0

    /// A row of two totals in seconds, their ratio and a ratio target (nil: reported without one).
    private func ratioRow(_ label: String, ours: Double?, peer: Double?, peerName: String = "", target: Double?) -> Row
    {
        var ratio: Double? = nil
        if let ours, let peer, peer > 0 { ratio = ours / peer }
        let ratioText = ratio.map { value in target.map { Format.ratio(value, against: $0) } ?? Format.ratio(value) }
        return Row(
            label: label, ours: ours.map(Format.seconds) ?? "n/a",
            peer: peer.map { (peerName.isEmpty ? "" : peerName + " ") + Format.seconds($0) } ?? "n/a",
            ratio: ratioText ?? "n/a", target: target.map { "≤ " + Format.ratio($0) } ?? "none",
            met: target.flatMap { target in ratio.map { $0 <= target } }, reportOnly: target == nil)
    }

    mutating func add(sign results: [CorpusBench.Result]?) {
        for (position, key) in SignSetup.keys.enumerated() {
            let result = results.flatMap { position < $0.count ? $0[position] : nil }
            for side in [result?.ours, result?.peer].compactMap({ $0 }) {
                if let reason = side.unavailable {
                    notices.append("sign \(key.name), \(side.name) not measured: \(reason)")
                }
            }
            rows.append(
                ratioRow(
                    "sign in process, \(key.name) (pyHanko)", ours: result?.oursTotal, peer: result?.peerTotal,
                    target: Summary.signTarget))
        }
    }

    mutating func add(signProcesses result: SignProcessBench.Result?) {
        for (position, key) in SignSetup.keys.enumerated() {
            let keyResult = result.flatMap { position < $0.keys.count ? $0.keys[position] : nil }
            rows.append(
                ratioRow(
                    "autograph sign vs pyhanko addsig, \(key.name)", ours: keyResult?.total(keyResult?.ours),
                    peer: keyResult?.total(keyResult?.peer), target: nil))
        }
        if let notice = result?.notice { notices.append("sign-process, pyHanko not measured: \(notice)") }
        references.append(
            "  sign-process has no target in the issue (≤ 0.10 is the in-process target); its ratio is reported only")
    }

    /// The rows of `verify-corpus` or `verify`: autograph verify's total against pyHanko's and pdfsig's.
    mutating func add(verify result: VerifyBench.Result?, label: String, step: String) {
        rows.append(
            ratioRow(
                "verify vs pyhanko validate, \(label)", ours: result?.total(.autograph), peer: result?.total(.pyhanko),
                peerName: "pyHanko", target: Summary.verifyPyhankoTarget))
        rows.append(
            ratioRow(
                "verify vs pdfsig, \(label)", ours: result?.total(.autograph), peer: result?.total(.pdfsig),
                peerName: "pdfsig", target: Summary.verifyTarget))
        for (kind, problem) in (result?.problems ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            notices.append("\(step), \(kind.name) not measured: \(problem)")
        }
        if let result, !result.disagreements.isEmpty {
            notices.append(
                "\(step): the tools' verdicts differ on \(result.disagreements.count) of \(result.files.count) files "
                    + "(see the details and Benchmarks/.build/verify-verdicts.json)")
        }
    }

    mutating func add(signBig result: SignBigBench.Result?) {
        func seconds(_ measurement: BigFileBench.Measurement?) -> Double? {
            measurement?.failure == nil ? measurement?.medianSeconds : nil
        }
        func peak(_ measurement: BigFileBench.Measurement?) -> Int? {
            measurement?.failure == nil ? measurement?.maxPeakKiB : nil
        }
        rows.append(
            ratioRow(
                "sign 1 GB vs sha256sum (time)", ours: seconds(result?.sign), peer: seconds(result?.hash),
                target: Summary.signBigTimeTarget))
        let signPeak = peak(result?.sign)
        rows.append(
            Row(
                label: "sign 1 GB (peak RSS)", ours: signPeak.map { Format.megabytes(kib: $0) } ?? "n/a",
                peer: peak(result?.hash).map { "sha256sum " + Format.megabytes(kib: $0) } ?? "",
                target: "≤ \(Format.fixed(Summary.signBigMegabytesTarget, 0)) MB",
                met: signPeak.map { Double($0) * 1024 / 1_000_000 <= Summary.signBigMegabytesTarget }))
        rows.append(
            ratioRow(
                "verify 1 GB vs pdfsig (time)", ours: seconds(result?.verify), peer: seconds(result?.pdfsig),
                target: Summary.verifyTarget))
        let verifyPeak = peak(result?.verify)
        rows.append(
            Row(
                label: "verify 1 GB (peak RSS)", ours: verifyPeak.map { Format.megabytes(kib: $0) } ?? "n/a",
                peer: peak(result?.pdfsig).map { "pdfsig " + Format.megabytes(kib: $0) } ?? "", target: "none",
                met: nil, reportOnly: true))
        for measurement in [result?.sign, result?.hash, result?.verify, result?.pdfsig].compactMap({ $0 }) {
            if let failure = measurement.failure { notices.append("sign-big, \(measurement.name): \(failure)") }
        }
        if let openssl = result?.references.first, openssl.failure == nil, let time = openssl.medianSeconds,
            let peak = openssl.maxPeakKiB
        {
            references.append(
                "  sign-big reference: openssl dgst -sha256 of the 1 GB file \(Format.seconds(time)), "
                    + "\(Format.megabytes(kib: peak)) (the SHA-256 code Autograph uses)")
        }
    }

    /// The rows of `verify-big`: autograph verify's time against sha256sum's, its peak RSS, and its time
    /// against pdfsig's and pyHanko's.
    mutating func add(verifyBig result: VerifyBigBench.Result?) {
        func seconds(_ measurement: BigFileBench.Measurement?) -> Double? {
            measurement?.failure == nil ? measurement?.medianSeconds : nil
        }
        let ours = result?.measurements[.autograph]
        rows.append(
            ratioRow(
                "verify 1 GB + 1 revision vs sha256sum", ours: seconds(ours), peer: seconds(result?.hash),
                peerName: "sha256sum", target: Summary.verifyBigTimeTarget))
        let peak = ours?.failure == nil ? ours?.maxPeakKiB : nil
        rows.append(
            Row(
                label: "verify 1 GB + 1 revision (peak RSS)", ours: peak.map { Format.megabytes(kib: $0) } ?? "n/a",
                peer: [(VerifyTools.Kind.pdfsig, "pdfsig"), (.pyhanko, "pyHanko")].compactMap { kind, name in
                    let measurement = result?.measurements[kind]
                    return measurement?.failure == nil
                        ? measurement?.maxPeakKiB.map { "\(name) \(Format.megabytes(kib: $0))" } : nil
                }.joined(separator: ", "),
                target: "≤ \(Format.fixed(Summary.verifyBigMegabytesTarget, 0)) MB",
                met: peak.map { Double($0) * 1024 / 1_000_000 <= Summary.verifyBigMegabytesTarget }))
        rows.append(
            ratioRow(
                "verify 1 GB + 1 revision vs pdfsig", ours: seconds(ours), peer: seconds(result?.measurements[.pdfsig]),
                peerName: "pdfsig", target: Summary.verifyTarget))
        rows.append(
            ratioRow(
                "verify 1 GB + 1 revision vs pyhanko", ours: seconds(ours),
                peer: seconds(result?.measurements[.pyhanko]), peerName: "pyHanko", target: nil))
        if result?.pyhankoOnce == true {
            references.append("  verify-big: pyHanko ran once on the 1 GB file (its first run took over a minute)")
        }
        for measurement in (result.map { Array($0.measurements.values) + [$0.hash] } ?? []) {
            if let failure = measurement.failure { notices.append("verify-big, \(measurement.name): \(failure)") }
        }
        for (kind, problem) in (result?.problems ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            notices.append("verify-big, \(kind.name) not measured: \(problem)")
        }
    }
}
