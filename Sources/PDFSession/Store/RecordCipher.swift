import AutographCrypto

/// The keys of one user in one store: the record envelope they seal and open, and the row keys
/// that hide what a record is from the database.
///
/// Keys come from HKDF-SHA-256 (RFC 5869) with the 64-byte storage key as input keying material
/// and the store's random 32-byte salt:
/// - record key (32 bytes): info "autograph store v1 records" ‖ 0 ‖ user name (UTF-8);
/// - owner tag (16 bytes, stored as hex): info "autograph store v1 owner" ‖ 0 ‖ user name, so the
///   database never shows who the user is;
/// - row key (32 bytes): info "autograph store v2 row keys" ‖ 0 ‖ user name, the HMAC-SHA-256 key
///   of the document tag (HMAC of "document" ‖ 0 ‖ id, hex) and of the kind tag (HMAC of "kind" ‖
///   0 ‖ the kind's name, hex), so the database shows neither ids nor kinds;
/// - store check key (32 bytes): info "autograph store v1 store check", shared by the store's users.
///
/// A record of format 2 is `2 ‖ nonce (12) ‖ AES-256-GCM ciphertext ‖ tag (16)`; its plaintext is
/// `id length (4 bytes, little endian) ‖ document id (UTF-8) ‖ value`, and its additional data is
/// `"autograph store v2" ‖ 0 ‖ owner ‖ 0 ‖ document tag ‖ 0 ‖ kind tag ‖ 0 ‖ index (decimal)`: a record
/// moved to another row no longer opens, and one whose sealed id is not the id asked for is refused.
/// Format 1 (before ids left the clear columns) is `1 ‖ nonce ‖ ciphertext ‖ tag` with the value
/// alone as plaintext and `owner ‖ 0 ‖ documentID ‖ 0 ‖ kind ‖ 0 ‖ index` as additional data, the
/// row key holding the id and the kind's name; it is read to move such records, and the store-wide
/// key check (which names nothing) keeps it.
struct RecordCipher: Sendable {
    static let formatVersion: UInt8 = 2
    static let legacyFormatVersion: UInt8 = 1
    static let headerSize = 1 + AESGCM.nonceSize
    static let overhead = headerSize + AESGCM.tagSize
    /// The bytes before the document id in a record's plaintext (its length).
    static let idHeaderSize = 4

    let owner: String
    /// The AES-256-GCM key of the user's records.
    let recordKey: [UInt8]
    /// The HMAC key of the row keys' tags (empty for the store check, which has no rows).
    private let rowKey: [UInt8]
    /// Each kind's tag, computed once.
    private let kindTags: [RecordKind: String]
    /// The tag of the empty document id: the owner's own records.
    let userDocument: String

    /// Derives the user's keys; the storage key itself is not kept.
    init(storageKey: [UInt8], salt: [UInt8], username: String) throws(SessionError) {
        let name = Array(username.utf8)
        do {
            recordKey = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v1 records".utf8) + [0] + name, length: 32)
            let tag = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v1 owner".utf8) + [0] + name, length: 16)
            owner = Self.hex(tag)
            rowKey = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v2 row keys".utf8) + [0] + name, length: 32)
        } catch {
            throw SessionError(.storeUnavailable, "store: key derivation failed", crypto: error)
        }
        var kindTags: [RecordKind: String] = [:]
        for kind in RecordKind.allCases {
            kindTags[kind] = try Self.tag(rowKey, "kind", kind.rawValue)
        }
        self.kindTags = kindTags
        userDocument = try Self.tag(rowKey, "document", "")
    }

    /// The cipher of the store-wide key check (owner "", no row key).
    private init(owner: String, key: [UInt8]) {
        self.owner = owner
        recordKey = key
        rowKey = []
        kindTags = [:]
        userDocument = ""
    }

    static func storeCheck(storageKey: [UInt8], salt: [UInt8]) throws(SessionError) -> RecordCipher {
        do {
            let key = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v1 store check".utf8), length: 32)
            return RecordCipher(owner: "", key: key)
        } catch {
            throw SessionError(.storeUnavailable, "store: key derivation failed", crypto: error)
        }
    }

    /// The key of the store-wide check in format 1's additional data (it is in the metadata, not a row).
    static let storeCheckKey = RecordKey(owner: "", document: "", kind: RecordKind.check.rawValue)

    /// HMAC-SHA-256 of `domain ‖ 0 ‖ text` under `key`, as hex.
    private static func tag(_ key: [UInt8], _ domain: String, _ text: String) throws(SessionError) -> String {
        do {
            return hex(
                try HMAC.authenticationCode(.sha256, key: key, message: Array(domain.utf8) + [0] + Array(text.utf8)))
        } catch {
            throw SessionError(.storeUnavailable, "store: a row key could not be computed", crypto: error)
        }
    }

    /// The tag of a document id in this user's row keys.
    func documentTag(_ documentID: String) throws(SessionError) -> String {
        documentID.isEmpty ? userDocument : try Self.tag(rowKey, "document", documentID)
    }

    /// The tag of a kind in this user's row keys.
    func kindTag(_ kind: RecordKind) -> String {
        kindTags[kind] ?? ""
    }

    /// What a row of this user holds, from its kind tag; nil for a tag of no kind this version knows
    /// (or a row of format 1, see ``legacyKind(of:)``).
    func kind(of key: RecordKey) -> RecordKind? {
        kindTags.first { $0.value == key.kind }?.key
    }

    /// What a row of format 1 holds: its kind column is the kind's name; nil for any other row.
    static func legacyKind(of key: RecordKey) -> RecordKind? {
        RecordKind(rawValue: key.kind)
    }

    /// The address of this user's record: what it is in clear, and its row key.
    func address(_ documentID: String, _ kind: RecordKind, _ index: Int = 0) throws(SessionError) -> RecordAddress {
        address(documentID, kind, index, documentTag: try documentTag(documentID))
    }

    /// ``address(_:_:_:)`` with the document's tag computed once for many records.
    func address(_ documentID: String, _ kind: RecordKind, _ index: Int = 0, documentTag: String) -> RecordAddress {
        RecordAddress(
            documentID: documentID, kind: kind, index: index,
            key: RecordKey(owner: owner, document: documentTag, kind: kindTag(kind), index: index))
    }

    /// The row key of this user's record.
    func key(_ documentID: String, _ kind: RecordKind, _ index: Int = 0) throws(SessionError) -> RecordKey {
        try address(documentID, kind, index).key
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// One record of one user as `SecureStore` knows it: the document id, kind and position in clear
/// (for the record's own checks and for messages) and the row key the backend sees.
struct RecordAddress: Hashable, Sendable, CustomStringConvertible {
    let documentID: String
    let kind: RecordKind
    let index: Int
    let key: RecordKey

    /// "document/kind/index", for messages.
    var description: String {
        "\(documentID.isEmpty ? "(user)" : "document \"\(documentID)\"") \(kind.rawValue) #\(index)"
    }
}
