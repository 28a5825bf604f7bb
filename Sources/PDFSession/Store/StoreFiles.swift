#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Preparing the store's file: its directories (mode 0700) and the file itself (mode 0600, which
/// SQLite gives its -wal and -shm files too), so other local users cannot read even ciphertext.
enum StoreFiles {
    /// Creates the directories above `path` and an empty file at `path` when missing.
    /// - Throws: `SessionError` `.storeUnavailable` naming the path and the system's reason.
    static func prepare(_ path: String) throws(SessionError) {
        guard path != ":memory:", !path.isEmpty else { return }
        var directory = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        for component in components.dropLast() {
            directory += "/" + component
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw failure(errno, "creating the directory \(directory)")
            }
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(errno, "creating \(path)") }
        close(descriptor)
    }

    /// Whether a file (or anything else) is at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    private static func failure(_ code: Int32, _ doing: String) -> SessionError {
        SessionError(.storeUnavailable, "store: \(doing) failed: \(String(cString: strerror(code)))")
    }
}
