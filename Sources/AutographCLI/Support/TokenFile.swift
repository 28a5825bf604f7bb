#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `autograph serve --print-token-file F`: the run's API token written to a file a script reads,
/// rather than taken from the server's output. The file is made for this run alone: created
/// exclusively (an existing file, or a symbolic link in its place, is refused rather than followed
/// or overwritten), with mode 0600, in a directory that exists and that no one but its owner may
/// write to (another user could otherwise replace the file with a token of their own); it is
/// removed when the server stops, since the token dies with the run.
enum TokenFile {
    static let spec = CommandSpec.Option(
        name: "print-token-file", valueName: "F",
        help: "also write the API token to F: a new file, mode 600, in a directory only its owner may write to")

    /// The directory that will hold `path`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Checks, before anything starts, that `path` can be made as the token file.
    /// - Throws: `UsageError` when the directory is missing, not a directory, not the user's own (or
    ///   root's) or writable by its group or others, or when `path` already exists.
    static func check(_ path: String) throws {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw UsageError("--print-token-file wants a file name") }
        let directory = directory(of: path)
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw UsageError("--print-token-file: the directory \(directory) does not exist")
        }
        let mode = Int(status.st_mode)
        guard mode & 0o170000 == 0o040000 else {
            throw UsageError("--print-token-file: \(directory) is not a directory")
        }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw UsageError("--print-token-file: the directory \(directory) belongs to another user")
        }
        guard mode & 0o022 == 0 else {
            throw UsageError(
                "--print-token-file: others may write to the directory \(directory) (mode "
                    + String(mode & 0o7777, radix: 8) + "); choose one only its owner may write to")
        }
        var existing = stat()
        guard lstat(path, &existing) != 0 else {
            throw UsageError("--print-token-file: \(path) already exists (it is made anew for each run)")
        }
    }

    /// Writes `token` and a line break to a new file at `path`, mode 0600.
    /// - Throws: `UsageError` when the file exists by now or cannot be made or written.
    static func write(_ token: String, to path: String) throws {
        try check(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw UsageError("--print-token-file: cannot create \(path): " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        // The mode asked for is masked by the umask, which can only take bits away; fchmod says it exactly.
        fchmod(descriptor, 0o600)
        let bytes = Array((token + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw UsageError("--print-token-file: cannot write \(path): " + reason)
            }
            offset += written
        }
    }

    /// Removes the token file of a run that stops.
    static func remove(_ path: String) {
        unlink(path)
    }
}
