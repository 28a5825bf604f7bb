import Foundation
import PDFTestSupport
import Testing

/// `autograph sign` as a new user meets it beside pyHanko and pdftotext, run as a child process:
/// the lines of a visible signature's text, which field is signed without `--field`, and where the
/// PKCS#12 password comes from.
@Suite(
    "autograph sign from a shell", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct SignCommandLineTests {
    static let root = BuiltTool.pki("root.cert.pem")
    static let p12 = BuiltTool.pki("signer-p256.p12")

    /// The text pdftotext finds inside `rect` (x1, y1, x2, y2 in points) of page 1, one trimmed
    /// line each.
    static func pdftotextLines(_ path: String, inside rect: [Int]) throws -> [String] {
        let info = try Oracle.run("pdfinfo", ["-f", "1", "-l", "1", path]).output
        let sizeLine = try #require(info.split(separator: "\n").first { $0.hasPrefix("Page    1 size:") })
        let numbers = sizeLine.split(separator: " ").compactMap { Double($0) }
        let height = Int(try #require(numbers.dropFirst().dropFirst().first))  // "Page 1 size: W x H pts"
        let crop = [
            "-x", String(rect[0]), "-y", String(height - rect[3]), "-W", String(rect[2] - rect[0]), "-H",
            String(rect[3] - rect[1]),
        ]
        let text = try Oracle.run("pdftotext", ["-f", "1", "-l", "1", "-enc", "UTF-8"] + crop + [path, "-"]).output
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\u{0C}" }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    @Test("--reason and --location on a visible signature draw two lines that pdftotext, mutool and verify read")
    func reasonAndLocationAreLines() throws {
        let directory = try BuiltTool.sampleDirectory("cli-sign-lines")
        let signed = directory + "/signed.pdf"
        let rect = [300, 40, 580, 180]
        let result = try BuiltTool.run([
            "sign", directory + "/sample.pdf", "-o", signed, "--field", "Approval", "--page", "1", "--rect",
            rect.map(String.init).joined(separator: ","), "--reason", "Approved for payment", "--location", "Basel",
            "--p12", Self.p12, "--p12-password", "secret",
        ])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        #expect(!result.errors.contains("U+000A"), "\(result.errors)")
        let lines = try Self.pdftotextLines(signed, inside: rect)
        #expect(lines.contains("Reason: Approved for payment"), "pdftotext: \(lines)")
        #expect(lines.contains("Location: Basel"), "pdftotext: \(lines)")
        let mutool = try Oracle.mutoolText(signed, page: 1).split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(mutool.contains("Reason: Approved for payment"), "mutool: \(mutool)")
        #expect(mutool.contains("Location: Basel"), "mutool: \(mutool)")
        let verified = try BuiltTool.run(["verify", signed, "--trust", Self.root])
        #expect(verified.status == 0, "verify: \(verified.output) \(verified.errors)")
        #expect(try Oracle.qpdfCheck(signed).status == 0)
    }

    @Test("without --field the one empty signature field is signed, as pyHanko signs it")
    func theOneEmptyFieldIsSigned() throws {
        let directory = try BuiltTool.sampleDirectory("cli-sign-one-field")
        let signed = directory + "/signed.pdf"
        let result = try BuiltTool.run([
            "sign", directory + "/sample.pdf", "-o", signed, "--p12", Self.p12, "--p12-password", "secret",
        ])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        #expect(result.output.contains("signed field 'Signature1'"), "\(result.output)")
        #expect(!result.errors.contains("invisible"), "\(result.errors)")
        let verdicts = try SignatureOracle.pyhanko(signed, trust: Self.root)
        #expect(verdicts.keys.sorted() == ["Signature1"], "\(verdicts)")
        #expect(verdicts["Signature1"]?.hasPrefix("INTACT:TRUSTED") == true, "\(verdicts)")
    }

    @Test("a document with no empty signature field gets an invisible signature, and standard error says so")
    func anInvisibleSignatureIsSaid() throws {
        let directory = try TestPaths.temporaryDirectory("cli-sign-invisible")
        try Data(TestDocuments.simple()).write(to: URL(fileURLWithPath: directory + "/plain.pdf"))
        let result = try BuiltTool.run([
            "sign", directory + "/plain.pdf", "-o", directory + "/signed.pdf", "--p12", Self.p12, "--p12-password",
            "secret",
        ])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        #expect(result.errors.contains("invisible"), "standard error: \(result.errors)")
        #expect(try SignatureOracle.pyhanko(directory + "/signed.pdf", trust: Self.root).count == 1)
        // Asked for with --invisible, it is what was asked: nothing to say.
        let asked = try BuiltTool.run([
            "sign", directory + "/plain.pdf", "-o", directory + "/asked.pdf", "--invisible", "--p12", Self.p12,
            "--p12-password", "secret",
        ])
        #expect(asked.status == 0 && asked.errors.isEmpty, "\(asked.errors)")
    }

    @Test("several empty signature fields and no --field: a usage error naming them, nothing written")
    func severalEmptyFieldsAreNamed() throws {
        let directory = try BuiltTool.sampleDirectory("cli-sign-two-fields")
        let two = directory + "/two.pdf"
        let added = try Oracle.run(
            "pyhanko", ["sign", "addfields", "--field", "1/300,40,500,90/Second", directory + "/sample.pdf", two])
        try #require(added.status == 0, "pyhanko addfields: \(added.errors)")
        let output = directory + "/signed.pdf"
        let result = try BuiltTool.run(["sign", two, "-o", output, "--p12", Self.p12, "--p12-password", "secret"])
        #expect(result.status == 2, "exit \(result.status): \(result.output) \(result.errors)")
        #expect(result.errors.contains("'Signature1'") && result.errors.contains("'Second'"), "\(result.errors)")
        #expect(result.errors.contains("--field"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let chosen = try BuiltTool.run([
            "sign", two, "-o", output, "--field", "Second", "--p12", Self.p12, "--p12-password", "secret",
        ])
        #expect(chosen.status == 0 && chosen.output.contains("signed field 'Second'"), "\(chosen.errors)")
    }

    @Test("the PKCS#12 password from --p12-password-file or $AUTOGRAPH_P12_PASSWORD; none given is 'needs a password'")
    func pkcs12PasswordSources() throws {
        let directory = try BuiltTool.sampleDirectory("cli-sign-p12-password")
        let sample = directory + "/sample.pdf"
        func sign(_ extra: [String], environment: [String: String] = [:]) throws -> Oracle.Result {
            try? FileManager.default.removeItem(atPath: directory + "/signed.pdf")
            return try BuiltTool.run(
                ["sign", sample, "-o", directory + "/signed.pdf", "--invisible", "--p12", Self.p12] + extra,
                environment: environment)
        }
        let none = try sign([])
        #expect(none.status == 1, "exit \(none.status): \(none.errors)")
        #expect(none.errors.contains("needs a password"), "\(none.errors)")
        #expect(!none.errors.contains("wrong password"), "\(none.errors)")
        #expect(none.errors.contains("-125"), "\(none.errors)")

        try BuiltTool.write("secret\n", to: directory + "/password")
        let fromFile = try sign(["--p12-password-file", directory + "/password"])
        #expect(fromFile.status == 0, "exit \(fromFile.status): \(fromFile.errors)")
        let fromEnvironment = try sign([], environment: ["AUTOGRAPH_P12_PASSWORD": "secret"])
        #expect(fromEnvironment.status == 0, "exit \(fromEnvironment.status): \(fromEnvironment.errors)")
        #expect(try SignatureOracle.pyhanko(directory + "/signed.pdf", trust: Self.root).count == 1)

        try BuiltTool.write("nope\n", to: directory + "/wrong")
        let wrong = try sign(["--p12-password-file", directory + "/wrong"])
        #expect(wrong.status == 1 && wrong.errors.contains("wrong password"), "\(wrong.errors)")
        let both = try sign(["--p12-password-file", directory + "/password", "--p12-password", "secret"])
        #expect(both.status == 2, "\(both.errors)")

        // refuse takes a PKCS#12 too: the same sources, the same message.
        let refusedWithout = try BuiltTool.run([
            "refuse", sample, "-o", directory + "/refused.pdf", "--title", "REFUSED", "--p12", Self.p12,
        ])
        #expect(refusedWithout.status == 1 && refusedWithout.errors.contains("needs a password"))
        let refused = try BuiltTool.run(
            ["refuse", sample, "-o", directory + "/refused.pdf", "--title", "REFUSED", "--p12", Self.p12],
            environment: ["AUTOGRAPH_P12_PASSWORD": "secret"])
        #expect(refused.status == 0, "exit \(refused.status): \(refused.errors)")
    }

    @Test("a PKCS#12 file made with an empty password signs with no password given")
    func pkcs12WithEmptyPassword() throws {
        let directory = try BuiltTool.sampleDirectory("cli-sign-p12-empty")
        let made = try Oracle.run(
            "openssl",
            [
                "pkcs12", "-export", "-keypbe", "AES-256-CBC", "-certpbe", "AES-256-CBC", "-macalg", "sha256",
                "-passout", "pass:", "-inkey", BuiltTool.pki("signer-p256.key.pem"), "-in",
                BuiltTool.pki("signer-p256.cert.pem"), "-certfile", BuiltTool.pki("signer-p256.chain.pem"), "-out",
                directory + "/open.p12",
            ])
        try #require(made.status == 0, "openssl: \(made.errors)")
        let result = try BuiltTool.run([
            "sign", directory + "/sample.pdf", "-o", directory + "/signed.pdf", "--p12", directory + "/open.p12",
        ])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        #expect(try SignatureOracle.pyhanko(directory + "/signed.pdf", trust: Self.root).count == 1)
    }
}
