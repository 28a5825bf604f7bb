import Foundation
import PDFCore
import PDFForms
import PDFSession
import PDFSigning
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// `autograph serve` restarted on the same store: what was filled or signed is resumed, the same
/// FILE is one document, --replace starts over. The server itself is not started: `prepare` is
/// everything serve does before it listens.
@Suite(.serialized) struct ServeRestartTests {
    /// One "start" of serve on `directory` with `arguments`; what it printed, its store and backend.
    static func serve(
        _ directory: String, _ arguments: [String] = []
    ) async throws -> (console: Console, demo: DemoStore, backend: WebBackend, session: DocumentSession) {
        let console = Console.captured()
        let parsed = try ServeCommand.spec.parse(["--store", directory] + arguments)
        let (demo, backend) = try await ServeCommand.prepare(parsed, console: console)
        let session = try #require(await backend.session)
        return (console, demo, backend, session)
    }

    static func value(_ session: DocumentSession, _ field: String) async -> String? {
        await session.formFields().first { $0.name == field }?.value
    }

    @Test("the demo form filled, then restarted: the value is still there, in one stored document")
    func filledDemoFormSurvives() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-restart")
        let first = try await Self.serve(directory)
        #expect(first.session.documentID == "demo-form")
        #expect(!first.console.output.contains("resuming"))
        try await first.session.setValue(.text("Grace Hopper"), forField: "Name")
        await first.backend.close()

        let second = try await Self.serve(directory)
        #expect(
            second.console.output.contains(
                "autograph serve: resuming demo-form: 1 revision, phase editing; --replace starts over"))
        #expect(await Self.value(second.session, "Name") == "Grace Hopper")
        let size = await second.session.documentBytes.count
        await second.backend.close()

        // `session list` reads what serve left (user demo, the same public key).
        let listed = await autograph("session", "list", "--store", directory + "/store.sqlite", "--user", "demo")
        #expect(listed.code == .success, "\(listed.errors)")
        #expect(listed.output == "demo-form\tediting\t1 revisions\t\(size) bytes\n")
    }

    @Test("a signed document survives a restart: resumed editing, with the signed bytes")
    func signedDocumentSurvives() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-restart")
        let first = try await Self.serve(directory)
        let session = first.session
        try await session.setValues([("Name", .text("Ada Lovelace")), ("Agree", .bool(true))])
        try await session.acceptDocument()
        #expect(await session.phase == .capturingSignature)
        try await session.captureSignature(DemoForm.signatureStrokes())
        #expect(await session.phase == .confirming)
        try await session.confirmSignature()
        #expect(await session.phase == .editing)
        let signed = await session.documentBytes
        await first.backend.close()

        let second = try await Self.serve(directory)
        #expect(second.console.output.contains("resuming demo-form: 2 revisions, phase editing;"))
        #expect(await second.session.phase == .editing)
        #expect(await second.session.documentBytes == signed)
        #expect(await second.backend.session === second.session)
        let root = try second.demo.identity.rootCertificate
        let statuses = SignatureValidator(document: try PDFDocument(bytes: signed), trustRoots: [root]).validate()
        #expect(statuses.count == 1 && statuses.allSatisfy(\.isValid))
        // Editing goes on after a signature until the document is completed.
        try await second.session.completeDocument()
        await #expect(throws: SessionError.self) { try await second.session.setValue(.text("Eve"), forField: "Name") }
        await second.backend.close()
    }

    @Test("the same FILE served twice is one document, its id from the SHA-256 of its bytes")
    func sameFileIsOneDocument() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-restart")
        let file = directory + "/form.pdf"
        let bytes = TestForms.make()
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let digest = try Oracle.run("sha256sum", [file]).output.prefix(16)
        let id = "file-" + digest

        let first = try await Self.serve(directory, [file])
        #expect(first.session.documentID == id)
        await first.backend.close()
        let second = try await Self.serve(directory, [file])
        #expect(second.session.documentID == id)
        #expect(!second.console.output.contains("resuming"), "an untouched document is reopened quietly")
        #expect(try second.demo.controller.documentsInProgress().map(\.documentID) == [id])
        await second.backend.close()

        // Another file is another document; the first stays.
        let other = directory + "/other.pdf"
        try Data(DemoForm.make()).write(to: URL(fileURLWithPath: other))
        let third = try await Self.serve(directory, [other])
        #expect(third.session.documentID != id)
        #expect(try third.demo.controller.documentsInProgress().count == 2)
        await third.backend.close()
    }

    @Test("an encrypted FILE is served with --password (-122 without, or with a wrong one) and resumed without it")
    func encryptedFileWithPassword() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-password")
        let plain = directory + "/plain.pdf"
        let locked = directory + "/locked.pdf"
        try Data(TestForms.make()).write(to: URL(fileURLWithPath: plain))
        try Oracle.qpdfEncrypt(plain, locked, user: "user secret", owner: "owner secret", ["256"])
        for arguments in [[locked], [locked, "--password", "wrong"]] {
            let refused = await #expect(throws: SessionError.self) { try await Self.serve(directory, arguments) }
            #expect(refused?.signoCode == -122 && refused?.code == .passwordRequired)
        }
        await #expect(throws: UsageError.self) { try await Self.serve(directory, ["--password", "user secret"]) }

        let first = try await Self.serve(directory, [locked, "--password", "user secret"])
        #expect(await first.session.pageCount > 0)
        try await first.session.setValue(.text("Grace Hopper"), forField: "name")
        await first.backend.close()
        // The password is stored with the document (encrypted): a restart resumes without it.
        let second = try await Self.serve(directory, [locked])
        #expect(await Self.value(second.session, "name") == "Grace Hopper")
        let output = directory + "/filled.pdf"
        try Data(await second.session.documentBytes).write(to: URL(fileURLWithPath: output))
        await second.backend.close()
        #expect(try Oracle.qpdfCheck(output, password: "user secret").status == 0)
        #expect(try Oracle.pypdfFieldValues(output, password: "user secret")["name"] == "Grace Hopper")
    }

    @Test("--replace discards the stored document and opens the file afresh")
    func replaceStartsOver() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-restart")
        let first = try await Self.serve(directory)
        try await first.session.setValue(.text("Grace Hopper"), forField: "Name")
        await first.backend.close()

        let second = try await Self.serve(directory, ["--replace"])
        #expect(
            second.console.output.contains(
                "replaced the stored demo-form (1 revision, phase editing) with a fresh copy"))
        #expect(await Self.value(second.session, "Name") == "")
        #expect(await second.session.documentBytes == DemoForm.make())
        #expect(try second.demo.controller.documentSummary("demo-form").revisionCount == 0)
        await second.backend.close()
    }
}
