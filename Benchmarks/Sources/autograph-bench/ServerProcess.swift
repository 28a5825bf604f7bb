import Glibc

/// A server the bench starts for a step and stops by closing its standard input: certomancer's Animator
/// under its supervisor (``CertomancerServer``, the `ltv` step) and the CSC server (``CSCDummyServer``, the
/// `csc` step).
struct ServerProcess {
    /// The process, 0 once reaped.
    private var pid: pid_t
    /// The write end of its standard input, -1 once closed.
    private var input: Int32

    /// Starts `arguments` with a pipe as standard input (its write end kept, closed on exec) and standard
    /// output and error appended to `log` (made empty first).
    static func spawn(_ arguments: [String], log: String) throws(BenchError) -> ServerProcess {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, cArguments, environ)
        close(ends[0])
        guard status == 0 else {
            close(ends[1])
            throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return ServerProcess(pid: pid, input: ends[1])
    }

    /// Whether the process has exited (then it is reaped, and ``stop()`` only closes its input).
    mutating func reapIfExited() -> Bool {
        var status: Int32 = 0
        guard pid > 0, waitpid(pid, &status, WNOHANG) == pid else { return false }
        pid = 0
        return true
    }

    /// Stops the process: its standard input closed, it exits; killed when it has not after 10 s.
    mutating func stop() {
        if input >= 0 {
            close(input)
            input = -1
        }
        guard pid > 0 else { return }
        var status: Int32 = 0
        let end = monotonicSeconds() + 10
        while waitpid(pid, &status, WNOHANG) == 0 {
            if monotonicSeconds() > end {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(50_000)
        }
        pid = 0
    }
}

/// The size of the file at `path` (0 when missing): where a log's new lines start.
func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}
