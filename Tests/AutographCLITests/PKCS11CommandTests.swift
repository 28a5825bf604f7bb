import AutographJSON
import Foundation
import PDFSession
import PDFSigning
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// `autograph sign --pkcs11` and `autograph pkcs11 list` against a SoftHSM2 token (`SoftHSM`).
@Suite(
    "PKCS#11 on the command line: sign with a token's key, list what a module offers",
    .enabled(if: SoftHSM.isInstalled, "SoftHSM2 is not installed (scripts/install-deps test)"))
struct PKCS11CommandTests {
    static func pinFile(_ pin: String, in directory: String) throws -> String {
        let path = directory + "/pin-\(pin)"
        try (pin + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("sign --pkcs11 with a PIN file makes a signature verify trusts; mistakes are usage errors or −125")
    func sign() async throws {
        _ = try SoftHSM.shared()
        let directory = try TestPaths.temporaryDirectory("cli-pkcs11")
        let input = directory + "/in.pdf"
        _ = await autograph("sample", "-o", input)
        let pin = try Self.pinFile(SoftHSM.pin, in: directory)
        let token = [
            "--pkcs11", SoftHSM.module, "--token", "autograph", "--chain",
            TestPaths.fixture("pki", "signer-p256.chain.pem"),
        ]
        let output = directory + "/signed.pdf"
        let signed = await autograph(["sign", input, "-o", output, "--key-label", "p256", "--pin-file", pin] + token)
        #expect(signed.code == .success, "\(signed.errors)")
        let verify = await autograph("verify", output, "--trust", TestPaths.fixture("pki", "root.cert.pem"))
        #expect(verify.code == .success, "\(verify.output)")
        let byID = await autograph(
            ["sign", input, "-o", directory + "/by-id.pdf", "--key-id", "01", "--pss", "--pin-file", pin] + token)
        #expect(byID.code == .success, "\(byID.errors)")

        let wrong = await autograph(
            [
                "sign", input, "-o", directory + "/wrong.pdf", "--key-label", "p256", "--pin-file",
                try Self.pinFile("0000", in: directory),
            ] + token)
        #expect(wrong.code == .failure && wrong.errors.contains("-125"), "\(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/wrong.pdf"))
        for misuse in [
            ["--token", "autograph"], ["--pkcs11", SoftHSM.module, "--key", "k.pem"],
            ["--pkcs11", SoftHSM.module, "--key-id", "zz"], ["--pkcs11", SoftHSM.module, "--key-id", "123"],
        ] {
            let result = await autograph(["sign", input, "-o", directory + "/x.pdf"] + misuse)
            #expect(result.code == .usage, "\(misuse): \(result.errors)")
        }
    }

    @Test(
        "in a process of its own: the PIN from $AUTOGRAPH_PKCS11_PIN, the token by serial number; verify accepts pyHanko's PKCS#11 signature"
    )
    func environmentAndSerial() async throws {
        let store = try SoftHSM.shared()
        let tool = TestPaths.repository + "/.build/debug/autograph"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first (swift build)")
        let directory = try TestPaths.temporaryDirectory("cli-pkcs11-env")
        let input = directory + "/in.pdf"
        _ = await autograph("sample", "-o", input)
        let listed = await autograph("pkcs11", "list", "--module", SoftHSM.module, "--json")
        let tokens = try #require(try JSONValue.parse(Array(listed.output.utf8)).arrayValue, "\(listed.errors)")
        let serial = try #require(
            tokens.first { $0["label"]?.stringValue == "autograph" }?["serial"]?.stringValue, "\(listed.output)")
        /// `autograph sign` by the token's serial number, with `pin` in the environment (no `--pin-file`).
        func sign(pin: String, serial: String, output: String) throws -> Oracle.Result {
            try Oracle.run(
                "env",
                [
                    "\(PKCS11Options.pinVariable)=\(pin)", tool, "sign", input, "-o", output, "--pkcs11",
                    SoftHSM.module, "--token-serial", serial, "--key-label", "p384", "--chain",
                    TestPaths.fixture("pki", "signer-p384.chain.pem"),
                ], timeout: 300)
        }
        let output = directory + "/signed.pdf"
        let signed = try sign(pin: SoftHSM.pin, serial: serial, output: output)
        #expect(signed.status == 0, "\(signed.errors)")
        let root = TestPaths.fixture("pki", "root.cert.pem")
        let verify = await autograph("verify", output, "--trust", root)
        #expect(verify.code == .success && verify.output.contains("Signer P-384"), "\(verify.output)")
        let wrong = try sign(pin: "0000", serial: serial, output: directory + "/wrong.pdf")
        #expect(wrong.status == 1 && wrong.errors.contains("-125"), "\(wrong.errors)")
        let elsewhere = try sign(pin: SoftHSM.pin, serial: "no-such-serial", output: directory + "/elsewhere.pdf")
        #expect(elsewhere.status == 1 && elsewhere.errors.contains("-123"), "\(elsewhere.errors)")
        for path in ["/wrong.pdf", "/elsewhere.pdf"] {
            #expect(!FileManager.default.fileExists(atPath: directory + path))
        }

        // pyHanko's own PKCS#11 signer on the same token: the command accepts what it made.
        let pyhanko = directory + "/pyhanko.pdf"
        let made = try store.signWithPyhanko(label: "rsa2048", input: input, output: pyhanko)
        try #require(made.status == 0, "\(made.output) \(made.errors)")
        let accepted = await autograph("verify", pyhanko, "--trust", root, "--json")
        #expect(accepted.code == .success, "\(accepted.output) \(accepted.errors)")
        let reports = try #require(try JSONValue.parse(Array(accepted.output.utf8)).arrayValue)
        #expect(reports.count == 1 && reports[0]["field"]?.stringValue == "PySig", "\(accepted.output)")
    }

    @Test("serve --pkcs11 signs with the token's seal; a wrong PIN stops it before it listens (−125)")
    func serveSeal() async throws {
        _ = try SoftHSM.shared()
        let directory = try TestPaths.temporaryDirectory("cli-pkcs11-serve")
        let seal = [
            "--store", directory + "/store", "--pkcs11", SoftHSM.module, "--token", "autograph", "--key-label",
            "rsa2048", "--chain", TestPaths.fixture("pki", "signer-rsa2048.chain.pem"),
        ]
        let console = Console.captured()
        let parsed = try ServeCommand.spec.parse(seal + ["--pin-file", try Self.pinFile(SoftHSM.pin, in: directory)])
        let (_, backend) = try await ServeCommand.prepare(parsed, console: console)
        #expect(console.output.contains("signing with the key 'rsa2048' of 'autograph'"), "\(console.output)")
        let mode = await backend.signatureConfiguration.signing
        guard case .signer(let signer) = mode else {
            Issue.record("the service does not sign in process")
            return
        }
        #expect(signer is PKCS11Signer && signer.signerName == "Signer RSA 2048")
        // A document the service opens is signed by the token's key.
        let sealed = try await ServeSealSigning.sign(backend, in: directory)
        #expect(sealed.signerName == "Signer RSA 2048" && sealed.trusted, "\(sealed)")
        await backend.close()
        let wrong = try ServeCommand.spec.parse(seal + ["--pin-file", try Self.pinFile("0000", in: directory)])
        await #expect(throws: SigningError.self) { _ = try await ServeCommand.prepare(wrong, console: .captured()) }

        // The same seal as a PKCS#11 URI (RFC 7512): the key by its id, the PIN from a file.
        let uri =
            "pkcs11:token=autograph;id=%01;type=private?module-path=\(SoftHSM.module)&pin-source=file:"
            + (try Self.pinFile(SoftHSM.pin, in: directory))
        let byURI = try ServeCommand.spec.parse([
            "--store", directory + "/store-uri", "--seal", uri, "--chain",
            TestPaths.fixture("pki", "signer-rsa2048.chain.pem"),
        ])
        let (_, uriBackend) = try await ServeCommand.prepare(byURI, console: .captured())
        let uriMode = await uriBackend.signatureConfiguration.signing
        guard case .signer(let uriSigner) = uriMode else {
            Issue.record("the service does not sign in process")
            return
        }
        #expect(uriSigner is PKCS11Signer && uriSigner.signerName == "Signer RSA 2048")
        for bad in [
            "pkcs11:token=autograph;object=rsa2048", "pkcs11:token=autograph?module-path=/m.so&pin-value=1234",
            "pkcs11:colour=blue?module-path=/m.so", "pkcs11:id=%zz?module-path=/m.so", "file:/etc/passwd",
            "csc:http://127.0.0.1:1", "csc:#x",
        ] {
            let parsed = try ServeCommand.spec.parse(["--store", directory + "/store-bad", "--seal", bad])
            await #expect(throws: UsageError.self, "\(bad)") {
                _ = try await ServeCommand.prepare(parsed, console: .captured())
            }
        }
        let both = try ServeCommand.spec.parse(["--seal", uri, "--pkcs11", SoftHSM.module])
        await #expect(throws: UsageError.self) { _ = try await ServeCommand.prepare(both, console: .captured()) }
    }

