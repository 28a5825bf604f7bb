import Foundation
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFSession

/// Records altered in the SQLite file by another program (the `sqlite3` command-line tool), or
/// through a backend, must be refused, never returned as garbage.
@Suite("Store tampering") struct StoreTamperTests {
    /// A store at a fresh path with documents "A" (2 revisions) and "B" (1 revision).
    static func makeStore() throws -> (path: String, store: SecureStore) {
        let path = try StoreFixtures.databasePath()
        let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        try store.create(documentID: "A", original: Array("%PDF-1.7 A original".utf8), state: Array("state A".utf8))
        try store.append(documentID: "A", revision: Array("A update 1".utf8), state: Array("state A1".utf8))
        try store.append(documentID: "A", revision: Array("A update 2".utf8), state: Array("state A2".utf8))
        try store.create(documentID: "B", original: Array("%PDF-1.7 B original".utf8), state: Array("state B".utf8))
        try store.append(documentID: "B", revision: Array("B update 1".utf8), state: Array("state B1".utf8))
        return (path, store)
    }

    static func expectTampered(_ store: SecureStore, _ documentID: String, mentioning words: [String]) {
        let error = #expect(throws: SessionError.self) { _ = try store.load(documentID: documentID) }
        #expect(error?.code == .tamperedRecord)
        for word in words { #expect(error?.message.contains(word) == true, "\(error?.message ?? "") lacks \(word)") }
    }

    @Test(
        "a changed ciphertext byte is tamperedRecord naming the document, kind and index",
        .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"),
        arguments: [
            (RecordKind.original, 0), (.revision, 1), (.state, 0),
        ])
    func flippedByte(kind: RecordKind, index: Int) throws {
        let (path, store) = try Self.makeStore()
        let clause = try StoreFixtures.whereClause(store, "A", kind, index)
        let hex = try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(clause)")
        var bytes = StoreFixtures.bytes(hex: hex)
        bytes[13 + 3] ^= 0x20  // a ciphertext byte (after version and nonce)
        let changed = try StoreFixtures.sqlite(
            path, "UPDATE records SET value=X'\(StoreFixtures.hex(bytes))' WHERE \(clause); SELECT changes()")
        #expect(changed == "1")
        for reader in [store, try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)] {
            Self.expectTampered(reader, "A", mentioning: ["\"A\"", kind.rawValue, "#\(index)"])
        }
        #expect(try store.load(documentID: "B").revisions == [Array("B update 1".utf8)])
    }

