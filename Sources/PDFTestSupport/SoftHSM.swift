import AutographJSON
import Foundation
import PKCS11

/// A SoftHSM2 token store of the test process's own (Debian `softhsm2`, installed by
/// `scripts/install-deps test`): a folder with its configuration, named to the module through
/// `SOFTHSM2_CONF` before the module is first loaded, and tokens made with `softhsm2-util`.
///
/// The module reads `SOFTHSM2_CONF` once, when it is initialised, and a process initialises it once:
/// ``shared()`` makes every token the tests use before handing it out.
///
/// Tokens (user PIN ``pin``, security officer PIN ``soPIN``):
/// - `autograph`: the test PKI's keys (`Tests/Fixtures/pki`) imported as `rsa2048` (id 01),
///   `rsa-pss` (id 02), `p256` (id 03), `p384` (id 04), each with its certificate (stored through
///   PKCS#11 `C_CreateObject`: `softhsm2-util` imports keys only), and `no-certificate` (id 05, the
///   RSA key again, no certificate).
/// - `other`: an empty second token.
public struct SoftHSM: Sendable {
    /// The module's path (Debian's).
    public static let module = "/usr/lib/softhsm/libsofthsm2.so"
    /// The user PIN of every token.
    public static let pin = "1234"
    /// The security officer PIN of every token.
    public static let soPIN = "87654321"
    /// The keys of the token `autograph`: label, id (hex), the PEM key and certificate in `Tests/Fixtures/pki`.
    public static let keys: [(label: String, id: String, name: String)] = [
        ("rsa2048", "01", "signer-rsa2048"), ("rsa-pss", "02", "signer-rsa-pss"), ("p256", "03", "signer-p256"),
        ("p384", "04", "signer-p384"), ("no-certificate", "05", "signer-rsa2048"),
    ]

    /// The folder holding the configuration and the tokens.
    public let directory: String

    private static let sharedStore = Result { try SoftHSM() }

    /// The store of this test process, made by the first caller.
    /// - Throws: `Oracle.MissingProgram` when SoftHSM2 is not installed; `Oracle` failures of `softhsm2-util`.
    public static func shared() throws -> SoftHSM { try sharedStore.get() }

    /// Whether SoftHSM2 is installed.
    public static var isInstalled: Bool {
        FileManager.default.fileExists(atPath: module) && Oracle.which("softhsm2-util") != nil
    }

    private init() throws {
        guard let util = Oracle.which("softhsm2-util"), FileManager.default.fileExists(atPath: Self.module) else {
            throw Oracle.MissingProgram(name: "softhsm2-util")
        }
        directory = try TestPaths.temporaryDirectory("softhsm")
        try FileManager.default.createDirectory(atPath: directory + "/tokens", withIntermediateDirectories: true)
        let configuration = directory + "/softhsm2.conf"
        try "directories.tokendir = \(directory)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        setenv("SOFTHSM2_CONF", configuration, 1)
        for label in ["autograph", "other"] {
            try Self.run(
                util, ["--init-token", "--free", "--label", label, "--so-pin", Self.soPIN, "--pin", Self.pin])
        }
        for key in Self.keys {
            try Self.run(
                util,
                [
                    "--import", TestPaths.fixture("pki", "\(key.name).key.pem"), "--token", "autograph", "--label",
                    key.label, "--id", key.id, "--pin", Self.pin,
                ])
        }
        let token = try PKCS11Token(module: try PKCS11Module.load(Self.module), label: "autograph", serial: nil)
        try token.login(pin: Self.pin)
        for key in Self.keys where key.label != "no-certificate" {
            let pem = try String(contentsOfFile: TestPaths.fixture("pki", "\(key.name).cert.pem"), encoding: .utf8)
            // The first PEM block's Base64 body is the certificate's DER.
            let body = pem.components(separatedBy: "-----")
            guard body.count > 2, let id = UInt8(key.id, radix: 16) else {
                throw Oracle.OracleFailure(message: "no certificate in \(key.name).cert.pem")
            }
            let der = Base64.decode(Array(body[2].filter { !$0.isWhitespace }.utf8))
            guard let subject = Self.subject(of: der) else {
                throw Oracle.OracleFailure(message: "\(key.name).cert.pem: no subject")
            }
            try token.storeCertificate(der, subject: subject, label: key.label, id: [id])
        }
    }

    /// Signs `input` into `output` with pyHanko's own PKCS#11 signer (`pyhanko sign addsig pkcs11`,
    /// PAdES, field `field`) and the key and certificate `label` of the token `autograph`.
    /// `SOFTHSM2_CONF`, set by ``shared()`` for this process, reaches pyHanko through the environment.
    public func signWithPyhanko(label: String, input: String, output: String, field: String = "PySig") throws
        -> Oracle.Result
    {
        let configuration = try TestPaths.temporaryDirectory("pkcs11-pyhanko") + "/pyhanko.yml"
        let name = Self.keys.first { $0.label == label }?.name ?? ""
        // A raw mechanism (CKM_ECDSA over pyHanko's hash): SoftHSM 2.6 has no CKM_ECDSA_SHA256.
        try """
        pkcs11-setups:
          token:
            module-path: \(Self.module)
            token-criteria:
              label: autograph
            user-pin: "\(Self.pin)"
            cert-label: \(label)
            key-label: \(label)
            raw-mechanism: true
            other-certs: \(TestPaths.fixture("pki", "\(name).chain.pem"))
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        return try SignatureOracle.runPyhanko([
            "--config", configuration, "sign", "addsig", "--field", field, "--use-pades", "pkcs11", "--p11-setup",
            "token", input, output,
        ])
    }

    /// The DER of a certificate's subject Name: `Certificate ::= SEQUENCE { tbsCertificate SEQUENCE {
    /// [0] version OPTIONAL, serialNumber, signature, issuer, validity, subject, … } … }` (RFC 5280 §4.1).
    static func subject(of der: [UInt8]) -> [UInt8]? {
        /// The element at `start`: where its content starts and where it ends.
        func element(at start: Int) -> (content: Int, end: Int)? {
            guard start + 1 < der.count else { return nil }
            var length = Int(der[start + 1])
            var content = start + 2
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count >= 1, count <= 4, content + count <= der.count else { return nil }
                length = der[content..<content + count].reduce(0) { $0 << 8 | Int($1) }
                content += count
            }
            guard content + length <= der.count else { return nil }
            return (content, content + length)
        }
        guard let certificate = element(at: 0), let tbs = element(at: certificate.content) else { return nil }
        var position = tbs.content
        if der[position] == 0xA0, let version = element(at: position) { position = version.end }
        for _ in 0..<4 {  // serialNumber, signature, issuer, validity
            guard let skipped = element(at: position) else { return nil }
            position = skipped.end
        }
        guard let subject = element(at: position) else { return nil }
        return Array(der[position..<subject.end])
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
        let result = try Oracle.run(program, arguments)
        guard result.status == 0 else {
            throw Oracle.OracleFailure(
                message: "softhsm2-util \(arguments.first ?? ""): \(result.output) \(result.errors)")
        }
    }
}
