import AutographCrypto
import Synchronization

/// The session's view: everything encrypted for one user with keys derived from the storage key.
///
/// Documents in progress (original bytes, incremental updates, state) and saved handwritten
/// signatures are sealed with AES-256-GCM under keys derived by HKDF-SHA-256 from the 64-byte
/// storage key, the store's salt and the user name (see `RecordCipher`); the storage key is never
/// written. The backend sees keyed hashes in place of the user name, the document ids and the
/// records' kinds; an id is sealed inside its records and checked when they are read, and the
/// ids a listing gives come from opening records. A store written before (record format 1, ids
/// and kinds in clear) is moved to this format for a user when that user opens it. Every mutating
/// call is one backend transaction, so a crash leaves the last committed
/// state. Calls on one instance are serialized; several instances and processes may share a store
/// file: a document write that passes the ``StoreVersion`` it starts from fails with
/// `.documentChanged` rather than write over another session's.
public final class SecureStore: Sendable {
    /// The plaintext of key-check records.
    static let checkText = Array("autograph store v1 key check".utf8)

    let backend: any DocumentStore
    let cipher: RecordCipher
    private let lock = Mutex<Void>(())

    /// Opens the store for `username`, creating its key checks on first use.
    ///
    /// The store is bound to the first storage key it sees (a store-wide check in its metadata);
    /// each user name gets its own records, invisible to other names. When the user has no key
    /// check of format 2 yet, their records of format 1, if any, are moved to format 2 first, in one
    /// transaction (`migrate(_:_:)`).
    /// - Parameters:
    ///   - username: The user who signs; only a keyed hash of it is stored.
    ///   - storageKey: Exactly 64 bytes (the WYSIWYS configuration's `storageKey`).
    ///   - backend: Where the encrypted records live.
    /// - Throws: `SessionError` `.invalidStorageKey` (not 64 bytes), `.wrongStorageKey` (the key,
    ///   or the key and user name pair, is not the one the store was written with),
    ///   `.storeUnavailable` (the backend failed), `.documentChanged` (other processes kept moving
    ///   the same records).
    public init(username: String, storageKey: [UInt8], backend: any DocumentStore) throws(SessionError) {
        guard storageKey.count == 64 else {
            throw SessionError(
                .invalidStorageKey, "the storage key has \(storageKey.count) bytes; it must have exactly 64")
        }
        let freshSalt: [UInt8]
        do {
            freshSalt = try SecureRandom.bytes(32)
        } catch {
            throw SessionError(.storeUnavailable, "store: no random bytes for the salt", crypto: error)
        }
        let salt = try backend.metadata("salt", insertingIfAbsent: freshSalt)
        guard salt.count == 32 else {
            throw SessionError(.tamperedRecord, "the store's salt has \(salt.count) bytes instead of 32")
        }
        // The store-wide check: the owner tag depends on the key, so without it a wrong key would
        // look like a new user with an empty store. It names nothing and keeps format 1.
        let storeCheck = try RecordCipher.storeCheck(storageKey: storageKey, salt: salt)
        let storeCheckKey = RecordCipher.storeCheckKey
        let sealedStoreCheck = try backend.metadata(
            "key check", insertingIfAbsent: storeCheck.sealLegacy(Self.checkText, for: storeCheckKey))
        guard try storeCheck.checkLegacy(sealedStoreCheck, at: storeCheckKey, is: Self.checkText) else {
            throw SessionError(.wrongStorageKey, "this store was created with another storage key")
        }
        let cipher = try RecordCipher(storageKey: storageKey, salt: salt, username: username)
        let userCheck = try cipher.address("", .check)
        if let sealed = try backend.read(userCheck.key) {
            guard try cipher.check(sealed, for: userCheck, is: Self.checkText) else {
                throw SessionError(
                    .wrongStorageKey,
                    "the user's key check does not open: the storage key or the user name differs from the "
                        + "ones the store was written with")
            }
        } else {
            // A user without a key check of format 2 is new, or opens the store with this version
            // for the first time: their records of format 1, if any, move first.
            try Self.migrate(backend, cipher)
            try backend.commit([.put(userCheck.key, cipher.seal(Self.checkText, for: userCheck))])
        }
        self.backend = backend
        self.cipher = cipher
    }

    /// Opens (creating it and its directories when missing) the SQLite store at `path`.
    /// - Throws: as `init(username:storageKey:backend:)`; `.storeUnavailable` when the file or a
    ///   directory cannot be created or opened.
    public convenience init(username: String, storageKey: [UInt8], path: String) throws(SessionError) {
        guard storageKey.count == 64 else {
            throw SessionError(
                .invalidStorageKey, "the storage key has \(storageKey.count) bytes; it must have exactly 64")
        }
        try StoreFiles.prepare(path)
        try self.init(username: username, storageKey: storageKey, backend: SQLiteDocumentStore(path: path))
    }

    /// Runs `body` with this instance's other calls excluded.
    func locked<T: Sendable>(_ body: () throws(SessionError) -> T) throws(SessionError) -> T {
        try lock.withLock { _ throws(SessionError) -> T in try body() }
    }

    /// Reads and opens one record; nil when absent.
    /// - Throws: `.tamperedRecord` naming the record when it does not open, is not the one
    ///   `expectedTag` names or holds another document's id.
    func openRecord(_ address: RecordAddress, expectedTag: [UInt8]? = nil) throws(SessionError) -> [UInt8]? {
        guard let value = try backend.read(address.key) else { return nil }
        if let expectedTag, RecordCipher.tag(of: value) != expectedTag {
            throw SessionError(
                .tamperedRecord, "\(address) is not the one the document's state recorded (replaced or rolled back)")
        }
        return try open(value, for: address)
    }

    /// Opens a sealed record read from `address`.
    /// - Throws: `.tamperedRecord` naming the record when it does not open or holds another document's id.
    func open(_ sealed: [UInt8], for address: RecordAddress) throws(SessionError) -> [UInt8] {
        var value = sealed
        do {
            try cipher.open(&value, for: address)
        } catch {
            throw error.error(for: address)
        }
        return value
    }

    /// Checks a caller's document id: not empty (reserved for the user's own records), no NUL.
    static func validate(_ documentID: String) throws(SessionError) {
        guard !documentID.isEmpty, !documentID.utf8.contains(0) else {
            throw SessionError(.invalidArgument, "a document id must be non-empty and contain no NUL character")
        }
    }
}