    @Test(
        "records copied to another document, kind or index are tamperedRecord",
        .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"))
    func swappedRecords() throws {
        let (path, store) = try Self.makeStore()
        // (source, target) as (document, kind, index) pairs, each on a fresh store
        let copies: [((String, RecordKind, Int), (String, RecordKind, Int))] = [
            (("A", .state, 0), ("B", .state, 0)), (("A", .revision, 0), ("B", .revision, 0)),
            (("B", .revision, 0), ("B", .original, 0)), (("A", .revision, 1), ("A", .revision, 0)),
        ]
        for (source, target) in copies {
            let (path, store) = try Self.makeStore()
            let from = try StoreFixtures.whereClause(store, source.0, source.1, source.2)
            let to = try StoreFixtures.whereClause(store, target.0, target.1, target.2)
            let changed = try StoreFixtures.sqlite(
                path, "UPDATE records SET value=(SELECT value FROM records WHERE \(from)) WHERE \(to); SELECT changes()"
            )
            #expect(changed == "1")
            Self.expectTampered(store, target.0, mentioning: ["\"\(target.0)\"", target.1.rawValue, "#\(target.2)"])
        }
        // revision 0 and 1 of A exchanged
        let zero = try StoreFixtures.whereClause(store, "A", .revision, 0)
        let one = try StoreFixtures.whereClause(store, "A", .revision, 1)
        _ = try StoreFixtures.sqlite(
            path,
            "UPDATE records SET idx=-1 WHERE \(zero); UPDATE records SET idx=0 WHERE \(one); "
                + "UPDATE records SET idx=1 WHERE \(zero.replacingOccurrences(of: "idx=0", with: "idx=-1"))")
        Self.expectTampered(store, "A", mentioning: ["revision"])
    }

    @Test(
        "a dropped revision or an older value of a record put back is tamperedRecord",
        .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"))
    func rollback() throws {
        let (path, store) = try Self.makeStore()
        let deleted = try StoreFixtures.sqlite(
            path,
            "DELETE FROM records WHERE \(try StoreFixtures.whereClause(store, "A", .revision, 1)); SELECT changes()")
        #expect(deleted == "1")
        Self.expectTampered(store, "A", mentioning: ["\"A\""])

        // B: revision 0 undone and redone with other bytes; the old sealed value is put back
        let clause = try StoreFixtures.whereClause(store, "B", .revision, 0)
        let old = try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(clause)")
        try store.truncate(documentID: "B", revisionCount: 0, state: [])
        try store.append(documentID: "B", revision: Array("B redone".utf8), state: [])
        #expect(try store.load(documentID: "B").revisions == [Array("B redone".utf8)])
        _ = try StoreFixtures.sqlite(path, "UPDATE records SET value=X'\(old)' WHERE \(clause)")
        Self.expectTampered(store, "B", mentioning: ["revision", "#0"])
    }

    @Test(
        "an altered key-check record is wrongStorageKey; an altered signature is tamperedRecord",
        .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"))
    func checkAndSignature() throws {
        let (path, store) = try Self.makeStore()
        _ = try store.addSignature([1, 2, 3])
        let signature = try StoreFixtures.whereClause(store, "", .signature, 1)
        let hex = try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(signature)")
        var bytes = StoreFixtures.bytes(hex: hex)
        bytes[bytes.count - 1] ^= 1  // the tag
        _ = try StoreFixtures.sqlite(path, "UPDATE records SET value=X'\(StoreFixtures.hex(bytes))' WHERE \(signature)")
        let error = #expect(throws: SessionError.self) { _ = try store.savedSignatures() }
        #expect(error?.code == .tamperedRecord)
        #expect(error?.message.contains("signature #1") == true)

        let checkClause = try StoreFixtures.whereClause(store, "", .check)
        var check = StoreFixtures.bytes(
            hex: try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(checkClause)"))
        check[14] ^= 1
        _ = try StoreFixtures.sqlite(
            path, "UPDATE records SET value=X'\(StoreFixtures.hex(check))' WHERE \(checkClause)")
        let refused = #expect(throws: SessionError.self) {
            _ = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), path: path)
        }
        #expect(refused?.code == .wrongStorageKey)
        #expect(refused?.message.contains("user name") == true)
    }

    @Test(
        "rows whose sealed ids are swapped are tamperedRecord, and a record carrying another document's id is refused",
        .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"))
    func swappedIDs() throws {
        // A's and B's state rows exchange their values: each holds the other's sealed id.
        let (path, store) = try Self.makeStore()
        let a = try StoreFixtures.whereClause(store, "A", .state)
        let b = try StoreFixtures.whereClause(store, "B", .state)
        let (valueA, valueB) = try (
            StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(a)"),
            StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(b)")
        )
        _ = try StoreFixtures.sqlite(
            path,
            "CREATE TEMP TABLE a AS SELECT value FROM records WHERE \(a); "
                + "UPDATE records SET value=(SELECT value FROM records WHERE \(b)) WHERE \(a); "
                + "UPDATE records SET value=(SELECT value FROM a) WHERE \(b)")
        #expect(try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(a)") == valueB)
        #expect(try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(b)") == valueA)
        Self.expectTampered(store, "A", mentioning: ["\"A\"", "state"])
        Self.expectTampered(store, "B", mentioning: ["\"B\"", "state"])
        #expect(throws: SessionError(.tamperedRecord, "")) { try store.documentIDs() }

        // A record that opens at A's row (sealed there with the key) but carries B's id: A's own
        // manifest and state, so only the id is wrong.
        let (forgedPath, forgedStore) = try Self.makeStore()
        let address = try forgedStore.cipher.address("A", .state)
        let sealed = try #require(try forgedStore.backend.read(address.key))
        let plain = try forgedStore.open(sealed, for: address)
        let forged = try forgedStore.cipher.seal(
            plain, for: RecordAddress(documentID: "B", kind: .state, index: 0, key: address.key))
        let row = try StoreFixtures.whereClause(forgedStore, "A", .state)
        let update = "UPDATE records SET value=X'\(StoreFixtures.hex(forged))' WHERE \(row)"
        _ = try StoreFixtures.sqlite(forgedPath, update)
        Self.expectTampered(forgedStore, "A", mentioning: ["\"A\"", "state", "another document"])
        let listing = #expect(throws: SessionError.self) { try forgedStore.documentIDs() }
        #expect(listing?.code == .tamperedRecord)
        #expect(try forgedStore.load(documentID: "B").revisions == [Array("B update 1".utf8)])
    }

    @Test("through a custom backend: a modified blob is tamperedRecord, a truncated one too")
    func customBackend() throws {
        let backend = MemoryDocumentStore()
        let store = try SecureStore(username: "alice", storageKey: StoreFixtures.key(), backend: backend)
        try store.create(documentID: "A", original: Array(repeating: 0x41, count: 100), state: [1])
        #expect(try store.load(documentID: "A").original == Array(repeating: 0x41, count: 100))
        let key = try store.cipher.key("A", .original)
        let sealed = try #require(try backend.read(key))
        var modified = sealed
        modified[50] ^= 0xff
        try backend.commit([.put(key, modified)])
        Self.expectTampered(store, "A", mentioning: ["original"])
        try backend.commit([.put(key, Array(sealed.prefix(20)))])
        Self.expectTampered(store, "A", mentioning: ["original"])
        try backend.commit([.put(key, sealed)])
        #expect(try store.load(documentID: "A").original == Array(repeating: 0x41, count: 100))
    }
}

/// A dictionary-backed `DocumentStore`, standing in for a server database.
final class MemoryDocumentStore: DocumentStore {
    let records = Mutex<[RecordKey: [UInt8]]>([:])
    private let meta = Mutex<[String: [UInt8]]>([:])

    func read(_ key: RecordKey) -> [UInt8]? {
        records.withLock { $0[key] }
    }

    func keys(owner: String, document: String?, kind: String?) -> [RecordKey] {
        records.withLock { records in
            records.keys.filter {
                $0.owner == owner && (document == nil || $0.document == document) && (kind == nil || $0.kind == kind)
            }
        }.sorted { ($0.document, $0.kind, $0.index) < ($1.document, $1.kind, $1.index) }
    }

    func commit(_ changes: [RecordChange]) throws(SessionError) {
        try records.withLock { records throws(SessionError) in
            var updated = records
            for change in changes {
                switch change {
                case .put(let key, let value): updated[key] = value
                case .delete(let key): updated[key] = nil
                case .deleteDocument(let owner, let document):
                    updated = updated.filter { !($0.key.owner == owner && $0.key.document == document) }
                case .expect(let key, let value):
                    guard updated[key] == value else { throw SessionError(.documentChanged, "\(key) changed") }
                }
            }
            records = updated
        }
    }

    func metadata(_ name: String, insertingIfAbsent initial: [UInt8]) -> [UInt8] {
        meta.withLock { meta in
            if let value = meta[name] { return value }
            meta[name] = initial
            return initial
        }
    }
}
