import Foundation
import Synchronization
import Testing

@testable import PDFSession

@Suite("Store round trips") struct StoreRoundTripTests {
    @Test("create, append, save, truncate and load give back exactly what was stored")
    func roundTrip() throws {
        let store = try SecureStore(
            username: "alice", storageKey: StoreFixtures.key(), backend: SQLiteDocumentStore(path: ":memory:"))
        let original = Array("%PDF-1.7\n1 0 obj <<>> endobj\n".utf8)
        try store.create(documentID: "contract-7", original: original, state: [1, 2, 3])
        #expect(try store.contains(documentID: "contract-7"))
        #expect(try !store.contains(documentID: "other"))
        #expect(try store.documentIDs() == ["contract-7"])

        let updates = (1...3).map { Array("\nupdate \($0)\n".utf8) }
        for (index, update) in updates.enumerated() {
            try store.append(documentID: "contract-7", revision: update, state: [UInt8(10 + index)])
        }
        var loaded = try store.load(documentID: "contract-7")
        #expect(loaded.documentID == "contract-7")
        #expect(loaded.original == original)
        #expect(loaded.revisions == updates)
        #expect(loaded.state == [12])
        #expect(loaded.bytes == original + updates.joined())
        #expect(try store.revisionCount(documentID: "contract-7") == 3)

        try store.save(documentID: "contract-7", state: Array(repeating: 9, count: 1000))
        loaded = try store.load(documentID: "contract-7")
        #expect(loaded.revisions == updates)
        #expect(loaded.state == Array(repeating: 9, count: 1000))

        try store.truncate(documentID: "contract-7", revisionCount: 1, state: [])
        loaded = try store.load(documentID: "contract-7")
        #expect(loaded.revisions == [updates[0]])
        #expect(loaded.state == [])
        try store.append(documentID: "contract-7", revision: [7], state: [8])
        #expect(try store.load(documentID: "contract-7").revisions == [updates[0], [7]])
        let tooMany = #expect(throws: SessionError.self) {
            try store.truncate(documentID: "contract-7", revisionCount: 3, state: [])
        }
        #expect(tooMany?.code == .invalidArgument)

        // create replaces the document and drops its revisions
        try store.create(documentID: "contract-7", original: [0x25], state: [])
        loaded = try store.load(documentID: "contract-7")
        #expect(loaded.original == [0x25] && loaded.revisions.isEmpty)
    }

    @Test("absent documents, empty ids, delete")
    func absentAndDelete() throws {
        let store = try SecureStore(
            username: "alice", storageKey: StoreFixtures.key(), backend: SQLiteDocumentStore(path: ":memory:"))
        for call in [
            { _ = try store.load(documentID: "nope") },
            { try store.append(documentID: "nope", revision: [1], state: []) },
            { try store.save(documentID: "nope", state: []) },
        ] as [() throws -> Void] {
            let error = #expect(throws: SessionError.self) { try call() }
            #expect(error?.code == .documentNotFound)
        }
        let empty = #expect(throws: SessionError.self) { try store.create(documentID: "", original: [], state: []) }
        #expect(empty?.code == .invalidArgument)

        try store.create(documentID: "a", original: [1], state: [])
        try store.create(documentID: "b", original: [2], state: [])
        try store.append(documentID: "a", revision: [3], state: [])
        try store.delete(documentID: "a")
        #expect(try store.documentIDs() == ["b"])
        #expect(try !store.contains(documentID: "a"))
        #expect(throws: SessionError(.documentNotFound, "")) { try store.load(documentID: "a") }
        #expect(
            try store.backend.keys(owner: store.cipher.owner, document: store.cipher.documentTag("a"), kind: nil)
                .isEmpty)
        try store.delete(documentID: "a")  // disposing twice is harmless
        #expect(try store.load(documentID: "b").original == [2])
    }

    @Test("a new instance on the same file reads what an earlier one wrote")
    func reopen() throws {
        let path = try StoreFixtures.databasePath()
        do {
            let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
            try store.create(documentID: "d", original: [1, 2], state: [3])
            try store.append(documentID: "d", revision: [4], state: [5])
            _ = try store.addSignature([6])
        }
        let again = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        let loaded = try again.load(documentID: "d")
        #expect(loaded.bytes == [1, 2, 4] && loaded.state == [5])
        #expect(try again.savedSignatures() == [SavedSignatureRecord(id: 1, payload: [6])])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("saved signatures: several per user, oldest first, deletable")
    func signatures() throws {
        let backend = try SQLiteDocumentStore(path: ":memory:")
        let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), backend: backend)
        #expect(try store.savedSignatures().isEmpty)
        let first = try store.addSignature([1, 1])
        let second = try store.addSignature([2, 2, 2])
        let third = try store.addSignature([])
        #expect([first.id, second.id, third.id] == [Int]([1, 2, 3]))
        #expect(try store.savedSignatures() == [first, second, third])
        try store.deleteSignature(id: second.id)
        #expect(try store.savedSignatures() == [first, third])
        let fourth = try store.addSignature([4])
        #expect(fourth.id == 4)
        #expect(try store.savedSignatures().map(\.payload) == [[1, 1], [], [4]])
        let missing = #expect(throws: SessionError.self) { try store.deleteSignature(id: 2) }
        #expect(missing?.code == .invalidArgument)
        // signatures are not documents in progress, and another user has none
        #expect(try store.documentIDs().isEmpty)
        let bob = try SecureStore(username: "bob", storageKey: StoreFixtures.key(), backend: backend)
        #expect(try bob.savedSignatures().isEmpty)
    }

    @Test("appends from many threads at once all land, in a consistent document")
    func concurrentAppends() throws {
        let path = try StoreFixtures.databasePath()
        let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        let second = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        try store.create(documentID: "d", original: [0], state: [])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<10 {
                do {
                    try store.append(documentID: "d", revision: [UInt8(worker), UInt8(step)], state: [UInt8(worker)])
                    try second.create(documentID: "w\(worker)", original: [UInt8(step)], state: [])
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let document = try second.load(documentID: "d")
        #expect(document.revisions.count == 80)
        // each worker's revisions appear in its own order
        for worker in 0..<8 {
            let steps = document.revisions.filter { $0[0] == UInt8(worker) }.map { $0[1] }
            #expect(steps == Array(0..<10))
        }
        #expect(try store.documentIDs() == ["d"] + (0..<8).map { "w\($0)" })
    }

    @Test("a 50 MB document round trips through a file, also in a new instance")
    func largeDocument() throws {
        let path = try StoreFixtures.databasePath()
        let original = StoreFixtures.document(count: 50 << 20, seed: 42, marker: "%PDF-1.7 big")
        let update = StoreFixtures.document(count: 3 << 20, seed: 43)
        let start = Date()
        do {
            let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
            try store.create(documentID: "big", original: original, state: [1])
            try store.append(documentID: "big", revision: update, state: [2])
            let loaded = try store.load(documentID: "big")
            #expect(loaded.original == original)
            #expect(loaded.revisions == [update])
        }
        let again = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        let loaded = try again.load(documentID: "big")
        #expect(loaded.original == original && loaded.revisions == [update] && loaded.state == [2])
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size >= original.count + update.count)
        print("store: 53 MB written and read twice in \(Int(Date().timeIntervalSince(start) * 1000)) ms")
    }
}
