import Foundation
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFSession

/// A store written by the code of record format 1 (ids and kinds in clear: the checked-in
/// `Tests/Fixtures/store/format1.sqlite`, see `FormatOneStore`) keeps working: each user's records
/// move to format 2 when the user opens it, once, and nothing of theirs stays in clear.
@Suite("Store: migration from format 1", .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"))
struct StoreMigrationTests {
    static let kinds = RecordKind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ",")

    /// The owner tag of `user` in the store at `path`, computed from its salt (without opening the
    /// store, which would move the user's records).
    static func owner(_ user: FormatOneStore.User, _ path: String) throws -> String {
        let salt = StoreFixtures.bytes(
            hex: try StoreFixtures.sqlite(path, "SELECT hex(value) FROM meta WHERE name='salt'"))
        return try RecordCipher(storageKey: FormatOneStore.key, salt: salt, username: user.name).owner
    }

    /// How many of the owner's rows are of format 1 (a kind's name in the kind column).
    static func legacyRows(_ owner: String, _ path: String) throws -> Int {
        Int(
            try StoreFixtures.sqlite(path, "SELECT count(*) FROM records WHERE owner='\(owner)' AND kind IN (\(kinds))")
        )
            ?? -1
    }

    /// The owner's rows, every column in hex, sorted.
    static func rows(_ owner: String, _ path: String) throws -> String {
        try StoreFixtures.sqlite(
            path, "SELECT document, kind, idx, hex(value) FROM records WHERE owner='\(owner)' ORDER BY 1, 2, 3")
    }

    @Test("each user's records move when the user opens the store, and read back whole, twice")
    func migratesUserByUser() throws {
        let path = try FormatOneStore.copy()
        let ada = try Self.owner(FormatOneStore.ada, path)
        let charles = try Self.owner(FormatOneStore.charles, path)
        // The fixture is what it claims: ids and kinds in clear, schema 1.
        #expect(try Self.legacyRows(ada, path) == 9 && Self.legacyRows(charles, path) == 4)
        #expect(try StoreFixtures.sqlite(path, "SELECT count(*) FROM records WHERE document LIKE '%lovelace%'") == "6")
        #expect(try StoreFixtures.sqlite(path, "SELECT version FROM schema_version") == "1")
        let charlesBefore = try Self.rows(charles, path)

        try FormatOneStore.expectContents(of: FormatOneStore.ada, at: path)
        #expect(try StoreFixtures.sqlite(path, "SELECT version FROM schema_version") == "2")
        #expect(try Self.legacyRows(ada, path) == 0)
        #expect(
            try StoreFixtures.sqlite(
                path, "SELECT count(*) FROM records WHERE owner='\(ada)' AND substr(value, 1, 1)=X'02'") == "9")
        #expect(try Self.rows(charles, path) == charlesBefore, "another user's records moved with ada's keys")

        // Opening again moves and writes nothing.
        let adaMoved = try Self.rows(ada, path)
        try FormatOneStore.expectContents(of: FormatOneStore.ada, at: path)
        #expect(try Self.rows(ada, path) == adaMoved)

        try FormatOneStore.expectContents(of: FormatOneStore.charles, at: path)
        #expect(try Self.legacyRows(charles, path) == 0)
        let all = try Self.rows(ada, path) + Self.rows(charles, path)
        for user in FormatOneStore.users { try FormatOneStore.expectContents(of: user, at: path) }
        #expect(try Self.rows(ada, path) + Self.rows(charles, path) == all)

        // Closed: nothing of either user is left in clear, in the rows or in free space.
        try StoreClearTextTests.expectNothingInClear(path, needles: FormatOneStore.words, FormatOneStore.plaintexts)

        // And the documents go on.
        let store = try SecureStore(username: FormatOneStore.ada.name, storageKey: FormatOneStore.key, path: path)
        let id = FormatOneStore.ada.documents[0].id
        try store.append(documentID: id, revision: Array("after the move".utf8), state: [7])
        #expect(try store.load(documentID: id).revisions.last == Array("after the move".utf8))
        _ = try store.addSignature([1])
        #expect(try store.savedSignatures().map(\.id) == [2, 3])
    }

    @Test("what the code of format 1 left in free space (SQLite without secure_delete) is scrubbed on first open")
    func freeSpaceIsScrubbed() throws {
        let path = try FormatOneStore.copy()
        let draft = "draft-ada-lovelace-will.pdf"
        _ = try StoreFixtures.sqlite(
            path,
            "PRAGMA secure_delete=OFF; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) "
                + "INSERT INTO records SELECT '00', '\(draft)', 'state', i, randomblob(3000) FROM n; "
                + "DELETE FROM records WHERE owner='00'; SELECT count(*) FROM records")
        #expect(StoreFixtures.rawFiles(path).contains { $0.range(of: Data(draft.utf8)) != nil }, "nothing to scrub")
        for user in FormatOneStore.users { try FormatOneStore.expectContents(of: user, at: path) }
        try StoreClearTextTests.expectNothingInClear(
            path, needles: FormatOneStore.words + [draft], FormatOneStore.plaintexts)
    }

    @Test("a damaged record of format 1 moves as it is and is still refused; the others read back")
    func damagedRecordsStayRefused() throws {
        let path = try FormatOneStore.copy()
        let contract = FormatOneStore.ada.documents[0]
        let clause = "document='\(contract.id)' AND kind='revision' AND idx=1"
        var bytes = StoreFixtures.bytes(
            hex: try StoreFixtures.sqlite(path, "SELECT hex(value) FROM records WHERE \(clause)"))
        bytes[20] ^= 1
        _ = try StoreFixtures.sqlite(path, "UPDATE records SET value=X'\(StoreFixtures.hex(bytes))' WHERE \(clause)")

        let store = try SecureStore(username: FormatOneStore.ada.name, storageKey: FormatOneStore.key, path: path)
        #expect(try Self.legacyRows(try Self.owner(FormatOneStore.ada, path), path) == 0)
        #expect(try store.documentIDs() == FormatOneStore.ada.documents.map(\.id).sorted())
        let error = #expect(throws: SessionError.self) { try store.load(documentID: contract.id) }
        #expect(error?.code == .tamperedRecord)
        #expect(error?.message.contains("revision #1") == true, "\(error?.message ?? "")")
        let nda = FormatOneStore.ada.documents[1]
        #expect(try store.load(documentID: nda.id).original == nda.original)
        #expect(try store.savedSignatures().count == 1)
    }

    @Test("the move is the same through another backend: records copied to an in-memory store move and read back")
    func anotherBackend() throws {
        let path = try FormatOneStore.copy()
        let memory = MemoryDocumentStore()
        do {
            let sqlite = try SQLiteDocumentStore(path: path)
            var copies: [RecordChange] = []
            for owner in try sqlite.owners() {
                for key in try sqlite.keys(owner: owner, document: nil, kind: nil) {
                    copies.append(.put(key, try #require(try sqlite.read(key))))
                }
            }
            #expect(copies.count == 13)
            try memory.commit(copies)
            for name in ["salt", "key check"] {
                _ = memory.metadata(name, insertingIfAbsent: try sqlite.metadata(name, insertingIfAbsent: []))
            }
        }
        for user in FormatOneStore.users {
            try FormatOneStore.expectContents(
                of: user, in: SecureStore(username: user.name, storageKey: FormatOneStore.key, backend: memory))
        }
        for owner in memory.records.withLock({ Set($0.keys.map(\.owner)) }) {
            for key in memory.keys(owner: owner, document: nil, kind: nil) {
                #expect(RecordCipher.legacyKind(of: key) == nil && key.document.count == 64, "\(key)")
            }
        }
    }

    @Test("a store of format 1 is rekeyed without its users opening it first")
    func rekeyMovesFormatOne() throws {
        let path = try FormatOneStore.copy()
        let newKey = StoreFixtures.key(12)
        let summary = try SessionController.rekeyStore(
            at: path, usernames: FormatOneStore.users.map(\.name), from: FormatOneStore.key, to: newKey)
        #expect(summary == SecureStore.RekeySummary(users: 2, documents: 3, records: 13))
        #expect(try StoreFixtures.sqlite(path, "SELECT count(*) FROM records WHERE kind IN (\(Self.kinds))") == "0")
        for user in FormatOneStore.users { try FormatOneStore.expectContents(of: user, at: path, storageKey: newKey) }
        try StoreClearTextTests.expectNothingInClear(path, needles: FormatOneStore.words, FormatOneStore.plaintexts)
    }

    @Test("sessions opening a store of format 1 at once each read it whole; the records move once")
    func concurrentOpens() async throws {
        let path = try FormatOneStore.copy()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    try FormatOneStore.expectContents(of: FormatOneStore.users[index % 2], at: path)
                }
            }
            try await group.waitForAll()
        }
        #expect(try StoreFixtures.sqlite(path, "SELECT count(*) FROM records") == "13")
        #expect(try StoreFixtures.sqlite(path, "SELECT count(*) FROM records WHERE kind IN (\(Self.kinds))") == "0")
    }
}
