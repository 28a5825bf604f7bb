import Foundation
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSession

/// Several sessions and processes on one store file: a write from a version another session has
/// written over fails with `.documentChanged` and changes nothing; no write is lost.
@Suite("Store: writers sharing a document")
struct StoreConcurrencyTests {
    /// Two stores on one file, as two processes have them: separate SQLite connections.
    static func twoStores() throws -> (SecureStore, SecureStore) {
        let path = try StoreFixtures.databasePath()
        return (
            try SecureStore(username: "ada", storageKey: StoreFixtures.key(), path: path),
            try SecureStore(username: "ada", storageKey: StoreFixtures.key(), path: path)
        )
    }

    static func expectChanged(_ name: String, _ write: () throws -> StoreVersion) {
        do {
            _ = try write()
            Issue.record("\(name) from a stale version was written")
        } catch let error as SessionError {
            #expect(error.code == .documentChanged, "\(name)")
            #expect(error.signoCode == -128)
            #expect(error.message.contains("another session"))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test("a write from a version another store wrote over fails with .documentChanged (-128), writing nothing")
    func staleWritesFail() throws {
        let (first, second) = try Self.twoStores()
        let created = try first.create(documentID: "d", original: [1, 2, 3], state: [0])
        let stale = try second.load(documentID: "d")
        #expect(stale.version == created)
        let appended = try first.append(documentID: "d", revision: [4], state: [1], expecting: created)
        #expect(appended != created)

        let version = stale.version
        Self.expectChanged("append") {
            try second.append(documentID: "d", revision: [9], state: [2], expecting: version)
        }
        Self.expectChanged("save") { try second.save(documentID: "d", state: [2], expecting: version) }
        Self.expectChanged("truncate") {
            try second.truncate(documentID: "d", revisionCount: 0, state: [2], expecting: version)
        }
        Self.expectChanged("replace") {
            try second.replaceLastRevision(documentID: "d", with: [9], state: [2], expecting: version)
        }
        let now = try second.load(documentID: "d")
        #expect(now.revisions == [[4]])
        #expect(now.state == [1])
        #expect(now.version == appended)
        // From the version read now, the second store goes on.
        let next = try second.append(documentID: "d", revision: [5], state: [2], expecting: now.version)
        #expect(try first.load(documentID: "d").version == next)
        #expect(try first.load(documentID: "d").revisions == [[4], [5]])
    }

    @Test("an expect that fails inside a commit leaves the changes before it unwritten")
    func failedExpectRollsBack() throws {
        let store = try SQLiteDocumentStore(path: ":memory:")
        let key = RecordKey(owner: "o", document: "d", kind: "s")
        let other = RecordKey(owner: "o", document: "d", kind: "r")
        try store.commit([.put(key, [1])])
        #expect(throws: SessionError(.documentChanged, "")) {
            try store.commit([.put(other, [7]), .expect(key, [2]), .put(key, [3])])
        }
        #expect(try store.read(other) == nil)
        #expect(try store.read(key) == [1])
        try store.commit([.expect(key, [1]), .expect(other, nil), .put(key, [3])])
        #expect(try store.read(key) == [3])
    }

    /// Appends 25 revisions naming `tag`; on a conflict reads the document again and retries from
    /// the new version, as a session reopening the document would. Returns the conflicts met.
    static func writer(_ store: SecureStore, _ tag: UInt8) throws(SessionError) -> Int {
        var written = 0
        var conflicts = 0
        while written < 25 {
            let version = try store.load(documentID: "race").version
            do {
                try store.append(
                    documentID: "race", revision: [tag, UInt8(written)], state: [tag, UInt8(written)],
                    expecting: version)
                written += 1
            } catch {
                guard error.code == .documentChanged else { throw error }
                conflicts += 1
            }
        }
        return conflicts
    }

    @Test("two stores on one file appending on two threads from the versions they read: no write is lost")
    func racingWritersLoseNothing() async throws {
        let (first, second) = try Self.twoStores()
        try first.create(documentID: "race", original: [0], state: [])
        let a = Task.detached { try Self.writer(first, 0xA) }
        let b = Task.detached { try Self.writer(second, 0xB) }
        let conflicts = try await a.value + b.value
        let stored = try first.load(documentID: "race")
        #expect(stored.revisions.count == 50)
        // Each writer's revisions appear once each, in its own order.
        for tag in [UInt8(0xA), 0xB] {
            #expect(stored.revisions.filter { $0.first == tag }.map { Int($0[1]) } == Array(0..<25))
        }
        print("store race: 50 appends from two connections, \(conflicts) conflicts retried")
    }

    @Test("a session whose document another session wrote fails its next write; reopening goes on")
    func sessionsOnOneDocument() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let (other, _) = try SessionFixtures.controller(directory)
        _ = try await controller.open(pdf: SessionFixtures.form(), documentID: "shared")
        let one = try await controller.reopen(documentID: "shared")
        let two = try await other.reopen(documentID: "shared")
        try await one.setValue(.text("First"), forField: "name")
        await #expect(throws: SessionError(.documentChanged, "")) {
            try await two.setValue(.text("Second"), forField: "name")
        }
        let reopened = try await other.reopen(documentID: "shared")
        #expect(await reopened.formFields().first { $0.name == "name" }?.value == "First")
        try await reopened.setValue(.text("Second"), forField: "name")
        #expect(try controller.documentsInProgress().first?.revisionCount == 2)
    }
}
