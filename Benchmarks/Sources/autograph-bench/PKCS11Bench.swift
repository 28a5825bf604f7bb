import Glibc

/// Step `pkcs11`: signing with a key in a PKCS#11 token, Autograph beside pyHanko's own PKCS#11 signer,
/// on one SoftHSM2 token the step makes (``SoftHSMStore``), RSA-2048 and P-256, the generated 1-page
/// document, a new invisible field `Sig`, measured as ``RemoteSignerStep`` measures:
///
/// 1. process per signature: `autograph sign DOC -o OUT --pkcs11 MODULE --token autograph-bench --key-label
///    L --pin-file F --chain CHAIN --field Sig --invisible` beside `$PYTHON -m pyhanko --config CONF sign
///    addsig --field Sig --use-pades pkcs11 --p11-setup L DOC OUT` (CONF: the same module, token, PIN, key
///    and certificate labels, `other-certs: CHAIN`, `raw-mechanism: true` for the EC key), one after the
///    other, once untimed, then `--pkcs11-runs` times each; wall time from fork to reaping, the median;
/// 2. throughput in one process through one token: `autograph-bench --pkcs11-worker` (``PKCS11Worker``)
///    beside `scripts/pyhanko_pkcs11.py`, each `--pkcs11-signatures` signatures per pass, `--rounds` passes
///    with 1 thread then with 8; signatures per second of the median pass.
///
/// Then, untimed, `autograph verify --trust ROOT` and `pyhanko sign validate --trust ROOT --trust-replace
/// --no-revocation-check` on each tool's last file of each part.
struct PKCS11Bench {
    static let kind = RemoteSignerStep.Kind(
        step: "pkcs11", plan: "autograph sign --pkcs11 and pyhanko sign addsig pkcs11 on one SoftHSM2 token",
        keyNoun: "keys", title: "PKCS#11 signing through one SoftHSM2 token",
        signature: "a new invisible field, PAdES, SHA-256", unit: "thread", place: "one token",
        ours: "autograph sign --pkcs11", peer: "pyhanko sign addsig pkcs11", nameWidth: 28, countsRequests: false,
        processTarget: 0.20, throughputTarget: 0.20, keys: SoftHSMStore.keys.map(\.signerKey))

    var options: Options
    var environment: BenchEnvironment

    /// Runs the step, with `--pkcs11-runs`, `--pkcs11-signatures` and `--rounds`.
    func run() throws(BenchError) -> RemoteSignerStep.Result {
        let step = RemoteSignerStep(
            kind: Self.kind, environment: environment, runs: options.pkcs11Runs, rounds: options.rounds,
            signatures: options.pkcs11Signatures)
        let autograph = environment.autograph
        var result = try step.begin(problem: SoftHSMStore.problem(environment), autograph: autograph)
        guard let document = result.document else { return result }
        Progress.note("pkcs11: making a SoftHSM2 token (softhsm2-util, python-pkcs11)")
        var store: SoftHSMStore
        do {
            store = try SoftHSMStore.make(environment)
        } catch {
            result.failure = "the SoftHSM2 token was not made: \(error)"
            return result
        }
        defer { store.remove(environment) }
        result.setup =
            "token: '\(SoftHSMStore.tokenLabel)' made with softhsm2-util in a temporary folder, \(SoftHSMStore.module)"
        let configuration = store.directory + "/pyhanko.yml"
        try CorpusProtocol.write(pyhankoConfiguration(store), to: configuration)
        CorpusFile.warm([document])

        for key in SoftHSMStore.keys {
            let files = step.files(key.signerKey)
            let processes = autograph.map { autograph in
                (
                    ours: [
                        autograph, "sign", document.path, "-o", files.ours, "--pkcs11", SoftHSMStore.module, "--token",
                        SoftHSMStore.tokenLabel, "--key-label", key.label, "--pin-file", store.pinFile, "--chain",
                        store.chain(key), "--field", "Sig", "--invisible",
                    ],
                    peer: [
                        environment.python, "-m", "pyhanko", "--config", configuration, "sign", "addsig", "--field",
                        "Sig", "--use-pades", "pkcs11", "--p11-setup", key.label, document.path, files.peer,
                    ]
                )
            }
            let token = [
                SoftHSMStore.module, SoftHSMStore.tokenLabel, store.pinFile, key.label, store.chain(key), document.path,
            ]
            let passes = [String(step.signatures), step.countList, String(step.rounds)]
            let workers = (
                ours: [environment.executable, "--pkcs11-worker"] + token + [files.oursSample] + passes,
                peer: [environment.python, "\(environment.packageDirectory)/scripts/pyhanko_pkcs11.py"] + token + passes
                    + [files.peerSample]
            )
            result.keys.append(
                try step.measure(
                    key.signerKey, processes: processes, workers: workers, root: SignSetup.root(environment),
                    autograph: autograph))
        }
        return result
    }

    /// pyHanko's configuration: one PKCS#11 setup per key, named by its label.
    private func pyhankoConfiguration(_ store: SoftHSMStore) -> String {
        var text = "pkcs11-setups:\n"
        for key in SoftHSMStore.keys {
            text += """
                  \(key.label):
                    module-path: \(SoftHSMStore.module)
                    token-criteria:
                      label: \(SoftHSMStore.tokenLabel)
                    user-pin: "\(SoftHSMStore.pin)"
                    cert-label: \(key.label)
                    key-label: \(key.label)
                    other-certs: \(store.chain(key))

                """
            // SoftHSM 2.6 has no CKM_ECDSA_SHA256: CKM_ECDSA over pyHanko's hash.
            if key.label == "p256" { text += "    raw-mechanism: true\n" }
        }
        return text
    }
}

extension SoftHSMStore.Key {
    /// The key as the step reports it.
    var signerKey: RemoteSignerStep.Key {
        RemoteSignerStep.Key(name: name, label: label, handle: label, about: "key and certificate '\(label)', id \(id)")
    }
}
