import Foundation
import PDFForms
import PDFSession
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// The store's key on the command line: a key file only its owner may read, the public key said
/// aloud with how to give a real one, and `session rekey` moving a store to another key.
@Suite(.serialized) struct StorageKeyTests {
    /// A key file of 128 hex digits with `mode`.
    static func keyFile(_ directory: String, _ name: String, seed: UInt8, mode: Int = 0o600) throws -> String {
        let path = directory + "/" + name
        let hex = (0..<64).map { String(format: "%02x", UInt8(truncatingIfNeeded: Int($0) * 7 + Int(seed))) }.joined()
        try Data((hex + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Runs `autograph` in process with an argument list.
    static func run(_ arguments: [String]) async -> (code: ExitCode, output: String, errors: String) {
        let console = Console.captured()
        let code = await AutographCLI.run(arguments, console: console)
        return (code, console.output, console.errors)
    }

    /// Every record of the store at `path` (sealed) and its key check: what a failed rekey must leave.
    static func records(_ path: String) throws -> [String] {
        let backend = try SQLiteDocumentStore(path: path)
        var lines = [try backend.metadata("key check", insertingIfAbsent: []).description]
        for owner in try backend.owners() {
            for key in try backend.keys(owner: owner, document: nil, kind: nil) {
                lines.append("\(owner) \(key): \(try backend.read(key) ?? [])")
            }
        }
        return lines
    }

    /// Serve's start on `directory` with the demo form filled in, then stopped.
    static func serveAndFill(_ directory: String, _ arguments: [String] = []) async throws -> Console {
        let (console, _, backend, session) = try await ServeRestartTests.serve(directory, arguments)
        try await session.setValue(.text("Grace Hopper"), forField: "Name")
        await backend.close()
        return console
    }

    @Test("a key file that group or others may read is refused as ssh refuses it; mode 600 is accepted")
    func keyFilePermissions() async throws {
        let directory = try TestPaths.temporaryDirectory("storage-key")
        let store = directory + "/store.sqlite"
        let key = try Self.keyFile(directory, "store.key", seed: 1)
        let console = try await Self.serveAndFill(directory, ["--storage-key-file", key])
        #expect(!console.errors.contains("public key"), "no warning when a key is given")

        for (mode, shown) in [(0o644, "0644"), (0o640, "0640"), (0o604, "0604"), (0o700, nil), (0o400, nil)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: key)
            let listed = await autograph(
                "session", "list", "--store", store, "--user", "demo", "--storage-key-file", key)
            if let shown {
                #expect(listed.code == .usage)
                #expect(listed.errors.contains("permissions \(shown) for \(key) are too open; chmod 600 \(key)"))
            } else {
                #expect(listed.code == .success, "\(listed.errors)")
                #expect(listed.output.hasPrefix("demo-form\tediting\t1 revisions"))
            }
        }
        // --key-file is the same option; both at once is a usage error.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        #expect(
            await autograph("session", "list", "--store", store, "--user", "demo", "--key-file", key).code == .success)
        let both = await autograph(
            "session", "list", "--store", store, "--user", "demo", "--key-file", key, "--storage-key-file", key)
        #expect(both.code == .usage)
        // serve and demo check it too.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        for command in [["serve", "--store", directory, "--port", "0"], ["demo", "--out", directory]] {
            let refused = await Self.run(command + ["--storage-key-file", key])
            #expect(refused.code == .usage && refused.errors.contains("are too open; chmod 600"), "\(command)")
        }
    }