    @Test("pkcs11 list shows the tokens, and with the PIN their keys and certificates")
    func list() async throws {
        _ = try SoftHSM.shared()
        let directory = try TestPaths.temporaryDirectory("cli-pkcs11-list")
        let pin = try Self.pinFile(SoftHSM.pin, in: directory)
        let listed = await autograph("pkcs11", "list", "--module", SoftHSM.module, "--pin-file", pin, "--json")
        #expect(listed.code == .success, "\(listed.errors)")
        let tokens = try #require(try JSONValue.parse(Array(listed.output.utf8)).arrayValue)
        #expect(Set(tokens.compactMap { $0["label"]?.stringValue }) == ["autograph", "other"])
        let autographToken = try #require(tokens.first { $0["label"]?.stringValue == "autograph" })
        let objects = autographToken["objects"]?.arrayValue ?? []
        let keys = objects.filter { $0["kind"]?.stringValue == "private key" }.compactMap { $0["label"]?.stringValue }
        #expect(Set(keys) == ["rsa2048", "rsa-pss", "p256", "p384", "no-certificate"])
        let certificate = try #require(
            objects.first { $0["kind"]?.stringValue == "certificate" && $0["id"]?.stringValue == "03" })
        #expect(certificate["subject"]?.stringValue?.contains("CN=") == true)

        // Without a PIN, the private keys stay hidden.
        let anonymous = await autograph("pkcs11", "list", "--module", SoftHSM.module, "--token", "autograph")
        #expect(anonymous.code == .success && !anonymous.output.contains("private key"), "\(anonymous.output)")
        #expect(anonymous.output.contains("certificate: label 'p256' id 03"), "\(anonymous.output)")
        #expect(await autograph("pkcs11", "list").code == .usage)
        let missing = await autograph("pkcs11", "list", "--module", "/nonexistent.so")
        #expect(missing.code == .failure && missing.errors.contains("-123"), "\(missing.errors)")
    }
}
