import Foundation
import PDFTestSupport
import Testing

/// `autograph serve --print-token-file F`: the API token for a script, in a file made for this run.
@Suite(
    "serve --print-token-file", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct ServeTokenFileTests {
    @Test("the token goes to a new file of mode 600 that the API accepts, removed when the server stops")
    func tokenFileIsWrittenAndRemoved() throws {
        let directory = try TestPaths.temporaryDirectory("cli-serve-token")
        let folder = directory + "/private"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let tokenFile = folder + "/token"
        let log = directory + "/serve.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(BuiltTool.path))
        process.arguments = [
            "serve", "--store", directory + "/store", "--port", "0", "--print-token-file", tokenFile,
        ]
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = process.standardOutput
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        var port: String?
        var printed: String?
        for _ in 0..<1200 where (port == nil || printed == nil) && process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
            for line in ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n") {
                if let start = line.range(of: "open http://127.0.0.1:"), let end = line.range(of: "/?login") {
                    port = String(line[start.upperBound..<end.lowerBound])
                }
                if line.contains("the API token"), let last = line.split(separator: " ").last { printed = String(last) }
            }
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let token = try #require(printed, "serve did not start: \(output)")
        let written = try String(contentsOfFile: tokenFile, encoding: .utf8)
        #expect(written == token + "\n")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int
        #expect(mode == 0o600, "mode \(String(mode ?? 0, radix: 8))")
        let status = try Oracle.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "-H",
                "Authorization: Bearer \(written.trimmingCharacters(in: .whitespacesAndNewlines))",
                "http://127.0.0.1:\(try #require(port))/api/configuration",
            ])
        #expect(status.output == "200", "GET /api/configuration with the file's token: \(status.output)")
        process.terminate()
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: tokenFile), "the token file outlived the server")
    }

    @Test("an existing file, a directory others may write to, or no directory: a usage error before anything starts")
    func unsafePlacesAreRefused() throws {
        let directory = try TestPaths.temporaryDirectory("cli-serve-token-refused")
        let existing = directory + "/existing"
        try BuiltTool.write("keep\n", to: existing)
        let open = directory + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open)
        let cases: [(String, String)] = [
            (existing, "already exists"), (open + "/token", "others may write"),
            (directory + "/missing/token", "does not exist"),
        ]
        for (path, message) in cases {
            let result = try BuiltTool.run(
                ["serve", "--store", directory + "/store", "--port", "0", "--print-token-file", path], timeout: 60)
            #expect(result.status == 2, "\(path): exit \(result.status), \(result.errors)")
            #expect(result.errors.contains(message), "\(path): \(result.errors)")
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep\n")
        #expect(!FileManager.default.fileExists(atPath: open + "/token"))
    }
}
