/// Where encrypted records live: SQLite by default; a server deployment can bring another database.
///
/// A backend only moves opaque bytes under opaque keys: `SecureStore` encrypts every value and
/// authenticates it together with its key, and a key holds keyed hashes (``RecordKey``), never a
/// user name, a document id or what a record holds. So a backend sees no plaintext and cannot swap
/// records unnoticed, and everything a store must keep secret is kept by `SecureStore`, whatever the
/// backend. Implementations must be safe to call from several threads.
public protocol DocumentStore: Sendable {
    /// The value of a record, nil when absent.
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    func read(_ key: RecordKey) throws(SessionError) -> [UInt8]?

    /// Keys of an owner's records, optionally only one document's / one kind's (the tags of
    /// ``RecordKey``), sorted by (document, kind, index).
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    func keys(owner: String, document: String?, kind: String?) throws(SessionError) -> [RecordKey]

    /// Applies writes and deletions in one atomic transaction (all or nothing, durable when it returns).
    /// Changes apply in order: a `put` after a `deleteDocument` of the same document survives.
    /// An `expect` is checked inside the same transaction, so no other writer can come between
    /// the check and the writes (for SQLite: a write transaction, `BEGIN IMMEDIATE`).
    /// - Throws: `SessionError` `.documentChanged` when an `expect` does not hold,
    ///   `.storeUnavailable`; in both cases nothing was changed.
    func commit(_ changes: [RecordChange]) throws(SessionError)

    /// The store-wide plain value named `name` (salt, key check), inserting `initial` first when
    /// there is none, atomically: concurrent callers all get the value that won.
    /// - Throws: `SessionError` `.storeUnavailable`.
    func metadata(_ name: String, insertingIfAbsent initial: [UInt8]) throws(SessionError) -> [UInt8]

    /// The owner tags that have records, sorted (moving a store to another key must leave none behind).
    /// - Throws: `SessionError` `.storeUnavailable`; the default implementation always throws it.
    func owners() throws(SessionError) -> [String]

    /// `commit(_:)` that also replaces store-wide plain values (see `metadata(_:insertingIfAbsent:)`)
    /// in the same transaction: how a store moves to another storage key, all or nothing.
    /// - Throws: as `commit(_:)`; the default implementation throws `.storeUnavailable` when
    ///   `metadata` is not empty, writing nothing.
    func commit(_ changes: [RecordChange], replacingMetadata metadata: [String: [UInt8]]) throws(SessionError)
}

extension DocumentStore {
    /// A backend that cannot list its owners cannot be moved to another key.
    public func owners() throws(SessionError) -> [String] {
        throw SessionError(.storeUnavailable, "this store's backend cannot list its owners")
    }

    /// A backend that cannot replace metadata in a transaction commits record changes only.
    public func commit(
        _ changes: [RecordChange], replacingMetadata metadata: [String: [UInt8]]
    ) throws(SessionError) {
        guard metadata.isEmpty else {
            throw SessionError(.storeUnavailable, "this store's backend cannot replace its metadata")
        }
        try commit(changes)
    }
}

/// The address of one record as a backend stores it: four opaque parts that are equal for the
/// same record and say nothing else.
///
/// `SecureStore` makes them from what it knows in clear — the user name, the document id, the kind
/// and the position — with keys derived from the storage key: the owner tag by HKDF, the document
/// and kind tags by HMAC-SHA-256 (hex). A store written before record format 2 holds the document id
/// and the kind's name in clear in `document` and `kind` until its user opens it with this version,
/// which moves those records (`SecureStore` init).
public struct RecordKey: Hashable, Sendable, CustomStringConvertible {
    /// An opaque owner tag derived from the storage key and user name (never the user name itself).
    public var owner: String
    /// The document's tag, a keyed hash of its id; the owner's own records (key check, saved
    /// signatures, settings) have the tag of the empty id.
    public var document: String
    /// The kind's tag, a keyed hash of what the record holds (``RecordKind``).
    public var kind: String
    /// The position among records of the same kind (revision number, signature id); 0 otherwise.
    public var index: Int

    /// A key from its four parts.
    public init(owner: String, document: String, kind: String, index: Int = 0) {
        self.owner = owner
        self.document = document
        self.kind = kind
        self.index = index
    }

    /// "record #index of document 1f2e3d4c…", for messages (the tags say nothing to a reader).
    public var description: String {
        "record #\(index) of document \(document.prefix(8))…"
    }
}

/// What a record holds.
public enum RecordKind: String, Sendable, Codable, CaseIterable {
    /// The document's bytes as first opened.
    case original
    /// One incremental update appended to the document (index = its position, from 0).
    case revision
    /// The session's state of the document, with the list of the revisions it expects.
    case state
    /// One saved handwritten signature (index = its id).
    case signature
    /// The owner's key check: a known plaintext proving the storage key and user name.
    case check
    /// A user setting (documentID "", index = the `UserSetting`).
    case setting
}

/// One step of a `DocumentStore.commit`.
public enum RecordChange: Sendable {
    /// Writes (or replaces) a record.
    case put(RecordKey, [UInt8])
    /// Removes a record (no error when absent).
    case delete(RecordKey)
    /// Removes every record of one document (its tag) of one owner.
    case deleteDocument(owner: String, document: String)
    /// Changes nothing; the whole commit fails with `.documentChanged` unless the record holds
    /// exactly these bytes at this point of the transaction (nil: unless it is absent). This is how
    /// `SecureStore` keeps two sessions from writing over each other's revisions.
    case expect(RecordKey, [UInt8]?)
}
