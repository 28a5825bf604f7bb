import CSQLite
import Synchronization

/// The default `DocumentStore`: one SQLite file in WAL mode with `synchronous=FULL`, so a commit
/// is durable when it returns and a crash at any moment leaves the last committed state; with
/// `secure_delete`, so what a record held before it was deleted or replaced is overwritten with
/// zeros rather than left in free space.
///
/// Table `records` holds a row per record: `owner`, `document`, `kind` (the tags of ``RecordKey``),
/// `idx` and the sealed `value`; table `meta` the store-wide values; table `schema_version` the
/// schema (2: the row keys are tags; a store of schema 1, whose `document` and `kind` hold ids and
/// kinds' names, is marked 2 when first opened, and `SecureStore` moves its rows user by user).
///
/// Values are written and read through SQLite's incremental blob I/O, so a 100 MB record is never
/// copied by SQLite into a second buffer. Values are limited by SQLite's maximum length (1 GB by
/// default). Thread-safe: calls are serialized on one connection.
public final class SQLiteDocumentStore: DocumentStore {
    /// The schema this code writes (table `schema_version`); a newer file is refused, an older one
    /// marked with this version (so that the code of schema 1, which would write ids in clear, refuses it).
    static let schemaVersion = 2
    /// Blob reads and writes go in slices of this size.
    private static let sliceSize = 16 << 20

    private let connection: Mutex<SQLiteConnection>

