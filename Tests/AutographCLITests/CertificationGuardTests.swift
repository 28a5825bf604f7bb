import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

/// Every editing command checks the document's certification and field locks before writing.
@Suite("editing commands keep certifications and field locks")
struct CertificationGuardTests {
    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }
    static let root = pki("root.cert.pem")

    /// A sample document signed in `Signature1` with `extra` options (`--certify 1`, `--lock-fields Name`).
    static func signedSample(_ directory: String, _ extra: [String]) async throws -> String {
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        let signed = directory + "/signed.pdf"
        let arguments =
            [
                "sign", directory + "/sample.pdf", "-o", signed, "--field", "Signature1", "--p12",
                pki("signer-p256.p12"),
                "--p12-password", "secret",
            ] + extra
        let result = await AutographCLI.run(arguments, console: Console.captured())
        try #require(result == .success)
        try Data(#"{"Name": "Alice"}"#.utf8).write(to: URL(fileURLWithPath: directory + "/values.json"))
        try Data("[[[100,100],[200,200],[220,150]]]".utf8).write(to: URL(fileURLWithPath: directory + "/strokes.json"))
        return signed
    }

    /// The arguments of each editing command on `input`, writing `output`.
    static func commands(_ input: String, _ output: String, _ directory: String) -> [(String, [String])] {
        let key = ["--p12", pki("signer-rsa2048.p12"), "--p12-password", "secret"]
        return [
            ("fill", ["fill", input, "-o", output, "--values", directory + "/values.json"]),
            (
                "photo",
                ["photo", input, "-o", output, "--field", "Name", "--image", TestPaths.fixture("images", "photo.jpg")]
            ),
            ("ink", ["ink", input, "-o", output, "--page", "1", "--strokes", directory + "/strokes.json"]),
            ("watermark", ["watermark", input, "-o", output, "--title", "COPY"]),
            ("metadata", ["metadata", input, "-o", output, "--set", "Title=Changed"]),
            ("sign", ["sign", input, "-o", output, "--field", "Second", "--invisible"] + key),
            ("refuse", ["refuse", input, "-o", output, "--title", "REFUSED"] + key),
        ]
    }

    @Test(
        "on a P=1 certified document every editing command fails with -129 and writes nothing; --force writes and verify reports it"
    )
    func certifiedNoChanges() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-certified")
        let signed = try await Self.signedSample(directory, ["--certify", "1"])
        for (name, arguments) in Self.commands(signed, directory + "/out.pdf", directory) {
            let refused = await AutographCLI.run(arguments, console: Console.captured())
            let console = Console.captured()
            _ = await AutographCLI.run(arguments, console: console)
            #expect(refused == .failure, "\(name)")
            #expect(console.errors.contains("certification by 'Signature1'"), "\(name): \(console.errors)")
            #expect(console.errors.contains("-129"), "\(name): \(console.errors)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/out.pdf"), "\(name) wrote its output")
            let contents = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(!contents.contains { $0.contains("autograph-check") }, "\(name) left a temporary file")

            let forced = Console.captured()
            let code = await AutographCLI.run(arguments + ["--force"], console: forced)
            #expect(code == .success || code == .successWithWarnings, "\(name) --force: \(forced.errors)")
            #expect(forced.errors.contains("invalidates the signature in 'Signature1'"), "\(name)")
            let verify = await autograph("verify", directory + "/out.pdf", "--trust", Self.root, "--json")
            #expect(verify.code == .failure, "\(name)")
            let statuses = try #require(
                try JSONSerialization.jsonObject(with: Data(verify.output.utf8)) as? [[String: Any]])
            let first = try #require(statuses.first { $0["field"] as? String == "Signature1" })
            #expect(first["verdict"] as? String == "modified", "\(name)")
            #expect(first["modificationLevel"] as? String == "disallowed", "\(name)")
            #expect((first["certification"] as? [String: Any])?["permissions"] as? Int == 1, "\(name)")
            try FileManager.default.removeItem(atPath: directory + "/out.pdf")
        }
    }

    @Test("a field lock refuses fill and photo of the locked field, and allows what it does not lock")
    func fieldLock() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-locked")
        let signed = try await Self.signedSample(directory, ["--lock-fields", "Name"])
        let output = directory + "/out.pdf"
        for (name, arguments) in Self.commands(signed, output, directory) {
            let console = Console.captured()
            let code = await AutographCLI.run(arguments, console: console)
            if name == "fill" || name == "photo" {
                #expect(code == .failure, "\(name)")
                #expect(
                    console.errors.contains("field lock of the signature in 'Signature1'"), "\(name): \(console.errors)"
                )
                #expect(!FileManager.default.fileExists(atPath: output), "\(name)")
                let forced = await AutographCLI.run(arguments + ["--force"], console: Console.captured())
                #expect(forced == .success || forced == .successWithWarnings, "\(name)")
                let verify = await autograph("verify", output, "--trust", Self.root, "--json")
                #expect(
                    verify.output.contains("\"verdict\" : \"modified\"")
                        || verify.output.contains("\"verdict\": \"modified\""), "\(name)")
            } else {
                // Not a change of the locked field: the lock has nothing to say (verify may still
                // call a watermark a modification, which is not the lock's to refuse).
                #expect(code == .success || code == .successWithWarnings, "\(name): \(console.errors)")
            }
            try? FileManager.default.removeItem(atPath: output)
        }
    }

    @Test("on a P=2 certified document fill and sign are allowed, ink is refused")
    func certifiedFormFilling() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-certified-2")
        let signed = try await Self.signedSample(directory, ["--certify", "2"])
        let filled = directory + "/filled.pdf"
        #expect(await autograph("fill", signed, "-o", filled, "--values", directory + "/values.json").code == .success)
        let verify = await autograph("verify", filled, "--trust", Self.root)
        #expect(verify.code == .success, "\(verify.output)")
        #expect(verify.output.contains("changed afterwards only by form filling on page 3 (allowed)"))
        let ink = await autograph(
            "ink", signed, "-o", directory + "/ink.pdf", "--page", "1", "--strokes", directory + "/strokes.json")
        #expect(ink.code == .failure && ink.errors.contains("P=2"))
    }
}
