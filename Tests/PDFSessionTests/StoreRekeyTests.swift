import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// Moving a store to another storage key (`SecureStore.rekey`): everything opens with the new key,
/// nothing with the old, and a rekey that cannot finish changes nothing.
@Suite struct StoreRekeyTests {
    /// Every record and the store-wide values, as raw (sealed) bytes.
    struct Dump: Equatable {
        var records: [RecordKey: [UInt8]]
        var keyCheck: [UInt8]
        var salt: [UInt8]
    }

    static func dump(_ backend: SQLiteDocumentStore) throws -> Dump {
        var records: [RecordKey: [UInt8]] = [:]
        for owner in try backend.owners() {
            for key in try backend.keys(owner: owner, document: nil, kind: nil) {
                records[key] = try backend.read(key)
            }
        }
        // A value that is present is returned as it is; nothing is inserted.
        return Dump(
            records: records, keyCheck: try backend.metadata("key check", insertingIfAbsent: []),
            salt: try backend.metadata("salt", insertingIfAbsent: []))
    }

    /// A store with two users: alice has two documents (one with revisions), a saved signature and
    /// a setting; bob has one document.
    static func populated(key: [UInt8]) throws -> (path: String, alice: StoredDocument, bob: StoredDocument) {
        let path = try StoreFixtures.databasePath()
        let alice = try SecureStore(username: "alice", storageKey: key, path: path)
        try alice.create(documentID: "contract", original: StoreFixtures.document(count: 5000, seed: 1), state: [1])
        try alice.append(documentID: "contract", revision: Array("revision 0".utf8), state: [2])
        try alice.append(documentID: "contract", revision: Array("revision 1".utf8), state: [3])
        try alice.create(documentID: "other", original: Array("other original".utf8), state: [9])
        _ = try alice.addSignature(Array("strokes".utf8))
        try alice.setSetting(.demoIdentity, to: Array("identity".utf8))
        let bob = try SecureStore(username: "bob", storageKey: key, path: path)
        try bob.create(documentID: "contract", original: Array("bob's original".utf8), state: [4])
        try bob.append(documentID: "contract", revision: Array("bob's revision".utf8), state: [5])
        return (path, try alice.load(documentID: "contract"), try bob.load(documentID: "contract"))
    }