    /// Opens or creates the database at `path` (":memory:" for a private in-memory store).
    /// - Throws: `SessionError` `.storeUnavailable` when the file cannot be opened, is not a
    ///   database, is locked for longer than the busy timeout, or has a newer schema.
    public init(path: String) throws(SessionError) {
        let connection = try SQLiteConnection(path: path)
        sqlite3_busy_timeout(connection.handle, 10_000)
        // journal_mode cannot change inside a transaction; ":memory:" answers "memory".
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA synchronous=FULL")
        try connection.execute("PRAGMA secure_delete=ON")
        let found = try connection.transaction(immediate: true) { () throws(SessionError) -> Int? in
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS records(
                    owner TEXT NOT NULL, document TEXT NOT NULL, kind TEXT NOT NULL, idx INTEGER NOT NULL,
                    value BLOB NOT NULL, UNIQUE(owner, document, kind, idx));
                """)
            let version = try Self.version(connection)
            if let version, version > Self.schemaVersion {
                throw SessionError(
                    .storeUnavailable,
                    "the store at \(path) has schema version \(version); this library reads up to \(Self.schemaVersion)"
                )
            }
            if version == nil { try Self.markVersion(connection) }
            return version
        }
        if let found, found < Self.schemaVersion { try Self.upgrade(connection) }
        self.connection = Mutex(connection)
    }

    /// The schema version the file records; nil for a new file.
    private static func version(_ connection: SQLiteConnection) throws(SessionError) -> Int? {
        let select = try connection.prepare("SELECT max(version) FROM schema_version")
        _ = try select.step()
        return sqlite3_column_type(select.handle, 0) == SQLITE_NULL ? nil : select.integer(0)
    }

    private static func markVersion(_ connection: SQLiteConnection) throws(SessionError) {
        try connection.execute(
            "DELETE FROM schema_version; INSERT INTO schema_version(version) VALUES(\(schemaVersion))")
    }

    /// A file of schema 1 holds ids and kinds' names in clear in its rows, and perhaps in free space
    /// (the code of schema 1 did not overwrite what it deleted): `VACUUM` rewrites the file without
    /// free space, then the version is marked 2. In that order, so that a crash between the two
    /// scrubs again at the next open; a `VACUUM` that cannot run now (another connection kept the
    /// database busy) leaves the version for the next open. The rows themselves move when their
    /// user opens the store (`SecureStore`), and `secure_delete` zeroes what they held.
    private static func upgrade(_ connection: SQLiteConnection) throws(SessionError) {
        guard sqlite3_exec(connection.handle, "VACUUM", nil, nil, nil) == SQLITE_OK else { return }
        try connection.transaction(immediate: true) { () throws(SessionError) in
            if let version = try version(connection), version < schemaVersion { try markVersion(connection) }
        }
    }

    /// The record's value, read through incremental blob I/O in a read transaction; nil when absent.
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    public func read(_ key: RecordKey) throws(SessionError) -> [UInt8]? {
        try connection.withLock { connection throws(SessionError) in
            try connection.transaction(immediate: false) { () throws(SessionError) -> [UInt8]? in
                try Self.read(connection, key)
            }
        }
    }

    /// A record's value inside the caller's transaction; nil when absent.
    private static func read(_ connection: SQLiteConnection, _ key: RecordKey) throws(SessionError) -> [UInt8]? {
        let select = try connection.prepare(
            "SELECT rowid, length(value) FROM records WHERE owner=?1 AND document=?2 AND kind=?3 AND idx=?4")
        try select.bind(values(key))
        guard try select.step() else { return nil }
        return try readBlob(connection, row: sqlite3_int64(select.integer(0)), count: select.integer(1))
    }

    /// The keys of `owner`'s records, only of `document` and of `kind` when given, sorted by document, kind and
    /// index.
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    public func keys(owner: String, document: String?, kind: String?) throws(SessionError) -> [RecordKey] {
        try connection.withLock { connection throws(SessionError) in
            let select = try connection.prepare(
                """
                SELECT document, kind, idx FROM records
                WHERE owner=?1 AND (?2 IS NULL OR document=?2) AND (?3 IS NULL OR kind=?3)
                ORDER BY document, kind, idx
                """)
            try select.bind([.text(owner), document.map { .text($0) } ?? .null, kind.map { .text($0) } ?? .null])
            var keys: [RecordKey] = []
            while try select.step() {
                keys.append(
                    RecordKey(owner: owner, document: select.text(0), kind: select.text(1), index: select.integer(2)))
            }
            return keys
        }
    }

    /// Applies `changes` in order in one `BEGIN IMMEDIATE` transaction, durable when it returns.
    /// - Throws: `SessionError` `.documentChanged` when an `expect` does not hold, `.storeUnavailable`;
    ///   in both cases nothing was changed.
    public func commit(_ changes: [RecordChange]) throws(SessionError) {
        try commit(changes, replacingMetadata: [:])
    }

    /// Replaces the store-wide values in `metadata` (table `meta`), then applies `changes`, in one `BEGIN IMMEDIATE`
    /// transaction: all or nothing.
    /// - Throws: as ``commit(_:)``.
    public func commit(
        _ changes: [RecordChange], replacingMetadata metadata: [String: [UInt8]]
    ) throws(SessionError) {
        try connection.withLock { connection throws(SessionError) in
            try connection.transaction(immediate: true) { () throws(SessionError) in
                for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
                    let replace = try connection.prepare("INSERT OR REPLACE INTO meta(name, value) VALUES(?1, ?2)")
                    try replace.bind([.text(name), .blob(value)])
                    try replace.run()
                }
                for change in changes {
                    switch change {
                    case .put(let key, let value):
                        try Self.write(connection, key: key, value: value)
                    case .delete(let key):
                        let delete = try connection.prepare(
                            "DELETE FROM records WHERE owner=?1 AND document=?2 AND kind=?3 AND idx=?4")
                        try delete.bind(Self.values(key))
                        try delete.run()
                    case .deleteDocument(let owner, let document):
                        let delete = try connection.prepare("DELETE FROM records WHERE owner=?1 AND document=?2")
                        try delete.bind([.text(owner), .text(document)])
                        try delete.run()
                    case .expect(let key, let expected):
                        guard try Self.read(connection, key) == expected else {
                            throw SessionError(.documentChanged, "\(key) is not the one this writer read")
                        }
                    }
                }
            }
        }
    }

    /// The owner tags that have records, sorted.
    /// - Throws: `SessionError` `.storeUnavailable` when the database cannot be read.
    public func owners() throws(SessionError) -> [String] {
        try connection.withLock { connection throws(SessionError) in
            let select = try connection.prepare("SELECT DISTINCT owner FROM records ORDER BY owner")
            var owners: [String] = []
            while try select.step() { owners.append(select.text(0)) }
            return owners
        }
    }

    /// The store-wide value `name` (table `meta`), inserting `initial` first when there is none, in one transaction:
    /// concurrent callers all get the value that won.
    /// - Throws: `SessionError` `.storeUnavailable`.
    public func metadata(_ name: String, insertingIfAbsent initial: [UInt8]) throws(SessionError) -> [UInt8] {
        try connection.withLock { connection throws(SessionError) in
            try connection.transaction(immediate: true) { () throws(SessionError) -> [UInt8] in
                let insert = try connection.prepare("INSERT OR IGNORE INTO meta(name, value) VALUES(?1, ?2)")
                try insert.bind([.text(name), .blob(initial)])
                try insert.run()
                let select = try connection.prepare("SELECT value FROM meta WHERE name=?1")
                try select.bind([.text(name)])
                guard try select.step() else { throw connection.error("reading meta \(name)") }
                return select.bytes(0)
            }
        }
    }

    private static func values(_ key: RecordKey) -> [SQLiteStatement.Value] {
        [.text(key.owner), .text(key.document), .text(key.kind), .integer(key.index)]
    }

    /// Inserts or replaces the row with a zero blob of the right size, then fills it in slices.
    private static func write(_ connection: SQLiteConnection, key: RecordKey, value: [UInt8]) throws(SessionError) {
        let insert = try connection.prepare(
            "INSERT OR REPLACE INTO records(owner, document, kind, idx, value) VALUES(?1, ?2, ?3, ?4, zeroblob(?5))")
        try insert.bind(values(key) + [.integer(value.count)])
        try insert.run()
        guard !value.isEmpty else { return }
        let row = sqlite3_last_insert_rowid(connection.handle)
        var blob: OpaquePointer?
        guard sqlite3_blob_open(connection.handle, "main", "records", "value", row, 1, &blob) == SQLITE_OK else {
            sqlite3_blob_close(blob)
            throw connection.error("opening \(key) for writing")
        }
        defer { sqlite3_blob_close(blob) }
        let status = value.withUnsafeBytes { bytes -> Int32 in
            var offset = 0
            while offset < bytes.count {
                let count = min(sliceSize, bytes.count - offset)
                let status = sqlite3_blob_write(blob, bytes.baseAddress! + offset, Int32(count), Int32(offset))
                guard status == SQLITE_OK else { return status }
                offset += count
            }
            return SQLITE_OK
        }
        guard status == SQLITE_OK else { throw connection.error("writing \(key)") }
    }

    /// Reads a whole blob straight into a new array (the only copy made).
    private static func readBlob(
        _ connection: SQLiteConnection, row: sqlite3_int64, count: Int
    ) throws(SessionError) -> [UInt8] {
        guard count > 0 else { return [] }
        var blob: OpaquePointer?
        guard sqlite3_blob_open(connection.handle, "main", "records", "value", row, 0, &blob) == SQLITE_OK else {
            sqlite3_blob_close(blob)
            throw connection.error("opening a record for reading")
        }
        defer { sqlite3_blob_close(blob) }
        var status = SQLITE_OK
        let value = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var offset = 0
            while offset < count {
                let slice = min(sliceSize, count - offset)
                status = sqlite3_blob_read(blob, buffer.baseAddress! + offset, Int32(slice), Int32(offset))
                guard status == SQLITE_OK else { break }
                offset += slice
            }
            // On failure the bytes are zeroed so the array is fully initialized, then dropped.
            if status != SQLITE_OK { buffer.initialize(repeating: 0) }
            initialized = count
        }
        guard status == SQLITE_OK else { throw connection.error("reading a record") }
        return value
    }
}
