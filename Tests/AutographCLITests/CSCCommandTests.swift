import AutographJSON
import Foundation
import PDFSession
import PDFSigning
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// `autograph sign --csc`, `autograph csc credentials` and `serve --csc` against the CSC servers of
/// `CSCServer`: certomancer-csc-dummy (v1) and the spec-following v2 test server.
@Suite(
    "CSC on the command line: sign through a remote signing service, list its credentials",
    .enabled(if: CSCServer.isDummyInstalled, "certomancer-csc-dummy is not installed (scripts/install-deps test)"))
struct CSCCommandTests {
    /// The test PKI's services, the v1 dummy server and the v2 test server on it (the caller stops them).
    static func servers() async throws -> (Certomancer, CSCServer, CSCServer) {
        let services = try Certomancer.shared(wholeSeconds: true)
        return (services, try await CSCServer.dummy(services: services), try await CSCServer.specV2(services: services))
    }

    /// A new folder `label` with the sample document in it as `in.pdf`.
    static func sample(_ label: String) async throws -> (directory: String, input: String) {
        let directory = try TestPaths.temporaryDirectory(label)
        _ = await autograph("sample", "-o", directory + "/in.pdf")
        return (directory, directory + "/in.pdf")
    }

    static func secret(_ value: String, _ name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try (value + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "in a process of its own: the PIN from $AUTOGRAPH_CSC_PIN; verify accepts pyHanko's CSC signature on the same server"
    )
    func environmentAndPyhanko() async throws {
        let tool = TestPaths.repository + "/.build/debug/autograph"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first (swift build)")
        let (services, v1, v2) = try await Self.servers()
        defer {
            v1.stop()
            v2.stop()
        }
        let (directory, input) = try await Self.sample("cli-csc-env")
        let secret = try Self.secret(CSCServer.clientSecret, "secret", in: directory)
        let otp = try Self.secret(CSCServer.otp, "otp", in: directory)
        /// `autograph sign --csc` (v2, a credential that asks for a PIN) with `pin` in the environment.
        func sign(pin: String, output: String) throws -> Oracle.Result {
            try Oracle.run(
                "env",
                [
                    "\(CSCOptions.pinVariable)=\(pin)", tool, "sign", input, "-o", output, "--csc", v2.baseURL,
                    "--credential", "autograph/signer", "--csc-client-id", CSCServer.clientID, "--csc-secret-file",
                    secret, "--otp-file", otp,
                ], timeout: 300)
        }
        let output = directory + "/signed.pdf"
        let signed = try sign(pin: CSCServer.pin, output: output)
        #expect(signed.status == 0, "\(signed.errors)")
        let verify = await autograph("verify", output, "--trust", services.rootCertificatePath, "--revocation", "off")
        #expect(verify.code == .success, "\(verify.output)")
        let wrong = try sign(pin: "0000", output: directory + "/wrong.pdf")
        #expect(wrong.status == 1 && wrong.errors.contains("-125"), "\(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/wrong.pdf"))

        // pyHanko's own CSC signer against the v1 dummy server: the command accepts what it made.
        let pyhanko = directory + "/pyhanko.pdf"
        let made = try Oracle.run(
            "python3",
            [
                TestPaths.repository + "/Tests/Scripts/pyhanko_csc_sign.py", v1.baseURL, "autograph/signer-ec", input,
                pyhanko,
            ], timeout: 120)
        try #require(made.status == 0, "\(made.output) \(made.errors)")
        let accepted = await autograph(
            "verify", pyhanko, "--trust", services.rootCertificatePath, "--revocation", "off", "--json")
        #expect(accepted.code == .success, "\(accepted.output) \(accepted.errors)")
        let reports = try #require(try JSONValue.parse(Array(accepted.output.utf8)).arrayValue)
        #expect(reports.count == 1, "\(accepted.output)")
    }

    @Test("sign --csc with v1 and with v2 (client secret, PIN and OTP from files) makes signatures verify trusts")
    func sign() async throws {
        let (services, v1, v2) = try await Self.servers()
        defer {
            v1.stop()
            v2.stop()
        }
        let (directory, input) = try await Self.sample("cli-csc")
        let first = directory + "/v1.pdf"
        let signed = await autograph(
            "sign", input, "-o", first, "--csc", v1.baseURL, "--credential", "autograph/signer-ec")
        #expect(signed.code == .success && signed.output.contains("Certomancer EC Signer"), "\(signed.errors)")
        let verify = await autograph("verify", first, "--trust", services.rootCertificatePath, "--revocation", "off")
        #expect(verify.code == .success, "\(verify.output)")

        let second = directory + "/v2.pdf"
        let options = [
            "--csc", v2.baseURL, "--credential", "autograph/signer", "--csc-client-id", CSCServer.clientID,
            "--csc-secret-file", try Self.secret(CSCServer.clientSecret, "secret", in: directory),
            "--otp-file", try Self.secret(CSCServer.otp, "otp", in: directory),
        ]
        let again = await autograph(
            ["sign", first, "-o", second, "--pin-file", try Self.secret(CSCServer.pin, "pin", in: directory)] + options)
        #expect(again.code == .success, "\(again.errors)")
        let both = await autograph("verify", second, "--trust", services.rootCertificatePath, "--revocation", "off")
        #expect(both.code == .success && both.output.components(separatedBy: "Certomancer").count > 2, "\(both.output)")

        let wrong = await autograph(
            [
                "sign", input, "-o", directory + "/wrong.pdf", "--pin-file",
                try Self.secret("0000", "bad", in: directory),
            ]
                + options)
        #expect(wrong.code == .failure && wrong.errors.contains("-125"), "\(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/wrong.pdf"))
        for misuse in [
            ["--credential", "x"], ["--csc", v1.baseURL], ["--csc", v1.baseURL, "--credential", "x", "--p12", "a.p12"],
            ["--csc", v1.baseURL, "--credential", "x", "--csc-secret-file", "s"],
        ] {
            let result = await autograph(["sign", input, "-o", directory + "/x.pdf"] + misuse)
            #expect(result.code == .usage, "\(misuse): \(result.errors)")
        }
        let down = await autograph(
            "sign", input, "-o", directory + "/down.pdf", "--csc", "http://127.0.0.1:\(try LoopbackPort.free())",
            "--credential", "x")
        #expect(down.code == .failure && down.errors.contains("-123"), "\(down.errors)")
        // The input is opened before the service is called: a missing file is what is reported.
        let missing = await autograph(
            "sign", directory + "/missing.pdf", "-o", directory + "/m.pdf", "--csc",
            "http://127.0.0.1:\(try LoopbackPort.free())", "--credential", "x")
        #expect(
            missing.code != .success && missing.errors.contains("missing.pdf") && !missing.errors.contains("-123"),
            "\(missing.errors)")
    }

