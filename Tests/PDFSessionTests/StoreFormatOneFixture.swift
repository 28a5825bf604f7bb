import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// The store of record format 1 checked in as `Tests/Fixtures/store/format1.sqlite` (listed in
/// `Tests/Fixtures/README.md`): what it holds, and the writer that made it with the code of format 1
/// (`AUTOGRAPH_WRITE_STORE_FIXTURE=PATH swift test --filter StoreFormatOneWriter`, run at the commit
/// that added this file). Only the public `SecureStore` API writes it, so the same writer run today
/// makes a store of today's format with the same contents.
enum FormatOneStore {
    /// The storage key of both users.
    static let key = StoreFixtures.key(11)

    /// One document in progress as the fixture holds it.
    struct Document: Sendable {
        var id: String
        var original: [UInt8]
        var revisions: [[UInt8]]
        var state: [UInt8]
    }

    /// What one user holds.
    struct User: Sendable {
        var name: String
        var documents: [Document]
        /// Saved signatures that remain, by id (the writer adds one more first and deletes it last,
        /// so ids start at 2).
        var signatures: [Int: [UInt8]]
        var demoIdentity: [UInt8]?
    }

    static let ada = User(
        name: "ada.lovelace@example.org",
        documents: [
            Document(
                id: "contract-ada-lovelace.pdf",
                original: Array("%PDF-1.7\n1 0 obj << /Title (Contract of Ada Lovelace) >> endobj\n".utf8),
                revisions: [
                    Array("2 0 obj << /T (name) /V (Ada King, Countess of Lovelace) >> endobj\n".utf8),
                    Array("3 0 obj << /Subtype /Ink /InkList [[12.5 40.25 18.75 52.5]] >> endobj\n".utf8),
                ],
                state: Array("{\"phase\":\"editing\",\"note\":\"Analytical Engine notes\"}".utf8)),
            Document(
                id: "nda-ada-lovelace.pdf",
                original: Array("%PDF-1.7\n1 0 obj << /Title (Non-disclosure, Ada) >> endobj\n".utf8),
                revisions: [], state: Array("{\"phase\":\"editing\",\"note\":\"Bernoulli numbers\"}".utf8)),
        ],
        signatures: [2: Array("{\"strokes\":[[[101.5,7.25],[140.75,9.5]]],\"who\":\"Ada\"}".utf8)],
        demoIdentity: Array("demo identity of Ada Lovelace".utf8))

    static let charles = User(
        name: "charles.babbage",
        documents: [
            Document(
                id: "lease-charles-babbage.pdf",
                original: Array("%PDF-1.7\n1 0 obj << /Title (Lease of Charles Babbage) >> endobj\n".utf8),
                revisions: [Array("2 0 obj << /T (tenant) /V (Charles Babbage, Difference Engine) >> endobj\n".utf8)],
                state: Array("{\"phase\":\"editing\",\"note\":\"Difference Engine No. 2\"}".utf8))
        ],
        signatures: [:], demoIdentity: nil)

    static let users = [ada, charles]

    /// The checked-in store (`Tests/Fixtures/store/format1.sqlite`).
    static let fixture = TestPaths.fixture("store", "format1.sqlite")

    /// A copy of the checked-in store in a fresh directory, to be changed by a test.
    static func copy() throws -> String {
        let path = try TestPaths.temporaryDirectory("store-format1") + "/store.sqlite"
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return path
    }

    /// Every id, user name and stored value of the fixture, as text (what must not be in clear).
    static var words: [String] {
        users.flatMap { user in
            [user.name] + user.documents.map(\.id)
                + user.documents.flatMap { [$0.original, $0.state] + $0.revisions }.map {
                    String(decoding: $0, as: UTF8.self)
                }
        }
    }

    /// Every value the fixture stores.
    static var plaintexts: [[UInt8]] {
        users.flatMap { user in
            user.documents.flatMap { [$0.original, $0.state] + $0.revisions } + user.signatures.values
                + (user.demoIdentity.map { [$0] } ?? [])
        }
    }

    /// Writes the users' records through `SecureStore` (whatever format this code writes).
    static func write(to path: String) throws {
        for user in users {
            let store = try SecureStore(username: user.name, storageKey: key, path: path)
            for document in user.documents {
                try store.create(documentID: document.id, original: document.original, state: [])
                for revision in document.revisions {
                    try store.append(documentID: document.id, revision: revision, state: [])
                }
                try store.save(documentID: document.id, state: document.state)
            }
            if !user.signatures.isEmpty {
                let first = try store.addSignature(Array("deleted signature".utf8))
                for (_, payload) in user.signatures.sorted(by: { $0.key < $1.key }) {
                    _ = try store.addSignature(payload)
                }
                try store.deleteSignature(id: first.id)
            }
            if let identity = user.demoIdentity { try store.setSetting(.demoIdentity, to: identity) }
        }
    }

    /// Checks that `path` holds exactly the fixture's contents for `user`, read with this code
    /// (which opens the store for the user, with `storageKey`).
    static func expectContents(of user: User, at path: String, storageKey: [UInt8] = key) throws {
        try expectContents(of: user, in: SecureStore(username: user.name, storageKey: storageKey, path: path))
    }

    /// Checks that `store` (opened for `user`) holds exactly the fixture's contents for the user.
    static func expectContents(of user: User, in store: SecureStore) throws {
        #expect(try store.documentIDs() == user.documents.map(\.id).sorted(), "\(user.name)")
        for document in user.documents {
            #expect(try store.contains(documentID: document.id))
            let loaded = try store.load(documentID: document.id)
            #expect(loaded.documentID == document.id)
            #expect(loaded.original == document.original, "\(document.id)")
            #expect(loaded.revisions == document.revisions, "\(document.id)")
            #expect(loaded.state == document.state, "\(document.id)")
            #expect(try store.revisionCount(documentID: document.id) == document.revisions.count)
        }
        let signatures = try store.savedSignatures()
        #expect(signatures.map(\.id) == user.signatures.keys.sorted(), "\(user.name)")
        for signature in signatures { #expect(signature.payload == user.signatures[signature.id]) }
        #expect(try store.setting(.demoIdentity) == user.demoIdentity)
    }
}

/// Writes the fixture when `AUTOGRAPH_WRITE_STORE_FIXTURE` names the file to write (it must not exist).
@Suite(
    "Store fixture writer",
    .enabled(
        if: ProcessInfo.processInfo.environment["AUTOGRAPH_WRITE_STORE_FIXTURE"] != nil,
        "AUTOGRAPH_WRITE_STORE_FIXTURE names no file to write"))
struct StoreFormatOneWriter {
    @Test("writes the fixture's users, documents, signatures and settings, then reads them back")
    func write() throws {
        let path = try #require(ProcessInfo.processInfo.environment["AUTOGRAPH_WRITE_STORE_FIXTURE"])
        #expect(!FileManager.default.fileExists(atPath: path), "\(path) exists")
        try FormatOneStore.write(to: path)
        for user in FormatOneStore.users { try FormatOneStore.expectContents(of: user, at: path) }
    }
}
