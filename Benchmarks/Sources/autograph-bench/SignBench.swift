/// Step `sign`: the chosen documents signed with a visible field on page 1, once per key, in one
/// process per side (Autograph: this program re-executed as `--sign-worker`; pyHanko: one Python
/// process running `scripts/pyhanko_sign.py`), each side loading its key once and running every
/// round itself. Only the signing of each document (open, sign, signed document in memory) is
/// timed, by the workers; a document that either side fails to sign is left out of both totals.
struct SignBench {
    var environment: BenchEnvironment
    var rounds: Int

    /// One result per key of ``SignSetup/keys``, in order.
    func run(_ selection: SignSetup.Selection) throws(BenchError) -> [CorpusBench.Result] {
        var results: [CorpusBench.Result] = []
        for key in SignSetup.keys {
            let workload = CorpusBench.Workload(
                title: "Sign in process, \(key.name): a visible field on page 1, the signed document in memory",
                label: "sign \(key.name)", ourArguments: ["--sign-worker"], peerName: "pyHanko",
                peerModule: "pyhanko.sign", peerScript: environment.pyhankoSignScript, kind: .sign,
                extraArguments: [
                    SignSetup.p12(key, environment), SignSetup.password, SignSetup.fieldName, SignSetup.rectText,
                ])
            results.append(
                try CorpusBench(environment: environment, rounds: rounds, workload: workload).run(selection.files))
        }
        return results
    }
}