    @Test("csc credentials lists each credential's subject, key and authorization, as text and JSON")
    func credentials() async throws {
        let services = try Certomancer.shared(wholeSeconds: true)
        let v2 = try await CSCServer.specV2(services: services)
        defer { v2.stop() }
        let directory = try TestPaths.temporaryDirectory("cli-csc-list")
        let listed = await autograph(
            "csc", "credentials", "--csc", v2.baseURL, "--csc-client-id", CSCServer.clientID, "--csc-secret-file",
            try Self.secret(CSCServer.clientSecret, "secret", in: directory), "--json")
        #expect(listed.code == .success, "\(listed.errors)")
        let answer = try JSONValue.parse(Array(listed.output.utf8))
        #expect(answer["version"]?.stringValue == "v2")
        let items = answer["credentials"]?.arrayValue ?? []
        let modes = Dictionary(
            uniqueKeysWithValues: items.compactMap { item in
                item["id"]?.stringValue.map { ($0, item["authMode"]?.stringValue ?? "") }
            })
        #expect(
            modes == [
                "autograph/signer": "explicit", "autograph/signer-ec": "implicit",
                "autograph/signer-oauth": "oauth2code",
            ])
        let v1 = try await CSCServer.dummy(services: services)
        defer { v1.stop() }
        let text = await autograph("csc", "credentials", "--csc", v1.baseURL)
        #expect(text.code == .success && text.output.contains("autograph/signer: implicit, SCAL 2"), "\(text.output)")
        #expect(text.output.contains("CSC API 1.0.4.0"))
        #expect(await autograph("csc", "credentials").code == .usage)
        #expect(await autograph("csc", "list", "--csc", v1.baseURL).code == .usage)
    }

    @Test("serve --csc signs with the service's credential")
    func serveSeal() async throws {
        let services = try Certomancer.shared(wholeSeconds: true)
        let v1 = try await CSCServer.dummy(services: services)
        defer { v1.stop() }
        let directory = try TestPaths.temporaryDirectory("cli-csc-serve")
        let parsed = try ServeCommand.spec.parse([
            "--store", directory + "/store", "--csc", v1.baseURL, "--credential", "autograph/signer",
        ])
        let console = Console.captured()
        let (_, backend) = try await ServeCommand.prepare(parsed, console: console)
        #expect(console.output.contains("signing with the credential 'autograph/signer'"), "\(console.output)")
        let mode = await backend.signatureConfiguration.signing
        guard case .signer(let signer) = mode else {
            Issue.record("the service does not sign in process")
            return
        }
        #expect(signer is CSCSigner && signer.signerName == "Certomancer Signer")
        // A document the service opens is signed through the CSC service.
        let sealed = try await ServeSealSigning.sign(
            backend, in: directory, trust: services.rootCertificatePath, revocation: "off")
        #expect(sealed.signerName == "Certomancer Signer" && sealed.trusted, "\(sealed)")
        await backend.close()

        // The same seal as one URI, the credential percent-encoded in its fragment.
        let byURI = try ServeCommand.spec.parse([
            "--store", directory + "/store-uri", "--seal", "csc:\(v1.baseURL)#autograph%2Fsigner-ec",
        ])
        let (_, uriBackend) = try await ServeCommand.prepare(byURI, console: .captured())
        let uriMode = await uriBackend.signatureConfiguration.signing
        guard case .signer(let uriSigner) = uriMode else {
            Issue.record("the service does not sign in process")
            return
        }
        #expect((uriSigner as? CSCSigner)?.credential.id == "autograph/signer-ec")
    }
}
