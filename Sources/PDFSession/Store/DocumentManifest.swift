import AutographCrypto

/// What a document's state record vouches for: the tag of the original and of each revision, in
/// order. It is sealed with the state, so a revision that is dropped, added, reordered or replaced
/// by an older value of the same key is detected on load, not only one moved from another key.
///
/// Layout (inside the encrypted state record): format 1 (1 byte) ‖ revision count (4 bytes, little
/// endian) ‖ original tag (16) ‖ revision tags (16 each) ‖ the session's state bytes.
struct DocumentManifest: Hashable, Sendable {
    static let format: UInt8 = 1

    var originalTag: [UInt8]
    var revisionTags: [[UInt8]]

    /// The encoded manifest (the state bytes follow it in the record).
    var encoded: [UInt8] {
        var bytes: [UInt8] = [Self.format]
        bytes.reserveCapacity(5 + AESGCM.tagSize * (1 + revisionTags.count))
        let count = UInt32(revisionTags.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> shift)) }
        bytes += originalTag
        for tag in revisionTags { bytes += tag }
        return bytes
    }

    /// Splits a decrypted state record into its manifest and the session's state; nil when malformed.
    static func decode(_ record: [UInt8]) -> (manifest: DocumentManifest, state: [UInt8])? {
        let tagSize = AESGCM.tagSize
        guard record.count >= 5 + tagSize, record[0] == format else { return nil }
        var count = 0
        for index in 0..<4 { count |= Int(record[1 + index]) << (8 * index) }
        let end = 5 + tagSize * (1 + count)
        guard record.count >= end else { return nil }
        let originalTag = Array(record[5..<5 + tagSize])
        let revisionTags = (0..<count).map { index in
            let start = 5 + tagSize * (1 + index)
            return Array(record[start..<start + tagSize])
        }
        return (DocumentManifest(originalTag: originalTag, revisionTags: revisionTags), Array(record[end...]))
    }
}
