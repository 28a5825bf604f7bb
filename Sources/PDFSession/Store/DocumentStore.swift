/// Where encrypted records live: SQLite by default; a server deployment can bring another database.
///
/// A backend only moves opaque bytes: `SecureStore` encrypts every value and authenticates it
/// together with its key, so a backend never sees plaintext or user names and cannot swap records
/// unnoticed. Implementations must be safe to call from several threads.
public protocol DocumentStore: Sendable {
    /// The value of a record, nil when absent.
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    func read(_ key: RecordKey) throws(SessionError) -> [UInt8]?

    /// Keys of an owner's records, optionally only one document's / one kind's, sorted by
    /// (documentID, kind, index).
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    func keys(owner: String, documentID: String?, kind: RecordKind?) throws(SessionError) -> [RecordKey]

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

/// The address of one record: whose it is, which document, what it holds, its position.
public struct RecordKey: Hashable, Sendable, CustomStringConvertible {
    /// An opaque owner tag derived from the storage key and user name (never the user name itself).
    public var owner: String
    /// The document in progress; "" for the owner's own records (key check, saved signatures).
    public var documentID: String
    /// What the record holds.
    public var kind: RecordKind
    /// The position among records of the same kind (revision number, signature id); 0 otherwise.
    public var index: Int

    /// A key from its four parts.
    public init(owner: String, documentID: String, kind: RecordKind, index: Int = 0) {
        self.owner = owner
        self.documentID = documentID
        self.kind = kind
        self.index = index
    }

    /// "document/kind/index", for messages (the owner tag says nothing to a reader).
    public var description: String {
        "\(documentID.isEmpty ? "(user)" : "document \"\(documentID)\"") \(kind.rawValue) #\(index)"
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
    /// Removes every record of one document of one owner.
    case deleteDocument(owner: String, documentID: String)
    /// Changes nothing; the whole commit fails with `.documentChanged` unless the record holds
    /// exactly these bytes at this point of the transaction (nil: unless it is absent). This is how
    /// `SecureStore` keeps two sessions from writing over each other's revisions.
    case expect(RecordKey, [UInt8]?)
}
