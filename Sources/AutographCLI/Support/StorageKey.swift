import PDFSession
import PDFSigning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI gets the 64-byte storage key of the session store: `--storage-key-file` (alias
/// `--key-file`; 64 raw bytes or 128 hex digits, in a file only its owner may read or write) or
/// `AUTOGRAPH_STORAGE_KEY` (128 hex digits). The key is only read.
enum StorageKey {
    static let environmentVariable = "AUTOGRAPH_STORAGE_KEY"

    /// The demo's key when none is given: public, so it protects nothing — the demo says so.
    static let publicDemoKey = Array("Autograph public demo storage key: it protects nothing whatever.".utf8)

    /// How to make a key file.
    static let generation = "openssl rand -hex 64 > store.key && chmod 600 store.key"

    /// `--storage-key-file` and its alias `--key-file`, for the commands that open a store.
    static let options: [CommandSpec.Option] = [
        .init(
            name: "storage-key-file", valueName: "KEY",
            help: "the store's 64-byte key, mode 600 (else $\(environmentVariable), 128 hex digits)"),
        .init(name: "key-file", valueName: "KEY", help: "the same as --storage-key-file"),
    ]

    /// The key given by `--storage-key-file` / `--key-file`, else by the environment; nil when none.
    /// - Throws: `UsageError` when both options are given, the file is unreadable, too open or
    ///   holds no key, or the environment's value is not 128 hex digits.
    static func read(_ arguments: Arguments) throws -> [UInt8]? {
        let files = arguments.values("storage-key-file") + arguments.values("key-file")
        guard files.count <= 1 else { throw UsageError("give --storage-key-file (or --key-file) once") }
        if let path = files.first { return try read(file: path) }
        if let value = getenv(environmentVariable).map({ String(cString: $0) }), !value.isEmpty {
            guard let decoded = hex(value.trimmingWhitespace) else {
                throw UsageError("\(environmentVariable) must be 128 hex digits (64 bytes)")
            }
            return decoded
        }
        return nil
    }

    /// The key in the file at `path`: 64 bytes, or 128 hex digits (whitespace around them ignored).
    /// - Throws: `UsageError` when the file's mode grants anything to group or others (as ssh
    ///   refuses a private key), when it cannot be read, or holds no key.
    static func read(file path: String) throws -> [UInt8] {
        try checkPermissions(path)
        let bytes = try readFile(path)
        if bytes.count == 64 { return bytes }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        guard let decoded = hex(text) else {
            throw UsageError("\(path) holds neither 64 bytes nor 128 hex digits (\(bytes.count) bytes)")
        }
        return decoded
    }

    /// Refuses a key file that group or others may read, write or execute.
    static func checkPermissions(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let mode = Int(status.st_mode) & 0o7777
        guard mode & 0o077 == 0 else {
            var octal = String(mode, radix: 8)
            while octal.count < 4 { octal = "0" + octal }
            throw UsageError("permissions \(octal) for \(path) are too open; chmod 600 \(path)")
        }
    }

    /// What a command says when it falls back to the public key, on the store at `storePath` of `user`.
    static func publicKeyWarning(command: String, storePath: String, user: String) -> String {
        """
        \(command): no storage key given: the store uses a public key that protects nothing.
          To protect it, make a key: \(generation)
          and give it with --storage-key-file store.key (or $\(environmentVariable), 128 hex digits).
          A store made with the public key moves to the new key with:
          autograph session rekey --store \(storePath) --user \(user) --from-public-key --new-storage-key-file store.key
        """
    }

    /// `error` with a hint when it says the key is wrong: a key given where the public one was used,
    /// or the reverse.
    static func explained(_ error: SessionError, keyGiven: Bool, storePath: String, user: String) -> any Error {
        guard error.code == .wrongStorageKey else { return error }
        let hint =
            keyGiven
            ? "if the store was made without a key (the public demo key), move it to this key with: autograph "
                + "session rekey --store \(storePath) --user \(user) --from-public-key --new-storage-key-file KEY"
            : "give the store's key with --storage-key-file KEY or $\(environmentVariable)"
        return SessionError(error.code, error.message + "; " + hint, signoCode: error.signoCode)
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
