import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// Keys, paths and raw-database access shared by the store's tests.
enum StoreFixtures {
    /// A 64-byte storage key derived from `seed` (distinct seeds give distinct keys).
    static func key(_ seed: UInt8 = 1) -> [UInt8] {
        (0..<64).map { UInt8(truncatingIfNeeded: Int($0) &* 37 &+ Int(seed) &* 101 &+ 5) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// A database path in a fresh temporary directory, under subdirectories that do not exist yet.
    static func databasePath() throws -> String {
        try TestPaths.temporaryDirectory("store") + "/nested/dir/store.sqlite"
    }

    /// The bytes of the database and its -wal / -shm / -journal files, whichever exist.
    static func rawFiles(_ path: String) -> [Data] {
        [path, path + "-wal", path + "-shm", path + "-journal"].compactMap { FileManager.default.contents(atPath: $0) }
    }

    /// Runs SQL through the `sqlite3` command-line program (an independent reader of the file;
    /// tests using it require `Requirement.tool("sqlite3")`).
    static func sqlite(_ database: String, _ sql: String) throws -> String {
        let result = try Oracle.run("sqlite3", [database, sql])
        #expect(result.status == 0, "sqlite3 failed: \(result.errors)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A `WHERE` clause selecting one record of `user`'s store (by its row key's tags).
    static func whereClause(
        _ store: SecureStore, _ documentID: String, _ kind: RecordKind, _ index: Int = 0
    ) throws -> String {
        let key = try store.cipher.key(documentID, kind, index)
        return "owner='\(key.owner)' AND document='\(key.document)' AND kind='\(key.kind)' AND idx=\(index)"
    }

    /// Deterministic pseudo-random bytes (a xorshift stream), with `marker` written at `markerOffset`.
    static func document(count: Int, seed: UInt64, marker: String = "", markerOffset: Int = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var state = seed | 1
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index + 8 <= buffer.count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                withUnsafeBytes(of: state.littleEndian) { word in
                    for offset in 0..<8 { buffer[index + offset] = word[offset] }
                }
                index += 8
            }
        }
        bytes.replaceSubrange(markerOffset..<markerOffset + marker.utf8.count, with: Array(marker.utf8))
        return bytes
    }
}
