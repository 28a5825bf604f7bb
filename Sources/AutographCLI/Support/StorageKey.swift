#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI gets the 64-byte storage key of the session store: `--key-file` (64 raw bytes
/// or 128 hex digits) or `AUTOGRAPH_STORAGE_KEY` (128 hex digits). The key is only read.
enum StorageKey {
    static let environmentVariable = "AUTOGRAPH_STORAGE_KEY"

    /// The demo's key when none is given: public, so it protects nothing — the demo says so.
    static let publicDemoKey = Array("Autograph public demo storage key: it protects nothing whatever.".utf8)

    static func read(_ arguments: Arguments) throws -> [UInt8]? {
        if let path = arguments.value("key-file") {
            let bytes = try readFile(path)
            if bytes.count == 64 { return bytes }
            let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
            guard let decoded = hex(text) else {
                throw UsageError("\(path) holds neither 64 bytes nor 128 hex digits (\(bytes.count) bytes)")
            }
            return decoded
        }
        if let value = getenv(environmentVariable).map({ String(cString: $0) }), !value.isEmpty {
            guard let decoded = hex(value.trimmingWhitespace) else {
                throw UsageError("\(environmentVariable) must be 128 hex digits (64 bytes)")
            }
            return decoded
        }
        return nil
    }

    static func hex(_ text: String) -> [UInt8]? {
        text.utf8.count == 128 ? Hex.decode(text) : nil
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

/// Creates `path` and its missing parents.
func makeDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        prefix += component + "/"
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw UsageError("cannot create \(prefix): \(String(cString: strerror(errno)))")
        }
    }
}