    @Test("after a rekey every record opens with the new key and none with the old")
    func everythingMoves() throws {
        let (old, new) = (StoreFixtures.key(1), StoreFixtures.key(2))
        let (path, aliceBefore, bobBefore) = try Self.populated(key: old)
        let summary = try SessionController.rekeyStore(at: path, usernames: ["alice", "bob"], from: old, to: new)
        // alice: key check, signature, setting, contract (original, 2 revisions, state), other (original,
        // state); bob: key check, contract (original, revision, state).
        #expect(summary == SecureStore.RekeySummary(users: 2, documents: 3, records: 13))

        let alice = try SecureStore(username: "alice", storageKey: new, path: path)
        let contract = try alice.load(documentID: "contract")
        #expect(contract.original == aliceBefore.original && contract.revisions == aliceBefore.revisions)
        #expect(contract.state == [3])
        #expect(try alice.load(documentID: "other").original == Array("other original".utf8))
        #expect(try alice.savedSignatures().map(\.payload) == [Array("strokes".utf8)])
        #expect(try alice.setting(.demoIdentity) == Array("identity".utf8))
        let bob = try SecureStore(username: "bob", storageKey: new, path: path)
        #expect(try bob.load(documentID: "contract").bytes == bobBefore.bytes)
        // Writes go on under the new key.
        try alice.append(documentID: "contract", revision: Array("revision 2".utf8), state: [4])
        #expect(try alice.revisionCount(documentID: "contract") == 3)

        let refused = #expect(throws: SessionError.self) {
            try SecureStore(username: "alice", storageKey: old, path: path)
        }
        #expect(refused?.code == .wrongStorageKey)
        // No record is left under an owner tag of the old key.
        let backend = try SQLiteDocumentStore(path: path)
        #expect(try Set(backend.owners()) == [alice.cipher.owner, bob.cipher.owner])
        for owner in try backend.owners() {
            let records = try backend.keys(owner: owner, document: nil, kind: nil)
            let cipher = owner == alice.cipher.owner ? alice.cipher : bob.cipher
            for key in records {
                var sealed = try #require(try backend.read(key))
                #expect(cipher.kind(of: key) != nil, "\(key) is a row of the new key")
                #expect((try? cipher.open(&sealed, at: key)) != nil, "\(key)")
            }
        }
    }

    @Test("a wrong old key is wrongStorageKey and changes nothing")
    func wrongOldKey() throws {
        let (path, _, _) = try Self.populated(key: StoreFixtures.key(1))
        let backend = try SQLiteDocumentStore(path: path)
        let before = try Self.dump(backend)
        let refused = #expect(throws: SessionError.self) {
            try SessionController.rekeyStore(
                at: path, usernames: ["alice", "bob"], from: StoreFixtures.key(3), to: StoreFixtures.key(2))
        }
        #expect(refused?.code == .wrongStorageKey)
        #expect(try Self.dump(backend) == before)
        #expect(
            try SecureStore(username: "alice", storageKey: StoreFixtures.key(1), path: path).documentIDs().count == 2)
    }

    @Test("a user left unnamed, an unknown user or a tampered record stops the rekey; nothing changes")
    func refusalsChangeNothing() throws {
        let (old, new) = (StoreFixtures.key(1), StoreFixtures.key(2))
        let (path, _, _) = try Self.populated(key: old)
        let backend = try SQLiteDocumentStore(path: path)
        let before = try Self.dump(backend)
        for usernames in [["alice"], ["alice", "bob", "carol"], []] {
            let refused = #expect(throws: SessionError.self) {
                try SessionController.rekeyStore(at: path, usernames: usernames, from: old, to: new)
            }
            #expect(refused?.code == .invalidArgument, "\(usernames)")
            #expect(try Self.dump(backend) == before)
        }
        let same = #expect(throws: SessionError.self) {
            try SessionController.rekeyStore(at: path, usernames: ["alice", "bob"], from: old, to: old)
        }
        #expect(same?.code == .invalidArgument)

        // bob's revision 0 altered: the rekey would vouch for it under the new key; it refuses.
        let bob = try SecureStore(username: "bob", storageKey: old, path: path)
        let revision = try bob.cipher.key("contract", .revision, 0)
        var altered = try #require(try backend.read(revision))
        altered[20] ^= 1
        try backend.commit([.put(revision, altered)])
        let tampered = try Self.dump(backend)
        let refused = #expect(throws: SessionError.self) {
            try SessionController.rekeyStore(at: path, usernames: ["alice", "bob"], from: old, to: new)
        }
        #expect(refused?.code == .tamperedRecord)
        #expect(refused?.message.contains("revision #0") == true)
        #expect(try Self.dump(backend) == tampered)

        let missing = #expect(throws: SessionError.self) {
            try SessionController.rekeyStore(at: path + ".absent", usernames: ["alice"], from: old, to: new)
        }
        #expect(missing?.code == .storeUnavailable)
        #expect(!FileManager.default.fileExists(atPath: path + ".absent"))
    }

    @Test("a document write through a store opened with the old key fails after a rekey, writing nothing")
    func openSessionsStop() throws {
        let (old, new) = (StoreFixtures.key(1), StoreFixtures.key(2))
        let (path, _, _) = try Self.populated(key: old)
        let alice = try SecureStore(username: "alice", storageKey: old, path: path)
        let version = try alice.load(documentID: "contract").version
        _ = try SessionController.rekeyStore(at: path, usernames: ["alice", "bob"], from: old, to: new)
        let stale = #expect(throws: SessionError.self) {
            try alice.append(documentID: "contract", revision: [1], state: [1], expecting: version)
        }
        #expect(stale?.code == .documentNotFound)
        let backend = try SQLiteDocumentStore(path: path)
        #expect(try backend.owners().count == 2)
    }
}
