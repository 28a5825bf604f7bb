import CSQLite

/// One SQLite connection, owning its `sqlite3*` (closed in `deinit`). Not thread-safe by itself:
/// `SQLiteDocumentStore` uses it only under its mutex.
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens (creating when needed) the database at `path`; ":memory:" gives a private in-memory one.
    init(path: String) throws(SessionError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw SessionError(.storeUnavailable, "cannot open the store at \(path): \(message)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The connection's last error as a `.storeUnavailable` error, prefixed with what was being done.
    func error(_ doing: String) -> SessionError {
        SessionError(.storeUnavailable, "store: \(doing) failed: \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(SessionError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws(SessionError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("preparing \(sql)")
        }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` takes the write lock up front, so a writer
    /// never fails half way on a lock): committed when it returns, rolled back when it throws.
    func transaction<T>(immediate: Bool, _ body: () throws(SessionError) -> T) throws(SessionError) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        let result: T
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            // After a failed COMMIT SQLite may already have rolled back; ignore the second error.
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
        return result
    }
}

/// One prepared statement (finalized in `deinit`), with the binding and reading the store needs.
final class SQLiteStatement {
    let handle: OpaquePointer
    let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// SQLite copies the bound text (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds parameters 1, 2, … in order (after resetting the statement).
    func bind(_ values: [Value]) throws(SessionError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .text(let text):
                status = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), Self.transient)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), Self.transient)
                }
            case .integer(let integer): status = sqlite3_bind_int64(handle, index, Int64(integer))
            case .null: status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw connection.error("binding parameter \(index)") }
        }
    }

    /// A bound value.
    enum Value {
        case text(String)
        case blob([UInt8])
        case integer(Int)
        case null
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws(SessionError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(String(cString: sqlite3_sql(handle)))
        }
    }

    /// Steps to the end (for statements that return no rows).
    func run() throws(SessionError) {
        while try step() {}
    }

    func integer(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's bytes copied out (for small values such as metadata).
    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
