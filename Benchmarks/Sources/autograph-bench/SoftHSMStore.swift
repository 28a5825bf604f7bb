import Glibc

/// The SoftHSM2 token of the `pkcs11` step, made in a temporary folder of its own (as the root
/// package's `PDFTestSupport/SoftHSM.swift` makes the tests' store, which the bench cannot depend on):
///
/// - `softhsm2.conf` naming `tokens/` as the token directory, given to every child through
///   `SOFTHSM2_CONF` (set in this process while the store exists; the module reads it when a process
///   initialises it);
/// - `softhsm2-util --init-token --free --label autograph-bench --so-pin … --pin …`;
/// - `softhsm2-util --import signer-rsa2048.key.pem --label rsa2048 --id 01` and `signer-p256.key.pem`
///   as `p256`, id 02 (the root package's test PKI, `Tests/Fixtures/pki`);
/// - each key's certificate stored with the key's label and id by `scripts/pkcs11_store_certificate.py`
///   (python-pkcs11, `C_CreateObject`): `softhsm2-util` imports keys only, `pkcs11-tool` (OpenSC) is not
///   a dependency of the bench, and the root package's certificate store (`PKCS11Token.storeCertificate`)
///   is `package`, not part of a product the bench can use. python-pkcs11 comes with pyHanko's `pkcs11`
///   extra, which the step needs anyway.
struct SoftHSMStore {
    struct Key {
        /// "RSA-2048", "P-256".
        var name: String
        /// The object label of the key and its certificate (`--key-label`, pyHanko's `key-label`).
        var label: String
        /// `CKA_ID` in hexadecimal.
        var id: String
        /// The file stem in the PKI directory: `STEM.key.pem`, `STEM.cert.pem`, `STEM.chain.pem`.
        var stem: String
    }

    static let keys = [
        Key(name: "RSA-2048", label: "rsa2048", id: "01", stem: "signer-rsa2048"),
        Key(name: "P-256", label: "p256", id: "02", stem: "signer-p256"),
    ]
    static let tokenLabel = "autograph-bench"
    static let pin = "1234"
    static let soPIN = "87654321"

    /// The module: `SOFTHSM2_MODULE`, else Debian's.
    static var module: String {
        BenchEnvironment.variable("SOFTHSM2_MODULE") ?? "/usr/lib/softhsm/libsofthsm2.so"
    }

    /// The temporary folder.
    var directory: String
    /// The file holding the user PIN (`--pin-file`).
    var pinFile: String
    var pki: String
    /// `SOFTHSM2_CONF` before the store set it, restored by ``remove(_:)``.
    private var previousConfiguration: String?

    /// The chain file (the signer's certificate, the intermediate, the root) of `key`.
    func chain(_ key: Key) -> String { "\(pki)/\(key.stem).chain.pem" }

    /// Why the step cannot run, or nil: SoftHSM2 or pyHanko's `pkcs11` extra missing.
    static func problem(_ environment: BenchEnvironment) -> String? {
        if access(module, R_OK) != 0 {
            return "SoftHSM2 is not installed (\(module) missing; apt-get install softhsm2, or scripts/install-deps)"
        }
        if !Launcher.isAvailable("softhsm2-util") {
            return "softhsm2-util not found (apt-get install softhsm2, or scripts/install-deps)"
        }
        guard Launcher.isAvailable(environment.python) else { return "\(environment.python) not found" }
        let run = try? environment.launcher.run(
            [environment.python, "-c", "import pkcs11, pyhanko.sign.pkcs11"], timeout: 120)
        return run?.succeeded == true
            ? nil
            : "\(environment.python) cannot import pyHanko's PKCS#11 support (pip install 'pyhanko[pkcs11]')"
    }

    /// Makes the folder, the token, its keys and certificates; sets `SOFTHSM2_CONF`.
    static func make(_ environment: BenchEnvironment) throws(BenchError) -> SoftHSMStore {
        let base = BenchEnvironment.variable("TMPDIR") ?? "/tmp"
        var template = Array("\(base)/autograph-bench-softhsm-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("mkdtemp in \(base): \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        var store = SoftHSMStore(
            directory: directory, pinFile: directory + "/pin", pki: environment.pki,
            previousConfiguration: BenchEnvironment.variable("SOFTHSM2_CONF"))
        do throws(BenchError) {
            guard mkdir(directory + "/tokens", 0o700) == 0 else {
                throw BenchError("mkdir \(directory)/tokens: \(String(cString: strerror(errno)))")
            }
            let configuration = directory + "/softhsm2.conf"
            try CorpusProtocol.write(
                "directories.tokendir = \(directory)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n",
                to: configuration)
            try CorpusProtocol.write(pin + "\n", to: store.pinFile)
            setenv("SOFTHSM2_CONF", configuration, 1)
            let launcher = environment.launcher
            func run(_ arguments: [String]) throws(BenchError) {
                let result = try launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 120)
                guard result.succeeded else {
                    throw BenchError(
                        "\(arguments.prefix(2).joined(separator: " ")) failed (exit \(result.exitCode)): "
                            + result.outputText.split(separator: "\n").suffix(3).joined(separator: " "))
                }
            }
            try run([
                "softhsm2-util", "--init-token", "--free", "--label", tokenLabel, "--so-pin", soPIN, "--pin", pin,
            ])
            for key in keys {
                try run([
                    "softhsm2-util", "--import", "\(environment.pki)/\(key.stem).key.pem", "--token", tokenLabel,
                    "--label", key.label, "--id", key.id, "--pin", pin,
                ])
            }
            try run(
                [
                    environment.python, "\(environment.packageDirectory)/scripts/pkcs11_store_certificate.py", module,
                    tokenLabel, store.pinFile,
                ] + keys.map { "\($0.label):\($0.id):\(environment.pki)/\($0.stem).cert.pem" })
        } catch {
            store.remove(environment)
            throw error
        }
        return store
    }

    /// Removes the folder and restores `SOFTHSM2_CONF`.
    mutating func remove(_ environment: BenchEnvironment) {
        if let previousConfiguration {
            setenv("SOFTHSM2_CONF", previousConfiguration, 1)
        } else {
            unsetenv("SOFTHSM2_CONF")
        }
        guard !directory.isEmpty else { return }
        _ = try? environment.launcher.run(["rm", "-rf", "--", directory], timeout: 60)
        directory = ""
    }
}
