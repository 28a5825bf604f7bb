import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSession

/// What an attacker holding the database file (and its WAL and journal) learns: no user name, no
/// document id, no record kind, nothing of what was stored. Read through `sqlite3`, every column
/// of every table, and byte by byte.
@Suite("Store: nothing in clear", .enabled(if: Requirement.tool("sqlite3"), "sqlite3 is not installed"))
struct StoreClearTextTests {
    static let username = "ada.lovelace@example.org"
    static let ids = ["contract-ada-lovelace.pdf", "lease-charles-babbage.pdf"]
    static let values = ["Augusta Ada King-Noel", "Notes on the Analytical Engine", "Charles Babbage of Marylebone"]

    /// Strokes with coordinates of their own (an ink note and a saved signature).
    static let strokes = [
        InkStroke((0..<30).map { InkPoint(x: 101.25 + Double($0) * 7.5, y: 300.75 + 20 * sin(Double($0) / 4)) })
    ]

    @Test(
        "after a session filled, annotated and saved signatures, no id, kind, user name or stored byte is in clear"
    )
    func nothingInClear() async throws {
        let directory = try TestPaths.temporaryDirectory("store-clear")
        let path = directory + "/store.sqlite"
        var plaintexts: [[UInt8]] = []
        do {
            let controller = try SessionController(
                username: Self.username, storageKey: StoreFixtures.key(4), storePath: path,
                clock: { PDFDate(seconds: 1_790_000_000) })
            let contract = try await controller.open(pdf: SessionFixtures.form(), documentID: Self.ids[0])
            try await contract.setValue(.text(Self.values[0]), forField: "name")
            try await contract.setValue(.text(Self.values[1]), forField: "comment")
            await contract.startNotesMode()
            try await contract.addNote(Self.strokes, pageIndex: 0)
            await contract.saveAndFinishNotesMode()
            _ = try controller.addSavedSignature(Self.strokes)
            let lease = try await controller.open(pdf: SessionFixtures.form(), documentID: Self.ids[1])
            try await lease.setValue(.text(Self.values[2]), forField: "name")

            // What the store holds, read back through it: the test's needles are really stored.
            let store = controller.store
            #expect(try store.documentIDs() == Self.ids)
            for id in Self.ids {
                let document = try store.load(documentID: id)
                plaintexts += [document.original, document.state] + document.revisions
            }
            let signatures = try store.savedSignatures()
            #expect(signatures.count == 1)
            plaintexts += signatures.map(\.payload)
            let stored = Data(plaintexts.joined())
            for value in Self.values { #expect(stored.range(of: Data(value.utf8)) != nil, "\(value) is not stored") }
            #expect(try store.revisionCount(documentID: Self.ids[0]) >= 3)

            // with the store open (the records are in the WAL) …
            try Self.expectNothingInClear(path, needles: Self.ids + Self.values + [Self.username], plaintexts)
            await contract.close()
            await lease.close()
        }
        // … and closed (checkpointed into the database file).
        try Self.expectNothingInClear(path, needles: Self.ids + Self.values + [Self.username], plaintexts)
    }

    /// Every table and column through `sqlite3`, then the raw bytes of the database, its WAL, its
    /// shared memory and its journal: none holds a needle, a record kind's name or a 24-byte piece
    /// of a plaintext.
    static func expectNothingInClear(_ path: String, needles: [String], _ plaintexts: [[UInt8]]) throws {
        let kinds = RecordKind.allCases.map(\.rawValue)
        let tables = try StoreFixtures.sqlite(path, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        #expect(tables.split(separator: "\n") == ["meta", "records", "schema_version"])
        for table in tables.split(separator: "\n") {
            let columns = try StoreFixtures.sqlite(path, "SELECT name FROM pragma_table_info('\(table)')")
            for column in columns.split(separator: "\n") {
                let cells = try StoreFixtures.sqlite(path, "SELECT hex(\(column)) FROM \(table)")
                // The metadata's names are checked below: "key check" names no record.
                let words = table == "meta" && column == "name" ? needles : needles + kinds
                for cell in cells.split(separator: "\n") {
                    let bytes = Data(StoreFixtures.bytes(hex: String(cell)))
                    for needle in words where bytes.range(of: Data(needle.utf8)) != nil {
                        Issue.record("\(table).\(column) holds \"\(needle)\"")
                    }
                }
            }
        }
        // The row keys are tags: 32 hex digits for the owner, 64 for the document and the kind.
        let shapes = try StoreFixtures.sqlite(
            path,
            "SELECT count(*) FROM records WHERE length(owner)<>32 OR length(document)<>64 OR length(kind)<>64 "
                + "OR owner GLOB '*[^0-9a-f]*' OR document GLOB '*[^0-9a-f]*' OR kind GLOB '*[^0-9a-f]*'")
        #expect(shapes == "0", "rows whose key is not made of tags")
        #expect(try StoreFixtures.sqlite(path, "SELECT name FROM meta ORDER BY name") == "key check\nsalt")

        let files = StoreFixtures.rawFiles(path)
        #expect(!files.isEmpty && files[0].count > 0)
        var pieces = 0
        for (index, data) in files.enumerated() {
            for needle in needles + kinds.filter({ $0 != "check" }) + ["%PDF"]
            where data.range(of: Data(needle.utf8)) != nil {
                Issue.record("file \(index) of the store holds \"\(needle)\"")
            }
            // "check" is in the name of the store-wide key check ("key check"), and nowhere else.
            #expect(
                occurrences(of: "check", in: data) == occurrences(of: "key check", in: data),
                "file \(index) of the store holds \"check\" other than the metadata's name")
            for plaintext in plaintexts {
                for start in stride(from: 0, to: plaintext.count - 24, by: 61) {
                    let piece = plaintext[start..<start + 24]
                    guard Set(piece).count >= 10 else { continue }  // runs of spaces or zeros prove nothing
                    pieces += 1
                    if data.range(of: Data(piece)) != nil {
                        Issue.record("file \(index) holds bytes \(start)..<\(start + 24) of a stored plaintext")
                    }
                }
            }
        }
        #expect(pieces > 0, "no piece of plaintext was looked for")
    }

    static func occurrences(of text: String, in data: Data) -> Int {
        var count = 0
        var range = data.startIndex..<data.endIndex
        while let found = data.range(of: Data(text.utf8), in: range) {
            count += 1
            range = found.upperBound..<data.endIndex
        }
        return count
    }
}
