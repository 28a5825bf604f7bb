import Foundation
import PDFAuthoring
import PDFCore
import PDFSigning
import PDFTestSupport

@testable import PDFSession

/// Documents and identities for session tests.
enum SessionFixtures {
    /// A two-page form: text fields (some required) on page 1, signature fields on page 2.
    static func form(
        text: [String] = ["name", "comment"], required: Set<String> = [], signatures: [String] = ["Signature1"],
        photo: String? = nil, pdfA1: Bool = false
    ) -> [UInt8] {
        TestForms.agreement(text: text, required: required, signatures: signatures, photo: photo, pdfA1: pdfA1)
    }

    static let pki = TestPaths.fixture("pki", "")

    static func signer(_ name: String = "signer-p256.p12") throws -> LocalKeySigner {
        try LocalKeySigner(pkcs12: pki + name, password: "secret")
    }

    static let root = pki + "root.cert.pem"

    static let key = [UInt8](repeating: 7, count: 64)

    /// A controller on a fresh store in a temporary directory, with a fixed clock.
    static func controller(
        _ directory: String? = nil, username: String = "ada", key: [UInt8] = key
    ) throws -> (SessionController, String) {
        let directory = try directory ?? TestPaths.temporaryDirectory("session")
        let controller = try SessionController(
            username: username, storageKey: key, storePath: directory + "/store.sqlite",
            clock: { PDFDate(seconds: 1_790_000_000) })
        return (controller, directory)
    }

    /// A signature-like scribble: `count` points of a wave.
    static func scribble(count: Int = 40) -> [InkStroke] {
        [InkStroke((0..<count).map { InkPoint(x: Double($0) * 6, y: 40 + 25 * sin(Double($0) / 3)) })]
    }

    static func write(_ bytes: [UInt8], _ directory: String, _ name: String) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Collects a session's events as they arrive.
actor EventLog {
    private(set) var events: [SessionEvent] = []

    init(_ session: DocumentSession) {
        let stream = session.events
        Task { await self.listen(stream) }
    }

    private func listen(_ stream: AsyncStream<SessionEvent>) async {
        for await event in stream { events.append(event) }
    }

    /// The names of the events once at least `count` arrived (or after 10 s).
    func names(count: Int) async -> [String] {
        for _ in 0..<1000 where events.count < count {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return events.map(Self.name)
    }

    /// The first event named `name`, waiting up to 10 s for it.
    func first(_ name: String) async -> SessionEvent? {
        for _ in 0..<1000 {
            if let event = events.first(where: { Self.name($0) == name }) { return event }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return nil
    }

    static func name(_ event: SessionEvent) -> String {
        String("\(event)".prefix { $0 != "(" })
    }
}
