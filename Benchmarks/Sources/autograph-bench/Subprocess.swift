import Glibc

/// One line to standard output in a single `write`, for the workers' reports: lines are shorter
/// than `PIPE_BUF`, so the lines of concurrent tasks never mix.
func emitLine(_ line: String) {
    let text = line + "\n"
    text.withCString { pointer in
        var offset = 0
        let count = strlen(pointer)
        while offset < count {
            let written = write(1, pointer + offset, count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// A failure of the harness itself (a tool missing, a child that could not be started).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Where a child's standard output (or error) goes.
enum ChildStream {
    case discard
    case capture
    case inherit
}

/// One measured run of a child process.
struct ChildRun {
    /// The exit code, or minus the signal number when the child was killed; 127 when it could not run.
    var exitCode: Int32
    /// Wall time from fork to reaping, measured by `bench-rusage`.
    var seconds: Double
    /// The child's peak resident set size (`ru_maxrss` from `wait4`), in KiB.
    var peakRSSKiB: Int
    var timedOut: Bool
    /// The child's CPU time in user and in kernel mode (`ru_utime`, `ru_stime`).
    var userSeconds = 0.0
    var systemSeconds = 0.0
    /// The child's page faults (`ru_minflt`, `ru_majflt`: the major ones read from disk).
    var minorFaults = 0
    var majorFaults = 0
    /// Standard output (and error, when both are captured), when captured.
    var output: [UInt8]

    var outputText: String { String(decoding: output, as: UTF8.self) }
    var succeeded: Bool { exitCode == 0 && !timedOut }
}

/// Runs children through `bench-rusage`, which forks them from a ~1 MB process and reports their wall
/// time and peak RSS (see its `main.c` for why the bench does not fork them itself).
struct Launcher: Sendable {
    /// The path of the `bench-rusage` executable.
    var helper: String

    /// Runs `arguments` (the program is looked up on `PATH`) and waits for it.
    /// - Parameter timeout: seconds after which the child is killed (0: none).
    func run(
        _ arguments: [String], stdout: ChildStream = .discard, stderr: ChildStream = .discard, timeout: Int = 600
    ) throws(BenchError) -> ChildRun {
        precondition(!arguments.isEmpty)
        let result = try Launcher.pipe()
        var output: [Int32] = [-1, -1]
        if stdout == .capture || stderr == .capture {
            do {
                output = try Launcher.pipe()
            } catch {
                close(result[0])
                close(result[1])
                throw error
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, stream) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch stream {
            case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .capture: posix_spawn_file_actions_adddup2(&actions, output[1], descriptor)
            case .inherit: break
            }
        }
        // The write end is never 3 (the read end, opened first, takes the lowest free descriptor).
        posix_spawn_file_actions_adddup2(&actions, result[1], 3)

        let argv = [helper, "3", String(timeout)] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArguments.append(nil)
        defer { for argument in cArguments { free(argument) } }

        var pid: pid_t = 0
        let status = posix_spawn(&pid, helper, &actions, nil, cArguments, environ)
        close(result[1])
        if output[1] >= 0 { close(output[1]) }
        guard status == 0 else {
            close(result[0])
            if output[0] >= 0 { close(output[0]) }
            throw BenchError("cannot start \(helper): \(String(cString: strerror(status)))")
        }
        let captured = output[0] >= 0 ? Launcher.readAll(output[0]) : []
        let report = String(decoding: Launcher.readAll(result[0]), as: UTF8.self)
        var helperStatus: Int32 = 0
        while waitpid(pid, &helperStatus, 0) < 0, errno == EINTR {}

        let fields = report.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard fields.count == 8 else {
            throw BenchError(
                "bench-rusage gave no result for \(arguments.joined(separator: " ")) (status \(helperStatus))")
        }
        return ChildRun(
            exitCode: Int32(fields[0]), seconds: Double(fields[1]) / 1e9, peakRSSKiB: fields[2],
            timedOut: fields[3] != 0, userSeconds: Double(fields[4]) / 1e6, systemSeconds: Double(fields[5]) / 1e6,
            minorFaults: fields[6], majorFaults: fields[7], output: captured)
    }

    /// A pipe whose ends are closed on exec (the child gets copies through `dup2`).
    private static func pipe() throws(BenchError) -> [Int32] {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    /// Reads `descriptor` to its end and closes it.
    static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(descriptor)
        return bytes
    }

    /// True when `program` can be found (an absolute path that exists, or a name on `PATH`).
    static func isAvailable(_ program: String) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}
