import Foundation
import Testing

@testable import PDFSession

@Suite("Store security") struct StoreSecurityTests {
    @Test("the storage key must be exactly 64 bytes", arguments: [0, 32, 63, 65, 128])
    func keyLength(count: Int) throws {
        let key = [UInt8](repeating: 7, count: count)
        let error = #expect(throws: SessionError.self) {
            _ = try SecureStore(username: "alice", storageKey: key, backend: SQLiteDocumentStore(path: ":memory:"))
        }
        #expect(error?.code == .invalidStorageKey)
        #expect(error?.message.contains("64") == true)
        let path = try StoreFixtures.databasePath()
        #expect(throws: SessionError(.invalidStorageKey, "")) {
            _ = try SecureStore(username: "alice", storageKey: key, path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path), "a refused key creates no file")
        _ = try SecureStore(
            username: "alice", storageKey: [UInt8](repeating: 7, count: 64),
            backend: SQLiteDocumentStore(path: ":memory:"))
    }

    @Test("another storage key is refused with wrongStorageKey, even for a new user name")
    func wrongKey() throws {
        let path = try StoreFixtures.databasePath()
        do {
            let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(1), path: path)
            try store.create(documentID: "d", original: [1], state: [])
        }
        for username in ["alice", "bob"] {
            let error = #expect(throws: SessionError.self) {
                _ = try SecureStore(username: username, storageKey: StoreFixtures.key(2), path: path)
            }
            #expect(error?.code == .wrongStorageKey)
        }
        var flipped = StoreFixtures.key(1)
        flipped[63] ^= 1
        #expect(throws: SessionError(.wrongStorageKey, "")) {
            _ = try SecureStore(username: "alice", storageKey: flipped, path: path)
        }
        // the right key still works afterwards
        #expect(
            try SecureStore(username: "alice", storageKey: StoreFixtures.key(1), path: path).load(documentID: "d")
                .original == [1])
    }

    @Test("another user name sees none of the user's documents or signatures")
    func otherUser() throws {
        let path = try StoreFixtures.databasePath()
        let alice = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        try alice.create(documentID: "shared-id", original: [1, 2, 3], state: [4])
        _ = try alice.addSignature([5])
        let bob = try SecureStore(username: "bob", storageKey: StoreFixtures.key(), path: path)
        #expect(bob.cipher.owner != alice.cipher.owner)
        #expect(try bob.documentIDs().isEmpty)
        #expect(try !bob.contains(documentID: "shared-id"))
        #expect(throws: SessionError(.documentNotFound, "")) { try bob.load(documentID: "shared-id") }
        #expect(try bob.savedSignatures().isEmpty)
        // bob's document of the same id is separate, and alice's stays intact
        try bob.create(documentID: "shared-id", original: [9], state: [])
        try bob.delete(documentID: "shared-id")
        #expect(try alice.load(documentID: "shared-id").original == [1, 2, 3])
        // even through the backend, alice's records do not open with bob's keys
        let address = try alice.cipher.address("shared-id", .original)
        let sealed = try #require(try alice.backend.read(address.key))
        #expect(throws: RecordCipher.OpenFailure.self) { _ = try bob.cipher.open(sealed, for: address) }
        // nor at bob's own address of the same record: the row keys differ too
        let bobs = try bob.cipher.address("shared-id", .original)
        #expect(bobs.key.document != address.key.document && bobs.key.kind != address.key.kind)
        #expect(throws: RecordCipher.OpenFailure.self) { _ = try bob.cipher.open(sealed, for: bobs) }
    }

    @Test("the raw database files show neither the document's text nor the user name")
    func noPlaintextOnDisk() throws {
        let path = try StoreFixtures.databasePath()
        let marker = "MARKER-7f3a-Confidential-Contract"
        let username = "jeanne.dupont@example.org"
        let pdf = Array("%PDF-1.7\n1 0 obj << /Title (\(marker)) >> endobj\n".utf8)
        do {
            let store = try SecureStore(username: username, storageKey: StoreFixtures.key(), path: path)
            try store.create(documentID: "doc", original: pdf, state: Array(marker.utf8))
            try store.append(
                documentID: "doc", revision: Array("% \(marker) update\n".utf8), state: Array(username.utf8))
            _ = try store.addSignature(Array(marker.utf8))
            // checked once with the store open (data still in the WAL) and once after closing
            try Self.expectAbsent([marker, username, "%PDF"], in: path)
        }
        try Self.expectAbsent([marker, username, "%PDF"], in: path)
        let files = StoreFixtures.rawFiles(path)
        #expect(!files.isEmpty && files[0].count > 0)
    }

    static func expectAbsent(_ needles: [String], in path: String) throws {
        let files = StoreFixtures.rawFiles(path)
        #expect(!files.isEmpty)
        for data in files {
            for needle in needles {
                #expect(data.range(of: Data(needle.utf8)) == nil, "\"\(needle)\" is in the raw store")
            }
        }
    }
}
