/// A document in progress as stored: the bytes first opened, the incremental updates appended to
/// them since, and the session's state.
public struct StoredDocument: Sendable {
    /// The caller's identifier of the document.
    public var documentID: String
    /// The document's bytes as first opened.
    public var original: [UInt8]
    /// The incremental updates (ISO 32000-2 §7.5.6), oldest first.
    public var revisions: [[UInt8]]
    /// The session's state (opaque bytes).
    public var state: [UInt8]
    /// The version read: pass it to the next write so that it fails, rather than writes over,
    /// when another session wrote the document in between.
    public var version: StoreVersion?

    /// A document value from its parts.
    public init(
        documentID: String, original: [UInt8], revisions: [[UInt8]], state: [UInt8], version: StoreVersion? = nil
    ) {
        self.documentID = documentID
        self.original = original
        self.revisions = revisions
        self.state = state
        self.version = version
    }

    /// The current file: the original followed by every revision.
    public var bytes: [UInt8] { original + revisions.joined() }
}

/// Which write of a document in progress a session last read or made.
///
/// Every write of a document returns a new version, and a write given the version it starts from
/// fails with `.documentChanged` (nothing written) when another session, in this process or
/// another, wrote the document since: a session never appends a revision built on bytes that are
/// no longer the document's, nor writes its state over another's.
public struct StoreVersion: Hashable, Sendable {
    /// The sealed state record (sealed with a fresh nonce by every write, so no two writes match).
    let sealedState: [UInt8]
}

/// One saved handwritten signature of the user.
public struct SavedSignatureRecord: Sendable, Hashable {
    /// The signature's id in the store, increasing with age (oldest first).
    public var id: Int
    /// The signature as the session encoded it (opaque bytes).
    public var payload: [UInt8]

    /// A record from its id and payload.
    public init(id: Int, payload: [UInt8]) {
        self.id = id
        self.payload = payload
    }
}