    @Test("without a key the warning says the public key protects nothing and how to give a real one")
    func publicKeyWarning() async throws {
        let directory = try TestPaths.temporaryDirectory("storage-key")
        let console = try await Self.serveAndFill(directory)
        #expect(console.errors.contains("the store uses a public key that protects nothing"))
        #expect(console.errors.contains("openssl rand -hex 64 > store.key && chmod 600 store.key"))
        #expect(console.errors.contains("--storage-key-file store.key"))
        #expect(
            console.errors.contains(
                "autograph session rekey --store \(directory)/store.sqlite --user demo --from-public-key "
                    + "--new-storage-key-file store.key"))
        // A key given to a store made without one: wrongStorageKey, and the way to move it.
        let key = try Self.keyFile(directory, "store.key", seed: 2)
        let wrong = await autograph(
            "session", "list", "--store", directory + "/store.sqlite", "--user", "demo", "--storage-key-file", key)
        #expect(wrong.code == .failure)
        #expect(wrong.errors.contains("--from-public-key"))
    }

    @Test("rekey moves a store made with the public key to a real key; the old key then opens nothing")
    func rekeyFromThePublicKey() async throws {
        let directory = try TestPaths.temporaryDirectory("storage-key")
        let store = directory + "/store.sqlite"
        _ = try await Self.serveAndFill(directory)
        let new = try Self.keyFile(directory, "new.key", seed: 3)

        let moved = await autograph(
            "session", "rekey", "--store", store, "--user", "demo", "--from-public-key", "--new-storage-key-file", new)
        #expect(moved.code == .success, "\(moved.errors)")
        #expect(moved.output.contains("rekeyed \(store)"))
        let listed = await autograph("session", "list", "--store", store, "--user", "demo", "--storage-key-file", new)
        #expect(listed.code == .success, "\(listed.errors)")
        #expect(listed.output.hasPrefix("demo-form\tediting\t1 revisions"))
        let old = await autograph("session", "list", "--store", store, "--user", "demo")
        #expect(
            old.code == .usage && old.errors.contains("was made with a storage key: give it with --storage-key-file"))
        #expect(!old.errors.contains("public key"), "no warning about a key that is not used")

        // serve with the new key resumes the filled form, the demo identity kept.
        let (console, _, backend, session) = try await ServeRestartTests.serve(directory, ["--storage-key-file", new])
        #expect(console.output.contains("resuming demo-form: 1 revision"))
        #expect(await ServeRestartTests.value(session, "Name") == "Grace Hopper")
        await backend.close()
    }

    @Test("rekey with a wrong old key is wrongStorageKey and changes nothing")
    func rekeyWithAWrongOldKey() async throws {
        let directory = try TestPaths.temporaryDirectory("storage-key")
        let store = directory + "/store.sqlite"
        let old = try Self.keyFile(directory, "old.key", seed: 4)
        _ = try await Self.serveAndFill(directory, ["--storage-key-file", old])
        let wrong = try Self.keyFile(directory, "wrong.key", seed: 5)
        let new = try Self.keyFile(directory, "new.key", seed: 6)
        let before = try Self.records(store)

        for attempt in [["--storage-key-file", wrong], ["--from-public-key"]] {
            let refused = await Self.run(
                ["session", "rekey", "--store", store, "--user", "demo", "--new-storage-key-file", new] + attempt)
            #expect(refused.code == .failure, "\(attempt)")
            #expect(refused.errors.contains("nothing was changed") && refused.errors.contains("signo -150"))
        }
        let unnamed = await autograph(
            "session", "rekey", "--store", store, "--user", "somebody", "--storage-key-file", old,
            "--new-storage-key-file", new)
        #expect(unnamed.code == .failure && unnamed.errors.contains("not named"))
        #expect(try Self.records(store) == before)
        let listed = await autograph("session", "list", "--store", store, "--user", "demo", "--storage-key-file", old)
        #expect(listed.code == .success && listed.output.hasPrefix("demo-form\tediting\t1 revisions"))
        // The old key is needed: neither given nor --from-public-key is a usage error.
        let missing = await autograph(
            "session", "rekey", "--store", store, "--user", "demo", "--new-storage-key-file", new)
        #expect(missing.code == .usage)
        let absent = await autograph("session", "list", "--store", directory + "/absent.sqlite", "--user", "demo")
        #expect(absent.code == .usage && !FileManager.default.fileExists(atPath: directory + "/absent.sqlite"))
    }
}
